//! Compiles the prelude (`src/prelude.lua`) to Lua bytecode at build time, with the same
//! patched Lua the host links (`mlua-sys` declares it, `warren-lua-src` links it): every state then loads it instead of
//! parsing 10 KB of Lua, a tenth of what a process took to start. `sandbox::prelude` falls back
//! to the source when a target's Lua cannot load it (another byte order).

use mlua_sys as lua;
use std::ffi::{c_int, c_void, CStr};
use std::path::PathBuf;
// The definitions of what mlua-sys declares: the patched Lua, linked into this script.
use warren_lua_src as _;

/// The prelude's chunk name, as tracebacks show it (`sandbox::PRELUDE_NAME`).
const NAME: &CStr = c"=warren prelude";

fn main() {
    println!("cargo:rerun-if-changed=src/prelude.lua");
    println!("cargo:rerun-if-changed=build.rs");
    let source = std::fs::read("src/prelude.lua").expect("reading src/prelude.lua");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("prelude.luac"), compile(&source)).expect("writing prelude.luac");
}

/// `source` as `lua_dump` writes it, debug information kept (`string.dump(f, false)`).
fn compile(source: &[u8]) -> Vec<u8> {
    let mut code = Vec::new();
    // SAFETY: a fresh state used on this thread only and closed before returning; the writer
    // gets `code` as its user data and only appends to it.
    unsafe {
        let state = lua::luaL_newstate();
        assert!(!state.is_null(), "no memory for a Lua state");
        let loaded = lua::luaL_loadbufferx(
            state,
            source.as_ptr().cast(),
            source.len(),
            NAME.as_ptr(),
            c"t".as_ptr(),
        );
        if loaded != lua::LUA_OK {
            let message = CStr::from_ptr(lua::lua_tolstring(state, -1, std::ptr::null_mut()));
            panic!(
                "src/prelude.lua does not compile: {}",
                message.to_string_lossy()
            );
        }
        let dumped = lua::lua_dump(state, append, (&raw mut code).cast(), 0);
        lua::lua_close(state);
        assert_eq!(dumped, 0, "lua_dump failed");
    }
    code
}

/// `lua_dump`'s writer: appends each piece to the `Vec<u8>` behind `data`.
unsafe extern "C-unwind" fn append(
    _state: *mut lua::lua_State,
    piece: *const c_void,
    size: usize,
    data: *mut c_void,
) -> c_int {
    // SAFETY: `data` is the `Vec<u8>` `compile` passed; Lua hands `size` readable bytes.
    unsafe {
        let code = &mut *data.cast::<Vec<u8>>();
        code.extend_from_slice(std::slice::from_raw_parts(piece.cast::<u8>(), size));
    }
    0
}
