//! Step 3 (seed 003, "Place Large Submaps"): vaults drawn from a grid of glyphs, placed in a
//! block of unused panels, written at VAULT priority so nothing later writes inside them.

use super::panels::Panels;
use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{
    priority, Brush, Door, DoorKind, DoorState, Map, Point, Rect, Room, TerrainId, TerrainTable,
};
use crate::rng::Rng;

/// The most attempts at finding a place for one vault (the original's `Tries < 100`).
const TRIES: u32 = 100;
/// Cells kept clear between a vault and the border of its block of panels, so a corridor can
/// always pass round it and it never touches the map's edge or another vault.
const MARGIN: i32 = 2;

/// What a legend glyph stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum VaultGlyph {
    /// A terrain.
    Terrain(TerrainId),
    /// A door of this kind (drawn closed until the level's doors are finished).
    Door(DoorKind),
}

impl VaultGlyph {
    /// What a legend value names: a declared `[[door]]` kind, else a terrain.
    pub fn named(terrains: &TerrainTable, name: &str) -> Option<VaultGlyph> {
        match terrains.door_kinds().iter().find(|k| &*k.name == name) {
            Some(kind) => Some(VaultGlyph::Door(kind.clone())),
            None => terrains.id(name).map(VaultGlyph::Terrain),
        }
    }
}

/// A vault's grid with every glyph resolved to a terrain.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VaultGrid {
    /// Region name, stamped on every cell.
    pub name: String,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Terrain of each cell, row-major (a door's closed terrain on door cells).
    pub cells: Vec<TerrainId>,
    /// The door cells (row-major index) and their kinds, in row order.
    pub doors: Vec<(usize, DoorKind)>,
}

/// The rows of a grid as written in a region file: one leading newline (after `"""`) is
/// dropped, every other line is a row.
fn grid_rows(grid: &str) -> Vec<&str> {
    grid.strip_prefix('\n').unwrap_or(grid).lines().collect()
}

impl VaultGrid {
    /// Resolves `grid` with `legend` (glyph → terrain or door). Rows must be non-empty and
    /// equally long, and every glyph must be in the legend.
    pub fn parse(
        name: &str,
        grid: &str,
        legend: impl Fn(char) -> Option<VaultGlyph>,
    ) -> Result<VaultGrid, DungeonError> {
        let rows = grid_rows(grid);
        let width = rows.first().map_or(0, |r| r.chars().count());
        if width == 0 {
            return Err(DungeonError::bad(
                format!("vault '{name}' grid"),
                "empty",
                "rows of glyphs, one per line",
            ));
        }
        let mut cells = Vec::with_capacity(width * rows.len());
        let mut doors = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(DungeonError::bad(
                    format!("vault '{name}' grid row {}", y + 1),
                    format!("{} glyphs long", row.chars().count()),
                    format!("{width} glyphs, like row 1"),
                ));
            }
            for (x, c) in row.chars().enumerate() {
                let glyph = legend(c).ok_or_else(|| {
                    DungeonError::bad(
                        format!("vault '{name}' grid row {}, column {}", y + 1, x + 1),
                        format!("{c:?}"),
                        "a glyph of the vault's legend",
                    )
                })?;
                cells.push(match glyph {
                    VaultGlyph::Terrain(t) => t,
                    VaultGlyph::Door(kind) => {
                        let closed = kind.closed;
                        doors.push((cells.len(), kind));
                        closed
                    }
                });
            }
        }
        Ok(VaultGrid {
            name: name.to_string(),
            width: width as i32,
            height: rows.len() as i32,
            cells,
            doors,
        })
    }

    /// The first open cell (row, column; 1-based) that cannot reach the grid's border through
    /// open cells and doors (8-neighbour): a sealed room no corridor could ever enter.
    pub fn sealed_cell(&self, terrains: &TerrainTable) -> Option<(i32, i32)> {
        let (w, h) = (self.width, self.height);
        // Each cell's openness looked up once (a terrain's and the doors' lists), not at every
        // visit from a neighbour.
        let mut is_open: Vec<bool> = self.cells.iter().map(|&t| !terrains.get(t).solid).collect();
        for &(d, _) in &self.doors {
            is_open[d] = true;
        }
        let open = |x: i32, y: i32| is_open[(x + y * w) as usize];
        let mut reached = vec![false; self.cells.len()];
        let mut stack: Vec<(i32, i32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| (x == 0 || y == 0 || x == w - 1 || y == h - 1) && open(x, y))
            .collect();
        for &(x, y) in &stack {
            reached[(x + y * w) as usize] = true;
        }
        while let Some((x, y)) = stack.pop() {
            for (dx, dy) in crate::map::Dir::ALL.map(|d| d.delta()) {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= 0 && ny >= 0 && nx < w && ny < h && open(nx, ny) {
                    let i = (nx + ny * w) as usize;
                    if !reached[i] {
                        reached[i] = true;
                        stack.push((nx, ny));
                    }
                }
            }
        }
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .find(|&(x, y)| open(x, y) && !reached[(x + y * w) as usize])
            .map(|(x, y)| (y + 1, x + 1))
    }
}

