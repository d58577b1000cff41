//! Lua 5.4.8 patched for warren (see `WARREN.md` beside this crate), as a static library that
//! this crate's build script compiles and links: any crate that depends on it has the patched
//! Lua in its program, with no `[patch.crates-io]` and no system Lua.
//!
//! warren-lua builds mlua with `mlua-sys`'s `external` feature (mlua-sys declares the Lua API
//! and links nothing) and depends on this crate for the definitions. The combination cannot
//! fall back to stock Lua: with `external`, mlua-sys builds no Lua of its own, and a crate that
//! asks for mlua's `vendored` Lua as well stops the build (mlua-sys refuses `vendored` together
//! with `external`). The `links = "warren-lua"` key allows one copy of this crate per program.
//!
//! A crate that calls the patched API (`lua_warren_*`, declared in `lwarren.h`) names this crate
//! so that Rust links it, e.g. `use warren_lua_src as _;`. Build scripts of dependents find the
//! headers through `DEP_WARREN_LUA_INCLUDE`.

#![no_std]

/// The Lua release the patched sources are (`LUA_RELEASE` in `lua.h`).
pub const LUA_RELEASE: &str = "Lua 5.4.8";
