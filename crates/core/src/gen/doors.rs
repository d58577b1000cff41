//! Making doors while a level is built (Incursion's `MakeDoor`) and finishing them once it is
//! done (the door validation at the end of `Map::Generate`, and `Door::SetImage`).
//!
//! A door is a feature on its cell ([`crate::map::door`]): making one records it and draws its
//! kind's closed terrain on the cell *without touching the cell's priority*, so a door in a room
//! wall still counts as room wall to the tunnel's rules (which is what stops a tunnel running
//! along a wall from laying a door at every step). A corridor written through the door later
//! floors the cell, as in the original; [`finish_doors`] draws every door in its final state.

use crate::gen::connectivity::{components, map_adjacency};
use crate::gen::tunnel::incursion_dist;
use crate::map::{
    priority, Brush, Dir, Door, DoorKind, DoorState, DoorWeights, Map, Point, TerrainId, FLAG_DOOR,
    FLAG_SOLID,
};
use crate::rng::Rng;
use std::collections::BTreeMap;

/// Makes a door of `kind` in `state` at `at`: records it (see [`Map::add_door`]) with the
/// terrain it stands on ([`Door::made_on`]) and draws the kind's closed terrain there, leaving
/// the cell's priority and region alone. Refuses (and
/// returns `false`) off the map, on its edge, where a door already stands, and on cells of
/// higher priority than room furniture (rivers, vaults, stairs), where no door may stand.
// Incursion's MakeDoor checks none of these but the door already there; a door inside a river or
// a vault wall is never what a level wants.
pub fn make_door(map: &mut Map, at: Point, kind: &DoorKind, state: DoorState) -> bool {
    if !door_may_stand(map, at) {
        return false;
    }
    let Ok(i) = map.index(at) else {
        return false;
    };
    let made_on = map.terrain_at(at).ok();
    map.write_index(i, &Brush::new(kind.closed));
    let door = Door {
        x: at.x,
        y: at.y,
        state,
        kind: Some(kind.name.clone()),
        made_on,
    };
    map.add_door(door).unwrap_or(false)
}

/// Whether [`make_door`] may make a door at `at`: on the map but not its edge, where no door
/// stands, on a cell of at most room-furniture priority.
pub fn door_may_stand(map: &Map, at: Point) -> bool {
    map.index(at).is_ok_and(|i| {
        !map.is_edge(at)
            && map.flag_cells()[i] & FLAG_DOOR == 0
            && map.priority_cells()[i] <= priority::ROOM_FURNITURE
    })
}

/// How [`finish_doors`] treats secret doors near the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishDoors {
    /// The level's depth (1 = the first level).
    pub depth: u32,
    /// On levels at most this deep, no secret door stays within `reveal_radius` of up stairs
    /// (Incursion: 5, "to prevent the player from being boxed in").
    pub reveal_depth: u32,
    /// Distance (Incursion's `dist`) from up stairs within which secret doors become closed
    /// doors (Incursion: 17).
    pub reveal_radius: i32,
}

impl Default for FinishDoors {
    fn default() -> Self {
        FinishDoors {
            depth: 1,
            reveal_depth: 5,
            reveal_radius: 17,
        }
    }
}

/// How many doors ended in each state, indexed like [`DoorState::ALL`].
pub type StateCounts = [usize; 5];