/// A placed vault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedVault {
    /// The cells it covers.
    pub rect: Rect,
    /// The panels it took (now marked used).
    pub panels: Vec<Point>,
}

/// Places `vault` in a block of unused panels (`used` is indexed by [`Panels::index`]) at a
/// random place at least two cells inside the block, never covering a cell of `avoid` (the
/// level above's down stairs), flipped left-right and top-bottom at random. Every cell is
/// written at VAULT priority with the vault's region, the panels are marked used, and a room
/// annotation of kind `"vault"` is recorded. Returns `None`, writing nothing, when no place is
/// found in 100 tries or the vault is larger than the level. The tries and the cells written
/// are reported to `meter`.
pub fn place_vault(
    map: &mut Map,
    rng: &mut Rng,
    panels: &Panels,
    used: &mut [bool],
    vault: &VaultGrid,
    avoid: &[Point],
    meter: &mut dyn Meter,
) -> Result<Option<PlacedVault>, DungeonError> {
    if used.len() != panels.len() {
        return Err(DungeonError::bad(
            "used panels",
            format!("{} flags", used.len()),
            format!("one per panel ({})", panels.len()),
        ));
    }
    let (pw, ph) = (panels.panel_width, panels.panel_height);
    let cx = (vault.width + 2 * MARGIN + pw - 1) / pw;
    let cy = (vault.height + 2 * MARGIN + ph - 1) / ph;
    if cx > panels.across || cy > panels.down {
        return Ok(None);
    }
    for _ in 0..TRIES {
        meter.work(1 + avoid.len() as u64)?;
        let px = rng.below((panels.across - cx + 1) as u64) as i32;
        let py = rng.below((panels.down - cy + 1) as u64) as i32;
        let x =
            px * pw + MARGIN + rng.below((pw * cx - vault.width - 2 * MARGIN + 1) as u64) as i32;
        let y =
            py * ph + MARGIN + rng.below((ph * cy - vault.height - 2 * MARGIN + 1) as u64) as i32;
        let rect = Rect::new(x, y, vault.width, vault.height);
        let block: Vec<Point> = (px..px + cx)
            .flat_map(|bx| (py..py + cy).map(move |by| Point::new(bx, by)))
            .collect();
        if block.iter().any(|&b| used[panels.index(b)]) || avoid.iter().any(|&p| rect.contains(p)) {
            continue;
        }
        map.check_rect(&rect)?;
        meter.work(vault.width as u64 * vault.height as u64)?;
        write(map, rng, vault, rect);
        for &b in &block {
            used[panels.index(b)] = true;
        }
        map.notes.rooms.push(Room {
            rect,
            kind: "vault".into(),
            doors: Vec::new(),
        });
        return Ok(Some(PlacedVault {
            rect,
            panels: block,
        }));
    }
    Ok(None)
}

/// Writes the grid into `rect`, flipped at random (Incursion's `WriteMap`), and records its
/// doors (closed, of their kind).
fn write(map: &mut Map, rng: &mut Rng, vault: &VaultGrid, rect: Rect) {
    let flip_x = rng.below(2) == 1;
    let flip_y = rng.below(2) == 1;
    let region = map.region_id(&vault.name);
    let at = |i: usize| {
        let (sx, sy) = (i as i32 % vault.width, i as i32 / vault.width);
        let x = if flip_x { vault.width - 1 - sx } else { sx };
        let y = if flip_y { vault.height - 1 - sy } else { sy };
        Point::new(rect.x + x, rect.y + y)
    };
    for (i, &terrain) in vault.cells.iter().enumerate() {
        let brush = Brush::new(terrain).priority(priority::VAULT).region(region);
        let _ = map.write(at(i), &brush);
    }
    for (i, kind) in &vault.doors {
        let p = at(*i);
        // The grid draws the door itself: there is no wall under it to remember.
        let door = Door {
            x: p.x,
            y: p.y,
            state: DoorState::Closed,
            kind: Some(kind.name.clone()),
            made_on: None,
        };
        let _ = map.add_door(door);
    }
}
