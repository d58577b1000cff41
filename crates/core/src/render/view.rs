//! A view: what each cell looks like (glyph and colour) in one layer of a map.

use crate::map::{Map, Rgb};

/// Glyphs and colours for every cell, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
    /// One glyph per cell.
    pub glyphs: Vec<char>,
    /// One colour per cell.
    pub colors: Vec<Rgb>,
}

impl View {
    /// The terrain layer: each cell drawn as its terrain's glyph and colour.
    pub fn terrain(map: &Map) -> View {
        let table = map.terrains();
        let glyphs = map
            .terrain_cells()
            .iter()
            .map(|&t| table.get(t).glyph)
            .collect();
        let colors = map
            .terrain_cells()
            .iter()
            .map(|&t| table.get(t).color)
            .collect();
        View {
            width: map.width() as usize,
            height: map.height() as usize,
            glyphs,
            colors,
        }
    }

    /// The rows as strings.
    pub fn rows(&self) -> Vec<String> {
        self.glyphs
            .chunks(self.width)
            .map(|row| row.iter().collect())
            .collect()
    }
}
