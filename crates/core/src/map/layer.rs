//! Debug layers: a named picture over the map (a glyph and a colour for some cells) that a recipe
//! or a Rust primitive attaches to show what it did — statuses, distances, regions it chose.
//! Cells a layer leaves unmarked show the terrain underneath.

use super::{MapError, Point, Rgb};
use std::collections::BTreeMap;

/// The largest number of layers one map may carry.
pub const MAX_LAYERS: usize = 64;

/// One debug layer: an optional mark per cell, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    width: i32,
    height: i32,
    marks: Vec<Option<(char, Rgb)>>,
}

/// Bytes one cell of a layer takes.
pub const BYTES_PER_CELL: usize = std::mem::size_of::<Option<(char, Rgb)>>();

impl Layer {
    /// Bytes a layer over a `width × height` map takes (to check a memory limit before making
    /// one).
    pub fn bytes_for(width: i32, height: i32) -> usize {
        (width.max(0) as usize) * (height.max(0) as usize) * BYTES_PER_CELL
    }

    /// An empty (fully transparent) layer the size of a `width × height` map.
    pub fn new(width: i32, height: i32) -> Layer {
        let n = width.max(0) as usize * height.max(0) as usize;
        Layer {
            width,
            height,
            marks: vec![None; n],
        }
    }

    /// A layer drawn as text: one string per map row, one character per cell; `' '` leaves a
    /// cell unmarked, any other glyph takes its colour from `colors` (white when not listed).
    pub fn from_rows(
        width: i32,
        height: i32,
        rows: &[String],
        colors: &BTreeMap<char, Rgb>,
    ) -> Result<Layer, String> {
        if rows.len() != height.max(0) as usize {
            return Err(format!(
                "{} rows given; the map has {height} rows",
                rows.len()
            ));
        }
        let mut layer = Layer::new(width, height);
        for (y, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width.max(0) as usize {
                return Err(format!(
                    "row {} has {n} characters; the map is {width} cells wide",
                    y + 1
                ));
            }
            for (x, g) in row.chars().enumerate() {
                if g != ' ' {
                    let color = colors.get(&g).copied().unwrap_or(Rgb(255, 255, 255));
                    layer.marks[x + y * width as usize] = Some((g, color));
                }
            }
        }
        Ok(layer)
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Marks the cell at `p` with a glyph and a colour.
    pub fn set(&mut self, p: Point, glyph: char, color: Rgb) -> Result<(), MapError> {
        let i = self.index(p)?;
        self.marks[i] = Some((glyph, color));
        Ok(())
    }

    /// The mark at `p`, if any.
    pub fn get(&self, p: Point) -> Result<Option<(char, Rgb)>, MapError> {
        Ok(self.marks[self.index(p)?])
    }

    /// Every cell's mark, row-major.
    pub fn marks(&self) -> &[Option<(char, Rgb)>] {
        &self.marks
    }

    fn index(&self, p: Point) -> Result<usize, MapError> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return Err(MapError::OutOfBounds {
                x: p.x as i64,
                y: p.y as i64,
                width: self.width,
                height: self.height,
            });
        }
        Ok(p.x as usize + p.y as usize * self.width as usize)
    }
}