/// Gives every door made from region data (those with a kind) its final state and draws it,
/// following the door pass at the end of Incursion's `Map::Generate` and `Door::SetImage`:
///
/// 1. A door on a staircase's cell is dropped.
/// 2. Doors that touch (8-neighbour) are removed in pairs, in the order they were made: each
///    door still standing next to another loses both. A removed door's cell stays as the
///    corridor left it; one no corridor walked through is walled up again with the terrain the
///    door was made on ([`Door::made_on`]; a door recorded without it, a vault's, with the wall
///    beside it), unless that wall would cut the level in two (counted in the map's adjacency,
///    see [`map_adjacency`]): then the door stays (broken if it still touches another door).
/// 3. A door that does not stand between two walls (solid cells without a door, west and east
///    or north and south) is **broken**: an empty doorway.
/// 4. A door made secret (a maze's) stays secret; a closed door gets a state drawn with its
///    kind's weights (Incursion: closed 27, open 6, locked 27, secret 10 in 70).
/// 5. On levels at most `reveal_depth` deep, secret doors within `reveal_radius` of up stairs
///    become closed doors.
/// 6. Each door's cell gets the terrain of its state at FEATURE_FLOOR priority; a secret door
///    without a terrain of its own is drawn as the wall beside it (below a door between north
///    and south walls, right of one between west and east walls), as Incursion draws it.
///
/// Doors without a kind (recorded by a recipe with `map:add_door`) are left as they are.
/// Returns how many doors ended in each state.
// Incursion's validation removes doors that fail rule 3 too (its SetImage marks them broken
// when they are made). warren keeps them as broken doorways: as passable as the floor the
// original leaves, and a game still knows a doorway is there.
// Incursion also checks rule 3 before rule 2, one door at a time, starting over after each
// removal, so a door in the open goes alone if it is reached before a door touching it. Kept
// as a broken doorway, such a door would still touch its neighbour, so warren removes touching
// pairs first and judges the doors left against the walls as the removals left them.
pub fn finish_doors(map: &mut Map, rng: &mut Rng, opts: &FinishDoors) -> StateCounts {
    drop_doors_on_stairs(map);
    remove_touching_pairs(map);
    let up = map.notes.stairs.up.clone();
    let mut counts = [0; 5];
    let mut doors = std::mem::take(&mut map.notes.doors);
    for door in &mut doors {
        let at = door.at();
        let Some(kind) = door.kind.as_deref().and_then(|k| map.terrains().door(k)) else {
            counts[door.state as usize] += 1;
            continue;
        };
        let between = between_walls(map, at);
        door.state = if between.is_none() {
            DoorState::Broken
        } else if door.state == DoorState::Closed {
            roll(rng, &kind.weights)
        } else {
            door.state
        };
        let near_up = up
            .iter()
            .any(|&s| incursion_dist(s, at) <= opts.reveal_radius);
        if door.state == DoorState::Secret && opts.depth <= opts.reveal_depth && near_up {
            door.state = DoorState::Closed;
        }
        let terrain = kind
            .terrain(door.state)
            .or_else(|| between.and_then(|wall| map.terrain_at(wall).ok()));
        if let Some(t) = terrain {
            let _ = map.write(at, &Brush::new(t).priority(priority::FEATURE_FLOOR));
        }
        counts[door.state as usize] += 1;
    }
    map.notes.doors = doors;
    counts
}

/// Drops the doors standing on stairs.
fn drop_doors_on_stairs(map: &mut Map) {
    let stairs: Vec<Point> = map
        .notes
        .stairs
        .up
        .iter()
        .chain(&map.notes.stairs.down)
        .copied()
        .collect();
    let (on_stairs, kept): (Vec<Door>, Vec<Door>) = std::mem::take(&mut map.notes.doors)
        .into_iter()
        .partition(|d| stairs.contains(&d.at()));
    for d in on_stairs {
        if let Ok(i) = map.index(d.at()) {
            map.flag_cells_mut()[i] &= !FLAG_DOOR;
        }
    }
    map.notes.doors = kept;
}

