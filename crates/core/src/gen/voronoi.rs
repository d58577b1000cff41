//! Voronoi regions: seeds scattered over an area, and every cell of the area given the number of
//! its nearest seed under a distance [`Metric`]. The ids come back as a [`Field`] (a recipe
//! reads, thresholds and paints it like any field); [`hive`] draws the `mapgen` crate's
//! "Voronoi hive" from them: walls where regions meet, floor inside.
//!
//! **Ties.** A cell equally near several seeds belongs to the one drawn first (the smallest id).
//! Distances are compared exactly (squared Euclidean distances are whole numbers), so the result
//! is the same on every machine.

use super::area::Area;
use super::field::Field;
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{Brush, Map, Point};
use crate::rng::Rng;

/// How the distance from a cell to a seed is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Straight-line distance (compared squared: `dx² + dy²`): round regions.
    Euclidean,
    /// `|dx| + |dy|`: diamond-like regions.
    Manhattan,
    /// `max(|dx|, |dy|)`: square-like regions.
    Chebyshev,
}

impl Metric {
    /// Every metric's name, as recipes spell it.
    pub const NAMES: [&'static str; 3] = ["euclidean", "manhattan", "chebyshev"];

    /// The metric named `name` (one of [`Metric::NAMES`]).
    pub fn from_name(name: &str) -> Option<Metric> {
        Some(match name {
            "euclidean" => Metric::Euclidean,
            "manhattan" => Metric::Manhattan,
            "chebyshev" => Metric::Chebyshev,
            _ => return None,
        })
    }

    /// The distance between two cells under this metric (squared for Euclidean: it orders
    /// cells the same way).
    #[inline]
    pub fn distance(self, a: Point, b: Point) -> i64 {
        let (dx, dy) = ((a.x - b.x).abs() as i64, (a.y - b.y).abs() as i64);
        self.combine(dx, dy)
    }

    /// The distance of cells `dx` columns and `dy` rows apart (both ≥ 0).
    #[inline]
    fn combine(self, dx: i64, dy: i64) -> i64 {
        match self {
            Metric::Euclidean => dx * dx + dy * dy,
            Metric::Manhattan => dx + dy,
            Metric::Chebyshev => dx.max(dy),
        }
    }

    /// The least distance of cells `dx` columns apart, whatever their rows.
    #[inline]
    fn column_part(self, dx: i64) -> i64 {
        self.combine(dx, 0)
    }
}

/// The value of a cell outside the area in a region field.
pub const NO_REGION: f32 = -1.0;

/// The most seeds a call may scatter.
pub const MAX_SEEDS: u32 = 4096;

/// `count` distinct cells of `area`, drawn from `rng` (all of them, in row order, when the area
/// has no more). The first drawn is seed 0.
pub fn scatter(
    map: &Map,
    area: Area<'_>,
    count: u32,
    rng: &mut Rng,
) -> Result<Vec<Point>, ToolError> {
    ToolError::check_range("voronoi", "seeds", count as i64, (1, MAX_SEEDS as i64))?;
    let scope = area.on(map)?;
    let mut cells: Vec<Point> = scope.cells().collect();
    let n = (count as usize).min(cells.len());
    // A partial Fisher-Yates shuffle: the first `n` cells are the draw.
    for i in 0..n {
        let j = i + rng.below((cells.len() - i) as u64) as usize;
        cells.swap(i, j);
    }
    cells.truncate(n);
    Ok(cells)
}

/// A field of `map`'s size holding, on every cell of `area`, the id (index in `seeds`) of its
/// nearest seed under `metric` (ties to the smallest id), and [`NO_REGION`] elsewhere. Seeds
/// may lie anywhere on the map.
pub fn regions(
    map: &Map,
    area: Area<'_>,
    seeds: &[Point],
    metric: Metric,
    meter: &mut dyn Meter,
) -> Result<Field, ToolError> {
    if seeds.is_empty() {
        return Err(ToolError::NoSources { what: "voronoi" });
    }
    for &s in seeds {
        map.index(s)?;
    }
    let scope = area.on(map)?;
    let mut ids = Field::like(map, NO_REGION);
    let w = map.width() as usize;
    let b = scope.bounds;
    let mut work = Batched::new(meter);
    let values = ids.values_mut();
    // The seeds by column (then id). A seed's distance is never less than its column's part
    // (`dx²`, or `dx`), which grows away from the cell's column: each cell looks at the seeds
    // outward from its column in both directions, each way until that part alone exceeds the
    // nearest distance found. Seeds equally near are all looked at (the smallest id wins).
    let mut by_column: Vec<(i32, usize)> =
        seeds.iter().enumerate().map(|(k, s)| (s.x, k)).collect();
    by_column.sort_unstable();
    let mut rows_part = vec![0i64; seeds.len()];
    for y in b.y..b.y + b.h {
        // Each seed's vertical part of the distance is the same along a row.
        work.work(seeds.len() as u64 * b.w.max(0) as u64)?;
        for (part, &(_, k)) in rows_part.iter_mut().zip(&by_column) {
            *part = (y - seeds[k].y).abs() as i64;
        }
        // The first seed (by column) at or right of the cell.
        let mut right = 0;
        for x in b.x..b.x + b.w {
            while right < by_column.len() && by_column[right].0 < x {
                right += 1;
            }
            if !scope.contains(x, y) {
                continue;
            }
            let mut best = (i64::MAX, usize::MAX);
            let mut look = |j: usize| {
                let (sx, k) = by_column[j];
                let dx = (x - sx).abs() as i64;
                if metric.column_part(dx) > best.0 {
                    return false;
                }
                let d = metric.combine(dx, rows_part[j]);
                if d < best.0 || (d == best.0 && k < best.1) {
                    best = (d, k);
                }
                true
            };
            for j in right..by_column.len() {
                if !look(j) {
                    break;
                }
            }
            for j in (0..right).rev() {
                if !look(j) {
                    break;
                }
            }
            values[x as usize + y as usize * w] = best.1 as f32;
        }
    }
    work.finish()?;
    Ok(ids)
}

/// How [`hive`] finds the borders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiveRule {
    /// A cell becomes wall when at least this many of its four neighbours count, `1..=4`.
    pub border: u32,
    /// Count only the neighbours in a region of a larger id (and those off the map or outside
    /// the area), so that each border is walled from one side: one-cell walls. Otherwise every
    /// neighbour in another region counts.
    pub thin: bool,
}

