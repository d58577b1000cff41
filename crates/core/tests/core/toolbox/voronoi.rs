use crate::common::ascii::{grid_map, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::area::Mask;
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::voronoi::{hive, regions, scatter, HiveBrushes, HiveRule, Metric, NO_REGION};
use warren_core::map::Rect;
use warren_core::map::{Brush, Map, Point};
use warren_core::rng::Rng;

const METRICS: [Metric; 3] = [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev];

/// Over 1,000 seeds (maps, areas, metrics, seed counts): every cell of the area holds an id,
/// the id of a nearest seed, and the smallest such id; cells outside hold [`NO_REGION`];
/// seeds are distinct cells of the area; the same rng draws the same seeds.
#[test]
fn every_cell_belongs_to_its_nearest_seed() {
    let mut rng = Rng::new(41);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 30) as i32, rng.range(1, 20) as i32);
        let map = grid_map(w as usize, h as usize, &[]);
        let mut mask = Mask::new(w, h, false);
        for c in mask.cells_mut() {
            *c = rng.percent(70);
        }
        let rect = Rect::new(0, 0, rng.range(1, w as i64) as i32, h);
        let area = match seed % 3 {
            0 => Area::Map,
            1 => Area::Rect(rect),
            _ => Area::Mask(&mask),
        };
        let metric = METRICS[rng.below(3) as usize];
        let count = rng.range(1, 40) as u32;
        let seeds = scatter(&map, area, count, &mut Rng::new(seed)).unwrap();
        assert_eq!(
            seeds,
            scatter(&map, area, count, &mut Rng::new(seed)).unwrap()
        );
        let scope = area.on(&map).unwrap();
        let in_area = scope.cells().count();
        assert_eq!(seeds.len(), (count as usize).min(in_area), "seed {seed}");
        for (i, s) in seeds.iter().enumerate() {
            assert!(scope.contains(s.x, s.y), "seed {seed}");
            assert!(!seeds[..i].contains(s), "seed {seed}: seeds repeat");
        }
        if seeds.is_empty() {
            continue;
        }
        // Seeds may lie anywhere on the map, and repeat (the smallest id wins a tie).
        let mut seeds = seeds;
        for _ in 0..rng.below(4) {
            let p = Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32);
            seeds.extend([p, seeds[rng.below(seeds.len() as u64) as usize]]);
        }
        let ids = regions(&map, area, &seeds, metric, &mut Unmetered).unwrap();
        for y in 0..h {
            for x in 0..w {
                let p = Point::new(x, y);
                let got = ids.get(p).unwrap();
                if !scope.contains(x, y) {
                    assert_eq!(got, NO_REGION, "seed {seed}");
                    continue;
                }
                let nearest = seeds.iter().map(|&s| metric.distance(p, s)).min().unwrap();
                let want = seeds
                    .iter()
                    .position(|&s| metric.distance(p, s) == nearest)
                    .unwrap();
                assert_eq!(got, want as f32, "seed {seed} {metric:?} at {p:?}");
            }
        }
    }
}

#[test]
fn hives_wall_the_borders_and_arguments_are_checked() {
    let mut map = grid_map(7, 3, &[true; 21]);
    let seeds = [Point::new(1, 1), Point::new(5, 1)];
    let ids = regions(&map, Area::Map, &seeds, Metric::Manhattan, &mut Unmetered).unwrap();
    let wall = Brush::new(ROCK).forced();
    let floor = Brush::new(FLOOR).forced();
    let brushes = HiveBrushes {
        wall: &wall,
        floor: &floor,
    };
    let walled = HiveRule {
        border: 1,
        thin: false,
    };
    let row = |map: &Map| -> Vec<bool> {
        (0..7)
            .map(|x| map.is_solid(Point::new(x, 1)).unwrap())
            .collect()
    };
    hive(&mut map, Area::Map, &ids, walled, brushes, &mut Unmetered).unwrap();
    // Column 3 is equally near both seeds: it goes to seed 0, so columns 3 and 4 meet.
    assert_eq!(row(&map), [true, false, false, true, true, false, true]);
    // Thin: only seed 0's side of the border (it has the larger neighbour) is walled.
    let thin = HiveRule {
        thin: true,
        ..walled
    };
    hive(&mut map, Area::Map, &ids, thin, brushes, &mut Unmetered).unwrap();
    assert_eq!(row(&map), [true, false, false, true, false, false, true]);
    let five = HiveRule {
        border: 5,
        ..walled
    };
    let e = hive(&mut map, Area::Map, &ids, five, brushes, &mut Unmetered).unwrap_err();
    assert_eq!(
        e.to_string(),
        "voronoi hive option border = 5 is out of range: 1..=4"
    );
    let e = scatter(&map, Area::Map, 0, &mut Rng::new(1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "voronoi option seeds = 0 is out of range: 1..=4096"
    );
    let e = regions(&map, Area::Map, &[], Metric::Euclidean, &mut Unmetered).unwrap_err();
    assert_eq!(e.to_string(), "voronoi needs at least one source cell");
    let mut t = Tally::with_limit(5);
    assert!(regions(&map, Area::Map, &seeds, Metric::Euclidean, &mut t).is_err());
}
