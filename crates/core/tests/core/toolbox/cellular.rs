use crate::common::ascii::{grid_map, FLOOR, ROCK};
use warren_core::gen::area::{Area, Mask};
use warren_core::gen::cellular::{cave, run, smooth, Paint, Rule};
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::map::Brush;
use warren_core::map::{Point, Rect};
use warren_core::rng::Rng;

/// A mask whose bounding rectangle is the whole grid still keeps its holes: the cell it
/// leaves out never changes (the whole-grid shortcut is for rectangles only).
#[test]
fn a_mask_spanning_the_grid_keeps_its_holes() {
    let mut area = Mask::new(5, 5, true);
    area.set(Point::new(2, 2), false).unwrap();
    let mut alive = Mask::new(5, 5, false);
    // B0: every dead cell with no live neighbour comes alive.
    let rule = Rule::parse("B0/S").unwrap();
    run(&mut alive, Area::Mask(&area), rule, 1, &mut Unmetered).unwrap();
    assert!(!alive.get(2, 2));
    // (1, 1) has no live neighbour (off-grid cells count as alive, so the edge does).
    assert!(alive.get(1, 1));
}

/// One generation by the rule's definition, cell by cell, over the whole grid.
fn reference_step(alive: &Mask, rule: Rule) -> Mask {
    let mut next = alive.clone();
    for y in 0..alive.height() {
        for x in 0..alive.width() {
            let mut count = 0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    let off = nx < 0 || ny < 0 || nx >= alive.width() || ny >= alive.height();
                    if (dx, dy) != (0, 0) && (off || alive.get(nx, ny)) {
                        count += 1;
                    }
                }
            }
            next.set(Point::new(x, y), rule.next(alive.get(x, y), count))
                .unwrap();
        }
    }
    next
}

/// Over 1,000 seeds of random grids and random rules: a run equals the rule applied by
/// definition, generation after generation; inside an area, cells outside never change.
#[test]
fn runs_follow_the_rule_by_definition() {
    let mut rng = Rng::new(17);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 16) as i32, rng.range(1, 12) as i32);
        let rule = Rule {
            birth: rng.below(512) as u16,
            survive: rng.below(512) as u16,
        };
        let mut alive = Mask::new(w, h, false);
        for c in alive.cells_mut() {
            *c = rng.percent(45);
        }
        let generations = rng.range(0, 4) as u32;
        let mut want = alive.clone();
        for _ in 0..generations {
            want = reference_step(&want, rule);
        }
        let before = alive.clone();
        let mut got = alive.clone();
        run(&mut got, Area::Map, rule, generations, &mut Unmetered).unwrap();
        assert_eq!(got, want, "seed {seed}: {rule}");
        let r = Rect::new(0, 0, (w / 2).max(1), h);
        run(&mut alive, Area::Rect(r), rule, generations, &mut Unmetered).unwrap();
        for y in 0..h {
            for x in r.w..w {
                assert_eq!(alive.get(x, y), before.get(x, y), "seed {seed}");
            }
        }
    }
}

#[test]
fn rules_parse_and_print_in_birth_survival_notation() {
    assert_eq!(Rule::parse("B5678/S45678").unwrap(), Rule::CAVE);
    assert_eq!(Rule::parse(" b3/s23 ").unwrap().to_string(), "B3/S23");
    assert_eq!(Rule::parse("B/S").unwrap().to_string(), "B/S");
    for bad in ["B9/S1", "S1/B2", "B12", "B1/S2x", ""] {
        let e = Rule::parse(bad).unwrap_err();
        assert!(e.to_string().contains("birth/survival"), "{bad}");
    }
    // B3/S23 (Life): a blinker turns (inside an area ringed by dead cells: off the map,
    // every cell counts as alive).
    let life = Rule::parse("B3/S23").unwrap();
    let mut m = Mask::new(7, 7, false);
    for x in 2..5 {
        m.set(Point::new(x, 3), true).unwrap();
    }
    let inner = Area::Rect(Rect::new(1, 1, 5, 5));
    run(&mut m, inner, life, 1, &mut Unmetered).unwrap();
    let column: Vec<Point> = (0..49)
        .filter(|&i| m.cells()[i])
        .map(|i| Point::new(i as i32 % 7, i as i32 / 7))
        .collect();
    assert_eq!(
        column,
        [Point::new(3, 2), Point::new(3, 3), Point::new(3, 4)]
    );
}

#[test]
fn caves_and_smoothing_write_through_brushes_and_are_deterministic() {
    let wall = Brush::new(ROCK).priority(10);
    let floor = Brush::new(FLOOR).priority(10);
    let brushes = Paint {
        wall: &wall,
        floor: &floor,
    };
    let make = |seed| {
        let mut map = grid_map(40, 30, &[]);
        cave(
            &mut map,
            Area::Map,
            45,
            (Rule::CAVE, 4),
            &mut Rng::new(seed),
            brushes,
            &mut Unmetered,
        )
        .unwrap();
        map
    };
    let a = make(1);
    assert_eq!(a.terrain_cells(), make(1).terrain_cells());
    assert_ne!(a.terrain_cells(), make(2).terrain_cells());
    // The map edge is not written without force: it stays floor.
    assert!(!a.is_solid(Point::new(0, 0)).unwrap());
    let open = a.open_count() as f64 / a.len() as f64;
    assert!((0.3..0.8).contains(&open), "open fraction {open}");
    // Smoothing a single speck of wall removes it and writes only that cell.
    let mut solid = vec![false; 100];
    solid[55] = true;
    let mut m = grid_map(10, 10, &solid);
    let n = smooth(&mut m, Area::Map, Rule::CAVE, 1, brushes, &mut Unmetered).unwrap();
    assert_eq!(n, 1);
    assert_eq!(m.open_count(), 100);
    let mut t = Tally::with_limit(10);
    assert!(smooth(&mut m, Area::Map, Rule::CAVE, 1, brushes, &mut t).is_err());
}