/// What [`hive`] writes.
#[derive(Clone, Copy, Debug)]
pub struct HiveBrushes<'b> {
    /// Written where regions meet.
    pub wall: &'b Brush,
    /// Written inside the regions.
    pub floor: &'b Brush,
}

/// Draws a hive from a region field: a cell of `area` becomes wall when at least `rule.border`
/// of its four neighbours lie in another region (with `rule.thin`, in a region of a larger id; a
/// neighbour off the map or outside the area always counts), floor otherwise. `border` 2 is the
/// `mapgen` crate's hive (regions open into each other along straight borders, walls at the
/// corners); 1 walls every region in (thin: with one-cell walls, which
/// [`crate::gen::loops`] can open into doors). Returns the cells written.
pub fn hive(
    map: &mut Map,
    area: Area<'_>,
    ids: &Field,
    rule: HiveRule,
    brushes: HiveBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<usize, ToolError> {
    let border = rule.border;
    ToolError::check_range("voronoi hive", "border", border as i64, (1, 4))?;
    super::area::same_size((ids.width(), ids.height()), (map.width(), map.height()))?;
    let scope = area.on(map)?;
    let (w, h) = (map.width(), map.height());
    let v = ids.values();
    let id = |x: i32, y: i32| {
        if x < 0 || y < 0 || x >= w || y >= h || !scope.contains(x, y) {
            NO_REGION
        } else {
            v[x as usize + y as usize * w as usize]
        }
    };
    let mut work = Batched::new(meter);
    let mut written = 0;
    for p in scope.cells() {
        work.work(1)?;
        let mine = id(p.x, p.y);
        let others = [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .iter()
            .map(|(dx, dy)| id(p.x + dx, p.y + dy))
            .filter(|&theirs| {
                theirs == NO_REGION
                    || if rule.thin {
                        theirs > mine
                    } else {
                        theirs != mine
                    }
            })
            .count() as u32;
        let brush = if others >= border {
            brushes.wall
        } else {
            brushes.floor
        };
        written += map.write(p, brush)? as usize;
    }
    work.finish()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::area::Mask;
    use crate::gen::connectivity::ascii::{grid_map, FLOOR, ROCK};
    use crate::gen::meter::{Tally, Unmetered};
    use crate::map::Rect;

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
}
