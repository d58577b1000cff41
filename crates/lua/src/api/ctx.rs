//! `ctx`, what a recipe's `generate(map, ctx)` knows about the run: its fields, and the
//! functions `ctx.log`, `ctx.metric` and `ctx.phase`.

use super::call::{Call, Extra};
use super::decl::{arg, Decl, Owner::Ctx as C, Ty};
use super::map::LuaMap;
use crate::ffi::lua_warren_hostsetint;
use crate::phases::PhaseClock;
use crate::sandbox::Sandbox;
use crate::state::charge_bytes;
use crate::state::with_run;
use mlua::{AnyUserData, Function, Lua, String as LuaString, Table, Value, Variadic};
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

/// The `ctx` tables of a state: made once, before the state is marked pristine, and refilled
/// by the host before every run, so entering a recipe builds no table. One has no `above` (a
/// run without a level above), the other always holds one while it is in use; each keeps the
/// same keys, inserted in the same order into a table of the same size as the constructor
/// `{ rng = …, seed = …, … }` did, so `pairs(ctx)` visits them in the same order in every run
/// (a key set to nil and back could move once the collector cleared it). A run that writes to
/// `ctx` has it put back at the run's end, as any other table the recipe's loading made.
pub(crate) struct CtxTables {
    plain: Table,
    with_above: Table,
    /// What each table (`plain`, `with_above`) holds now of the fields that seldom change, so a
    /// run writes only those that do. A table `ctx` holds cannot be collected, so an address
    /// seen here is still that table.
    held: [std::cell::Cell<Held>; 2],
    /// The names of the fields a run sets, as Lua strings (pushing a handle is cheaper than
    /// finding a C string's Lua string).
    keys: RunKeys,
    /// `plain` and the key `seed`, as `lua_topointer` gives them: a run without a level above
    /// whose only new field is `ctx.seed` (every run of a batch; a `--levels` run's levels below
    /// the first take the stack's way) writes it without the stack
    /// ([`lua_warren_hostsetint`]). The handles above keep them alive.
    seed_slot: SeedSlot,
}

/// Where [`lua_warren_hostsetint`] writes `ctx.seed`.
struct SeedSlot {
    /// The main thread of the state the table and key belong to (`Sandbox::raw_state`): the
    /// host's `Env` holds the state and this value together, and fills `ctx` only while both
    /// live.
    state: *mut mlua::ffi::lua_State,
    table: *const std::ffi::c_void,
    key: *const std::ffi::c_void,
}

/// `ctx.depth`, and the addresses of `ctx.regions` and `ctx.params`, as one `ctx` table holds
/// them.
#[derive(Clone, Copy, PartialEq)]
struct Held {
    depth: i64,
    regions: *const std::ffi::c_void,
    params: *const std::ffi::c_void,
}

/// The keys [`CtxTables::fill`] writes.
struct RunKeys {
    seed: LuaString,
    depth: LuaString,
    regions: LuaString,
    params: LuaString,
    above: LuaString,
}

/// The run's values of the `ctx` fields that change between runs.
pub(crate) struct RunFields<'a> {
    /// `ctx.seed`.
    pub seed: i64,
    /// `ctx.depth`.
    pub depth: i64,
    /// `ctx.regions`.
    pub regions: &'a Table,
    /// `ctx.params`.
    pub params: &'a Table,
    /// `ctx.above`, the level above (a map userdata) or none.
    pub above: Option<&'a AnyUserData>,
}

impl CtxTables {
    /// The two tables, holding `rng` and the three functions; the fields a run sets hold
    /// placeholders until then. Kept beside `lua` (the host's `Env`), and filled only with it.
    pub(crate) fn new(
        lua: &Sandbox,
        rng: &AnyUserData,
        functions: &CtxFunctions,
    ) -> mlua::Result<CtxTables> {
        let make = |above: bool| -> mlua::Result<Table> {
            // The size and order of the constructor the prelude used to build `ctx` with.
            let t = lua.create_table_with_capacity(0, 9)?;
            t.raw_set("rng", rng)?;
            t.raw_set("seed", 0)?;
            t.raw_set("depth", 0)?;
            t.raw_set("regions", false)?;
            t.raw_set("params", false)?;
            if above {
                t.raw_set("above", false)?;
            }
            t.raw_set("log", &functions.log)?;
            t.raw_set("metric", &functions.metric)?;
            t.raw_set("phase", &functions.phase)?;
            Ok(t)
        };
        let (plain, with_above) = (make(false)?, make(true)?);
        let seed = lua.create_string("seed")?;
        Ok(CtxTables {
            seed_slot: SeedSlot {
                state: lua.raw_state(),
                table: plain.to_pointer(),
                key: seed.to_pointer(),
            },
            plain,
            with_above,
            held: std::array::from_fn(|_| {
                std::cell::Cell::new(Held {
                    depth: 0,
                    regions: std::ptr::null(),
                    params: std::ptr::null(),
                })
            }),
            keys: RunKeys {
                seed,
                depth: lua.create_string("depth")?,
                regions: lua.create_string("regions")?,
                params: lua.create_string("params")?,
                above: lua.create_string("above")?,
            },
        })
    }

