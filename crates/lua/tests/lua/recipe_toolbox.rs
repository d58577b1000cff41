//! The toolbox recipes (`scripts/cellular.lua`, `bsp.lua`, `maze.lua`, `drunkard.lua`,
//! `overworld.lua`, `dla.lua`, `hive.lua`, `vaults.lua`, `wfc_town.lua`), run through the Lua
//! bindings: invariants over 1,000 seeds at small sizes: every level is one connected area,
//! stays inside its edge, and has its stairs drawn on open ground; BSP rooms never overlap; a
//! perfect maze is a spanning tree; a hive's lakes never hold its stairs; vaults stay out of
//! rooms; a WFC town is made of its sample's windows. Their golden maps are with every
//! recipe's (`golden.rs`, `tests/golden/cases.list`).

use crate::common::*;
use warren_core::map::{Adjacency, Map, Point};

/// The open cells of `map`.
fn open_cells(map: &Map) -> usize {
    (0..map.height())
        .flat_map(|y| (0..map.width()).map(move |x| Point::new(x, y)))
        .filter(|&p| map.is_passable(p).unwrap())
        .count()
}

/// One connected area in `adjacency`, the edge ring solid, and the stairs (one up, one down)
/// on open cells of it.
fn assert_level(map: &Map, adjacency: Adjacency, what: &str) {
    let start = first_open(map);
    assert_eq!(
        unreached(map, start, adjacency),
        0,
        "{what}: open cells unreachable"
    );
    for x in 0..map.width() {
        for y in [0, map.height() - 1] {
            assert!(
                !map.is_passable(Point::new(x, y)).unwrap(),
                "{what}: edge open at ({x}, {y})"
            );
        }
    }
    for y in 0..map.height() {
        for x in [0, map.width() - 1] {
            assert!(
                !map.is_passable(Point::new(x, y)).unwrap(),
                "{what}: edge open at ({x}, {y})"
            );
        }
    }
    let stairs = &map.notes.stairs;
    assert_eq!(
        (stairs.up.len(), stairs.down.len()),
        (1, 1),
        "{what}: stairs"
    );
    for &p in stairs.up.iter().chain(&stairs.down) {
        assert!(
            map.is_passable(p).unwrap(),
            "{what}: stairs on rock at {p:?}"
        );
    }
    // The stairs are drawn.
    let terrain = |p| map.terrains().get(map.terrain_at(p).unwrap()).name.clone();
    assert_eq!(terrain(stairs.up[0]), "up stairs", "{what}");
    assert_eq!(terrain(stairs.down[0]), "down stairs", "{what}");
}

#[test]
fn cellular_caves_are_one_cavern_over_1000_seeds() {
    let host = host("cellular.lua");
    let p = params(&host, &[("width", "40"), ("height", "30")]);
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        if open_cells(&map) == 0 {
            continue;
        }
        assert_level(&map, Adjacency::Eight, &format!("seed {seed}"));
    }
}

#[test]
fn bsp_levels_are_connected_and_rooms_never_overlap_over_1000_seeds() {
    let host = host("bsp.lua");
    for (style, split) in [
        ("rooms", "longer"),
        ("interior", "longer"),
        ("interior", "halves"),
    ] {
        let p = params(
            &host,
            &[
                ("style", style),
                ("split", split),
                ("width", "48"),
                ("height", "32"),
            ],
        );
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let what = format!("{style} {split} seed {seed}");
            assert_level(&map, Adjacency::Four, &what);
            let rooms = &map.notes.rooms;
            assert!(rooms.len() >= 2, "{what}: {} rooms", rooms.len());
            for (i, a) in rooms.iter().enumerate() {
                for b in &rooms[i + 1..] {
                    assert!(!a.rect.intersects(&b.rect, 0), "{what}: rooms overlap");
                }
            }
        }
    }
}

#[test]
fn perfect_mazes_are_spanning_trees_over_1000_seeds() {
    let host = host("maze.lua");
    for algorithm in ["backtracker", "prim", "kruskal", "eller", "division"] {
        let p = params(
            &host,
            &[("algorithm", algorithm), ("width", "21"), ("height", "15")],
        );
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let what = format!("{algorithm} seed {seed}");
            assert_level(&map, Adjacency::Four, &what);
            // A tree: one fewer side-by-side open pair than open cells.
            let open = |x, y| map.is_passable(Point::new(x, y)).unwrap();
            let mut pairs = 0;
            for y in 0..map.height() {
                for x in 0..map.width() {
                    if open(x, y) {
                        pairs += (x + 1 < map.width() && open(x + 1, y)) as usize;
                        pairs += (y + 1 < map.height() && open(x, y + 1)) as usize;
                    }
                }
            }
            assert_eq!(pairs + 1, open_cells(&map), "{what}: not a tree");
        }
    }
}

#[test]
fn drunkard_caves_are_connected_over_1000_seeds() {
    let host = host("drunkard.lua");
    for variant in [
        "open_area",
        "open_halls",
        "winding_passages",
        "fat_passages",
    ] {
        let p = params(
            &host,
            &[("variant", variant), ("width", "32"), ("height", "24")],
        );
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            assert_level(&map, Adjacency::Four, &format!("{variant} seed {seed}"));
        }
    }
}

