//! Unit tests of step 6: stairs.

use crate::dungeon::test_support::{blank, FLOOR, STAIRS, WALL, WATER};
use warren_core::gen::dungeon::{down_stairs, up_stairs, StairPlacement};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, Brush, Dir, Map, Point, Rect, Room};
use warren_core::rng::Rng;

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
    use crate::dungeon::test_support::CHASM;
    use warren_core::map::{Door, DoorState};
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
