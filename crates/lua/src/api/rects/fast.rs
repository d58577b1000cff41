//! Fast calls on rectangle lists: `rooms:sort(order)` and `#rooms`, which a rooms recipe makes
//! once a map each.

use super::sort::sort_rects;
use crate::api::decl::{Decl, Owner};
use crate::api::fast::args::Choice;
use crate::api::fast::{answer, cell_at, declared, install_closures, Answer, FastMethod};
use crate::api::fast::{fast_method, FAST_ID_BASE};
use crate::api::shared::SharedCell;
use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, Lua};
use std::ffi::c_int;
use warren_core::map::Rect;

/// The list methods with a fast path (in the methods table every list shares).
pub(super) static METHODS: [FastMethod<Vec<Rect>>; 1] =
    [fast_method!(super::sort::SORT => sort(Choice) on Vec<Rect>)];

/// `#rooms`, the length operator of lists: not a declared method (the API reference says it
/// in the lists' description), Lua's own metamethod, to which Lua passes the list twice.
pub(super) const LEN: Decl = Decl::method(Owner::Rects, "__len", "The number of rectangles.")
    .variadic()
    .returns(&["integer"]);

/// The list metamethods with a fast path (in the lists' metatable).
pub(super) static METAMETHODS: [FastMethod<Vec<Rect>>; 1] =
    [fast_method!(LEN => len() on Vec<Rect>)];

/// Where the list closures are numbered: after the rng closures and `tell_cell`, before
/// `math.random` (see `fast_calls.rs`).
const RECTS_ID_BASE: u64 = FAST_ID_BASE + 96;

/// Replaces `sort` in the lists' methods table and `__len` in their metatable (found through
/// `sample`, a list) with fast closures. Lists point at their cells from birth
/// (`crate::api::fast::new_pointing`); others take the declared bindings.
pub fn install(lua: &Lua, sample: &AnyUserData) -> mlua::Result<()> {
    let methods = |l| {
        // SAFETY: `l` runs protected with the list in slot 1; every type relied on is checked
        // first.
        unsafe {
            let found = ffi::lua_getmetatable(l, 1) != 0
                && ffi::lua_getfield(l, 2, c"__index".as_ptr()) == ffi::LUA_TFUNCTION
                && !ffi::lua_getupvalue(l, 3, 1).is_null()
                && ffi::lua_type(l, 4) == ffi::LUA_TTABLE;
            // Stack: 1 the list, 2 the lists' metatable, 3 its `__index` (see `api::index`),
            // 4 the methods table, its first upvalue.
            found.then_some((4, 4, 2, 0))
        }
    };
    install_closures(
        lua,
        sample,
        &METHODS,
        methods,
        (rects_call, RECTS_ID_BASE),
        "the lists' __index has no methods table",
    )?;
    let metatable = |l| {
        // SAFETY: as above.
        unsafe { (ffi::lua_getmetatable(l, 1) != 0).then_some((2, 2, 2, 0)) }
    };
    install_closures(
        lua,
        sample,
        &METAMETHODS,
        metatable,
        (rects_call, RECTS_ID_BASE + 8),
        "the lists have no metatable",
    )
}

/// A fast list method: its fast path when the receiver is a list that points at its cell, else
/// the declared binding.
unsafe extern "C-unwind" fn rects_call(l: *mut lua_State) -> c_int {
    // SAFETY: `install` made this closure; a list's cell lives as long as the list, which is
    // argument 1, so alive.
    unsafe {
        let metatable =
            crate::state::data_of(l).map_or(std::ptr::null(), |d| d.rects_metatable.get());
        if let Some(cell) = cell_at::<Vec<Rect>>(l, 1, metatable) {
            if let Some(n) = answer(l, cell) {
                return n;
            }
        }
        declared(l)
    }
}

/// `rooms:sort(order)`.
fn sort(
    _: *mut lua_State,
    cell: &SharedCell<Vec<Rect>>,
    (Choice(order),): (Choice,),
) -> Option<Answer> {
    cell.poke(|r| {
        sort_rects(r, order);
        Answer::Nothing
    })
}

/// `#rooms`.
fn len(_: *mut lua_State, cell: &SharedCell<Vec<Rect>>, (): ()) -> Option<Answer> {
    cell.peek(|r| Answer::Int(r.len() as i64))
}
