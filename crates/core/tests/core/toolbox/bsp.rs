use crate::common::ascii::{grid_map, DOOR, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::bsp::{interior, rooms, BspInterior, BspRooms, InteriorBrushes, RoomBrushes};
use warren_core::gen::connectivity::components;
use warren_core::gen::meter::Unmetered;
use warren_core::map::Adjacency;
use warren_core::map::{Brush, Map, Point, Rect};
use warren_core::rng::Rng;

/// Over 1,000 seeds and sizes: BSP rooms lie inside the area, never overlap or touch (two
/// cells apart at least), keep their sides within `min_room..=max_room`, are all connected
/// by the corridors, and the same seed gives the same map.
#[test]
fn bsp_rooms_never_overlap_and_are_connected() {
    let mut rng = Rng::new(31);
    for seed in 0..1000 {
        let (w, h) = (rng.range(6, 90) as usize, rng.range(6, 60) as usize);
        let min_leaf = rng.range(3, 12) as i32;
        let min_room = rng.range(1, (min_leaf - 2) as i64) as i32;
        let max_room = rng.percent(50).then(|| min_room + rng.range(0, 4) as i32);
        let options = BspRooms {
            min_leaf,
            min_room,
            max_room,
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let run = |seed| {
            let mut map = grid_map(w, h, &vec![true; w * h]);
            let floor = Brush::new(FLOOR);
            let brushes = RoomBrushes {
                floor: &floor,
                corridor: &floor,
            };
            let placed = rooms(
                &mut map,
                Area::Rect(area),
                &options,
                &mut Rng::new(seed),
                brushes,
                &mut Unmetered,
            )
            .unwrap();
            (map, placed)
        };
        let (map, placed) = run(seed);
        assert_eq!(map.terrain_cells(), run(seed).0.terrain_cells());
        assert_eq!(map.notes.rooms.len(), placed.len());
        for (i, a) in placed.iter().enumerate() {
            assert!(
                area.contains(Point::new(a.x, a.y)) && area.contains(Point::new(a.x2(), a.y2()))
            );
            let largest = max_room.unwrap_or(i32::MAX);
            for side in [a.w, a.h] {
                assert!((min_room..=largest).contains(&side), "seed {seed}: {a:?}");
            }
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b, 1), "seed {seed}: {a:?} and {b:?}");
            }
        }
        if !placed.is_empty() {
            assert_eq!(components(&map, Adjacency::Four).len(), 1, "seed {seed}");
        }
    }
}

/// The BSP interior of `area` with `min_room`, drawn from `seed`.
fn interior_of(
    map: &mut Map,
    area: Rect,
    min_room: i32,
    seed: u64,
    brushes: InteriorBrushes<'_>,
) -> Vec<Rect> {
    let (a, o, m) = (Area::Rect(area), BspInterior { min_room }, &mut Unmetered);
    interior(map, a, &o, &mut Rng::new(seed), brushes, m).unwrap()
}

/// Over 1,000 seeds: BSP interior rooms tile the area but for the walls on the cuts, every
/// room is reached, and the doors form a tree (as many as rooms less one, one area).
#[test]
fn bsp_interiors_tile_the_area_joined_by_a_tree_of_doors() {
    let mut rng = Rng::new(37);
    for seed in 0..1000 {
        let (w, h) = (rng.range(4, 60) as usize, rng.range(4, 40) as usize);
        let options = BspInterior {
            min_room: rng.range(2, 8) as i32,
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let mut map = grid_map(w, h, &vec![true; w * h]);
        let (floor, wall, door) = (Brush::new(FLOOR), Brush::new(ROCK), Brush::new(DOOR));
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: Some(&door),
        };
        let placed = interior_of(&mut map, area, options.min_room, seed, brushes);
        assert_eq!(map.notes.doors.len() + 1, placed.len(), "seed {seed}");
        assert_eq!(components(&map, Adjacency::Four).len(), 1, "seed {seed}");
        for (i, a) in placed.iter().enumerate() {
            assert!(a.w >= options.min_room.min(area.w) && a.h >= options.min_room.min(area.h));
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b, 0), "seed {seed}");
            }
        }
        let floor_cells: i32 = placed.iter().map(|r| r.w * r.h).sum();
        let open = map.passable_count() as i32;
        assert_eq!(
            open,
            floor_cells + map.notes.doors.len() as i32,
            "seed {seed}"
        );
    }
}

/// Over 1,000 seeds, with ranked brushes over cells of higher and lower priority: the
/// interior writes what filling its rectangle with wall and then each room with floor, one
/// room at a time, writes; only the doors (one cell of each cut) differ.
#[test]
fn bsp_interiors_write_like_room_by_room_fills() {
    let mut rng = Rng::new(41);
    for seed in 0..1000 {
        let (w, h) = (rng.range(4, 90) as usize, rng.range(4, 40) as usize);
        let mut map = grid_map(w, h, &vec![true; w * h]);
        for i in 0..w * h {
            let p = rng.below(4) as u8 * 20;
            map.write_index(i, &Brush::new(FLOOR).priority(p).forced());
        }
        let before = map.clone();
        let floor = Brush::new(FLOOR).priority(rng.below(4) as u8 * 20);
        let wall = Brush::new(ROCK).priority(rng.below(4) as u8 * 20);
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: None,
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let min_room = rng.range(2, 8) as i32;
        let rooms = interior_of(&mut map, area, min_room, seed, brushes);
        let mut by_rooms = before;
        by_rooms.fill_rect(&area, &wall).unwrap();
        for r in &rooms {
            by_rooms.fill_rect(r, &floor).unwrap();
        }
        let differ = (0..w * h)
            .filter(|&i| {
                let cell = |m: &Map| {
                    let flags = m.flag_cells()[i];
                    (m.terrain_cells()[i], flags, m.priority_cells()[i])
                };
                cell(&map) != cell(&by_rooms)
            })
            .count();
        assert!(differ < rooms.len(), "seed {seed}: {differ} cells differ");
    }
}

#[test]
fn options_and_areas_are_checked() {
    let mut map = grid_map(20, 20, &[true; 400]);
    let floor = Brush::new(FLOOR);
    let b = RoomBrushes {
        floor: &floor,
        corridor: &floor,
    };
    let cases = [
        (7, None, "bsp option min_room = 7 is out of range: 1..=6"),
        (
            4,
            Some(3),
            "bsp option max_room = 3 is out of range: 4..=65536",
        ),
    ];
    for (min_room, max_room, wanted) in cases {
        let bad = BspRooms {
            min_leaf: 8,
            min_room,
            max_room,
        };
        let e = rooms(
            &mut map,
            Area::Map,
            &bad,
            &mut Rng::new(1),
            b,
            &mut Unmetered,
        );
        assert_eq!(e.unwrap_err().to_string(), wanted);
    }
    let mask = warren_core::gen::area::Mask::new(20, 20, true);
    let e = rooms(
        &mut map,
        Area::Mask(&mask),
        &BspRooms::default(),
        &mut Rng::new(1),
        b,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "bsp rooms needs a rectangular area (the whole map, a rectangle or a room), not a mask"
    );
}
