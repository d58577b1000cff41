//! The built-in measurements (`warren_core::stats::Measurer`, 64 cells at a time) against a
//! plain reference written here one cell at a time: a flood fill for the areas, a walk around
//! each cell's ring for the dead ends, a count of passable cells and of the annotations. Every
//! value must be identical, on maps of the shipped recipes (both connectivity modes) and on
//! random maps of many sizes (widths either side of whole 64-cell words, rows of one to six
//! words, single rows and columns, all open, all solid) with hazards and doors, tagged 4- or
//! 8-neighbour.

use crate::common::*;
use std::collections::VecDeque;
use std::sync::Arc;
use warren_core::map::{Brush, Door, DoorState, Map, Point, Rgb, TagValue, Terrain, TerrainTable};
use warren_core::rng::Rng;
use warren_core::stats::{Measurer, BUILTIN};

/// The nine measurements of `map`, one cell at a time, in [`BUILTIN`] order.
fn reference(map: &Map) -> [f64; BUILTIN.len()] {
    let (w, h) = (map.width(), map.height());
    let open = |x: i32, y: i32| map.is_passable(Point::new(x, y)) == Ok(true);
    let four = matches!(
        map.notes.tags.get("connectivity"),
        Some(TagValue::Text(t)) if t == "4"
    ) || map.notes.tags.get("connectivity") == Some(&TagValue::Int(4));
    // Ring order N, NE, E, SE, S, SW, W, NW.
    const RING: [(i32, i32); 8] = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let steps: Vec<(i32, i32)> = if four {
        RING.iter().copied().step_by(2).collect()
    } else {
        RING.to_vec()
    };
    let (mut floor, mut areas, mut dead_ends) = (0, 0, 0);
    let mut seen = vec![false; map.len()];
    for y in 0..h {
        for x in 0..w {
            if !open(x, y) {
                continue;
            }
            floor += 1;
            // Dead end: the open neighbours form one unbroken arc of one or two cells.
            let ring: Vec<bool> = RING.iter().map(|(dx, dy)| open(x + dx, y + dy)).collect();
            let arcs = (0..8).filter(|&i| ring[i] && !ring[(i + 7) % 8]).count();
            let neighbours = ring.iter().filter(|&&o| o).count();
            dead_ends += usize::from(arcs == 1 && neighbours <= 2);
            // A new area: flood it.
            let i = (x + y * w) as usize;
            if seen[i] {
                continue;
            }
            areas += 1;
            seen[i] = true;
            let mut queue = VecDeque::from([(x, y)]);
            while let Some((cx, cy)) = queue.pop_front() {
                for (dx, dy) in &steps {
                    let (nx, ny) = (cx + dx, cy + dy);
                    let j = (nx + ny * w) as usize;
                    if open(nx, ny) && !seen[j] {
                        seen[j] = true;
                        queue.push_back((nx, ny));
                    }
                }
            }
        }
    }
    let notes = &map.notes;
    let corridor_cells: usize = notes.corridors.iter().map(|c| c.cells.len()).sum();
    [
        floor as f64 / map.len() as f64,
        areas as f64,
        dead_ends as f64,
        notes.rooms.len() as f64,
        notes.corridors.len() as f64,
        corridor_cells as f64,
        notes.doors.len() as f64,
        (notes.stairs.up.len() + notes.stairs.down.len()) as f64,
        notes.spawns.len() as f64,
    ]
}

fn check(measurer: &mut Measurer, map: &Map, what: &str) {
    let got = measurer.measure(map);
    let want = reference(map);
    for (name, (g, w)) in BUILTIN.iter().zip(got.iter().zip(&want)) {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}: {name} {g} != {w}");
    }
}

/// A recipe, its `--set` overrides and how many seeds to measure.
type Case = (&'static str, &'static [(&'static str, &'static str)], u64);

#[test]
fn recipe_maps_measure_as_the_reference_does() {
    // One measurer throughout, as a batch keeps one: scratch left by a map must not leak.
    let mut measurer = Measurer::new();
    let cases: [Case; 6] = [
        ("rooms.lua", &[], 150),
        ("rooms.lua", &[("width", "131"), ("height", "37")], 50),
        ("cave.lua", &[], 60),
        ("cave.lua", &[("width", "200"), ("height", "90")], 10),
        ("dungeon.lua", &[], 60),
        ("townmaze.lua", &[], 40),
    ];
    for (script, sets, seeds) in cases {
        let host = host(script);
        for mode in ["8", "4"] {
            let mut all = sets.to_vec();
            all.push(("connectivity", mode));
            let p = params(&host, &all);
            for seed in 0..seeds {
                let map = generate(&host, seed, &p);
                check(
                    &mut measurer,
                    &map,
                    &format!("{script} {all:?} seed {seed}"),
                );
            }
        }
    }
}

/// Rock, floor and lava (a hazard).
fn table() -> Arc<TerrainTable> {
    let t = |name: &str, glyph, solid, hazard| Terrain {
        name: name.into(),
        glyph,
        color: Rgb(9, 9, 9),
        solid,
        hazard,
        move_cost: None,
    };
    Arc::new(TerrainTable::new(vec![
        t("rock", '#', true, false),
        t("floor", '.', false, false),
        t("lava", '~', false, true),
    ]))
}

/// A `w × h` map: each cell floor with probability `open_pct` %, else rock or now and then lava;
/// a few doors (some on rock, some on lava); tagged 4-neighbour when `four`.
fn random_map(w: i64, h: i64, open_pct: u32, four: bool, rng: &mut Rng) -> Map {
    let mut map = Map::new(w, h, 0, table()).expect("size");
    for i in 0..map.len() {
        if rng.range(0, 99) < open_pct as i64 {
            map.write_index(i, &Brush::new(1).forced());
        } else if rng.range(0, 9) == 0 {
            map.write_index(i, &Brush::new(2).forced());
        }
    }
    for _ in 0..rng.range(0, 3) {
        let p = Point::new(rng.range(0, w - 1) as i32, rng.range(0, h - 1) as i32);
        map.add_door(Door::new(p, DoorState::Open))
            .expect("on the map");
    }
    if four {
        map.notes
            .tags
            .insert("connectivity", TagValue::Text("4".into()));
    }
    map
}

#[test]
fn random_maps_of_every_shape_measure_as_the_reference_does() {
    let mut measurer = Measurer::new();
    let mut rng = Rng::new(15);
    let sizes = [
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 70),
        (70, 1),
        (3, 3),
        (7, 5),
        (63, 4),
        (64, 4),
        (65, 4),
        (80, 50),
        (127, 3),
        (128, 3),
        (129, 3),
        (130, 2),
        (200, 6),
        (1, 300),
        (300, 1),
        // Rows of four whole words, and rows longer than four words (rows of up to four words
        // are cut from the packed cells by unrolled code, longer ones by a loop).
        (256, 5),
        (250, 9),
        (330, 7),
    ];
    for (w, h) in sizes {
        for open_pct in [0, 5, 35, 55, 75, 100] {
            for four in [false, true] {
                for _ in 0..4 {
                    let map = random_map(w, h, open_pct, four, &mut rng);
                    let what = format!("{w}×{h}, {open_pct}% open, four {four}");
                    check(&mut measurer, &map, &what);
                }
            }
        }
    }
}
