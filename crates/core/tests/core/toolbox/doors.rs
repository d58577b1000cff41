use crate::common::terrain;
use std::sync::Arc;
use warren_core::gen::connectivity::{components, map_adjacency};
use warren_core::gen::doors::{finish_doors, make_door, FinishDoors, StateCounts};
use warren_core::gen::tunnel::incursion_dist;
use warren_core::map::{
    priority, Brush, Door, DoorKind, DoorState, DoorWeights, Map, Point, TerrainId,
};
use warren_core::map::{Rect, TerrainTable};
use warren_core::rng::Rng;

const ROCK: TerrainId = 0;
const FLOOR: TerrainId = 1;
const CLOSED: TerrainId = 2;
const OPEN: TerrainId = 3;
const LOCKED: TerrainId = 4;
const BROKEN: TerrainId = 5;
const BRICK: TerrainId = 6;

/// Rock, floor, the four looks of an "oak" door, and a brick wall.
fn table() -> Arc<TerrainTable> {
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
            terrain("rock", '#', true),
            terrain("floor", '.', false),
            terrain("closed", '+', true),
            terrain("open", '\'', false),
            terrain("locked", '+', true),
            terrain("broken", '\'', false),
            terrain("brick", '#', true),
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
