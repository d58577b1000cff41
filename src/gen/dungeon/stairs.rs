//! Step 6 (seed 003, "Place Stairs"): up stairs where the level above has its down stairs, and
//! down stairs on open floor, no two in the same room or region while another is free.

use super::DungeonError;
use crate::map::{priority, Brush, Dir, Map, Point, TerrainId, FLAG_SOLID};
use crate::rng::Rng;
use std::collections::BTreeSet;

/// Random tries for a stair cell in a room or region not yet holding stairs (the original's
/// 500) before the candidates are searched in order.
const TRIES: u32 = 500;

/// Where a stair stands: in a recorded room (by index), or else in a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Room(usize),
    Region(u16),
}

fn place_of(map: &Map, p: Point) -> Place {
    match map.notes.rooms.iter().position(|r| r.rect.contains(p)) {
        Some(i) => Place::Room(i),
        None => Place::Region(map.region_at(p).unwrap_or(0)),
    }
}

/// Writes up stairs at the cells of the level above's down stairs (levels of different sizes
/// are centred on each other; cells that fall off this level or on its edge are skipped) at
/// FEATURE_FLOOR priority. Where the cell was solid, its solid neighbours get `walls`, so the
/// stairs stand in a pocket that the fix-up joins to the level. Returns the cells.
pub fn up_stairs(map: &mut Map, above: &Map, stair: TerrainId, walls: &Brush) -> Vec<Point> {
    let shift = Point::new(
        (map.width() - above.width()) / 2,
        (map.height() - above.height()) / 2,
    );
    let mut placed = Vec::new();
    for p in &above.notes.stairs.down {
        let q = Point::new(p.x + shift.x, p.y + shift.y);
        if !map.in_bounds(q.x as i64, q.y as i64) || map.is_edge(q.x, q.y) {
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
    placed
}

/// Writes `count` down stairs at FEATURE_FLOOR priority on open cells of priority at most
/// ROOM_FLOOR (not in vaults, doors or streamers) whose terrain is not in `avoid` (water,
/// chasms, lava). Each goes into a room or region holding no stairs yet; only when none is
/// left may two share one. Returns the cells.
pub fn down_stairs(
    map: &mut Map,
    rng: &mut Rng,
    stair: TerrainId,
    count: u32,
    avoid: &[TerrainId],
) -> Result<Vec<Point>, DungeonError> {
    let mut candidates: Vec<Point> = (0..map.len())
        .filter(|&i| {
            let p = map.point(i);
            map.flag_cells()[i] & FLAG_SOLID == 0
                && map.priority_cells()[i] <= priority::ROOM_FLOOR
                && !avoid.contains(&map.terrain_cells()[i])
                && !map.is_edge(p.x, p.y)
        })
        .map(|i| map.point(i))
        .collect();
    if count > 0 && candidates.is_empty() {
        return Err(DungeonError::NoStairSpot { which: "down" });
    }
    let mut taken: BTreeSet<Place> = map
        .notes
        .stairs
        .up
        .iter()
        .chain(&map.notes.stairs.down)
        .map(|&p| place_of(map, p))
        .collect();
    let mut placed = Vec::new();
    for _ in 0..count {
        if candidates.is_empty() {
            break;
        }
        let free = |p: &Point| !taken.contains(&place_of(map, *p));
        let pick = (0..TRIES)
            .map(|_| rng.below(candidates.len() as u64) as usize)
            .find(|&i| free(&candidates[i]))
            .or_else(|| candidates.iter().position(free))
            .unwrap_or(0);
        let p = candidates.swap_remove(pick);
        taken.insert(place_of(map, p));
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
    use crate::map::{Rect, Room};

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
            let cells = down_stairs(&mut map, &mut Rng::new(seed), STAIRS, 2, &[WATER]).unwrap();
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
            down_stairs(&mut map, &mut Rng::new(1), STAIRS, 3, &[WATER])
                .unwrap()
                .len(),
            3
        );
        let e = down_stairs(&mut blank(10, 10), &mut Rng::new(1), STAIRS, 1, &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no open floor of priority ≤ ROOM_FLOOR is left for the down stairs"
        );
    }

    #[test]
    fn up_stairs_match_the_level_above_and_dig_a_pocket_in_rock() {
        let mut above = two_rooms();
        let down = down_stairs(&mut above, &mut Rng::new(5), STAIRS, 2, &[]).unwrap();
        let mut below = blank(40, 20);
        let walls = Brush::new(WALL).priority(priority::CORRIDOR_WALL);
        let up = up_stairs(&mut below, &above, STAIRS, &walls);
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
            let d = down_stairs(&mut m, &mut Rng::new(seed), STAIRS, 1, &[WATER]).unwrap();
            assert!(!Rect::new(2, 2, 6, 6).contains(d[0]), "seed {seed}");
        }
    }
}
