//! Unit tests of the fix-up's last-resort path.

use crate::dungeon::test_support::{
    blank, reach, render, CHASM, CORRIDOR, FLOOR, VAULT_WALL, WALL,
};
use warren_core::gen::dungeon::{carve_path, DungeonError, PathBrushes};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, Adjacency, Brush, Map, Point, Rect};

fn brushes() -> PathBrushes {
    PathBrushes {
        floor: Brush::new(CORRIDOR).priority(priority::ROOM_FLOOR),
        walls: Brush::new(WALL).priority(priority::CORRIDOR_WALL),
        bridge: None,
    }
}

fn room(map: &mut Map, r: Rect) {
    map.fill_rect(&r, &Brush::new(FLOOR).priority(priority::ROOM_FLOOR))
        .unwrap();
}

#[test]
fn joins_two_rooms_around_a_vault() {
    let mut map = blank(30, 20);
    room(&mut map, Rect::new(2, 8, 3, 3));
    room(&mut map, Rect::new(25, 8, 3, 3));
    let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
    map.fill_rect(&Rect::new(10, 1, 5, 17), &vault).unwrap();
    let carved = carve_path(
        &mut map,
        (Point::new(4, 9), Point::new(25, 9)),
        &brushes(),
        Adjacency::Eight,
        &mut Unmetered,
    )
    .unwrap();
    assert!(!carved.is_empty());
    assert_eq!(
        reach(&map, Point::new(3, 9)),
        9 + 9 + carved.len(),
        "{}",
        render(&map)
    );
    for p in Rect::new(10, 1, 5, 17).cells() {
        assert_eq!(map.terrain_at(p).unwrap(), VAULT_WALL);
    }
    assert!(carved.iter().all(|p| !map.is_edge(*p)));
}

#[test]
fn a_sealed_area_is_an_error_and_nothing_is_written() {
    let mut map = blank(20, 20);
    room(&mut map, Rect::new(2, 2, 2, 2));
    let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
    map.outline_rect(&Rect::new(10, 10, 5, 5), &vault).unwrap();
    room(&mut map, Rect::new(11, 11, 3, 3));
    let before = map.terrain_cells().to_vec();
    let e = carve_path(
        &mut map,
        (Point::new(2, 2), Point::new(12, 12)),
        &brushes(),
        Adjacency::Eight,
        &mut Unmetered,
    )
    .unwrap_err();
    assert_eq!(
        e,
        DungeonError::Sealed {
            at: Point::new(12, 12)
        }
    );
    assert_eq!(map.terrain_cells(), &before[..]);
}

#[test]
fn a_diagonal_gap_between_open_cells_is_used_without_carving() {
    let mut map = blank(10, 10);
    let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
    map.fill_rect(&Rect::new(1, 1, 8, 8), &vault).unwrap();
    let vault_floor = Brush::new(FLOOR).priority(priority::VAULT);
    map.fill_rect(&Rect::new(2, 2, 2, 2), &vault_floor).unwrap();
    map.fill_rect(&Rect::new(4, 4, 2, 2), &vault_floor).unwrap();
    let ends = (Point::new(2, 2), Point::new(5, 5));
    let carved = carve_path(&mut map, ends, &brushes(), Adjacency::Eight, &mut Unmetered).unwrap();
    assert!(carved.is_empty());
    // Walking orthogonally, the corner between the two rooms is vault wall: sealed.
    let e = carve_path(&mut map, ends, &brushes(), Adjacency::Four, &mut Unmetered).unwrap_err();
    assert_eq!(e, DungeonError::Sealed { at: ends.1 });
}

#[test]
fn hazards_are_bridged_only_with_a_bridge() {
    let mut map = blank(30, 12);
    room(&mut map, Rect::new(2, 4, 3, 3));
    room(&mut map, Rect::new(25, 4, 3, 3));
    let chasm = Brush::new(CHASM).priority(priority::RIVER_STREAMER);
    map.fill_rect(&Rect::new(12, 1, 4, 10), &chasm).unwrap();
    let ends = (Point::new(4, 5), Point::new(25, 5));
    let mut brushes = brushes();
    for adjacency in [Adjacency::Four, Adjacency::Eight] {
        let e =
            carve_path(&mut map.clone(), ends, &brushes, adjacency, &mut Unmetered).unwrap_err();
        assert_eq!(e, DungeonError::Sealed { at: ends.1 });
    }
    brushes.bridge = Some(Brush::new(FLOOR).priority(priority::RIVER_STREAMER));
    for adjacency in [Adjacency::Four, Adjacency::Eight] {
        let mut m = map.clone();
        let carved = carve_path(&mut m, ends, &brushes, adjacency, &mut Unmetered).unwrap();
        let bridged = carved.iter().filter(|p| (12..16).contains(&p.x)).count();
        assert_eq!(bridged, 4, "{}", render(&m));
        let reached = warren_core::gen::connectivity::mark_connected(&mut m, ends.0, adjacency);
        assert!(
            m.is_connected(ends.1).unwrap(),
            "{reached:?}\n{}",
            render(&m)
        );
    }
}

#[test]
fn a_four_neighbour_path_has_no_diagonal_steps() {
    for seed in 0..50u64 {
        let mut map = blank(40, 30);
        let mut rng = warren_core::rng::Rng::new(seed);
        let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
        for _ in 0..8 {
            let (x, y) = (rng.range(3, 34) as i32, rng.range(3, 24) as i32);
            map.fill_rect(&Rect::new(x, y, 3, 3), &vault).unwrap();
        }
        let ends = (Point::new(1, 1), Point::new(38, 28));
        map.write(
            ends.0,
            &Brush::new(FLOOR).priority(priority::ROOM_FLOOR).forced(),
        )
        .unwrap();
        map.write(
            ends.1,
            &Brush::new(FLOOR).priority(priority::ROOM_FLOOR).forced(),
        )
        .unwrap();
        carve_path(&mut map, ends, &brushes(), Adjacency::Four, &mut Unmetered).unwrap();
        warren_core::gen::connectivity::mark_connected(&mut map, ends.0, Adjacency::Four).unwrap();
        assert!(
            map.is_connected(ends.1).unwrap(),
            "seed {seed}\n{}",
            render(&map)
        );
    }
}
