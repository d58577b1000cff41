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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::dungeon::test_support::{blank, FLOOR, STAIRS, WALL, WATER};
    use crate::gen::meter::Unmetered;
    use crate::map::{Rect, Room};

    const ROOMS: StairPlacement = StairPlacement::Rooms;

    fn two_rooms() -> Map {
        let mut map = blank(40, 20);
        let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR);
        for r in [Rect::new(2, 2, 6, 6), Rect::new(20, 2, 6, 6)] {
            map.fill_rect(&r, &floor).unwrap();
            map.notes.rooms.push(Room {
                rect: r,
                kind: "normal".into(),
                doors: vec![],
            });
        }
        let water = Brush::new(WATER).priority(priority::ROOM_FLOOR);
        map.fill_rect(&Rect::new(30, 10, 5, 5), &water).unwrap();
        map
    }

    #[test]
    fn down_stairs_go_to_different_rooms_on_open_dry_floor() {
        for seed in 0..200 {
            let mut map = two_rooms();
            let cells = down_stairs(
                &mut map,
                &mut Rng::new(seed),
                STAIRS,
                2,
                (&[WATER], ROOMS),
                &mut Unmetered,
            )
            .unwrap();
            assert_eq!(cells.len(), 2);
            let in_room = |p: Point, i: usize| map.notes.rooms[i].rect.contains(p);
            assert!(
                in_room(cells[0], 0) != in_room(cells[1], 0),
                "seed {seed}: {cells:?}"
            );
            for p in cells {
                assert_eq!(map.terrain_at(p).unwrap(), STAIRS);
                assert_eq!(map.priority_at(p).unwrap(), priority::FEATURE_FLOOR);
            }
        }
        // Three stairs, two rooms: the third must share.
        let mut map = two_rooms();
        assert_eq!(
            down_stairs(
                &mut map,
                &mut Rng::new(1),
                STAIRS,
                3,
                (&[WATER], ROOMS),
                &mut Unmetered
            )
            .unwrap()
            .len(),
            3
        );
        let e = down_stairs(
            &mut blank(10, 10),
            &mut Rng::new(1),
            STAIRS,
            1,
            (&[], ROOMS),
            &mut Unmetered,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "no open floor of priority ≤ ROOM_FLOOR is left for the down stairs"
        );
    }

    /// Two rooms joined by a long corridor: most open cells are corridor.
    fn rooms_and_a_corridor() -> Map {
        let mut map = two_rooms();
        let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR);
        map.fill_rect(&Rect::new(8, 4, 12, 1), &floor).unwrap();
        map.fill_rect(&Rect::new(2, 12, 26, 6), &floor).unwrap();
        map
    }

    #[test]
    fn stairs_go_in_rooms_unless_anywhere_is_asked_for() {
        let (mut outside, mut anywhere) = (0, 0);
        for seed in 0..200 {
            for (placement, count) in [
                (StairPlacement::Rooms, &mut outside),
                (StairPlacement::Anywhere, &mut anywhere),
            ] {
                let mut map = rooms_and_a_corridor();
                let cells = down_stairs(
                    &mut map,
                    &mut Rng::new(seed),
                    STAIRS,
                    2,
                    (&[WATER], placement),
                    &mut Unmetered,
                )
                .unwrap();
                let rooms = &map.notes.rooms;
                *count += cells
                    .iter()
                    .filter(|&&p| !rooms.iter().any(|r| r.rect.contains(p)))
                    .count();
            }
        }
        assert_eq!(outside, 0);
        assert!(anywhere > 120, "{anywhere} of 400 outside rooms");
    }

    #[test]
    fn stairs_never_stand_on_doors_or_hazards() {
        use crate::gen::dungeon::test_support::CHASM;
        use crate::map::{Door, DoorState};
        for seed in 0..100 {
            let mut map = blank(12, 5);
            let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR);
            map.fill_rect(&Rect::new(1, 1, 10, 3), &floor).unwrap();
            let chasm = Brush::new(CHASM).priority(priority::ROOM_FLOOR);
            map.fill_rect(&Rect::new(1, 1, 10, 2), &chasm).unwrap();
            for x in 1..10 {
                map.add_door(Door::new(Point::new(x, 3), DoorState::Open))
                    .unwrap();
            }
            let placement = StairPlacement::Anywhere;
            let cells = down_stairs(
                &mut map,
                &mut Rng::new(seed),
                STAIRS,
                1,
                (&[], placement),
                &mut Unmetered,
            )
            .unwrap();
            assert_eq!(cells, vec![Point::new(10, 3)]);
        }
    }

    #[test]
    fn up_stairs_match_the_level_above_and_dig_a_pocket_in_rock() {
        let mut above = two_rooms();
        let down = down_stairs(
            &mut above,
            &mut Rng::new(5),
            STAIRS,
            2,
            (&[], ROOMS),
            &mut Unmetered,
        )
        .unwrap();
        let mut below = blank(40, 20);
        let walls = Brush::new(WALL).priority(priority::CORRIDOR_WALL);
        let up = up_stairs(&mut below, &above, STAIRS, &walls, &mut Unmetered).unwrap();
        assert_eq!(up, down);
        assert_eq!(below.notes.stairs.up, down);
        for p in up {
            assert!(!below.is_solid(p).unwrap());
            for d in Dir::ALL {
                assert_eq!(below.terrain_at(p.step(d)).unwrap(), WALL);
            }
        }
        // Another down stair then avoids the up stairs' room.
        let mut map = two_rooms();
        map.notes.stairs.up.push(Point::new(3, 3));
        for seed in 0..50 {
            let mut m = map.clone();
            let d = down_stairs(
                &mut m,
                &mut Rng::new(seed),
                STAIRS,
                1,
                (&[WATER], ROOMS),
                &mut Unmetered,
            )
            .unwrap();
            assert!(!Rect::new(2, 2, 6, 6).contains(d[0]), "seed {seed}");
        }
    }
}