/// Step 2 of [`finish_doors`]: removes touching doors (those with a kind) in pairs, walling up
/// the cells no corridor floored, unless that would split the level.
fn remove_touching_pairs(map: &mut Map) {
    let at: Vec<Option<Point>> = map
        .notes
        .doors
        .iter()
        .map(|d| d.kind.as_ref().map(|_| d.at()))
        .collect();
    let by_cell: BTreeMap<Point, usize> = at
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (p, i)))
        .collect();
    let mut removed = vec![false; at.len()];
    for (i, p) in at.iter().enumerate() {
        let Some(p) = *p else { continue };
        if removed[i] {
            continue;
        }
        let other = Dir::ALL
            .iter()
            .filter_map(|&dir| by_cell.get(&p.step(dir)).copied())
            .find(|&j| !removed[j]);
        if let Some(j) = other {
            removed[i] = true;
            removed[j] = true;
        }
    }
    // Cells to wall up again: still solid (drawn as a closed door, never floored), with the
    // terrain the door was made on, or for a door recorded without it the terrain of a wall
    // beside it. One with neither stays.
    // Guessing from the walls beside every door once left whole runs standing: a tunnel that
    // zigzagged along a keep's wall made a door in the wall at every bump and one on the rock
    // below, eighteen in two rows (seed 159, level 4); the pairs went, but the wall doors in the
    // middle of the row, with doors on both sides and open cells above and below, found no wall
    // within reach and stayed, three in a line.
    let mut walls: Vec<(usize, TerrainId, TerrainId)> = Vec::new();
    for i in 0..at.len() {
        let Some(p) = at[i].filter(|_| removed[i]) else {
            continue;
        };
        if !map.is_solid(p).unwrap_or(false) {
            continue;
        }
        let made_on = map.notes.doors[i].made_on;
        match (made_on.or_else(|| wall_beside(map, p)), map.terrain_at(p)) {
            (Some(new), Ok(old)) => walls.push((i, old, new)),
            _ => removed[i] = false,
        }
    }
    if !removed.contains(&true) {
        return;
    }
    let set_door = |map: &mut Map, p: Point, on: bool| {
        if let Ok(c) = map.index(p) {
            let f = &mut map.flag_cells_mut()[c];
            *f = if on { *f | FLAG_DOOR } else { *f & !FLAG_DOOR };
        }
    };
    // Removed doors on floor leave the floor (as passable as before).
    for (i, p) in at.iter().enumerate() {
        let walled = walls.iter().any(|&(w, _, _)| w == i);
        if let (true, false, Some(p)) = (removed[i], walled, *p) {
            set_door(map, p, false);
        }
    }
    // The others are walled up one at a time: a wall that would cut the level leaves its door
    // standing (broken if it still touches another door).
    let adjacency = map_adjacency(map);
    let mut areas = (!walls.is_empty()).then(|| components(map, adjacency).len());
    for &(i, old, new) in &walls {
        let (Some(p), Some(before)) = (at[i], areas) else {
            continue;
        };
        set_door(map, p, false);
        let _ = map.write(p, &Brush::new(new));
        let after = components(map, adjacency).len();
        if after > before {
            let _ = map.write(p, &Brush::new(old));
            set_door(map, p, true);
            removed[i] = false;
        }
        areas = Some(after.min(before));
    }
    for (i, p) in at.iter().enumerate() {
        let Some(p) = p.filter(|_| !removed[i]) else {
            continue;
        };
        let touching = Dir::ALL
            .iter()
            .filter_map(|&dir| by_cell.get(&p.step(dir)))
            .any(|&j| !removed[j]);
        if touching {
            map.notes.doors[i].state = DoorState::Broken;
        }
    }
    let mut i = 0;
    map.notes.doors.retain(|_| {
        i += 1;
        !removed[i - 1]
    });
}

/// A state drawn with `weights` (closed when every weight is 0).
fn roll(rng: &mut Rng, weights: &DoorWeights) -> DoorState {
    rng.weighted_index(&weights.as_array())
        .map_or(DoorState::Closed, |i| DoorWeights::STATES[i])
}

/// The terrain of the nearest wall along the four sides of `p`, up to three cells away (a run
/// of doors hides the wall beyond it).
fn wall_beside(map: &Map, p: Point) -> Option<TerrainId> {
    (1..=3)
        .flat_map(|n| {
            [Dir::South, Dir::East, Dir::North, Dir::West].map(|d| {
                let (dx, dy) = d.delta();
                Point::new(p.x + dx * n, p.y + dy * n)
            })
        })
        .find(|&q| wall(map, q))
        .and_then(|q| map.terrain_at(q).ok())
}

