//! `ctx`, what a recipe's `generate(map, ctx)` knows about the run: its fields, and the
//! functions `ctx.log`, `ctx.metric` and `ctx.phase`.

use super::call::{Call, Extra};
use super::decl::{arg, Decl, Owner::Ctx as C, Ty};
use super::map::LuaMap;
use crate::phases::PhaseClock;
use crate::state::charge_bytes;
use crate::state::with_run;
use mlua::{Function, Lua, Value, Variadic};
use std::cell::RefCell;
use std::rc::Rc;

/// Every declaration of `ctx`.
pub const DECLS: &[&Decl] = &[
    &RNG, &SEED, &DEPTH, &PARAMS, &REGIONS, &ABOVE, &LOG, &METRIC, &PHASE,
];

const RNG: Decl = Decl::field(
    C,
    "rng",
    &["warren.Rng"],
    "The run's seeded generator; `math.random` draws from it too.",
);
const SEED: Decl = Decl::field(C, "seed", &["integer"], "The level's seed.");
const DEPTH: Decl = Decl::field(C, "depth", &["integer"], "1-based depth of the level.");
const PARAMS: Decl = Decl::field(
    C,
    "params",
    &["table<string, integer|number|boolean|string>"],
    "Parameter values (read-only), as declared in the recipe's `params`.",
);
const REGIONS: Decl = Decl::field(
    C,
    "regions",
    &["warren.Regions"],
    "The region files' data (read-only).",
);
const ABOVE: Decl = Decl::field(
    C,
    "above",
    &["warren.Map?"],
    "The level above in a multi-level run (`--levels N`), else nil.",
);
const LOG: Decl = Decl::function(
    C,
    "log",
    "Prints to stderr as `[recipe] …` (like `print`), at most 1 MiB per run.",
)
.variadic();
const METRIC: Decl = Decl::function(
    C,
    "metric",
    "Records a statistic, exported in JSON `stats` and summarised by `warren batch`.",
)
.args(&[
    arg("name", Ty::Str),
    arg(
        "value",
        Ty::Num {
            min: f64::MIN,
            max: f64::MAX,
        },
    ),
]);
const PHASE: Decl = Decl::function(
    C,
    "phase",
    "Marks the end of a phase: the wall-clock time since the previous mark is added to phase `name` in `warren batch` statistics (never in maps or `run` output).",
)
.args(&[arg("name", Ty::Str)]);

/// The three functions of `ctx`, made once per state.
pub struct CtxFunctions {
    /// `ctx.log`.
    pub log: Function,
    /// `ctx.metric`.
    pub metric: Function,
    /// `ctx.phase`, marking phases on `clock`.
    pub phase: Function,
}

impl CtxFunctions {
    /// Makes the functions; `ctx.phase` marks phases on `clock`.
    pub fn new(lua: &Lua, clock: Rc<RefCell<PhaseClock>>) -> mlua::Result<CtxFunctions> {
        Ok(CtxFunctions {
            log: lua.create_function(log)?,
            metric: lua.create_function(metric)?,
            phase: lua.create_function(move |lua, (name, extra): (Value, Extra)| {
                let c = Call::new(lua, &PHASE, &extra)?;
                match name {
                    Value::String(s) => {
                        clock.borrow_mut().mark(&s.as_bytes());
                        Ok(())
                    }
                    other => Err(c.bad(0, &other)),
                }
            })?,
        })
    }
}

fn log(lua: &Lua, args: Variadic<Value>) -> mlua::Result<()> {
    super::log::print(lua, args)
}

/// `ctx.metric(name, value)`: records a statistic on the map being generated.
fn metric(lua: &Lua, (name, value, extra): (Value, Value, Extra)) -> mlua::Result<()> {
    let c = Call::new(lua, &METRIC, &extra)?;
    let name = c.str(0, &name)?;
    let value = c.num(1, &value)?;
    let map = with_run(lua, |r| r.map.clone()).ok_or_else(|| c.fail("no generation is running"))?;
    let mut map = map.borrow_mut::<LuaMap>()?;
    if !map.0.notes.stats.contains_key(&name) {
        charge_bytes(lua, super::cost::text(&name) + 8)?;
    }
    map.0.notes.stats.insert(name, value);
    Ok(())
}
