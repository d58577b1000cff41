//! Step 2 (seed 003, `WriteStreamer`): rivers, chasms, lava and veins of rock that run across
//! the level before anything else is drawn, and chasms that continue from the level above.

use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{priority, Brush, Dir, Map, Point, TerrainId};
use crate::rng::Rng;
use std::collections::BTreeMap;

/// What a streamer is, which decides its shape and default priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StreamerKind {
    /// Water flowing in from the top or left edge, of constant width (`RF_RIVER`).
    River,
    /// A rift that swells and narrows; carried down to the level below (`RF_CHASM`).
    Chasm,
    /// Molten rock, flowing like a river.
    Lava,
    /// A vein of another rock that swells and narrows.
    Rock,
}

impl StreamerKind {
    /// Every kind's name, as region files spell it.
    pub const NAMES: [&'static str; 4] = ["river", "chasm", "lava", "rock"];

    /// Parses a kind name.
    pub fn from_name(name: &str) -> Option<StreamerKind> {
        Some(match name {
            "river" => StreamerKind::River,
            "chasm" => StreamerKind::Chasm,
            "lava" => StreamerKind::Lava,
            "rock" => StreamerKind::Rock,
            _ => return None,
        })
    }

    /// The priority a streamer of this kind is written with unless its region says otherwise:
    /// RIVER_STREAMER for rivers, chasms and lava (rooms and corridors go round them),
    /// ROCK_STREAMER for rock (rooms and corridors cut through it).
    pub fn default_priority(self) -> u8 {
        match self {
            StreamerKind::Rock => priority::ROCK_STREAMER,
            _ => priority::RIVER_STREAMER,
        }
    }

    /// Whether it flows across the whole level at a constant width (rivers and lava) rather
    /// than swelling and narrowing from a random start (chasms and rock).
    fn flows(self) -> bool {
        matches!(self, StreamerKind::River | StreamerKind::Lava)
    }
}

/// One streamer region, resolved to terrain ids.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StreamerStyle {
    /// Region name, stamped on every cell written.
    pub name: String,
    /// Shape and default priority.
    pub kind: StreamerKind,
    /// Terrain written.
    pub terrain: TerrainId,
    /// Narrowest width (1..=`max_width`).
    pub min_width: i32,
    /// Widest width (at most [`MAX_STREAMER_WIDTH`]).
    pub max_width: i32,
    /// Priority of the writes.
    pub priority: u8,
}

/// The widest streamer.
pub const MAX_STREAMER_WIDTH: i32 = 16;

impl StreamerStyle {
    /// Checks the widths.
    pub fn validate(&self) -> Result<(), DungeonError> {
        if !(1..=MAX_STREAMER_WIDTH).contains(&self.min_width) {
            return Err(DungeonError::bad(
                format!("streamer '{}' min_width", self.name),
                self.min_width,
                format!("1..={MAX_STREAMER_WIDTH}"),
            ));
        }
        if !(self.min_width..=MAX_STREAMER_WIDTH).contains(&self.max_width) {
            return Err(DungeonError::bad(
                format!("streamer '{}' max_width", self.name),
                self.max_width,
                format!("min_width ({})..={MAX_STREAMER_WIDTH}", self.min_width),
            ));
        }
        Ok(())
    }
}

