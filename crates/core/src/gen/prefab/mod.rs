//! Vault templates ("prefabs") as region data, in the spirit of Dungeon Crawl's `.des` vaults:
//! a text map of glyphs, a legend from glyphs to terrains, substitutions that vary a template
//! from one placement to the next (one-of, n-of), the rotations and mirrorings it allows, and
//! the weight, depth range and tags a recipe picks it by.
//!
//! - [`Glyphs`] is a template's map: parsed from text (rows of equal length), turned and
//!   mirrored ([`Orientation`]);
//! - [`Subst`] is one substitution, [`substitute`] runs a template's in order;
//! - [`Prefab`] is a template resolved from a `[[prefab]]` entry
//!   ([`crate::region::resolve::prefab`]): every glyph it can produce means a [`Cell`];
//! - [`place`] picks templates by tags, depth and weight, and fits them into solid rock (then
//!   digs them a way into the level) or inside a room, never leaving the level in more pieces
//!   than it was.

mod grid;
mod place;
mod subst;

pub use grid::{Glyphs, GridProblem, Orientation};
pub use place::{place, Fit, PlaceRequest, Placed, PrefabBrushes};
pub use subst::{substitute, Per, Subst, SubstKind};

use crate::map::{DoorKind, TerrainId};
use std::collections::BTreeMap;

/// What a glyph of a template's map stands for.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    /// Leave the map's cell as it is (the built-in glyph space).
    Keep,
    /// The placement's floor terrain (the built-in glyph `.`).
    Floor,
    /// The placement's wall terrain (the built-in glyph `#`).
    Wall,
    /// The placement's door terrain, recorded as a closed door (the built-in glyph `+`).
    Door,
    /// A terrain named in the legend.
    Terrain(TerrainId),
    /// A door of a `[[door]]` kind named in the legend, drawn closed and recorded as a door.
    DoorOf(DoorKind),
}

impl Cell {
    /// The glyphs every template may use without a legend entry, and what they stand for (a
    /// legend entry for one of them overrides it).
    pub const BUILT_IN: [(char, &'static str); 4] = [
        ('.', "floor"),
        ('#', "wall"),
        ('+', "door"),
        (' ', "leave the map's cell as it is"),
    ];

    /// The built-in meaning of `glyph`, if it has one.
    pub fn built_in(glyph: char) -> Option<Cell> {
        match glyph {
            '.' => Some(Cell::Floor),
            '#' => Some(Cell::Wall),
            '+' => Some(Cell::Door),
            ' ' => Some(Cell::Keep),
            _ => None,
        }
    }
}

/// A vault template, resolved: every glyph its map holds or its substitutions produce has a
/// meaning in `legend`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Prefab {
    /// Unique name, stamped as the region of the cells it writes.
    pub name: String,
    /// The map as written.
    pub glyphs: Glyphs,
    /// Glyph → what it stands for (the built-in glyphs included, unless overridden).
    pub legend: BTreeMap<char, Cell>,
    /// Substitutions, run in order on every placement.
    pub subst: Vec<Subst>,
    /// Whether the template may be turned by quarter turns.
    pub rotate: bool,
    /// Whether the template may be mirrored.
    pub mirror: bool,
    /// Relative chance of being picked.
    pub weight: f64,
    /// Shallowest depth it is picked for.
    pub min_depth: u32,
    /// Deepest depth it is picked for.
    pub max_depth: u32,
    /// Its tags.
    pub tags: Vec<String>,
    /// The glyphs of its entrances: each such cell must open onto the level. Empty: any open
    /// cell of its border may.
    pub connect: Vec<char>,
}

impl Prefab {
    /// Whether a recipe asking for `depth`, every tag of `include` and none of `exclude`
    /// may pick this template (a weight of 0 is never picked).
    pub fn eligible(&self, depth: u32, include: &[String], exclude: &[String]) -> bool {
        self.weight > 0.0
            && (self.min_depth..=self.max_depth).contains(&depth)
            && include.iter().all(|t| self.tags.contains(t))
            && !exclude.iter().any(|t| self.tags.contains(t))
    }

    /// The orientations the template allows: the identity, the quarter turns when it may be
    /// rotated, and each of those mirrored when it may be mirrored.
    pub fn orientations(&self) -> Vec<Orientation> {
        Orientation::allowed(self.rotate, self.mirror)
    }
}
