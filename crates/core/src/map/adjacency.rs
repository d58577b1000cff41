//! How a walker moves: to the four orthogonal neighbours of a cell, or to all eight. Flood fill,
//! components, the fix-ups and every recipe take it as a parameter, and their one-area
//! guarantee holds for the mode they were given.

use super::geom::Dir;
use serde::Serialize;
use std::fmt;

/// The neighbours a walker may step to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Adjacency {
    /// North, south, east and west only (4-neighbour): two open cells that touch only at a
    /// corner are not connected.
    #[serde(rename = "4")]
    Four,
    /// The eight surrounding cells, diagonals included (8-neighbour, Incursion's flood fill).
    #[default]
    #[serde(rename = "8")]
    Eight,
}

impl Adjacency {
    /// Every mode's name, as recipe parameters and options spell it.
    pub const NAMES: [&'static str; 2] = ["4", "8"];

    /// Parses `"4"` or `"8"`.
    pub fn from_name(name: &str) -> Option<Adjacency> {
        match name {
            "4" => Some(Adjacency::Four),
            "8" => Some(Adjacency::Eight),
            _ => None,
        }
    }

    /// `"4"` or `"8"`.
    pub fn name(self) -> &'static str {
        match self {
            Adjacency::Four => "4",
            Adjacency::Eight => "8",
        }
    }

    /// The directions a walker may step in.
    pub fn dirs(self) -> &'static [Dir] {
        match self {
            Adjacency::Four => &Dir::CARDINAL,
            Adjacency::Eight => &Dir::ALL,
        }
    }
}

impl fmt::Display for Adjacency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
