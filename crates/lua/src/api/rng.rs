//! `ctx.rng` and `math.random`: the run's seeded generators.

use super::call::{shown, Call};
use super::decl::{arg, opt_or, Decl, Default, Owner::Rng as R, Ty};
use super::shapes;
use crate::state::{fail, with_run};
use mlua::{
    AnyUserData, Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value, Variadic,
};
use warren_core::rng::{check_weights, Rng, WeightProblem};

/// A random number generator as a Lua userdata.
pub type LuaRng = super::shared::Shared<Rng>;

const RNG_INT: Decl = Decl::method(R, "int", "A uniform integer in lo..=hi.")
    .args(&[arg("lo", Ty::INT), arg("hi", Ty::INT)])
    .returns(&["integer"]);
const BELOW: Decl = Decl::method(
    R,
    "below",
    "A uniform integer in 0..n-1 (Incursion's random(n)).",
)
.args(&[arg("n", Ty::int(1, i64::MAX))])
.returns(&["integer"]);
const CHANCE: Decl = Decl::method(R, "chance", "True with the given percent chance.")
    .args(&[arg("percent", Ty::INT)])
    .returns(&["boolean"]);
const FLOAT: Decl = Decl::method(R, "float", "A uniform number in [0, 1).").returns(&["number"]);
const PICK: Decl = Decl::method(
    R,
    "pick",
    "A uniform random item of a non-empty list, and its index.",
)
.args(&[arg("list", Ty::List)])
.returns(&["any", "integer"]);
const WEIGHTED: Decl = Decl::method(
    R,
    "weighted",
    "An item of a list picked by its `weight` (or `key`) field, and its index; nil when every weight is 0.",
)
.args(&[arg("list", Ty::List), opt_or("key", Ty::Str, Default::Str("weight"))])
.returns(&["any", "integer?"]);
const SHUFFLE: Decl = Decl::method(R, "shuffle", "Shuffles a list in place and returns it.")
    .args(&[arg("list", Ty::List)])
    .returns(&["any[]"]);
const STREAM: Decl = Decl::method(
    R,
    "stream",
    "An independent generator derived from this one's seed and `name`: adding a phase does not reshuffle the others.",
)
.args(&[arg("name", Ty::Str)])
.returns(&["warren.Rng"]);
const SEED: Decl = Decl::method(R, "seed", "This generator's seed.").returns(&["integer"]);

methods! {
    /// The generator's methods.
    pub METHODS, register for LuaRng {
        RNG_INT => int,
        BELOW => below,
        CHANCE => chance,
        FLOAT => float,
        PICK => pick,
        WEIGHTED => weighted,
        SHUFFLE => shuffle,
        STREAM => stream,
        SEED => seed,
    }
}

