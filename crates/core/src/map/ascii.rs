//! Maps drawn as text, for tests, fixtures and examples: [`Map::from_ascii`] reads one line per
//! row and one character per cell, and [`Map::to_ascii`] writes a map back the same way (what
//! `warren run --format ascii` prints of its terrain).
//!
//! Each character stands for what an [`AsciiLegend`] says: by default the first terrain drawn
//! with that glyph, at priority 0 (as on a fresh map, so any later write wins), in no region,
//! with a door recorded where the terrain is one a declared kind of door is drawn with. A
//! legend can add or replace characters to set a priority, a region or a door:
//!
//! ```
//! use std::sync::Arc;
//! use warren_core::map::{priority, AsciiCell, AsciiLegend, DoorState, Map, Point, TerrainTable};
//!
//! let terrains = Arc::new(TerrainTable::plain(&[
//!     ("rock", '#', true),
//!     ("floor", '.', false),
//!     ("door", '+', true),
//! ]));
//! // Plain terrains: `+` is only a solid terrain here, not a door.
//! let map = Map::from_ascii(["#####", "#..+#", "#####"], terrains.clone())?;
//! assert_eq!(map.is_passable(Point::new(3, 1))?, false);
//! assert_eq!(map.to_ascii(), "#####\n#..+#\n#####\n");
//!
//! // Room floor at its priority in the region "hall", and `+` a closed door.
//! let legend = AsciiLegend::new(terrains)
//!     .with('.', AsciiCell::terrain(1).priority(priority::ROOM_FLOOR).region("hall"))
//!     .with('+', AsciiCell::terrain(2).door(DoorState::Closed));
//! let map = Map::from_ascii_with(["#####", "#..+#", "#####"], &legend)?;
//! assert_eq!(map.priority_at(Point::new(1, 1))?, priority::ROOM_FLOOR);
//! assert_eq!(map.region_name(map.region_at(Point::new(2, 1))?), "hall");
//! assert_eq!(map.is_passable(Point::new(3, 1))?, true);
//! assert_eq!(map.notes.doors.len(), 1);
//! # Ok::<(), warren_core::map::MapError>(())
//! ```

use super::{Brush, Door, DoorState, Map, MapError, Point, TerrainId, TerrainTable};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What one character of a map drawn as text stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsciiCell {
    /// The terrain written on the cell.
    pub terrain: TerrainId,
    /// The cell's priority (0, as on a fresh map, unless set).
    pub priority: u8,
    /// The name of the region the cell belongs to ("" for none).
    pub region: String,
    /// A door recorded on the cell, in this state.
    pub door: Option<DoorState>,
}

impl AsciiCell {
    /// `terrain` at priority 0, in no region, with no door.
    pub fn terrain(terrain: TerrainId) -> AsciiCell {
        AsciiCell {
            terrain,
            priority: 0,
            region: String::new(),
            door: None,
        }
    }

    /// This cell at `priority`.
    pub fn priority(mut self, priority: u8) -> AsciiCell {
        self.priority = priority;
        self
    }

    /// This cell in the region called `name`.
    pub fn region(mut self, name: &str) -> AsciiCell {
        self.region = name.to_string();
        self
    }

    /// This cell with a door in `state` standing on it.
    pub fn door(mut self, state: DoorState) -> AsciiCell {
        self.door = Some(state);
        self
    }
}

/// The characters a map drawn as text may use, each with what it stands for, over one terrain
/// table.
#[derive(Clone, Debug)]
pub struct AsciiLegend {
    terrains: Arc<TerrainTable>,
    cells: BTreeMap<char, AsciiCell>,
}

impl AsciiLegend {
    /// Every glyph of `terrains` stands for the first terrain drawn with it, at priority 0, in
    /// no region. Where that terrain is the one a declared kind of door is drawn with in some
    /// state, a door in that state stands on the cell (the first state in [`DoorState::ALL`]
    /// order, of the first kind).
    pub fn new(terrains: Arc<TerrainTable>) -> AsciiLegend {
        let mut cells: BTreeMap<char, AsciiCell> = BTreeMap::new();
        for (id, terrain) in terrains.iter().enumerate() {
            cells
                .entry(terrain.glyph)
                .or_insert_with(|| AsciiCell::terrain(id as TerrainId));
        }
        for kind in terrains.door_kinds() {
            for state in DoorState::ALL {
                let Some(t) = kind.terrain(state) else {
                    continue;
                };
                let cell = cells.get_mut(&terrains.get(t).glyph);
                if let Some(cell) = cell.filter(|c| c.terrain == t && c.door.is_none()) {
                    cell.door = Some(state);
                }
            }
        }
        AsciiLegend { terrains, cells }
    }