/// Writes one streamer and returns the number of cells it gave its terrain.
///
/// A river or lava flow enters at a random point of the top or left edge and runs diagonally
/// towards the wider side of the level (south-east or south-west from the top, south-east or
/// north-east from the left) at a width drawn from the style's range. A chasm or rock vein
/// starts anywhere, heads in a random diagonal and swells by one cell with chance 1/13 per step
/// until it reaches a width drawn from the range, then narrows the same way until it closes. Each step moves along x with
/// chance `rx / (rx + ry)` (both drawn from 2..=11) and along y otherwise, so the streamer
/// slants at its own angle; it ends when it leaves the map. The square of `width` cells around
/// the position is written each step; the map's edge is never written. The cells visited are
/// reported to `meter`.
pub fn write_streamer(
    map: &mut Map,
    rng: &mut Rng,
    style: &StreamerStyle,
    meter: &mut dyn Meter,
) -> Result<usize, DungeonError> {
    style.validate()?;
    let (w, h) = (map.width(), map.height());
    let mut pos = Point::new(
        1 + rng.below((w - 2).max(1) as u64) as i32,
        1 + rng.below((h - 2).max(1) as u64) as i32,
    );
    let target = rng.range(style.min_width as i64, style.max_width as i64) as i32;
    let flows = style.kind.flows();
    // The original compares the start's coordinates to pick the edge a flow enters from, then
    // picks either diagonal, which can run it straight off the map; it heads for the wider side.
    let dir = if flows {
        if pos.x > pos.y {
            pos.y = 0;
            if pos.x < w / 2 {
                Dir::SouthEast
            } else {
                Dir::SouthWest
            }
        } else {
            pos.x = 0;
            if pos.y < h / 2 {
                Dir::SouthEast
            } else {
                Dir::NorthEast
            }
        }
    } else if rng.below(4) == 0 {
        Dir::SouthEast
    } else if rng.below(3) == 0 {
        Dir::SouthWest
    } else if rng.below(2) == 0 {
        Dir::NorthEast
    } else {
        Dir::NorthWest
    };
    let (dx, dy) = dir.delta();
    let rx = 2 + rng.below(10);
    let ry = 2 + rng.below(10);
    let region = map.region_id(&style.name);
    let brush = Brush::new(style.terrain)
        .priority(style.priority)
        .region(region);
    let mut width = if flows { target } else { 1 };
    let mut swelling = true;
    let mut written = 0;
    let mut visited = 0u64;
    while width > 0 && map.in_bounds(pos) {
        if !flows && rng.below(13) == 0 {
            width += if swelling { 1 } else { -1 };
        }
        if rng.below(rx + ry) < rx {
            pos.x += dx;
        } else {
            pos.y += dy;
        }
        if width >= target {
            swelling = false;
        }
        visited += 1 + (width * width) as u64;
        let (x0, y0) = (pos.x - width / 2, pos.y - width / 2);
        for y in y0..y0 + width {
            for x in x0..x0 + width {
                if let Ok(i) = map.index(Point::new(x, y)) {
                    let fresh = map.terrain_cells()[i] != style.terrain;
                    written += (map.write_index(i, &brush) && fresh) as usize;
                }
            }
        }
    }
    meter.work(visited)?;
    Ok(written)
}

/// Continues the chasms of the level above onto `map`: every cell of `above` whose region is
/// one of `chasms` gets the same terrain and region here, at RIVER_STREAMER priority. When
/// `narrow` is set only cells whose four neighbours above are of the same chasm are carried,
/// so chasms narrow as they descend and eventually close. Levels of different sizes are
/// centred on each other. Returns the number of cells written; the cells of `above` are
/// reported to `meter`.
pub fn carry_chasms(
    map: &mut Map,
    above: &Map,
    chasms: &[String],
    narrow: bool,
    meter: &mut dyn Meter,
) -> Result<usize, DungeonError> {
    meter.work(above.len() as u64)?;
    let chasm_ids: Vec<u16> = above
        .region_names()
        .iter()
        .enumerate()
        .filter(|(i, n)| *i > 0 && chasms.contains(n))
        .map(|(i, _)| i as u16)
        .collect();
    if chasm_ids.is_empty() {
        return Ok(0);
    }
    let shift = Point::new(
        (map.width() - above.width()) / 2,
        (map.height() - above.height()) / 2,
    );
    let mut terrains: BTreeMap<TerrainId, Option<TerrainId>> = BTreeMap::new();
    let mut regions: BTreeMap<u16, u16> = BTreeMap::new();
    let mut written = 0;
    for (i, &r) in above.region_cells().iter().enumerate() {
        if !chasm_ids.contains(&r) {
            continue;
        }
        let p = above.point(i);
        let same = |d: Dir| above.region_at(p.step(d)).ok() == Some(r);
        if narrow && !Dir::CARDINAL.into_iter().all(same) {
            continue;
        }
        let q = Point::new(p.x + shift.x, p.y + shift.y);
        let Ok(j) = map.index(q) else {
            continue;
        };
        let t = above.terrain_cells()[i];
        let here = *terrains.entry(t).or_insert_with(|| {
            let name = &above.terrains().get(t).name;
            map.terrains().id(name)
        });
        let Some(here) = here else { continue };
        let region = *regions
            .entry(r)
            .or_insert_with(|| map.region_id(above.region_name(r)));
        let brush = Brush::new(here)
            .priority(priority::RIVER_STREAMER)
            .region(region);
        written += map.write_index(j, &brush) as usize;
    }
    Ok(written)
}
