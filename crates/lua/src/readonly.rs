//! Read-only tables: the `warren` module, `ctx.regions`, `ctx.params` and `coroutine`.
//!
//! A read-only table has a metatable of its own, `{ __newindex = refuse, __metatable = false }`,
//! marked by the patched Lua (`lua_warren_setreadonly`, `crates/lua-src/WARREN.md`) so that
//! every write, raw or not, to a key the table has or not, calls `__newindex`, which raises
//! `cannot modify read-only table 'NAME' (key K)` at the writer's line. Reads, `#`, `pairs`
//! and `ipairs` are a plain table's.
//!
//! The functions here are plain C functions on the Lua stack. `freeze` copies: it makes the
//! objects the Lua walk it replaced made, in the same order (each copy, its tables, then its
//! metatable and its `__newindex` closure), and fills each copy key by key in `next` order, as
//! that walk did. `ctx.regions`, built by the host for each state, is sealed where it was built
//! instead (`seal_top`): every state pays it when it loads, and copying its few hundred tables
//! cost 8% of a small `warren run`'s instructions.

use crate::ffi::lua_warren_setreadonly;
use mlua::ffi;
use std::ffi::c_int;

/// How deep [`freeze`] follows nested tables: far past any region file or module, and short
/// of the C stack (a table that contains itself would otherwise recurse until it ran out).
const MAX_DEPTH: c_int = 200;

/// `host.freeze(value, name)`: a read-only copy of `value`, every table in it copied and made
/// read-only too and named by its path (`ctx.regions.corridor.1`); any other value as it is.
///
/// # Safety
/// A C function for warren's patched Lua, called by Lua with its arguments on `l`'s stack.
pub unsafe extern "C-unwind" fn freeze(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with its arguments on `l`; errors (memory, depth) are raised from
    // frames that hold nothing to drop.
    unsafe {
        ffi::lua_settop(l, 2);
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
            ffi::lua_settop(l, 1);
            return 1;
        }
        ffi::luaL_checklstring(l, 2, std::ptr::null_mut());
        ffi::lua_insert(l, 1);
        freeze_top(l, 0);
    }
    1
}

/// Replaces the table on top of the stack by its frozen copy; its name is just below it.
///
/// # Safety
/// `l` is a live state with a string then a table on top of its stack.
unsafe fn freeze_top(l: *mut ffi::lua_State, depth: c_int) {
    // SAFETY: every index below is one this function pushed, on a stack checked for room.
    unsafe {
        enter(l, depth);
        let source = ffi::lua_gettop(l);
        let name = source - 1;
        ffi::lua_createtable(l, 0, 0);
        let copy = source + 1;
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, source) != 0 {
            // name source copy key value
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                name_child(l, name);
                freeze_top(l, depth + 1);
                ffi::lua_remove(l, -2);
            }
            ffi::lua_pushvalue(l, -2);
            ffi::lua_insert(l, -2);
            ffi::lua_rawset(l, copy);
        }
        seal_as(l, copy, name);
        ffi::lua_replace(l, source);
    }
}

/// Makes the table on top of the stack read-only in place, and every table in it, each named by
/// its path as [`freeze_top`] names them; its name is just below it. For tables the host has
/// just built and nothing else holds (`ctx.regions`): they need no copy. Returns how many
/// tables it sealed.
///
/// The objects it makes are [`freeze_top`]'s but the copies, in the same order: a caller that
/// skips one id per table sealed numbers every later object as a frozen copy would have.
///
/// # Safety
/// `l` is a live state with a string then a table on top of its stack.
pub(crate) unsafe fn seal_top(l: *mut ffi::lua_State, depth: c_int) -> u64 {
    // SAFETY: every index below is one this function pushed, on a stack checked for room.
    unsafe {
        enter(l, depth);
        let table = ffi::lua_gettop(l);
        let name = table - 1;
        let mut sealed = 1;
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, table) != 0 {
            // name table key value
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                name_child(l, name);
                sealed += seal_top(l, depth + 1);
                ffi::lua_pop(l, 1);
            }
            ffi::lua_pop(l, 1);
        }
        seal_as(l, table, name);
        sealed
    }
}

/// Refuses tables nested deeper than [`MAX_DEPTH`], and makes room on the stack for walking
/// one table.
///
/// # Safety
/// `l` is a live state.
unsafe fn enter(l: *mut ffi::lua_State, depth: c_int) {
    // SAFETY: the caller's state; the error is raised from a frame that holds nothing to drop.
    unsafe {
        if depth > MAX_DEPTH {
            ffi::luaL_error(l, c"freeze: tables nested too deep".as_ptr());
        }
        ffi::luaL_checkstack(l, 8, c"freezing a table".as_ptr());
    }
}

/// With a key and a table value on top of the stack, puts the value's name beneath it: the
/// name at `name` (its parent's), a dot and the key (`ctx.regions.corridor.1`).
///
/// # Safety
/// `l` is a live state with a key and a value on top, room for three more slots, and a string
/// at `name`.
unsafe fn name_child(l: *mut ffi::lua_State, name: c_int) {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::lua_pushvalue(l, name);
        ffi::lua_pushstring(l, c".".as_ptr());
        ffi::luaL_tolstring(l, -4, std::ptr::null_mut());
        ffi::lua_concat(l, 3);
        ffi::lua_insert(l, -2);
    }
}

/// `host.readonly(t, name)`: makes the table `t` itself read-only under `name`, and returns it.
///
/// # Safety
/// A C function for warren's patched Lua, called by Lua with its arguments on `l`'s stack.
pub unsafe extern "C-unwind" fn readonly(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with its arguments on `l`; errors are raised from this frame,
    // which holds nothing to drop.
    unsafe {
        ffi::luaL_checktype(l, 1, ffi::LUA_TTABLE);
        ffi::luaL_checklstring(l, 2, std::ptr::null_mut());
        ffi::lua_settop(l, 2);
        seal_as(l, 1, 2);
        ffi::lua_settop(l, 1);
    }
    1
}

/// Gives the table at `table` the read-only metatable for the name at `name`, and marks it.
///
/// # Safety
/// `l` is live; `table` and `name` are absolute indices of a table and a string.
unsafe fn seal_as(l: *mut ffi::lua_State, table: c_int, name: c_int) {
    // SAFETY: the caller's indices; two slots pushed, on a stack its caller checked.
    unsafe {
        ffi::lua_createtable(l, 0, 2);
        ffi::lua_pushvalue(l, name);
        ffi::lua_pushcclosure(l, refuse, 1);
        ffi::lua_setfield(l, -2, c"__newindex".as_ptr());
        ffi::lua_pushboolean(l, 0);
        ffi::lua_setfield(l, -2, c"__metatable".as_ptr());
        ffi::lua_setmetatable(l, table);
        lua_warren_setreadonly(l, table, 1);
    }
}

/// A read-only table's `__newindex(t, key)`: raises the error at the line that wrote.
unsafe extern "C-unwind" fn refuse(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with the table and key on `l` and the name as upvalue 1; the
    // error is raised from this frame, which holds nothing to drop.
    unsafe {
        ffi::luaL_checkstack(l, 6, std::ptr::null());
        ffi::luaL_where(l, 1);
        ffi::lua_pushstring(l, c"cannot modify read-only table '".as_ptr());
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        ffi::lua_pushstring(l, c"' (key ".as_ptr());
        ffi::luaL_tolstring(l, 2, std::ptr::null_mut());
        ffi::lua_pushstring(l, c")".as_ptr());
        ffi::lua_concat(l, 6);
        ffi::lua_error(l)
    }
}
