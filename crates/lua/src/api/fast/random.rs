//! `math.random` as a fast call: while a generation runs, it draws from `ctx.rng` straight from
//! the stack; outside a run, and for every call it does not answer, the declared binding
//! ([`crate::api::rng::math_random`]) does.

use super::{answer, declared, int_arg, push_closure, Answer, FastMethod, FAST_ID_BASE};
use crate::api::shared::SharedCell;
use crate::state::running_rng_cell;
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua};
use std::ffi::c_int;
use warren_core::rng::Rng;

/// `math.random`'s fast path.
static RANDOM: FastMethod<Rng> = FastMethod {
    name: "random",
    body: random_body,
};

/// Where the closure is numbered: after the map's and the rngs'.
const RANDOM_ID: u64 = FAST_ID_BASE + 128;

/// The fast `math.random`, passing what it does not answer to `declared`.
pub fn random(lua: &Lua, declared: &Function) -> mlua::Result<Function> {
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
    // SAFETY: `random` made this closure with these upvalues; the cell is `ctx.rng`'s, which
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
unsafe fn random_body(l: *mut lua_State, cell: &SharedCell<Rng>) -> Option<Answer> {
    unsafe {
        match ffi::lua_gettop(l) {
            0 => cell.poke(|r| Answer::Num(r.float())),
            1 => match int_arg(l, 1)? {
                0 => cell.poke(|r| Answer::Int(r.next_u64() as i64)),
                m if m >= 1 => cell.poke(|r| Answer::Int(r.range(1, m))),
                _ => None,
            },
            2 => {
                let (lo, hi) = (int_arg(l, 1)?, int_arg(l, 2)?);
                (lo <= hi).then(|| cell.poke(|r| Answer::Int(r.range(lo, hi))))?
            }
            _ => None,
        }
    }
}
