//! `scripts/cave.lua`: one connected open area holding entrance and exit, for every direction
//! and complexity 1–4, over 1,000 seeds each.

use crate::common::*;
use warren_core::map::Adjacency;

#[test]
fn every_direction_and_complexity_is_one_area_with_entrance_and_exit() {
    let host = host("cave.lua");
    for dir in ["up", "down", "left", "right", "omni"] {
        for complexity in 1..=4 {
            let c = complexity.to_string();
            let p = params(&host, &[("direction", dir), ("complexity", &c)]);
            for seed in 0..1000 {
                let map = generate(&host, seed, &p);
                let up = map.notes.stairs.up[0];
                let down = map.notes.stairs.down[0];
                assert_eq!(
                    unreached(&map, up, Adjacency::Eight),
                    0,
                    "{dir} x{complexity} seed {seed}: unreachable cells"
                );
                assert!(
                    reach(&map, up, Adjacency::Eight)[(down.x + down.y * map.width()) as usize],
                    "{dir} x{complexity} seed {seed}: exit unreachable"
                );
            }
        }
    }
}

#[test]
fn rows_follow_roughness_and_windyness_within_the_map() {
    let host = host("cave.lua");
    let p = params(
        &host,
        &[("roughness", "100"), ("windyness", "100"), ("length", "40")],
    );
    for seed in 0..50 {
        let map = generate(&host, seed, &p);
        for y in 0..map.height() {
            for x in 0..map.width() {
                if map.is_edge(warren_core::map::Point::new(x, y)) {
                    assert!(
                        map.is_solid(warren_core::map::Point::new(x, y)).unwrap(),
                        "open edge at ({x},{y})"
                    );
                }
            }
        }
    }
}

#[test]
fn a_cave_too_long_for_the_map_is_a_clear_error() {
    let host = host("cave.lua");
    let p = params(&host, &[("length", "200")]);
    let e = host
        .generate(&warren_lua::Run {
            seed: 1,
            params: &p,
            depth: 1,
            above: None,
        })
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("length = 200 does not fit a 80x50 map running up (at most 43)"),
        "{e}"
    );
}

/// Passes that miss each other are joined by natural passages of varying width (not one-wide
/// L-shaped corridors): most joins have a cell with three or more neighbours in the join.
#[test]
fn passes_are_joined_by_passages_that_look_like_cave() {
    let host = host("cave.lua");
    let p = params(
        &host,
        &[("complexity", "3"), ("width", "120"), ("height", "60")],
    );
    let (mut joins, mut wide) = (0, 0);
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        for c in &map.notes.corridors {
            assert_eq!(c.region.as_deref(), Some("join"));
            if c.cells.len() < 6 {
                continue;
            }
            joins += 1;
            let cells: std::collections::BTreeSet<_> = c.cells.iter().copied().collect();
            let broad = c.cells.iter().any(|p| {
                let around = warren_core::map::Dir::CARDINAL.iter();
                around.filter(|&&d| cells.contains(&p.step(d))).count() >= 3
            });
            wide += broad as usize;
        }
    }
    assert!(joins > 10, "{joins} joins");
    assert!(wide * 10 >= joins * 9, "{wide} of {joins} joins are broad");
}

/// `pass_start = "entrance"` starts every pass at the entrance, as the seed runs the algorithm
/// again on the same map; the default spreads later passes across a sixth of the map.
#[test]
fn passes_start_at_the_entrance_when_asked() {
    let host = host("cave.lua");
    let entrances = |sets: &[(&str, &str)], seed| {
        let p = params(&host, sets);
        let map = generate(&host, seed, &p);
        let mut at: Vec<_> = map
            .notes
            .rooms
            .iter()
            .filter(|r| &*r.kind == "entrance")
            .map(|r| r.rect)
            .collect();
        assert_eq!(at.len(), 3);
        at.dedup();
        (at.len(), map)
    };
    let mut spread = 0;
    for seed in 0..200 {
        let (n, map) = entrances(&[("complexity", "3"), ("pass_start", "entrance")], seed);
        assert_eq!(n, 1, "seed {seed}");
        let up = map.notes.stairs.up[0];
        assert_eq!(unreached(&map, up, Adjacency::Eight), 0, "seed {seed}");
        spread += (entrances(&[("complexity", "3")], seed).0 > 1) as usize;
    }
    assert!(spread > 150, "{spread} of 200 spread caves start apart");
}

/// `extra_length` lets each pass run past `length` (the seed's length that is "not fixed"),
/// by 0 to `extra_length` rows and never past the map; without it every pass is `length` long.
#[test]
fn passes_may_run_past_their_length_when_asked() {
    let host = host("cave.lua");
    // Running down, the exit room's centre is on row length + 4 (entrance at row 2).
    let exit_rows = |sets: &[(&str, &str)]| {
        let p = params(&host, sets);
        (0..200)
            .map(|seed| generate(&host, seed, &p).notes.stairs.down[0].y)
            .collect::<std::collections::BTreeSet<i32>>()
    };
    let fixed = exit_rows(&[("direction", "down"), ("length", "20")]);
    assert_eq!(fixed.into_iter().collect::<Vec<_>>(), [24]);
    let loose = exit_rows(&[
        ("direction", "down"),
        ("length", "20"),
        ("extra_length", "10"),
    ]);
    assert_eq!(loose.first(), Some(&24));
    assert_eq!(loose.last(), Some(&34));
    assert_eq!(loose.len(), 11, "{loose:?}");
    // On an 80×50 map a pass running down has room for 43 rows.
    let capped = exit_rows(&[
        ("direction", "down"),
        ("length", "40"),
        ("extra_length", "100"),
    ]);
    assert_eq!(capped.last(), Some(&47), "{capped:?}");
}