    /// This legend with `glyph` standing for `cell` (added, or in place of what it stood for).
    pub fn with(mut self, glyph: char, cell: AsciiCell) -> AsciiLegend {
        self.cells.insert(glyph, cell);
        self
    }

    /// What `glyph` stands for.
    pub fn get(&self, glyph: char) -> Option<&AsciiCell> {
        self.cells.get(&glyph)
    }

    /// The terrain table the legend's terrain ids refer to.
    pub fn terrains(&self) -> &Arc<TerrainTable> {
        &self.terrains
    }

    /// The glyphs, quoted and in order, for messages.
    fn glyphs(&self) -> String {
        let quoted: Vec<String> = self.cells.keys().map(|g| format!("'{g}'")).collect();
        quoted.join(", ")
    }
}

impl Map {
    /// A map drawn as text, one row per item of `rows` and one character per cell, read with
    /// [`AsciiLegend::new`] over `terrains`: each glyph is the first terrain drawn with it.
    /// `text.lines()` reads a block of text; [`Map::to_ascii`]'s output reads back.
    ///
    /// Rows of different widths, a character no terrain is drawn with, and a size
    /// [`Map::new`] refuses are errors.
    pub fn from_ascii<S: AsRef<str>>(
        rows: impl IntoIterator<Item = S>,
        terrains: Arc<TerrainTable>,
    ) -> Result<Map, MapError> {
        Map::from_ascii_with(rows, &AsciiLegend::new(terrains))
    }

    /// [`Map::from_ascii`] with each character standing for what `legend` says. Regions are
    /// numbered in the order their names first appear, row by row.
    pub fn from_ascii_with<S: AsRef<str>>(
        rows: impl IntoIterator<Item = S>,
        legend: &AsciiLegend,
    ) -> Result<Map, MapError> {
        let rows: Vec<Vec<char>> = rows
            .into_iter()
            .map(|row| row.as_ref().chars().collect())
            .collect();
        let width = rows.first().map_or(0, Vec::len);
        if let Some((y, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
            return Err(ascii_error(
                y,
                row.len().min(width),
                format!("the row is {} cells wide, the first {width}", row.len()),
            ));
        }
        let table = legend.terrains();
        let mut map = Map::new(width as i64, rows.len() as i64, 0, table.clone())?;
        let fresh = AsciiCell::terrain(0);
        for (y, row) in rows.iter().enumerate() {
            for (x, &glyph) in row.iter().enumerate() {
                let Some(cell) = legend.get(glyph) else {
                    let known = legend.glyphs();
                    let problem = format!("'{glyph}' is not in the legend (known: {known})");
                    return Err(ascii_error(y, x, problem));
                };
                if cell.terrain as usize >= table.len() {
                    let problem = format!(
                        "'{glyph}' stands for terrain {}, but the table has {}",
                        cell.terrain,
                        table.len()
                    );
                    return Err(ascii_error(y, x, problem));
                }
                let p = Point::new(x as i32, y as i32);
                if cell.terrain != fresh.terrain || cell.priority != 0 || !cell.region.is_empty() {
                    let region = (!cell.region.is_empty()).then(|| map.region_id(&cell.region));
                    let brush = Brush {
                        terrain: cell.terrain,
                        priority: (cell.priority != 0).then_some(cell.priority),
                        region,
                        force: true,
                    };
                    map.write(p, &brush)?;
                }
                if let Some(state) = cell.door {
                    map.add_door(Door::new(p, state))?;
                }
            }
        }
        Ok(map)
    }

    /// The map as text: one line per row, each cell its terrain's glyph, each line ending in a
    /// newline (the terrain of `warren run --format ascii`, without debug layers).
    pub fn to_ascii(&self) -> String {
        let width = self.width() as usize;
        let mut out = String::with_capacity((width + 1) * self.height() as usize);
        for row in self.terrain_cells().chunks(width) {
            out.extend(row.iter().map(|&t| self.terrains().get(t).glyph));
            out.push('\n');
        }
        out
    }
}

/// The error for the cell at 0-based `(x, y)` of a map drawn as text.
fn ascii_error(y: usize, x: usize, problem: String) -> MapError {
    MapError::Ascii {
        row: y + 1,
        column: x + 1,
        problem,
    }
}
