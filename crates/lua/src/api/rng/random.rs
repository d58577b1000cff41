//! `math.random`, drawing from the running generation's `ctx.rng`: its binding
//! (`math_random`) and its fast call, which draws straight from the stack while a
//! generation runs and passes every other call to the binding.

use crate::api::call::shown;
use crate::api::decl::{opt, Decl, Owner, Ty};
use crate::api::fast::FAST_ID_BASE;
use crate::api::fast::{answer, declared, fast_method, push_closure, Answer, FastMethod};
use crate::api::shared::{Shared, SharedCell};
use crate::state::{fail, running_rng_cell, with_run};
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua, Table, Value, Variadic};
use std::ffi::c_int;
use warren_core::rng::Rng;

/// `math.random([m [, n]])`, Lua's own signature, which its fast reader is derived from: not a
/// declaration of warren's API (no list of declarations holds it, and its binding gives Lua's
/// messages).
pub(super) const MATH_RANDOM: Decl = Decl::function(
    Owner::Warren,
    "random",
    "Lua's math.random, drawing from ctx.rng.",
)
.args(&[opt("m", Ty::INT), opt("n", Ty::INT)])
.returns(&["number"]);

/// `math.random`'s fast path.
pub(super) static RANDOM: FastMethod<Rng> =
    fast_method!(MATH_RANDOM => random_body(Option<i64>, Option<i64>) on Rng);

/// Where the closure is numbered: after the map's and the rngs'.
const RANDOM_ID: u64 = FAST_ID_BASE + 128;

/// Sets `math.random` for a state in the prelude's `host` table (`host.random`): its binding
/// (`math_random`) behind its fast call.
pub fn install(lua: &Lua, host: &Table) -> mlua::Result<()> {
    let declared = lua.create_function(math_random)?;
    host.set("random", fast(lua, &declared)?)
}

/// The fast `math.random`, passing what it does not answer to `declared`.
fn fast(lua: &Lua, declared: &Function) -> mlua::Result<Function> {
    // SAFETY: `exec_raw` runs the closure protected with `declared` in slot 1 and room for
    // three more slots.
    unsafe {
        lua.exec_raw::<Function>(declared, |l| {
            ffi::lua_pushnil(l);
            ffi::lua_insert(l, 1);
            push_closure(l, &RANDOM, 0, random_call, RANDOM_ID);
        })
    }
}

/// `math.random`: the fast path while a generation runs, else the declared binding.
unsafe extern "C-unwind" fn random_call(l: *mut lua_State) -> c_int {
    // SAFETY: `fast` made this closure with these upvalues; the cell is `ctx.rng`'s, which
    // lives as long as the state.
    unsafe {
        if let Some(cell) = running_rng_cell(l) {
            if let Some(n) = answer(l, &*cell.cast::<SharedCell<Rng>>()) {
                return n;
            }
        }
        declared(l)
    }
}

/// `math.random()`, `math.random(m)` (`m >= 1`, or 0 for 64 random bits) and
/// `math.random(lo, hi)` (`lo <= hi`), as the declared binding draws them.
fn random_body(
    _: *mut lua_State,
    cell: &SharedCell<Rng>,
    args: (Option<i64>, Option<i64>),
) -> Option<Answer> {
    match args {
        (None, _) => cell.poke(|r| Answer::Num(r.float())),
        (Some(0), None) => cell.poke(|r| Answer::Int(r.next_u64() as i64)),
        (Some(m), None) if m >= 1 => cell.poke(|r| Answer::Int(r.range(1, m))),
        (Some(lo), Some(hi)) if lo <= hi => cell.poke(|r| Answer::Int(r.range(lo, hi))),
        _ => None,
    }
}

/// `math.random` with Lua's signature, drawing from the running generation's `ctx.rng`.
fn math_random(lua: &Lua, args: Variadic<Value>) -> mlua::Result<Value> {
    let ud = with_run(lua, |r| r.rng.clone())
        .ok_or_else(|| fail(lua, "math.random: no generation is running"))?;
    let mut rng = Shared::<Rng>::write_ud(&ud)?;
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
    crate::api::call::as_int(v).ok_or_else(|| {
        fail(
            lua,
            format!(
                "bad argument #{n} to 'random' (number has no integer representation, got {})",
                shown(v)
            ),
        )
    })
}
