//! Incursion's level generator (`Map::Generate`, seed 003) as separate phases, each a pure
//! function of the map, its settings and an `&mut Rng`:
//!
//! 1. [`init_level`]: rock inside an indestructible edge, cut into [`Panels`];
//! 2. [`write_streamer`] and [`carry_chasms`]: rivers, chasms, lava and rock veins;
//! 3. [`place_vault`]: predefined grids in blocks of panels, at VAULT priority;
//! 4. [`draw_rooms`] (or [`draw_room`] panel by panel): one room of a [`RoomKind`] in every
//!    other panel, regions chosen by a [`RegionPicker`];
//! 5. [`connect_panels`]: a tunnel between each pair of neighbouring panels;
//! 6. [`up_stairs`], then [`fixup_level`] (every passable area joined into one in the chosen
//!    adjacency, guaranteed unless a vault is sealed), then [`down_stairs`], and last
//!    [`finish_doors`](crate::gen::doors::finish_doors).
//!
//! The recipe (`scripts/dungeon.lua`) calls these in order through `warren.dungeon` and
//! `warren.tunnel`, choosing region data by weight and depth in Lua. Every phase reports the
//! work it does to a [`Meter`](crate::gen::meter::Meter) (in map cells touched), so a host
//! with budgets can stop one that runs too long.

mod connect;
mod error;
mod fixup;
mod panels;
mod path;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod rooms;
mod stairs;
mod streamer;
mod vault;

pub use connect::{closest, connect_panels, edge_cells};
pub use error::DungeonError;
pub use fixup::{fixup_level, FixupOptions, Join};
pub use panels::{init_level, LevelPanels, Panels, MAX_PANEL, MAX_PANELS, MIN_PANEL};
pub use path::{carve_path, PathBrushes};
pub use rooms::{
    draw_room, draw_rooms, DrawnRoom, RegionPicker, RoomChoice, RoomKind, RoomLimits, RoomStyle,
    MIN_ROOM,
};
pub use stairs::{down_stairs, up_stairs, StairPlacement};
pub use streamer::{carry_chasms, write_streamer, StreamerKind, StreamerStyle, MAX_STREAMER_WIDTH};
pub use vault::{place_vault, PlacedVault, VaultGlyph, VaultGrid};
