//! The `warren` Lua module, one file per API area.

pub mod args;
pub mod connectivity;
pub mod cost;
#[cfg(test)]
mod coverage;
pub mod debug;
pub mod dungeon;
pub mod entries;
pub mod fields;
pub mod gen;
pub mod held;
pub mod index;
pub mod keys;
pub mod log;
pub mod map;
pub mod rects;
pub mod rng;
pub mod spec;
pub mod status;
pub mod town;
pub mod tunnel;

use mlua::{Lua, Table};
use warren_core::map::priority;

/// Gives the map and rectangle-list userdata their fast `__index` (see [`index`]). Called once
/// per state, before any script runs.
pub fn install_indexes(lua: &Lua) -> mlua::Result<()> {
    map::install_fields(lua)?;
    rects::install_items(lua)
}

/// Builds the `warren` module table (the prelude adds Lua-side helpers and freezes it).
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let w = lua.create_table()?;
    w.set("version", env!("CARGO_PKG_VERSION"))?;
    let prio = lua.create_table()?;
    for (name, value) in priority::NAMED {
        prio.set(name, value)?;
    }
    w.set("prio", prio)?;
    w.set("gen", gen::table(lua)?)?;
    w.set("town", town::table(lua)?)?;
    w.set("status_lists", status::constructor(lua)?)?;
    w.set("tunnel", tunnel::table(lua)?)?;
    w.set("dungeon", dungeon::table(lua)?)?;
    // A Rust panic on demand, to test that panics become internal errors that scripts cannot
    // catch. Debug builds only: release builds have no way to make warren panic on purpose.
    #[cfg(debug_assertions)]
    w.set(
        "debug_panic",
        lua.create_function(|_, msg: String| -> mlua::Result<()> { panic!("{msg}") })?,
    )?;
    Ok(w)
}
