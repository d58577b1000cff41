//! Read-only tables: the `warren` module, `ctx.regions`, `ctx.params` and `coroutine`.
//!
//! A read-only table has a metatable `{ __newindex = refuse, __metatable = false }` (its own,
//! or one `ctx.regions`' tables share), marked by the patched Lua (`lua_warren_setreadonly`,
//! `crates/lua-src/WARREN.md`) so that every write, raw or not, to a key the table has or not,
//! calls `__newindex`, which raises `cannot modify read-only table 'NAME' (key K)` at the
//! writer's line. Reads, `#`, `pairs` and `ipairs` are a plain table's.
//!
//! The functions here are plain C functions on the Lua stack. `freeze` copies: it makes the
//! objects the Lua walk it replaced made, in the same order (each copy, its tables, then its
//! metatable and its `__newindex` closure), and fills each copy key by key in `next` order, as
//! that walk did. `ctx.regions`, built by the host for each state, is sealed as it is built
//! instead, its tables sharing one metatable (`push_shared_metatable`, `seal_shared`): every
//! state pays it when it loads, and copying its tables cost 8% of a small `warren run`'s
//! instructions, a metatable and a name for each another 10%.

use crate::ffi::lua_warren_setreadonly;
use mlua::{ffi, IntoLua, Lua, Table};
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

/// Pushes the metatable `ctx.regions`' tables share, with the name at `name`:
/// `{ __newindex = refuse_within(root, name, names), __metatable = false }`, its root set and
/// its tables made read-only by [`seal_shared`] once they are built (`stack_ser`: each table
/// gets it as it is made). A refused write names the table by its path
/// (`ctx.regions.corridor.1`, as [`freeze_top`] names copies), from names made at a run's
/// first refused write rather than for every table while loading (a metatable, a closure and
/// a name each, with a walk to give them, took a tenth of a small `warren run`'s
/// instructions).
///
/// # Safety
/// `l` is a live state with room for four slots and a string at `name`.
pub(crate) unsafe fn push_shared_metatable(l: *mut ffi::lua_State, name: c_int) {
    // SAFETY: the caller's index; four slots pushed at most.
    unsafe {
        ffi::lua_createtable(l, 0, 2);
        ffi::lua_pushnil(l);
        ffi::lua_pushvalue(l, name);
        ffi::lua_createtable(l, 0, 0);
        ffi::lua_pushcclosure(l, refuse_within, 3);
        ffi::lua_setfield(l, -2, c"__newindex".as_ptr());
        ffi::lua_pushboolean(l, 0);
        ffi::lua_setfield(l, -2, c"__metatable".as_ptr());
    }
}

/// Makes every table with the shared metatable at `metatable` read-only at once (the mark is
/// the metatable's), with the table at `root`, which has it, as the root their names are found
/// from.
///
/// # Safety
/// `l` is live with room for two slots; `metatable` is the index of a metatable
/// [`push_shared_metatable`] made and `root` of a table that has it.
pub(crate) unsafe fn seal_shared(l: *mut ffi::lua_State, metatable: c_int, root: c_int) {
    // SAFETY: the caller's indices; two slots pushed at most.
    unsafe {
        ffi::lua_getfield(l, metatable, c"__newindex".as_ptr());
        ffi::lua_pushvalue(l, root);
        ffi::lua_setupvalue(l, -2, 1);
        ffi::lua_pop(l, 1);
        lua_warren_setreadonly(l, root, 1);
    }
}

/// The `__newindex(t, key)` of the tables [`seal_shared`] sealed: raises the error at the line
/// that wrote, naming `t` by its path from the root (upvalue 1, named by upvalue 2). The first
/// refused write names every table at once, into a table by table (upvalue 3), so that each
/// one after costs a lookup: in a host's state it is an object made while loading, so a run's
/// names are put back (the table emptied) with everything else the run wrote.
unsafe extern "C-unwind" fn refuse_within(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with the table and key on `l` and the root, its name and the
    // names table as upvalues; the walk pushes only on a stack it checked; the error is
    // raised from this frame, which holds nothing to drop.
    unsafe {
        ffi::lua_settop(l, 2);
        ffi::luaL_checkstack(l, 8, std::ptr::null());
        let (root, names) = (ffi::lua_upvalueindex(1), ffi::lua_upvalueindex(3));
        let name = 3;
        // Pushes `t`'s name when it has one.
        let named = |l| {
            ffi::lua_pushvalue(l, 1);
            if ffi::lua_rawget(l, names) == ffi::LUA_TSTRING {
                return true;
            }
            ffi::lua_pop(l, 1);
            false
        };
        if !named(l) && ffi::lua_type(l, root) == ffi::LUA_TTABLE {
            ffi::lua_pushnil(l);
            if ffi::lua_next(l, names) == 0 {
                // No table named yet: every one now.
                ffi::lua_pushvalue(l, ffi::lua_upvalueindex(2));
                ffi::lua_pushvalue(l, root);
                name_every_table(l, names, 0);
                named(l);
            } else {
                ffi::lua_settop(l, 2);
            }
        }
        if ffi::lua_gettop(l) == 2 {
            // Not a table of the root's (or the root not yet set): the root's name.
            ffi::lua_pushvalue(l, ffi::lua_upvalueindex(2));
        }
        raise_refusal(l, name)
    }
}

