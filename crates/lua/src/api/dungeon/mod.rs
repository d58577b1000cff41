//! `warren.dungeon`: the phases of Incursion's level generator (seed 003), one Rust call each
//! ([`warren_core::gen::dungeon`]); the recipe chooses region data by weight and depth and
//! calls them in order. Region entries are views of `ctx.regions` (used as resolved at load) or
//! tables made like them (resolved on the spot); sizes default to `[dungeon]`.
//!
//! ```lua
//! local level = warren.dungeon.init_level(map)      -- [dungeon] level and panel sizes
//! warren.dungeon.draw_streamer(map, rng, ctx.regions.streamer[1])
//! warren.dungeon.place_vault(map, rng, level, ctx.regions.vault[1], { above = ctx.above })
//! warren.dungeon.draw_rooms(map, rng, level, ctx.regions.room)
//! warren.dungeon.connect_panels(map, rng, level, tunnels, { flags = { "direct", "wander" } })
//! ```
//!
//! The declarations are in `decls.rs`, the functions in `functions.rs`, and the level object
//! they pass around in `level.rs`.

mod decls;
mod functions;
mod level;

pub use decls::CLASSES;
pub use functions::FUNCTIONS;
pub use level::{DungeonLevel, LuaLevel, METHODS};

use mlua::{Lua, Table};

/// The `warren.dungeon` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    functions::register(lua, &t)?;
    Ok(t)
}
