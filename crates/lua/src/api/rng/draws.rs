//! The methods of an rng: draws of integers, chances, floats, picks from lists, shuffles,
//! and named streams.

use crate::api::call::{shown, Call};
use crate::api::decl::{arg, opt_or, Decl, Default, Owner::Rng as R, Ty};
use crate::api::shapes;
use crate::api::shared::Shared;
use mlua::{AnyUserData, Lua, Table, Value};
use warren_core::rng::{check_weights, Rng, WeightProblem};

pub(super) const RNG_INT: Decl = Decl::method(R, "int", "A uniform integer in lo..=hi.")
    .args(&[arg("lo", Ty::INT), arg("hi", Ty::INT)])
    .returns(&["integer"]);
pub(super) const BELOW: Decl = Decl::method(
    R,
    "below",
    "A uniform integer in 0..n-1 (Incursion's random(n)).",
)
.args(&[arg("n", Ty::int(1, i64::MAX))])
.returns(&["integer"]);
pub(super) const CHANCE: Decl = Decl::method(R, "chance", "True with the given percent chance.")
    .args(&[arg("percent", Ty::INT)])
    .returns(&["boolean"]);
pub(super) const FLOAT: Decl =
    Decl::method(R, "float", "A uniform number in [0, 1).").returns(&["number"]);
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
pub(super) const STREAM: Decl = Decl::method(
    R,
    "stream",
    "An independent generator derived from this one's seed and `name`: adding a phase does not reshuffle the others.",
)
.args(&[arg("name", Ty::Str)])
.returns(&["warren.Rng"]);
const SEED: Decl = Decl::method(R, "seed", "This generator's seed.").returns(&["integer"]);

methods! {
    /// The generator's methods.
    pub METHODS, register for Shared<Rng> {
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

fn int(lua: &Lua, this: &Shared<Rng>, (lo, hi): (Value, Value)) -> mlua::Result<i64> {
    let c = Call::gated(lua, &RNG_INT);
    let mut rng = c.write(this)?;
    let (lo, hi) = (c.int(0, &lo)?, c.int(1, &hi)?);
    if hi < lo {
        return Err(c.fail(format!("empty interval {lo}..={hi}")));
    }
    Ok(rng.range(lo, hi))
}

fn below(lua: &Lua, this: &Shared<Rng>, n: Value) -> mlua::Result<i64> {
    let c = Call::gated(lua, &BELOW);
    let mut rng = c.write(this)?;
    let n = c.int(0, &n)?;
    Ok(rng.below(n as u64) as i64)
}

fn chance(lua: &Lua, this: &Shared<Rng>, pct: Value) -> mlua::Result<bool> {
    let c = Call::gated(lua, &CHANCE);
    let mut rng = c.write(this)?;
    let p = c.int(0, &pct)?;
    Ok(rng.percent(p))
}

fn float(lua: &Lua, this: &Shared<Rng>, (): ()) -> mlua::Result<f64> {
    let c = Call::gated(lua, &FLOAT);
    Ok(c.write(this)?.float())
}

fn pick(lua: &Lua, this: &Shared<Rng>, list: Value) -> mlua::Result<(Value, usize)> {
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
    this: &Shared<Rng>,
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
    if !warren_core::rng::valid_weight(w) {
        return Err(c.fail(format!(
            "item {i} has {key} = {w}; weights must be finite and ≥ 0"
        )));
    }
    Ok(w)
}

fn shuffle(lua: &Lua, this: &Shared<Rng>, list: Value) -> mlua::Result<Table> {
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

fn stream(lua: &Lua, this: &Shared<Rng>, name: Value) -> mlua::Result<AnyUserData> {
    let c = Call::gated(lua, &STREAM);
    let name = c.text(0, &name)?;
    let stream = c.read(this)?.stream(&name);
    // Made pointing at its cell, so the fast rng calls find it without asking.
    crate::api::fast::new_pointing(lua, stream)
}

fn seed(lua: &Lua, this: &Shared<Rng>, (): ()) -> mlua::Result<i64> {
    let c = Call::gated(lua, &SEED);
    Ok(c.read(this)?.seed() as i64)
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
