//! `scripts/rooms.lua`: every strategy yields one connected open area over 1,000 seeds, with
//! corridors recorded and spawns inside them.

use crate::common::*;
use warren_core::map::Adjacency;
use warren_core::map::Point;

#[test]
fn every_strategy_is_fully_connected_over_1000_seeds() {
    let host = host("rooms.lua");
    for strategy in ["nearest", "lines", "dogleg", "bsp"] {
        let p = params(&host, &[("corridors", strategy)]);
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let start = first_open(&map);
            assert_eq!(
                unreached(&map, start, Adjacency::Eight),
                0,
                "{strategy} seed {seed}: open cells unreachable"
            );
            assert!(!map.notes.rooms.is_empty());
            assert_eq!(map.notes.stairs.down.len(), 1);
        }
    }
}

#[test]
fn the_player_starts_in_the_leftmost_room_and_the_stairs_are_in_the_rightmost() {
    let host = host("rooms.lua");
    let p = params(&host, &[]);
    for seed in 0..200 {
        let map = generate(&host, seed, &p);
        let mut rooms: Vec<_> = map.notes.rooms.iter().map(|r| r.rect).collect();
        rooms.sort_by_key(|r| (r.x, r.y));
        let (first, last) = (rooms[0].center(), rooms[rooms.len() - 1].center());
        let tag = |k: &str| match map.notes.tags.get(k) {
            Some(warren_core::map::TagValue::Int(v)) => *v as i32,
            other => panic!("seed {seed}: tag {k} = {other:?}"),
        };
        assert_eq!(
            Point::new(tag("start_x"), tag("start_y")),
            first,
            "seed {seed}"
        );
        assert_eq!(map.notes.stairs.down, vec![last], "seed {seed}");
    }
}

#[test]
fn corridors_are_recorded_as_the_floor_cells_they_carved() {
    let host = host("rooms.lua");
    for strategy in ["nearest", "lines", "dogleg", "bsp"] {
        let p = params(&host, &[("corridors", strategy)]);
        let map = generate(&host, 11, &p);
        assert!(!map.notes.corridors.is_empty(), "{strategy}");
        let floor = map.terrains().id("floor").unwrap();
        for c in &map.notes.corridors {
            for &cell in &c.cells {
                assert_eq!(map.terrain_at(cell).unwrap(), floor, "{strategy}: {cell:?}");
                assert!(
                    map.notes.rooms.iter().all(|r| !r.rect.contains(cell)),
                    "corridor cell inside a room"
                );
            }
        }
    }
}

#[test]
fn rooms_never_overlap_or_touch() {
    let host = host("rooms.lua");
    let p = params(&host, &[]);
    for seed in 0..200 {
        let map = generate(&host, seed, &p);
        let rooms = &map.notes.rooms;
        for (i, a) in rooms.iter().enumerate() {
            for b in &rooms[i + 1..] {
                assert!(!a.rect.intersects(&b.rect, 1), "seed {seed}");
            }
        }
    }
}

#[test]
fn corridor_spawner_places_spawns_only_in_corridors() {
    let host = host("rooms.lua");
    let p = params(&host, &[("corridor_spawns", "true"), ("max_spawns", "6")]);
    let mut total = 0;
    for seed in 0..100 {
        let map = generate(&host, seed, &p);
        for s in &map.notes.spawns {
            let at = Point::new(s.x, s.y);
            assert!(
                map.notes.corridors.iter().any(|c| c.cells.contains(&at)),
                "seed {seed}: {s:?}"
            );
            assert!(["goblin", "giant rat", "healing potion", "trap"].contains(&s.what.as_str()));
        }
        total += map.notes.spawns.len();
    }
    assert!(total > 50, "the spawner should place things ({total})");
    let off = params(&host, &[]);
    assert!(generate(&host, 1, &off).notes.spawns.is_empty());
}

/// `corridors = "random"` rolls one of the four strategies per map, evenly (the tutorial's
/// `random_room_builder`), tags which, and keeps every map one area.
#[test]
fn random_corridors_roll_each_strategy_evenly() {
    let host = host("rooms.lua");
    let p = params(&host, &[("corridors", "random")]);
    let mut rolled = std::collections::BTreeMap::new();
    for seed in 0..400 {
        let map = generate(&host, seed, &p);
        let Some(warren_core::map::TagValue::Text(s)) = map.notes.tags.get("corridors") else {
            panic!("seed {seed}: no corridors tag");
        };
        *rolled.entry(s.clone()).or_insert(0) += 1;
        let start = first_open(&map);
        assert_eq!(
            unreached(&map, start, warren_core::map::Adjacency::Eight),
            0,
            "seed {seed}"
        );
        // The map is the one that strategy draws with the same seed.
        let same = generate(&host, seed, &params(&host, &[("corridors", s.as_str())]));
        assert_eq!(same.terrain_cells(), map.terrain_cells(), "seed {seed} {s}");
    }
    let names: Vec<&str> = rolled.keys().map(String::as_str).collect();
    assert_eq!(names, ["bsp", "dogleg", "lines", "nearest"]);
    assert!(
        rolled.values().all(|&n| (70..=130).contains(&n)),
        "{rolled:?}"
    );
}
