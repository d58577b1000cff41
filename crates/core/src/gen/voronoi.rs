//! Voronoi regions: seeds scattered over an area, and every cell of the area given the number of
//! its nearest seed under a distance [`Metric`]. The ids come back as a [`Field`] (a recipe
//! reads, thresholds and paints it like any field); [`hive`] draws the `mapgen` crate's
//! "Voronoi hive" from them: walls where regions meet, floor inside.
//!
//! **Ties.** A cell equally near several seeds belongs to the one drawn first (the smallest id).
//! Distances are compared exactly (squared Euclidean distances are whole numbers), so the result
//! is the same on every machine.

use super::area::{Area, Scope};
use super::field::Field;
use super::meter::{Batched, Meter, Stopped};
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
    let mut work = Batched::new(meter);
    let values = ids.values_mut();
    // Each metric gets its own copy of the search, its arithmetic inlined (a closure type
    // each): matched for every seed looked at, the metric took about a tenth of the search.
    macro_rules! search {
        ($metric:expr) => {
            nearest(
                &scope,
                seeds,
                |dx, dy| $metric.combine(dx, dy),
                values,
                w,
                &mut work,
            )
        };
    }
    match metric {
        Metric::Euclidean => search!(Metric::Euclidean),
        Metric::Manhattan => search!(Metric::Manhattan),
        Metric::Chebyshev => search!(Metric::Chebyshev),
    }?;
    work.finish()?;
    Ok(ids)
}

/// Writes into `values` (a map `w` cells wide) the id of each cell's nearest seed by
/// `combine(dx, dy)` (ties to the smallest id), over the cells of `scope`.
fn nearest(
    scope: &Scope<'_>,
    seeds: &[Point],
    combine: impl Fn(i64, i64) -> i64,
    values: &mut [f32],
    w: usize,
    work: &mut Batched<'_>,
) -> Result<(), Stopped> {
    let b = scope.bounds;
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
        // The last cell's nearest seed (its place in `by_column`): most often this cell's too,
        // so its distance starts the search, which then stops at the first columns too far
        // away to beat or tie it. Any seed may start it: one at least as near is always looked
        // at, so the outcome is the same.
        let mut last: Option<usize> = None;
        for x in b.x..b.x + b.w {
            while right < by_column.len() && by_column[right].0 < x {
                right += 1;
            }
            if !scope.contains(x, y) {
                continue;
            }
            let mut best = (i64::MAX, usize::MAX, usize::MAX);
            if let Some(j) = last {
                let (sx, k) = by_column[j];
                best = (combine((x - sx).abs() as i64, rows_part[j]), k, j);
            }
            let mut look = |j: usize| {
                let (sx, k) = by_column[j];
                let dx = (x - sx).abs() as i64;
                if combine(dx, 0) > best.0 {
                    return false;
                }
                let d = combine(dx, rows_part[j]);
                if d < best.0 || (d == best.0 && k < best.1) {
                    best = (d, k, j);
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
            last = Some(best.2);
            values[x as usize + y as usize * w] = best.1 as f32;
        }
    }
    Ok(())
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
