use crate::common::ascii::{grid_map, FLOOR};
use warren_core::gen::area::Area;
use warren_core::gen::area::Mask;
use warren_core::gen::connectivity::components;
use warren_core::gen::drunkard::{walk, Drunkard, Spawn, Symmetry};
use warren_core::gen::meter::Unmetered;
use warren_core::map::Adjacency;
use warren_core::map::{Brush, Map, Point, Rect};
use warren_core::rng::Rng;

/// Either spawn rule, by a coin.
fn any_spawn(rng: &mut Rng) -> Spawn {
    if rng.percent(50) {
        Spawn::Start
    } else {
        Spawn::Random
    }
}

fn rock(w: usize, h: usize) -> Map {
    grid_map(w, h, &vec![true; w * h])
}

/// Over 1,000 seeds, the usual walk in a rectangle (its own loop) writes, opens and counts
/// exactly what the general loop does in a mask of the same cells, on maps of random rock
/// and floor, from starts anywhere in the area.
#[test]
fn the_rectangle_loop_walks_as_the_general_loop() {
    let mut rng = Rng::new(41);
    for seed in 0..1000 {
        let (w, h) = (rng.range(3, 60) as usize, rng.range(3, 40) as usize);
        let (aw, ah) = (rng.range(1, w as i64), rng.range(1, h as i64));
        let (ax, ay) = (
            rng.below((w as i64 - aw + 1) as u64),
            rng.below((h as i64 - ah + 1) as u64),
        );
        let area = Rect::new(ax as i32, ay as i32, aw as i32, ah as i32);
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(80)).collect();
        let options = Drunkard {
            spawn: any_spawn(&mut rng),
            lifetime: rng.range(1, 500) as u32,
            floor_percent: rng.range(1, 90) as u32,
            start: Some(Point::new(
                area.x + rng.below(area.w as u64) as i32,
                area.y + rng.below(area.h as u64) as i32,
            )),
            ..Drunkard::default()
        };
        let mut mask = Mask::new(w as i32, h as i32, false);
        for p in area.cells() {
            mask.set(p, true).unwrap();
        }
        let run = |area: Area<'_>| {
            let mut map = grid_map(w, h, &solid);
            let mut draws = Rng::new(seed);
            let walked = walk(
                &mut map,
                area,
                &options,
                &mut draws,
                &Brush::new(FLOOR),
                &mut Unmetered,
            )
            .unwrap();
            (map.terrain_cells().to_vec(), walked, draws.below(u64::MAX))
        };
        assert_eq!(run(Area::Rect(area)), run(Area::Mask(&mask)), "seed {seed}");
    }
}

/// Over 1,000 seeds and every variant: the walk opens at least the share asked for (every
/// write can succeed here), only inside its area, and without symmetry the open cells form
/// one 4-connected area; the same seed walks the same way.
#[test]
fn walks_reach_their_share_inside_their_area_in_one_piece() {
    let mut rng = Rng::new(23);
    let mut reached = 0;
    for seed in 0..1000 {
        let (w, h) = (rng.range(5, 40) as usize, rng.range(5, 30) as usize);
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let options = Drunkard {
            spawn: any_spawn(&mut rng),
            lifetime: rng.range(1, 300) as u32,
            floor_percent: rng.range(1, 70) as u32,
            brush: rng.range(1, 3) as u32,
            symmetry: [
                Symmetry::None,
                Symmetry::Horizontal,
                Symmetry::Vertical,
                Symmetry::Both,
            ][rng.below(4) as usize],
            start: None,
        };
        let run = |seed| {
            let mut map = rock(w, h);
            let walked = walk(
                &mut map,
                Area::Rect(area),
                &options,
                &mut Rng::new(seed),
                &Brush::new(FLOOR),
                &mut Unmetered,
            )
            .unwrap();
            (map, walked)
        };
        let (map, walked) = run(seed);
        assert_eq!(
            map.terrain_cells(),
            run(seed).0.terrain_cells(),
            "seed {seed}"
        );
        // Walkers that all start at one cell and live briefly may never get far enough: then
        // the walk stops at its step limit.
        let cells = area.w as u64 * area.h as u64;
        let gave_up = walked.walkers as u64 * options.lifetime as u64 >= 100 * cells;
        assert!(
            walked.open >= walked.wanted || gave_up,
            "seed {seed}: {walked:?}"
        );
        reached += (walked.open >= walked.wanted) as u32;
        assert_eq!(walked.open, map.open_count(), "seed {seed}");
        for i in 0..map.len() {
            let p = map.point(i);
            assert!(area.contains(p) || map.is_solid(p).unwrap(), "seed {seed}");
        }
        if options.symmetry == Symmetry::None {
            assert_eq!(components(&map, Adjacency::Four).len(), 1, "seed {seed}");
        }
    }
    assert!(
        reached >= 950,
        "only {reached} of 1,000 walks reached their share"
    );
}

#[test]
fn options_are_checked() {
    let mut map = rock(10, 10);
    let bad = Drunkard {
        brush: 0,
        ..Drunkard::default()
    };
    let e = walk(
        &mut map,
        Area::Map,
        &bad,
        &mut Rng::new(1),
        &Brush::new(FLOOR),
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "drunkard option brush = 0 is out of range: 1..=9"
    );
    let outside = Drunkard {
        start: Some(Point::new(0, 0)),
        ..Drunkard::default()
    };
    let area = Area::Rect(Rect::new(2, 2, 3, 3));
    let e = walk(
        &mut map,
        area,
        &outside,
        &mut Rng::new(1),
        &Brush::new(FLOOR),
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "the drunkard's start (0, 0) is not in the area"
    );
    // A floor that loses every write: the walk gives up after its step limit (a hundred
    // steps per cell: 10,000 steps, 25 walkers of 400).
    let mut map = rock(10, 10);
    map.fill(
        &Brush::new(crate::common::ascii::ROCK)
            .priority(100)
            .forced(),
    );
    let lost = walk(
        &mut map,
        Area::Map,
        &Drunkard::default(),
        &mut Rng::new(1),
        &Brush::new(FLOOR).priority(70),
        &mut Unmetered,
    );
    let walked = lost.unwrap();
    assert_eq!((walked.open, walked.wanted, walked.walkers), (0, 50, 25));
}