    /// Fills in the run's fields and returns the `ctx` to pass to `generate`. This is the
    /// host's bookkeeping: it leaves the state's dirty flag as it was. `lua` is the state
    /// [`Self::new`] made the tables in.
    pub(crate) fn fill(&self, lua: &Lua, run: &RunFields) -> mlua::Result<&Table> {
        let (ctx, held) = if run.above.is_some() {
            (&self.with_above, &self.held[1])
        } else {
            (&self.plain, &self.held[0])
        };
        let now = Held {
            depth: run.depth,
            regions: run.regions.to_pointer(),
            params: run.params.to_pointer(),
        };
        let was = held.get();
        if now == was && run.above.is_none() {
            let slot = &self.seed_slot;
            // SAFETY: the state `new` was given, which the host keeps beside this value and
            // fills it with (alive while `lua` is borrowed here); this value's handles keep the
            // table and the key alive; no Lua code runs.
            let written =
                unsafe { lua_warren_hostsetint(slot.state, slot.table, slot.key, run.seed) };
            // The reset puts `seed` back after a run that removed it (and takes away a
            // metatable a run gave `ctx`), so this writes; were it not, the stack's way below
            // would.
            if written != 0 {
                return Ok(ctx);
            }
        }
        let k = &self.keys;
        let fields = [
            Some((&k.seed, Field::Int(run.seed))),
            (now.depth != was.depth).then_some((&k.depth, Field::Int(run.depth))),
            (now.regions != was.regions).then_some((&k.regions, Field::Table(run.regions))),
            (now.params != was.params).then_some((&k.params, Field::Table(run.params))),
            run.above.map(|above| (&k.above, Field::UserData(above))),
        ];
        overwrite(lua, ctx, &fields)?;
        held.set(now);
        Ok(ctx)
    }

    /// Lets go of the level above once a run is over (its map can be large), leaving the state's
    /// dirty flag as it was.
    pub(crate) fn release(&self, lua: &Lua) -> mlua::Result<()> {
        overwrite(
            lua,
            &self.with_above,
            &[Some((&self.keys.above, Field::False))],
        )
    }
}

/// A value [`overwrite`] writes.
enum Field<'a> {
    Int(i64),
    False,
    Table(&'a Table),
    UserData(&'a AnyUserData),
}

/// Sets `table[key] = value` for each pair given, raw, leaving the state's dirty flag as it
/// was. Every key must already be in the table (as in the `ctx` tables: see `CtxTables::new`).
fn overwrite(lua: &Lua, table: &Table, fields: &[Option<(&LuaString, Field)>]) -> mlua::Result<()> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: room for three slots is checked and everything pushed is popped. Nothing here
        // can raise: every key is already in the table, so each raw write replaces a value in
        // place.
        unsafe {
            use mlua::ffi;
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(mlua::Error::StackError);
            }
            crate::state::keeping_clean(state, || {
                raw.push(table)?;
                for (key, value) in fields.iter().flatten() {
                    raw.push(*key)?;
                    match value {
                        Field::Int(n) => ffi::lua_pushinteger(state, *n),
                        Field::False => ffi::lua_pushboolean(state, 0),
                        Field::Table(t) => raw.push(*t)?,
                        Field::UserData(ud) => raw.push(*ud)?,
                    }
                    ffi::lua_rawset(state, -3);
                }
                ffi::lua_pop(state, 1);
                Ok(())
            })
        }
    })
}

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
    let mut map = LuaMap::write_ud(&map)?;
    if !map.notes.stats.contains_key(&name) {
        charge_bytes(lua, super::cost::text(&name) + 8)?;
    }
    map.notes.stats.insert(name, value);
    Ok(())
}
