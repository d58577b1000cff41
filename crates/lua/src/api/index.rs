//! A cheaper `__index` for userdata that have methods and also answer other keys (`rooms[1]`;
//! maps answer `map.width` from a field table instead, see `map::new_userdata`).
//!
//! For such types mlua installs a Lua function as `__index` that looks in a field table, then
//! in the methods, then calls the type's own `__index`. That is a Lua call on every method
//! lookup, and it cost as much as the binding call it precedes (about 80 ns for each `map:set`).
//! Here the metatable's `__index` becomes a small C function instead: a method is one raw table
//! lookup, and any other key goes to a Rust `fallback(self, key)`.

use mlua::{ffi, AnyUserData, Function, Lua};
use std::os::raw::c_int;

/// Pushes the method `key` (slot 2) from the methods table (upvalue 1) and returns true, or
/// leaves the stack at `self, key` and returns false.
///
/// # Safety
/// A C function's stack with `self` and `key` in slots 1 and 2 and the methods table as
/// upvalue 1.
unsafe fn push_method(state: *mut ffi::lua_State) -> bool {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::lua_settop(state, 2);
        ffi::lua_pushvalue(state, 2);
        if ffi::lua_rawget(state, ffi::lua_upvalueindex(1)) != ffi::LUA_TNIL {
            return true;
        }
        ffi::lua_settop(state, 2);
        false
    }
}

/// Returns `fallback(self, key)` (the fallback is upvalue 2).
///
/// # Safety
/// As for [`push_method`], with the fallback function as upvalue 2.
unsafe fn call_fallback(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::lua_settop(state, 2);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
        ffi::lua_insert(state, 1);
        ffi::lua_call(state, 2, 1);
        1
    }
}

/// `__index(self, key)`: the methods table (upvalue 1) if it has `key`, else
/// `fallback(self, key)` (upvalue 2). It owns nothing that needs dropping, so an error raised
/// by the fallback may unwind through it.
unsafe extern "C-unwind" fn methods_then_fallback(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with at least `self` and `key` on a stack that has room for the
    // `LUA_MINSTACK` (20) slots a C function may use; the two upvalues are set by `install`.
    unsafe {
        if push_method(state) {
            return 1;
        }
        call_fallback(state)
    }
}

/// Replaces the `__index` of `sample`'s type — which must be mlua's methods table, as it is
/// for a type without fields or an `__index` of its own — so that keys which are not methods go
/// to `fallback(self, key)`. Every userdata of the type, earlier and later, shares the change.
pub fn install(lua: &Lua, sample: &AnyUserData, fallback: Function) -> mlua::Result<()> {
    replace_index(lua, sample, fallback)
}

fn replace_index(lua: &Lua, sample: &AnyUserData, fallback: Function) -> mlua::Result<()> {
    // SAFETY: the closure only uses the values `exec_raw` pushed (slots 1 and 2) and the slots
    // it pushes itself, and runs protected, so a Lua error (out of memory) is caught.
    unsafe {
        lua.exec_raw::<bool>((sample, fallback), |state| {
            if ffi::lua_getmetatable(state, 1) == 0
                || ffi::lua_getfield(state, 3, c"__index".as_ptr()) != ffi::LUA_TTABLE
            {
                ffi::lua_settop(state, 0);
                return;
            }
            // Upvalues: the methods table and the fallback.
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushcclosure(state, methods_then_fallback, 2);
            ffi::lua_setfield(state, 3, c"__index".as_ptr());
            ffi::lua_settop(state, 0);
            ffi::lua_pushboolean(state, 1);
        })
        .and_then(|installed: bool| {
            if installed {
                Ok(())
            } else {
                Err(mlua::Error::RuntimeError(
                    "userdata __index is not a methods table".into(),
                ))
            }
        })
    }
}
