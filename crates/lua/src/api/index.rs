//! A cheaper `__index` for userdata that have methods and also answer other keys (`map.width`,
//! `rooms[1]`).
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

/// `__index(map, key)` for maps: the methods table (upvalue 1) if it has `key`; `width` and
/// `height` (upvalues 3 and 4) from the size the host keeps in the map's user value (width ×
/// 2³² + height, see `map::publish_size`); else `fallback(map, key)` (upvalue 2).
unsafe extern "C-unwind" fn methods_size_then_fallback(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as for `methods_then_fallback`; the four upvalues are set by `install_sized`.
    unsafe {
        if push_method(state) {
            return 1;
        }
        if ffi::lua_getiuservalue(state, 1, 1) == ffi::LUA_TNUMBER {
            let packed = ffi::lua_tointeger(state, 3);
            if ffi::lua_rawequal(state, 2, ffi::lua_upvalueindex(3)) != 0 {
                ffi::lua_pushinteger(state, packed >> 32);
                return 1;
            }
            if ffi::lua_rawequal(state, 2, ffi::lua_upvalueindex(4)) != 0 {
                ffi::lua_pushinteger(state, packed & 0xffff_ffff);
                return 1;
            }
        }
        call_fallback(state)
    }
}

/// Replaces the `__index` of `sample`'s type — which must be mlua's methods table, as it is
/// for a type without fields or an `__index` of its own — so that keys which are not methods go
/// to `fallback(self, key)`. Every userdata of the type, earlier and later, shares the change.
pub fn install(lua: &Lua, sample: &AnyUserData, fallback: Function) -> mlua::Result<()> {
    replace_index(lua, sample, fallback, None)
}

/// [`install`] for maps: `width` and `height` are answered in C from the size the host keeps
/// in each map's user value, without calling `fallback`.
pub fn install_sized(lua: &Lua, sample: &AnyUserData, fallback: Function) -> mlua::Result<()> {
    replace_index(lua, sample, fallback, Some(("width", "height")))
}

fn replace_index(
    lua: &Lua,
    sample: &AnyUserData,
    fallback: Function,
    sized: Option<(&str, &str)>,
) -> mlua::Result<()> {
    // SAFETY: the closure only uses the values `exec_raw` pushed (slots 1 to 4) and the slots
    // it pushes itself, and runs protected, so a Lua error (out of memory) is caught.
    unsafe {
        let (width, height) = sized.unzip();
        lua.exec_raw::<bool>((sample, fallback, width, height), |state| {
            if ffi::lua_getmetatable(state, 1) == 0
                || ffi::lua_getfield(state, 5, c"__index".as_ptr()) != ffi::LUA_TTABLE
            {
                ffi::lua_settop(state, 0);
                return;
            }
            // Upvalues: the methods table, the fallback, and for maps the two field names.
            ffi::lua_pushvalue(state, 2);
            if ffi::lua_type(state, 3) == ffi::LUA_TNIL {
                ffi::lua_pushcclosure(state, methods_then_fallback, 2);
            } else {
                ffi::lua_pushvalue(state, 3);
                ffi::lua_pushvalue(state, 4);
                ffi::lua_pushcclosure(state, methods_size_then_fallback, 4);
            }
            ffi::lua_setfield(state, 5, c"__index".as_ptr());
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