#[test]
fn overworld_rivers_reach_the_sea_over_1000_seeds() {
    let host = host("overworld.lua");
    let p = params(&host, &[("width", "32"), ("height", "24"), ("rivers", "4")]);
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        let water = map.terrains().id("water").unwrap();
        let hills = map.terrains().id("hills").unwrap();
        let mountain = map.terrains().id("mountain").unwrap();
        let count = |t| {
            (0..map.height())
                .flat_map(|y| (0..map.width()).map(move |x| Point::new(x, y)))
                .filter(|&p| map.terrain_at(p).unwrap() == t)
                .count()
        };
        let grass = map.terrains().id("grass").unwrap();
        let (sea, high) = (count(water), count(hills) + count(mountain));
        // Heights are normalized to 0..1, so the lowest cell is sea and the highest mountain.
        assert!(
            sea > 0 && count(mountain) > 0,
            "seed {seed}: sea {sea}, high ground {high}"
        );
        // The bands cover the whole map, edge included.
        assert_eq!(
            sea + high + count(grass),
            map.len(),
            "seed {seed}: a cell in no band"
        );
        let rivers = match map.notes.tags.get("rivers") {
            Some(warren_core::map::TagValue::Int(n)) => *n,
            other => panic!("seed {seed}: rivers tag {other:?}"),
        };
        assert!((0..=4).contains(&rivers), "seed {seed}: {rivers} rivers");
    }
}

#[test]
fn dla_caves_are_one_area_over_1000_seeds() {
    let host = host("dla.lua");
    for (mode, symmetry) in [
        ("walk_inwards", "none"),
        ("walk_outwards", "horizontal"),
        ("central_attractor", "both"),
    ] {
        let p = params(
            &host,
            &[
                ("mode", mode),
                ("symmetry", symmetry),
                ("width", "32"),
                ("height", "24"),
            ],
        );
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let what = format!("{mode} {symmetry} seed {seed}");
            assert_level(&map, Adjacency::Four, &what);
            let open = open_cells(&map) as f64 / (30.0 * 22.0);
            assert!(open >= 0.25, "{what}: only {open:.2} open");
        }
    }
}

#[test]
fn hives_are_one_area_with_dry_stairs_over_1000_seeds() {
    let host = host("hive.lua");
    for (lake, metric) in [
        ("water", "euclidean"),
        ("magma", "manhattan"),
        ("chasm", "chebyshev"),
    ] {
        let p = params(
            &host,
            &[
                ("lake", lake),
                ("metric", metric),
                ("width", "40"),
                ("height", "28"),
                ("cells", "12"),
                ("lake_size", "20"),
                ("loop_distance", "12"),
            ],
        );
        let mut lakes = 0;
        for seed in 0..1000 {
            let map = generate(&host, seed, &p);
            let what = format!("{lake} {metric} seed {seed}");
            assert_level(&map, Adjacency::Four, &what);
            let tag = |name| match map.notes.tags.get(name) {
                Some(warren_core::map::TagValue::Int(n)) => *n,
                other => panic!("{what}: {name} tag {other:?}"),
            };
            assert!(tag("doors") >= 1, "{what}: no door");
            lakes += tag("lakes");
        }
        assert!(lakes >= 1000, "{lake}: only {lakes} lakes in 1,000 levels");
    }
}

#[test]
fn vault_studded_levels_are_connected_and_vaults_stay_out_of_rooms_over_1000_seeds() {
    let host = host("vaults.lua");
    let p = params(&host, &[("width", "48"), ("height", "32"), ("vaults", "3")]);
    let mut vaults = 0;
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        let what = format!("seed {seed}");
        assert_eq!(
            unreached(&map, first_open(&map), Adjacency::Eight),
            0,
            "{what}: open cells unreachable"
        );
        let rooms = &map.notes.rooms;
        for v in rooms.iter().filter(|r| &*r.kind == "vault") {
            vaults += 1;
            for r in rooms.iter().filter(|r| &*r.kind == "room") {
                assert!(
                    !v.rect.intersects(&r.rect, 0),
                    "{what}: vault {:?} over room {:?}",
                    v.rect,
                    r.rect
                );
            }
        }
    }
    assert!(vaults > 1000, "vaults are placed: {vaults}");
}

/// Over 1,000 seeds of small towns, every 3×3 window inside the map's edge is a window of the
/// sample or its mirror image.
#[test]
fn wfc_towns_are_made_of_the_samples_windows_over_1000_seeds() {
    use warren_core::gen::wfc::{patterns, Symmetry};
    let reg = registry();
    let sample = reg
        .resolved
        .samples
        .iter()
        .find(|s| s.name == "town houses")
        .unwrap();
    let mirrored = Symmetry {
        rotate: false,
        reflect: true,
    };
    let windows = patterns(sample, 3, mirrored).unwrap();
    let host = host("wfc_town.lua");
    let p = params(&host, &[("width", "16"), ("height", "12")]);
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        let palette = |x: i32, y: i32| {
            let t = map.terrain_at(Point::new(x, y)).unwrap();
            sample
                .terrains
                .iter()
                .position(|&u| u == t)
                .map(|i| i as u8)
        };
        for y in 1..map.height() - 3 {
            for x in 1..map.width() - 3 {
                let window: Vec<u8> = (0..9)
                    .map(|k| palette(x + k % 3, y + k / 3).expect("a sample terrain"))
                    .collect();
                assert!(
                    windows.contains(&window),
                    "seed {seed}: window at ({x}, {y})"
                );
            }
        }
    }
}
