//! Fast calls on rngs (`ctx.rng` and its streams): `int`, `below`, `chance`, `float` and
//! `stream`.

use super::draws;
use crate::api::fast::push_new_shared;
use crate::api::fast::{answer, declared, fast_method, install_closures, numbered_from};
use crate::api::fast::{Answer, FastMethod};
use crate::api::fast::{CELL, FAST_ID_BASE, RECEIVER};
use crate::api::shared::{Shared, SharedCell};
use crate::budget::refund_call;
use crate::ffi::lua_warren_ispristine;
use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, LightUserData, Lua, Value};
use std::ffi::c_int;
use warren_core::rng::Rng;

/// The rng methods with a fast path.
pub(super) static METHODS: [FastMethod<Rng>; 5] = [
    fast_method!(draws::RNG_INT => int(i64, i64) on Rng),
    fast_method!(draws::BELOW => below(i64) on Rng),
    fast_method!(draws::CHANCE => chance(i64) on Rng),
    fast_method!(draws::FLOAT => float() on Rng),
    fast_method!(draws::STREAM => stream(&str) on Rng),
];

/// Where the rng closures are numbered: after the map's.
const RNG_ID_BASE: u64 = FAST_ID_BASE + 64;

/// Where `tell_cell`'s objects are numbered: after the rng closures.
const TELL_ID_BASE: u64 = RNG_ID_BASE + 16;

/// Replaces the declared rng methods that have a fast path with fast closures, in the methods
/// table that every rng of the state shares (found through `ud`, `ctx.rng`), and makes `ud`
/// point at its cell now (the recipe's state is pristine after loading, and pointing later
/// would write to it). Other rngs point at their cells from their first fast call on.
pub fn install(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    crate::api::fast::keep_cell::<Rng>(lua, ud)?;
    crate::state::state(lua)
        .rng_metatable
        .set(crate::api::fast::metatable_of(lua, ud));
    let tell = numbered_from(lua, TELL_ID_BASE, || lua.create_function(tell_cell))?;
    let locate = |l| {
        // SAFETY: `l` runs protected with the userdata in slot 1 and the function in slot 2;
        // every type relied on is checked first.
        unsafe {
            let found = ffi::lua_getmetatable(l, 1) != 0
                && ffi::lua_getfield(l, 3, c"__index".as_ptr()) == ffi::LUA_TTABLE;
            // Stack: 1 the rng, 2 `tell_cell`, 3 the rngs' metatable, 4 their methods table.
            found.then_some((4, 4, 3, 2))
        }
    };
    install_closures(
        lua,
        (ud, tell),
        &METHODS,
        locate,
        (rng_call, RNG_ID_BASE),
        "the rngs' metatable has no methods table",
    )
}

/// The cell of an rng, as a light userdata (nil for anything else): what a fast closure asks
/// the first time it meets an rng that does not point at its cell yet.
fn tell_cell(_: &Lua, v: Value) -> mlua::Result<Value> {
    Ok(match v {
        Value::UserData(ud) => ud.borrow::<Shared<Rng>>().map_or(Value::Nil, |r| {
            Value::LightUserData(LightUserData(r.cell().cast_mut().cast()))
        }),
        _ => Value::Nil,
    })
}

/// A fast rng method: its fast path when the receiver is an rng, else the declared binding.
unsafe extern "C-unwind" fn rng_call(l: *mut lua_State) -> c_int {
    // SAFETY: `install` made this closure with these upvalues; an rng's cell lives as long as
    // the rng, which is argument 1, so alive.
    unsafe {
        if let Some(cell) = receiver_cell(l) {
            if let Some(n) = answer(l, &*cell) {
                return n;
            }
        }
        declared(l)
    }
}

/// The cell of argument 1 when it is an rng.
///
/// # Safety
/// `l` is running a fast rng closure.
unsafe fn receiver_cell(l: *mut lua_State) -> Option<*const SharedCell<Rng>> {
    unsafe {
        let receiver = ffi::lua_topointer(l, RECEIVER);
        if let Some(cell) = crate::api::fast::cell_at::<Rng>(l, 1, receiver) {
            return Some(cell);
        }
        // Not an rng, or one that does not point at its cell yet.
        if ffi::lua_getmetatable(l, 1) == 0 {
            return None;
        }
        let rng = ffi::lua_rawequal(l, -1, RECEIVER) != 0;
        ffi::lua_pop(l, 1);
        if rng {
            learn_cell(l)
        } else {
            None
        }
    }
}

/// Asks `tell_cell` for the cell of argument 1 (an rng) and makes the rng point at it, unless
/// it is pristine (made while loading: pointing would write to the loaded state). The call is
/// refunded, like the declared path's.
///
/// # Safety
/// `l` is running a fast rng closure and argument 1 is an rng.
unsafe fn learn_cell(l: *mut lua_State) -> Option<*const SharedCell<Rng>> {
    unsafe {
        if ffi::lua_checkstack(l, 3) == 0 {
            return None;
        }
        refund_call(l);
        ffi::lua_pushvalue(l, CELL);
        ffi::lua_pushvalue(l, 1);
        ffi::lua_call(l, 1, 1);
        if ffi::lua_type(l, -1) != ffi::LUA_TLIGHTUSERDATA {
            ffi::lua_pop(l, 1);
            return None;
        }
        let cell = ffi::lua_touserdata(l, -1).cast_const().cast();
        if lua_warren_ispristine(l, 1) == 0 {
            ffi::lua_setiuservalue(l, 1, 1);
        } else {
            ffi::lua_pop(l, 1);
        }
        Some(cell)
    }
}

/// `rng:int(lo, hi)` with `lo <= hi`.
fn int(_: *mut lua_State, cell: &SharedCell<Rng>, (lo, hi): (i64, i64)) -> Option<Answer> {
    if hi < lo {
        return None;
    }
    cell.poke(|r| Answer::Int(r.range(lo, hi)))
}

/// `rng:below(n)` (`n >= 1`, its declared range, checked by the reader).
fn below(_: *mut lua_State, cell: &SharedCell<Rng>, (n,): (i64,)) -> Option<Answer> {
    cell.poke(|r| Answer::Int(r.below(n as u64) as i64))
}

/// `rng:chance(percent)`.
fn chance(_: *mut lua_State, cell: &SharedCell<Rng>, (p,): (i64,)) -> Option<Answer> {
    cell.poke(|r| Answer::Bool(r.percent(p)))
}

/// `rng:float()`.
fn float(_: *mut lua_State, cell: &SharedCell<Rng>, (): ()) -> Option<Answer> {
    cell.poke(|r| Answer::Num(r.float()))
}

/// `rng:stream(name)` with a UTF-8 name: the stream made through mlua, as the binding makes it.
unsafe fn stream(l: *mut lua_State, cell: &SharedCell<Rng>, (name,): (&str,)) -> Option<Answer> {
    // SAFETY: `l` is running the fast closure.
    unsafe { push_new_shared(l, || cell.peek(|r| r.stream(name))) }
}
