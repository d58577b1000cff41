//! Every recipe's one-area promise, for a walker moving 8 ways and for one moving 4 ways: over
//! 1,000 seeds per recipe and mode, every passable cell (terrain neither solid nor a hazard, or
//! a door) is reachable from the start stepping only as that walker can, and the map's
//! `connectivity` tag says which mode that is. (The dungeon's levels are checked in
//! `recipe_dungeon.rs`.)

use crate::common::*;
use warren_core::map::{Adjacency, Map, Point, TagValue};

/// Runs `script` with `sets` and the `connectivity` parameter in both modes over 1,000 seeds,
/// checking each map from the cell `start` picks.
fn every_cell_reachable(script: &str, sets: &[(&str, &str)], start: fn(&Map) -> Point) {
    let host = host(script);
    for (mode, adjacency) in [("8", Adjacency::Eight), ("4", Adjacency::Four)] {
        let mut all = sets.to_vec();
        all.push(("connectivity", mode));
        let p = params(&host, &all);
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let from = start(&map);
            let cut_off = unreached(&map, from, adjacency);
            assert_eq!(cut_off, 0, "{script} {sets:?} {mode} seed {seed}");
            let tag = map.notes.tags.get("connectivity");
            assert_eq!(
                tag,
                Some(&TagValue::Text(mode.into())),
                "{script} seed {seed}"
            );
        }
    }
}

/// The player's start, tagged by `warren.gen.start_and_stairs`.
fn tagged_start(map: &Map) -> Point {
    let int = |k: &str| match map.notes.tags.get(k) {
        Some(TagValue::Int(v)) => *v as i32,
        other => panic!("{k}: {other:?}"),
    };
    Point::new(int("start_x"), int("start_y"))
}

/// The cave's entrance.
fn entrance(map: &Map) -> Point {
    map.notes.stairs.up[0]
}

#[test]
fn rooms_with_nearest_corridors() {
    every_cell_reachable("rooms.lua", &[], tagged_start);
}

/// Bresenham lines step diagonally; for a 4-way walker they step orthogonally instead.
#[test]
fn rooms_with_straight_line_corridors() {
    every_cell_reachable("rooms.lua", &[("corridors", "lines")], tagged_start);
}

/// Passes that cross only at a corner are joined for a 4-way walker too.
#[test]
fn caves_of_three_passes() {
    let sets = [("complexity", "3"), ("width", "120"), ("height", "60")];
    every_cell_reachable("cave.lua", &sets, entrance);
}

#[test]
fn caves_of_four_passes_turning_every_way() {
    let sets = [("complexity", "4"), ("direction", "omni")];
    every_cell_reachable("cave.lua", &sets, entrance);
}

#[test]
fn towns() {
    every_cell_reachable("townmaze.lua", &[], first_open);
}