impl UserData for super::shared::Shared<Rng> {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(rng)` shows (mlua would name the Rust type, `Shared<Rng>`).
        fields.add_meta_field(MetaMethod::Type, "LuaRng");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        register(methods);
    }
}

fn int(lua: &Lua, this: &LuaRng, (lo, hi): (Value, Value)) -> mlua::Result<i64> {
    let c = Call::gated(lua, &RNG_INT);
    let mut rng = c.write(this)?;
    let (lo, hi) = (c.int(0, &lo)?, c.int(1, &hi)?);
    if hi < lo {
        return Err(c.fail(format!("empty interval {lo}..={hi}")));
    }
    Ok(rng.range(lo, hi))
}

fn below(lua: &Lua, this: &LuaRng, n: Value) -> mlua::Result<i64> {
    let c = Call::gated(lua, &BELOW);
    let mut rng = c.write(this)?;
    let n = c.int(0, &n)?;
    Ok(rng.below(n as u64) as i64)
}

fn chance(lua: &Lua, this: &LuaRng, pct: Value) -> mlua::Result<bool> {
    let c = Call::gated(lua, &CHANCE);
    let mut rng = c.write(this)?;
    let p = c.int(0, &pct)?;
    Ok(rng.percent(p))
}

fn float(lua: &Lua, this: &LuaRng, (): ()) -> mlua::Result<f64> {
    let c = Call::gated(lua, &FLOAT);
    Ok(c.write(this)?.float())
}

fn pick(lua: &Lua, this: &LuaRng, list: Value) -> mlua::Result<(Value, usize)> {
    let c = Call::gated(lua, &PICK);
    let items = shapes::list(&c, &c.table(0, &list)?, "argument 1 (list)")?;
    if items.is_empty() {
        return Err(c.fail("the list is empty"));
    }
    let i = c.write(this)?.below(items.len() as u64) as usize;
    Ok((items.get(i)?, i + 1))
}

fn weighted(
    lua: &Lua,
    this: &LuaRng,
    (list, key): (Value, Value),
) -> mlua::Result<(Value, Option<usize>)> {
    let c = Call::gated(lua, &WEIGHTED);
    let items = shapes::list(&c, &c.table(0, &list)?, "argument 1 (list)")?;
    let key = c.str(1, &key)?;
    let mut weights = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        weights.push(entry_weight(&c, &v?, &key, i + 1)?);
    }
    if let Some(m) = weight_problem(&weights, |i| format!("item {}", i + 1)) {
        return Err(c.fail(m));
    }
    match c.write(this)?.weighted_index(&weights) {
        Some(i) => Ok((items.get(i)?, Some(i + 1))),
        None => Ok((Value::Nil, None)),
    }
}

/// A weight read from a list entry; must be finite and ≥ 0.
fn entry_weight(c: &Call, v: &Value, key: &str, i: usize) -> mlua::Result<f64> {
    let w = match v {
        Value::Table(t) => t.get::<Value>(key)?,
        _ => Value::Nil,
    };
    let w = match w {
        Value::Integer(i) => i as f64,
        Value::Number(n) => n,
        other => {
            return Err(c.fail(format!(
                "item {i} has no numeric '{key}' (got {})",
                shown(&other)
            )))
        }
    };
    if !w.is_finite() || w < 0.0 {
        return Err(c.fail(format!(
            "item {i} has {key} = {w}; weights must be finite and ≥ 0"
        )));
    }
    Ok(w)
}

fn shuffle(lua: &Lua, this: &LuaRng, list: Value) -> mlua::Result<Table> {
    let c = Call::gated(lua, &SHUFFLE);
    let t = c.table(0, &list)?;
    let items = shapes::list(&c, &t, "argument 1 (list)")?;
    // The permutation is drawn on indices (the same draws as shuffling the items), and the
    // shuffled items gathered in a table before any is written back: the list may be the very
    // table they are read from.
    let mut order: Vec<usize> = (0..items.len()).collect();
    c.write(this)?.shuffle(&mut order);
    let shuffled = lua.create_table_with_capacity(order.len(), 0)?;
    for (k, &from) in order.iter().enumerate() {
        shuffled.raw_set(k + 1, items.get(from)?)?;
    }
    // `set`, not `raw_set`: a read-only list must refuse, not grow a shadow copy.
    for k in 1..=order.len() {
        t.set(k, shuffled.raw_get::<Value>(k)?)?;
    }
    Ok(t)
}

fn stream(lua: &Lua, this: &LuaRng, name: Value) -> mlua::Result<AnyUserData> {
    let c = Call::gated(lua, &STREAM);
    let name = c.text(0, &name)?;
    let stream = c.read(this)?.stream(&name);
    // Made pointing at its cell, so the fast calls that take an rng (the phases' and its own)
    // find it without asking.
    super::fast::new_pointing(lua, stream)
}

fn seed(lua: &Lua, this: &LuaRng, (): ()) -> mlua::Result<i64> {
    let c = Call::gated(lua, &SEED);
    Ok(c.read(this)?.seed() as i64)
}

/// `math.random` with Lua's signature, drawing from the running generation's `ctx.rng`.
pub fn math_random(lua: &Lua, args: Variadic<Value>) -> mlua::Result<Value> {
    let ud = with_run(lua, |r| r.rng.clone())
        .ok_or_else(|| fail(lua, "math.random: no generation is running"))?;
    let mut rng = LuaRng::write_ud(&ud)?;
    let r = &mut rng;
    let range = |lo: i64, hi: i64, r: &mut Rng| -> mlua::Result<Value> {
        if hi < lo {
            return Err(fail(lua, "bad argument to 'random' (interval is empty)"));
        }
        Ok(Value::Integer(r.range(lo, hi)))
    };
    match args.len() {
        0 => Ok(Value::Number(r.float())),
        1 => {
            let m = math_int(lua, &args[0], 1)?;
            if m == 0 {
                return Ok(Value::Integer(r.next_u64() as i64));
            }
            range(1, m, r)
        }
        2 => {
            let lo = math_int(lua, &args[0], 1)?;
            let hi = math_int(lua, &args[1], 2)?;
            range(lo, hi, r)
        }
        _ => Err(fail(lua, "wrong number of arguments to 'random'")),
    }
}

/// Argument `n` of `math.random` as an integer, with Lua's own message otherwise.
fn math_int(lua: &Lua, v: &Value, n: usize) -> mlua::Result<i64> {
    super::call::as_int(v).ok_or_else(|| {
        fail(
            lua,
            format!(
                "bad argument #{n} to 'random' (number has no integer representation, got {})",
                shown(v)
            ),
        )
    })
}

/// The problem with a list of weights, naming the bad item with `item` (its label from its
/// 0-based index): a weight that is not finite or negative, or weights whose total is not finite.
pub fn weight_problem(weights: &[f64], item: impl Fn(usize) -> String) -> Option<String> {
    match check_weights(weights) {
        Ok(_) => None,
        Err(WeightProblem::Invalid(i)) => Some(format!(
            "{} has weight {}; weights must be finite and ≥ 0",
            item(i),
            weights[i]
        )),
        Err(WeightProblem::Overflow(i)) => Some(format!(
            "{} has weight {:e}, which takes the total past the largest number (about \
             1.8e308); weights must add up to a finite total",
            item(i),
            weights[i]
        )),
    }
}
