//! Renderers that need nothing beyond the core: text, ANSI colour, the JSON output contract,
//! Tiled's TMX and LDtk's project JSON, each over a [`View`] (what every cell looks like in one layer of a map).
//!
//! A renderer never calls Lua and never reads files; it sees only the finished map.

pub mod json;
pub mod layers;
pub mod ldtk;
pub mod text;
pub mod tiled;
pub mod view;

pub use layers::{LayerChoice, Painter};
pub use view::View;
