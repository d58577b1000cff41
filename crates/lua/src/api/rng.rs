//! `ctx.rng` and `math.random`: the run's seeded generators.

use super::args::int;
use crate::{fail, with_run};
use mlua::{Lua, Table, UserData, UserDataMethods, Value, Variadic};
use warren_core::rng::Rng;

/// A random number generator as a Lua userdata.
pub struct LuaRng(pub Rng);

/// A weight read from a list entry; must be finite and ≥ 0.
fn entry_weight(lua: &Lua, v: &Value, key: &str, i: usize) -> mlua::Result<f64> {
    let w = match v {
        Value::Table(t) => t.get::<Value>(key)?,
        _ => Value::Nil,
    };
    let w = match w {
        Value::Integer(i) => i as f64,
        Value::Number(n) => n,
        other => {
            return Err(fail(
                lua,
                format!(
                    "rng:weighted: item {i} has no numeric '{key}' (got {})",
                    other.type_name()
                ),
            ))
        }
    };
    if !w.is_finite() || w < 0.0 {
        return Err(fail(
            lua,
            format!("rng:weighted: item {i} has {key} = {w}; weights must be finite and ≥ 0"),
        ));
    }
    Ok(w)
}

impl UserData for LuaRng {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut("int", |lua, r, (lo, hi): (Value, Value)| {
            let lo = int(lua, &lo, "rng:int", "lo")?;
            let hi = int(lua, &hi, "rng:int", "hi")?;
            if hi < lo {
                return Err(fail(lua, format!("rng:int: empty interval {lo}..={hi}")));
            }
            Ok(r.0.range(lo, hi))
        });
        methods.add_method_mut("below", |lua, r, n: Value| {
            let n = int(lua, &n, "rng:below", "n")?;
            if n < 1 {
                return Err(fail(lua, format!("rng:below: n = {n} must be ≥ 1")));
            }
            Ok(r.0.below(n as u64) as i64)
        });
        methods.add_method_mut("chance", |lua, r, pct: Value| {
            let p = int(lua, &pct, "rng:chance", "percent")?;
            Ok(r.0.percent(p))
        });
        methods.add_method_mut("float", |_, r, ()| Ok(r.0.float()));
        methods.add_method_mut("pick", |lua, r, list: Table| {
            let items = super::args::list(lua, &list, "rng:pick")?;
            if items.is_empty() {
                return Err(fail(lua, "rng:pick: the list is empty"));
            }
            let i = r.0.below(items.len() as u64) as usize;
            Ok((items[i].clone(), i + 1))
        });
        methods.add_method_mut(
            "weighted",
            |lua, r, (list, key): (Table, Option<String>)| {
                let key = key.unwrap_or_else(|| "weight".into());
                let items = super::args::list(lua, &list, "rng:weighted")?;
                let mut weights = Vec::with_capacity(items.len());
                for (i, v) in items.iter().enumerate() {
                    weights.push(entry_weight(lua, v, &key, i + 1)?);
                }
                match r.0.weighted_index(&weights) {
                    Some(i) => Ok((items[i].clone(), Some(i + 1))),
                    None => Ok((Value::Nil, None)),
                }
            },
        );
        methods.add_method_mut("shuffle", |lua, r, list: Table| {
            let mut items = super::args::list(lua, &list, "rng:shuffle")?;
            r.0.shuffle(&mut items);
            // `set`, not `raw_set`: a read-only list must refuse, not grow a shadow copy.
            for (i, v) in items.into_iter().enumerate() {
                list.set(i + 1, v)?;
            }
            Ok(list)
        });
        methods.add_method("stream", |_, r, name: String| Ok(LuaRng(r.0.stream(&name))));
        methods.add_method("seed", |_, r, ()| Ok(r.0.seed() as i64));
    }
}

/// `math.random` with Lua's signature, drawing from the running generation's `ctx.rng`.
pub fn math_random(lua: &Lua, args: Variadic<Value>) -> mlua::Result<Value> {
    let ud = with_run(lua, |r| r.rng.clone())
        .ok_or_else(|| fail(lua, "math.random: no generation is running"))?;
    let mut rng = ud.borrow_mut::<LuaRng>()?;
    let r = &mut rng.0;
    let range = |lo: i64, hi: i64, r: &mut Rng| -> mlua::Result<Value> {
        if hi < lo {
            return Err(fail(lua, "bad argument to 'random' (interval is empty)"));
        }
        Ok(Value::Integer(r.range(lo, hi)))
    };
    match args.len() {
        0 => Ok(Value::Number(r.float())),
        1 => {
            let m = int(lua, &args[0], "math.random", "m")?;
            if m == 0 {
                return Ok(Value::Integer(r.next_u64() as i64));
            }
            range(1, m, r)
        }
        2 => {
            let lo = int(lua, &args[0], "math.random", "m")?;
            let hi = int(lua, &args[1], "math.random", "n")?;
            range(lo, hi, r)
        }
        _ => Err(fail(lua, "wrong number of arguments to 'random'")),
    }
}