/// Whether `p` is a wall: on the map, solid, and no door.
fn wall(map: &Map, p: Point) -> bool {
    map.index(p)
        .is_ok_and(|i| map.flag_cells()[i] & (FLAG_SOLID | FLAG_DOOR) == FLAG_SOLID)
}

/// If `p` stands between two walls, the wall a secret door there is drawn as: the one below
/// (walls north and south) or else the one to the right (walls west and east).
fn between_walls(map: &Map, p: Point) -> Option<Point> {
    if wall(map, p.step(Dir::North)) && wall(map, p.step(Dir::South)) {
        Some(p.step(Dir::South))
    } else if wall(map, p.step(Dir::West)) && wall(map, p.step(Dir::East)) {
        Some(p.step(Dir::East))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Rect, Rgb, Terrain, TerrainTable};
    use std::sync::Arc;

    const ROCK: TerrainId = 0;
    const FLOOR: TerrainId = 1;
    const CLOSED: TerrainId = 2;
    const OPEN: TerrainId = 3;
    const LOCKED: TerrainId = 4;
    const BROKEN: TerrainId = 5;
    const BRICK: TerrainId = 6;

    /// Rock, floor, the four looks of an "oak" door, and a brick wall.
    fn table() -> Arc<TerrainTable> {
        let t = |name: &str, glyph, solid| Terrain {
            name: name.into(),
            glyph,
            color: Rgb(0, 0, 0),
            solid,
            hazard: false,
            move_cost: None,
        };
        let oak = DoorKind {
            name: "oak".into(),
            closed: CLOSED,
            open: OPEN,
            locked: LOCKED,
            broken: BROKEN,
            secret: None,
            weights: DoorWeights::INCURSION,
            wooden: true,
        };
        Arc::new(
            TerrainTable::new(vec![
                t("rock", '#', true),
                t("floor", '.', false),
                t("closed", '+', true),
                t("open", '\'', false),
                t("locked", '+', true),
                t("broken", '\'', false),
                t("brick", '#', true),
            ])
            .with_doors(vec![oak]),
        )
    }

    /// A map from rows: `#` rock, `B` brick, `.` floor, `+` an oak door on a wall cell, `:` an
    /// oak door on a floored cell, `S` a secret oak door on a floor cell.
    fn map(rows: &[&str]) -> Map {
        let (w, h) = (rows[0].len() as i64, rows.len() as i64);
        let mut map = Map::new(w, h, ROCK, table()).unwrap();
        let kind = map.terrains().door("oak").unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let p = Point::new(x as i32, y as i32);
                let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR).forced();
                let wall = Brush::new(BRICK).priority(priority::ROOM_WALL).forced();
                match c {
                    '#' => {}
                    'B' | '+' => drop(map.write(p, &wall)),
                    _ => drop(map.write(p, &floor)),
                }
                let state = match c {
                    '+' | ':' => DoorState::Closed,
                    'S' => DoorState::Secret,
                    _ => continue,
                };
                let door = Door {
                    x: p.x,
                    y: p.y,
                    state,
                    kind: Some(kind.name.clone()),
                    // As `make_door` records it: the wall, or the floor of a ':' or 'S' cell.
                    made_on: map.terrain_at(p).ok(),
                };
                map.add_door(door).unwrap();
                if c == ':' {
                    // Floored by a corridor after it was made.
                    drop(map.write(p, &floor));
                }
            }
        }
        map
    }

    fn finish(map: &mut Map, seed: u64) -> StateCounts {
        finish_doors(map, &mut Rng::new(seed), &FinishDoors::default())
    }

    #[test]
    fn doors_between_two_walls_draw_their_state_and_the_rest_are_broken() {
        let mut counts = [0; 5];
        for seed in 0..700 {
            let mut m = map(&[
                "BBBBBBB", //
                "B.....B", //
                "BBB+BBB", //
                "B.....B", //
                "B....:B", //
                "BBBBBBB",
            ]);
            let c = finish(&mut m, seed);
            let doors = &m.notes.doors;
            assert_eq!(doors.len(), 2);
            // (5, 4) has a wall east and south, but floor west and north.
            assert_eq!(doors[1].state, DoorState::Broken);
            assert_eq!(m.terrain_at(Point::new(5, 4)).unwrap(), BROKEN);
            let state = doors[0].state;
            let want = match state {
                DoorState::Closed => Some(CLOSED),
                DoorState::Open => Some(OPEN),
                DoorState::Locked => Some(LOCKED),
                // Drawn as the wall to its right (walls west and east).
                DoorState::Secret => Some(BRICK),
                DoorState::Broken => None,
            };
            assert_eq!(
                Some(m.terrain_at(Point::new(3, 2)).unwrap()),
                want,
                "{state:?}"
            );
            assert_eq!(
                m.priority_at(Point::new(3, 2)).unwrap(),
                priority::FEATURE_FLOOR
            );
            for i in 0..5 {
                counts[i] += c[i];
            }
        }
        // Incursion's 27 : 6 : 27 : 10 over 700 doors: 270, 60, 270, 100.
        let [closed, open, locked, secret, broken] = counts;
        assert_eq!(broken, 700);
        assert!((220..320).contains(&closed), "{counts:?}");
        assert!((35..90).contains(&open), "{counts:?}");
        assert!((220..320).contains(&locked), "{counts:?}");
        assert!((70..130).contains(&secret), "{counts:?}");
    }

    #[test]
    fn touching_doors_go_in_pairs_and_walls_come_back_unless_they_cut_the_level() {
        // A run of three doors in a wall nothing needs (rock behind it), a floored pair in a
        // corridor, and a pair where the wall-side door is the only way into the east room.
        let mut m = map(&[
            "#########", //
            "#BBBBBBB#", //
            "#B+++..B#", //
            "#B.....B#", //
            "#B.::..B#", //
            "#BBBBBBB#", //
            "#########",
        ]);
        finish(&mut m, 1);
        let left: Vec<Point> = m.notes.doors.iter().map(|d| d.at()).collect();
        // (2, 2) and (3, 2) went as a pair and became brick again; (4, 2) stands alone, with
        // rock north and floor south: broken. The floored pair left floor.
        assert_eq!(left, [Point::new(4, 2)]);
        assert_eq!(m.notes.doors[0].state, DoorState::Broken);
        for x in [2, 3] {
            assert_eq!(m.terrain_at(Point::new(x, 2)).unwrap(), BRICK);
            assert!(!m.is_door(Point::new(x, 2)).unwrap());
        }
        for x in [3, 4] {
            assert_eq!(m.terrain_at(Point::new(x, 4)).unwrap(), FLOOR);
        }

        let mut needed = map(&[
            "BBBBBBBBB", //
            "B...B...B", //
            "B...+...B", //
            "B...B:..B", //
            "BBBBBBBBB",
        ]);
        finish(&mut needed, 2);
        // Walling (4, 2) up would cut the east room off: it stays, and no longer touches a door.
        let left: Vec<Point> = needed.notes.doors.iter().map(|d| d.at()).collect();
        assert_eq!(left, [Point::new(4, 2)]);
        assert_ne!(needed.notes.doors[0].state, DoorState::Broken);
        assert_eq!(components(&needed, map_adjacency(&needed)).len(), 1);
    }

    /// Seed 159's level 4 in small: a tunnel that zigzagged under a room's south wall left a
    /// door in the wall at every bump and one on the corridor below it. Every door goes in a
    /// (vertical) pair; the wall doors become the wall they were made on again, although the
    /// middle ones have doors on both sides and open cells above and below (no wall beside
    /// them to copy), and the level stays one area through the passage on the west.
    #[test]
    fn a_block_of_doors_under_a_wall_goes_and_the_wall_comes_back_whole() {
        let mut m = map(&[
            "BBBBBBBBBBBBBBB", //
            "B.............B", //
            "B.............B", //
            "B.............B", //
            "B.B+++++++++BBB", //
            "B.#:::::::::###", //
            "B.............B", //
            "B.............B", //
            "BBBBBBBBBBBBBBB",
        ]);
        finish(&mut m, 5);
        assert_eq!(m.notes.doors, []);
        for x in 3..=11 {
            assert_eq!(m.terrain_at(Point::new(x, 4)).unwrap(), BRICK, "x {x}");
            assert_eq!(m.terrain_at(Point::new(x, 5)).unwrap(), FLOOR, "x {x}");
            assert!(!m.is_door(Point::new(x, 4)).unwrap() && !m.is_door(Point::new(x, 5)).unwrap());
        }
        assert_eq!(components(&m, map_adjacency(&m)).len(), 1);
    }

    #[test]
    fn no_secret_door_stays_near_the_up_stairs_of_a_shallow_level() {
        let rows = [
            "BBBBBBBBBBB", //
            "B.........B", //
            "BBBBBSBBBBB", //
            "B.........B", //
            "BBBBBBBBBBB",
        ];
        for (depth, stairs, want) in [
            (5, Point::new(5, 1), DoorState::Closed),
            (6, Point::new(5, 1), DoorState::Secret),
            (1, Point::new(9, 3), DoorState::Closed),
        ] {
            let mut m = map(&rows);
            m.notes.stairs.up.push(stairs);
            let opts = FinishDoors {
                depth,
                reveal_radius: 4,
                ..FinishDoors::default()
            };
            finish_doors(&mut m, &mut Rng::new(1), &opts);
            let near = incursion_dist(stairs, Point::new(5, 2)) <= 4;
            let want = if near { want } else { DoorState::Secret };
            assert_eq!(m.notes.doors[0].state, want, "depth {depth} {stairs:?}");
        }
    }

    #[test]
    fn doors_on_stairs_are_dropped_and_doors_without_a_kind_left_alone() {
        let mut m = map(&["BBBBB", "B.+.B", "BBBBB"]);
        m.notes.stairs.down.push(Point::new(2, 1));
        let plain = Door::new(Point::new(1, 1), DoorState::Locked);
        m.add_door(plain.clone()).unwrap();
        finish(&mut m, 3);
        assert_eq!(m.notes.doors, [plain]);
        assert!(!m.is_door(Point::new(2, 1)).unwrap());
        assert_eq!(m.terrain_at(Point::new(1, 1)).unwrap(), FLOOR);
    }

    #[test]
    fn making_a_door_keeps_the_cell_and_refuses_vaults_edges_and_doubles() {
        let mut m = map(&["#######", "#BBBBB#", "#B...B#", "#BBBBB#", "#######"]);
        let kind = m.terrains().door("oak").unwrap();
        let vault = Brush::new(BRICK).priority(priority::VAULT);
        m.fill_rect(&Rect::new(4, 3, 2, 1), &vault).unwrap();
        assert!(make_door(
            &mut m,
            Point::new(2, 3),
            &kind,
            DoorState::Closed
        ));
        assert_eq!(
            m.priority_at(Point::new(2, 3)).unwrap(),
            priority::ROOM_WALL
        );
        assert_eq!(m.terrain_at(Point::new(2, 3)).unwrap(), CLOSED);
        assert!(!make_door(
            &mut m,
            Point::new(2, 3),
            &kind,
            DoorState::Closed
        ));
        assert!(!make_door(
            &mut m,
            Point::new(4, 3),
            &kind,
            DoorState::Closed
        ));
        assert!(!make_door(
            &mut m,
            Point::new(0, 1),
            &kind,
            DoorState::Closed
        ));
        assert!(!make_door(
            &mut m,
            Point::new(9, 9),
            &kind,
            DoorState::Closed
        ));
        assert_eq!(m.notes.doors.len(), 1);
    }
}
