use crate::common::ascii::{grid_map, CHASM, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::connectivity::components;
use warren_core::gen::lakes::{lakes, LakeBrushes, Lakes};
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::Rect;
use warren_core::map::{Adjacency, Brush};
use warren_core::rng::Rng;

/// Over 1,000 seeds of random connected caves: lakes (a hazard or open water, with or
/// without a wreath) leave the open cells one area, stay in their rectangle, respect their
/// sizes, and the same seed places the same lakes.
#[test]
fn lakes_keep_the_level_in_one_piece() {
    let mut rng = Rng::new(61);
    let mut placed_some = 0;
    for seed in 0..1000 {
        let (w, h) = (rng.range(8, 40) as usize, rng.range(8, 26) as usize);
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(40)).collect();
        let mut level = grid_map(w, h, &solid);
        // One area: keep the largest, fill the rest with rock.
        let comps = components(&level, Adjacency::Eight);
        let Some(big) = (0..comps.len()).max_by_key(|&c| comps.list()[c].size) else {
            continue;
        };
        let labels = comps.labels();
        let rock = Brush::new(ROCK).forced();
        for (i, &label) in labels.iter().enumerate() {
            if label != big as u32 && !level.is_solid(level.point(i)).unwrap() {
                level.write_index(i, &rock);
            }
        }
        let adjacency = if seed % 2 == 0 {
            Adjacency::Four
        } else {
            Adjacency::Eight
        };
        let before = components(&level, adjacency).len();
        let min_size = rng.range(1, 20) as u32;
        let options = Lakes {
            count: rng.range(0, 6) as u32,
            min_size,
            max_size: min_size + rng.range(0, 30) as u32,
            tries: 20,
            wreath: rng.range(0, 2) as u32,
            adjacency,
        };
        // A hazard (a chasm), or an open terrain that opens the rock it covers.
        let lake = Brush::new(if seed % 3 == 0 { FLOOR } else { CHASM });
        let shallows = Brush::new(FLOOR);
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let run = |seed| {
            let mut map = level.clone();
            let brushes = LakeBrushes {
                lake: &lake,
                wreath: (options.wreath > 0).then_some(&shallows),
            };
            let placed = lakes(
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
        let what = format!("seed {seed}: {options:?}");
        assert_eq!(placed, run(seed).1, "{what}");
        placed_some += !placed.lakes.is_empty() as u32;
        assert!(placed.lakes.len() <= options.count as usize, "{what}");
        for cells in &placed.lakes {
            let n = cells.len() as u32;
            assert!(n <= options.max_size, "{what}: {n} cells");
            assert!(cells.iter().all(|&p| area.contains(p)), "{what}");
        }
        let after = components(&map, adjacency).len();
        assert!(
            after <= before.max(1),
            "{what}: {before} areas became {after}"
        );
        if before == 1 {
            assert!(after == 1, "{what}");
        }
    }
    assert!(placed_some > 300, "only {placed_some} maps got a lake");
}

#[test]
fn options_are_checked() {
    let mut map = grid_map(10, 10, &[]);
    let lake = Brush::new(CHASM);
    let rock = Brush::new(ROCK);
    let brushes = LakeBrushes {
        lake: &lake,
        wreath: None,
    };
    let bad = Lakes {
        min_size: 10,
        max_size: 5,
        ..Lakes::default()
    };
    let e = lakes(
        &mut map,
        Area::Map,
        &bad,
        &mut Rng::new(1),
        brushes,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "lakes option max_size = 5 is out of range: 10..=65536"
    );
    let walled = LakeBrushes {
        lake: &lake,
        wreath: Some(&rock),
    };
    let e = lakes(
        &mut map,
        Area::Map,
        &Lakes::default(),
        &mut Rng::new(1),
        walled,
        &mut Unmetered,
    );
    assert_eq!(
            e.unwrap_err().to_string(),
            "lakes option wreath terrain = rock is out of range: a passable terrain (neither solid nor a hazard)"
        );
    let mut t = Tally::with_limit(10);
    let e = lakes(
        &mut map,
        Area::Map,
        &Lakes::default(),
        &mut Rng::new(1),
        brushes,
        &mut t,
    );
    assert!(matches!(e, Err(ToolError::Stopped(_))));
}
