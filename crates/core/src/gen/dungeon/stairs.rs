//! Step 6 (seed 003, "Place Stairs"): up stairs where the level above has its down stairs, and
//! down stairs on open floor, in rooms or (as Incursion does) anywhere, no two in the same room
//! or region while another is free.

use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{priority, Brush, Dir, Map, Point, TerrainId, FLAG_DOOR, FLAG_HAZARD, FLAG_SOLID};
use crate::rng::Rng;
use std::collections::BTreeSet;

/// Where down stairs may go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StairPlacement {
    /// On the floor of recorded rooms (vaults excluded), as docs/recipes.md promises;
    /// anywhere when no room has a cell left.
    #[default]
    Rooms,
    /// On any open floor of the level, corridors included: Incursion's rule (`random(sizeX)`,
    /// `random(sizeY)` until the cell fits). In `scripts/dungeon.lua` it puts 43% of level 1's
    /// down stairs outside rooms and 24% of deeper levels' (measured by
    /// `crates/lua/tests/lua/recipe_dungeon.rs`).
    Anywhere,
}

impl StairPlacement {
    /// Every placement's name, as options spell it.
    pub const NAMES: [&'static str; 2] = ["rooms", "anywhere"];

    /// Parses a placement name.
    pub fn from_name(name: &str) -> Option<StairPlacement> {
        match name {
            "rooms" => Some(StairPlacement::Rooms),
            "anywhere" => Some(StairPlacement::Anywhere),
            _ => None,
        }
    }
}

/// Where a stair stands: in a recorded room (by index), or else in a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Room(usize),
    Region(u16),
}

/// The place of every cell: the first recorded room holding it, or else its region.
struct Places {
    width: usize,
    room: Vec<u32>,
}

impl Places {
    fn new(map: &Map) -> Places {
        let width = map.width() as usize;
        let mut room = vec![0; map.len()];
        let rooms = map.notes.rooms.iter().enumerate().rev();
        for (k, r) in rooms.filter(|(_, r)| &*r.kind != "vault") {
            for p in r.rect.cells() {
                if map.in_bounds(p) {
                    room[p.x as usize + p.y as usize * width] = k as u32 + 1;
                }
            }
        }
        Places { width, room }
    }

    fn of(&self, map: &Map, p: Point) -> Place {
        let i = p.x as usize + p.y as usize * self.width;
        match self.room[i] {
            0 => Place::Region(map.region_cells()[i]),
            k => Place::Room(k as usize - 1),
        }
    }
}

/// Writes up stairs at the cells of the level above's down stairs (levels of different sizes
/// are centred on each other; cells that fall off this level or on its edge are skipped) at
/// FEATURE_FLOOR priority. Where the cell was solid, its solid neighbours get `walls`, so the
/// stairs stand in a pocket that the fix-up joins to the level. Returns the cells; each stair
/// of `above` is reported to `meter`.
pub fn up_stairs(
    map: &mut Map,
    above: &Map,
    stair: TerrainId,
    walls: &Brush,
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, DungeonError> {
    meter.work(1 + 9 * above.notes.stairs.down.len() as u64)?;
    let shift = Point::new(
        (map.width() - above.width()) / 2,
        (map.height() - above.height()) / 2,
    );
    let mut placed = Vec::new();
    for p in &above.notes.stairs.down {
        let q = Point::new(p.x + shift.x, p.y + shift.y);
        if !map.in_bounds(q) || map.is_edge(q) {
            continue;
        }
        let was_solid = map.is_solid(q).unwrap_or(false);
        let brush = Brush::new(stair).priority(priority::FEATURE_FLOOR);
        if !map.write(q, &brush).unwrap_or(false) {
            continue;
        }
        if was_solid {
            for d in Dir::ALL {
                let n = q.step(d);
                if map.is_solid(n).unwrap_or(false) {
                    let _ = map.write(n, walls);
                }
            }
        }
        map.notes.stairs.up.push(q);
        placed.push(q);
    }
    Ok(placed)
}

/// Writes `count` down stairs at FEATURE_FLOOR priority on open cells of priority at most
/// ROOM_FLOOR (not in vaults or streamers), with no door and no hazard, whose terrain is not in
/// `avoid` (water, chasms, lava): with [`StairPlacement::Rooms`] only cells inside recorded
/// rooms (vaults aside) while any is left, with [`StairPlacement::Anywhere`] any such cell.
/// Each goes into a room or region holding no stairs yet; only when none is left may two share
/// one. Returns the cells; the cells scanned are reported to `meter`.
pub fn down_stairs(
    map: &mut Map,
    rng: &mut Rng,
    stair: TerrainId,
    count: u32,
    (avoid, placement): (&[TerrainId], StairPlacement),
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, DungeonError> {
    let rooms: u64 = map
        .notes
        .rooms
        .iter()
        .map(|r| r.rect.w.max(0) as u64 * r.rect.h.max(0) as u64)
        .sum();
    meter.work(map.len() as u64 + rooms)?;
    let (w, h) = (map.width() as usize, map.height() as usize);
    let places = Places::new(map);
    let mut banned = vec![false; map.terrains().len()];
    for &t in avoid {
        if let Some(b) = banned.get_mut(t as usize) {
            *b = true;
        }
    }
    let (flags, prio, terrain) = (map.flag_cells(), map.priority_cells(), map.terrain_cells());
    let mut candidates: Vec<(Point, Place)> = Vec::new();
    for y in 1..h.saturating_sub(1) {
        for x in 1..w - 1 {
            let i = x + y * w;
            if flags[i] & (FLAG_SOLID | FLAG_HAZARD | FLAG_DOOR) == 0
                && prio[i] <= priority::ROOM_FLOOR
                && !banned[terrain[i] as usize]
            {
                let p = Point::new(x as i32, y as i32);
                candidates.push((p, places.of(map, p)));
            }
        }
    }
    if count > 0 && candidates.is_empty() {
        return Err(DungeonError::NoStairSpot { which: "down" });
    }
    let in_rooms = |c: &(Point, Place)| matches!(c.1, Place::Room(_));
    if placement == StairPlacement::Rooms && candidates.iter().any(in_rooms) {
        candidates.retain(in_rooms);
    }
    let mut taken: BTreeSet<Place> = map
        .notes
        .stairs
        .up
        .iter()
        .chain(&map.notes.stairs.down)
        .filter(|p| map.in_bounds(**p))
        .map(|&p| places.of(map, p))
        .collect();
    let mut placed = Vec::new();
    for _ in 0..count {
        if candidates.is_empty() {
            break;
        }
        // Uniform among the cells of free places (what the original's retries approximate),
        // or among all cells once every place holds stairs.
        let free: Vec<usize> = (0..candidates.len())
            .filter(|&i| !taken.contains(&candidates[i].1))
            .collect();
        let pick = if free.is_empty() {
            rng.below(candidates.len() as u64) as usize
        } else {
            free[rng.below(free.len() as u64) as usize]
        };
        let (p, place) = candidates.swap_remove(pick);
        taken.insert(place);
        map.write(p, &Brush::new(stair).priority(priority::FEATURE_FLOOR))?;
        map.notes.stairs.down.push(p);
        placed.push(p);
    }
    Ok(placed)
}