/// With a name then a table on top of the stack, sets `names[table] = name` for that table and
/// every table in it, each named as [`name_child`] names paths (`ctx.regions.corridor.1`), and
/// pops the two.
///
/// # Safety
/// `l` is live with a string then a table on top; `names` is the index of a table without a
/// metatable (an upvalue's pseudo-index or an absolute index below the two).
unsafe fn name_every_table(l: *mut ffi::lua_State, names: c_int, depth: c_int) {
    // SAFETY: every index below is one this function pushed, on a stack checked for room.
    unsafe {
        let table = ffi::lua_gettop(l);
        let name = table - 1;
        ffi::lua_pushvalue(l, table);
        ffi::lua_pushvalue(l, name);
        ffi::lua_rawset(l, names);
        if depth < MAX_DEPTH && ffi::lua_checkstack(l, 6) != 0 {
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, table) != 0 {
                // name table key value
                if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                    name_child(l, name);
                    name_every_table(l, names, depth + 1);
                } else {
                    ffi::lua_pop(l, 1);
                }
            }
        }
        ffi::lua_settop(l, name - 1);
    }
}

/// Gives the table `t`, sealed as `ctx.regions` is ([`crate::stack_ser::frozen`]), a read-only
/// metatable of its own: the shared one's fields and `key = value`, numbered as `first_id` (for
/// what the host keeps hidden in one view's metatable: `api::regions`' tags; every view's may
/// have the same id, since scripts cannot reach them to key a table by them). Made in one
/// protected call, not a protected call for each field (two thirds of tagging the views).
/// False when `t` has no metatable.
pub fn own_metatable(
    lua: &Lua,
    t: &Table,
    key: &str,
    value: impl IntoLua,
    first_id: u64,
) -> mlua::Result<bool> {
    let mut made = false;
    // SAFETY: `exec_raw` runs the closure protected, with `t` in slot 1 and `value` in slot 2;
    // every other slot is pushed here (four at most: Lua guarantees twenty to a C function).
    unsafe {
        lua.exec_raw::<()>((t, value), |l| {
            if ffi::lua_getmetatable(l, 1) == 0 {
                return;
            }
            crate::state::numbered_from(l, first_id, || ffi::lua_createtable(l, 0, 3));
            ffi::lua_getfield(l, 3, c"__newindex".as_ptr());
            ffi::lua_setfield(l, 4, c"__newindex".as_ptr());
            ffi::lua_pushboolean(l, 0);
            ffi::lua_setfield(l, 4, c"__metatable".as_ptr());
            ffi::lua_pushlstring(l, key.as_ptr().cast(), key.len());
            ffi::lua_pushvalue(l, 2);
            ffi::lua_rawset(l, 4);
            ffi::lua_setmetatable(l, 1);
            lua_warren_setreadonly(l, 1, 1);
            made = true;
        })
    }?;
    Ok(made)
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
        ffi::lua_settop(l, 2);
        ffi::luaL_checkstack(l, 7, std::ptr::null());
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        raise_refusal(l, 3)
    }
}

/// Raises `cannot modify read-only table 'NAME' (key K)` at the line that wrote, with the key at
/// index 2 and the name at `name`.
///
/// # Safety
/// `l` is in a `__newindex` call with room for six more slots; the error is raised from the
/// caller's frame, which must hold nothing to drop.
unsafe fn raise_refusal(l: *mut ffi::lua_State, name: c_int) -> c_int {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::luaL_where(l, 1);
        ffi::lua_pushstring(l, c"cannot modify read-only table '".as_ptr());
        ffi::lua_pushvalue(l, name);
        ffi::lua_pushstring(l, c"' (key ".as_ptr());
        ffi::luaL_tolstring(l, 2, std::ptr::null_mut());
        ffi::lua_pushstring(l, c")".as_ptr());
        ffi::lua_concat(l, 6);
        ffi::lua_error(l)
    }
}
