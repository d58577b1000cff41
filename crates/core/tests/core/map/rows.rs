//! Writes a row at a time, checked against the same cells written one by one: masked rows
//! longer than the chunk the write takes them in, plain rows of every width, and
//! dog-legs on a large map with their ends on and off every edge.

use super::{dogleg_both_ways, masked_write_equals_one_by_one, same, table};
use crate::common::terrain;
use std::sync::Arc;
use warren_core::map::geom::{DogLeg, Point, Rect};
use warren_core::map::terrain::{Terrain, TerrainTable};
use warren_core::map::{Brush, Map};
use warren_core::rng::Rng;

/// Masked rows of 250 to 800 cells, longer than the 256-cell chunk a write takes a row in: the
/// second and later chunks, and last chunks of every length, write what one-by-one writes do.
#[test]
fn wide_masked_rows_write_like_their_cells_one_by_one() {
    let mut rng = Rng::new(63);
    for seed in 0..120 {
        let w = rng.range(250, 800) as i32;
        let h = rng.range(1, 4) as i32;
        let x = rng.range(0, 5) as i32;
        let rect = Rect::new(x, 0, w - x - rng.range(0, 5) as i32, h);
        let case = format!("seed {seed} {w}x{h} {rect:?}");
        masked_write_equals_one_by_one((w, h), rect, &mut rng, &case);
    }
}

/// Plain block rows of every width 1..=40 (rows up to 16 cells are written as two overlapping
/// windows), over flags that differ cell by cell (solid, hazard, neither; connected or not),
/// with terrains whose flags are solid, hazard or neither.
#[test]
fn plain_block_rows_of_every_width_write_like_cells() {
    let terrains = Arc::new(TerrainTable::new(vec![
        terrain("rock", '#', true),
        terrain("floor", '.', false),
        Terrain {
            hazard: true,
            ..terrain("lava", '~', false)
        },
    ]));
    for width in 1..=40 {
        for x in 0..3 {
            let mut base = Map::new(48, 3, 0, terrains.clone()).unwrap();
            for i in 0..base.len() {
                base.write_index(i, &Brush::new((i % 3) as u16).forced());
                base.set_connected(Point::new((i % 48) as i32, (i / 48) as i32), i % 4 == 0)
                    .unwrap();
            }
            for terrain in 0..3 {
                let case = format!("width {width} x {x} terrain {terrain}");
                let rect = Rect::new(x, 0, width, 3);
                let (mut fast, mut slow) = (base.clone(), base.clone());
                let brush = Brush::new(terrain).forced();
                let n = fast.fill_rect(&rect, &brush).unwrap();
                let mut m = 0;
                for p in rect.cells() {
                    m += slow.write(p, &brush).unwrap() as usize;
                }
                assert_eq!(n, m, "{case}");
                assert!(same(&fast, &slow), "{case}");
            }
        }
    }
}

/// Dog-legs on a large map: ends off the edge (the run left unclipped, each point moved as one
/// word, steps of both signs), on every edge and equal, with and without force and priority.
#[test]
fn dog_legs_on_large_maps_carve_like_their_cells() {
    let mut rng = Rng::new(7);
    let (w, h) = (700, 300);
    for seed in 0..400 {
        let mut base = Map::new(w, h, 0, table()).unwrap();
        for _ in 0..50 {
            let p = Point::new(rng.range(0, w - 1) as i32, rng.range(0, h - 1) as i32);
            base.write(p, &Brush::new(1).forced()).unwrap();
        }
        let pick = |rng: &mut Rng| {
            let x = match rng.below(4) {
                0 => 0,
                1 => w as i32 - 1,
                2 => 1,
                _ => rng.range(0, w - 1) as i32,
            };
            let y = match rng.below(4) {
                0 => 0,
                1 => h as i32 - 1,
                2 => h as i32 - 2,
                _ => rng.range(0, h - 1) as i32,
            };
            Point::new(x, y)
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let b = if rng.percent(10) { a } else { b };
        let mut brush = Brush::new(1);
        brush.force = rng.percent(50);
        if rng.percent(30) {
            brush.priority = Some(rng.below(3) as u8);
        }
        let order = if rng.percent(50) {
            DogLeg::VerticalFirst
        } else {
            DogLeg::HorizontalFirst
        };
        let ((fast, carved), (slow, expected)) = dogleg_both_ways(base, (a, b), order, &brush);
        assert_eq!(carved, expected, "seed {seed} {a:?} {b:?}");
        assert!(same(&fast, &slow), "seed {seed} {a:?} {b:?}");
    }
}
