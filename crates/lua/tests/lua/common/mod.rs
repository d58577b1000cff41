//! Helpers the host's tests share: the shipped recipes and regions, a recipe written beside a
//! copy of the shipped regions, generations with parameters set by name, and reference flood
//! fills to check maps against.

pub mod host;

pub use host::*;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use warren_core::map::{passable, Adjacency, Map, Point};
use warren_lua::{run, Host, Limits, Run};

/// Reference flood fill over passable cells (terrain neither solid nor a hazard, or a door)
/// from `start`, stepping as `adjacency` allows; returns a reached mask.
pub fn reach(map: &Map, start: Point, adjacency: Adjacency) -> Vec<bool> {
    let (w, h) = (map.width(), map.height());
    let mut seen = vec![false; map.len()];
    let open = |x: i32, y: i32| map.is_passable(Point::new(x, y)).unwrap();
    let mut queue = VecDeque::new();
    if open(start.x, start.y) {
        seen[(start.x + start.y * w) as usize] = true;
        queue.push_back(start);
    }
    while let Some(p) = queue.pop_front() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if adjacency == Adjacency::Four && dx != 0 && dy != 0 {
                    continue;
                }
                let (x, y) = (p.x + dx, p.y + dy);
                if x < 0 || y < 0 || x >= w || y >= h {
                    continue;
                }
                let i = (x + y * w) as usize;
                if !seen[i] && open(x, y) {
                    seen[i] = true;
                    queue.push_back(Point::new(x, y));
                }
            }
        }
    }
    seen
}

/// Number of passable cells not reached from `start` in `adjacency`.
pub fn unreached(map: &Map, start: Point, adjacency: Adjacency) -> usize {
    let seen = reach(map, start, adjacency);
    (0..map.len())
        .filter(|&i| !seen[i] && passable(map.flag_cells()[i]))
        .count()
}

/// The first passable cell, row-major.
pub fn first_open(map: &Map) -> Point {
    let i = map
        .flag_cells()
        .iter()
        .position(|&f| passable(f))
        .expect("a passable cell");
    map.point(i)
}

/// A host for `recipe`, written as `scripts/<name>.lua` under `dir` next to a copy of the
/// shipped regions, with `limits`.
pub fn host_for(dir: &Path, name: &str, recipe: &str, limits: Limits) -> Host {
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    copy_regions(dir);
    let script = dir.join("scripts").join(format!("{name}.lua"));
    std::fs::write(&script, recipe).unwrap();
    let registry = Arc::new(run::load_registry(None, &script).unwrap());
    Host::load(&script, registry, limits).unwrap()
}

/// One generation with `seed`, the parameters `sets` by name, at `depth` below `above`.
pub fn generate_at(
    h: &Host,
    seed: u64,
    sets: &[(&str, &str)],
    depth: u32,
    above: Option<&Map>,
) -> warren_lua::Result<Map> {
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let params = h.resolve_params(&sets).unwrap();
    h.generate(&Run {
        seed,
        params: &params,
        depth,
        above,
    })
}

/// One generation at depth 1, or at depth 2 below `above` (a recipe that compares the run's
/// map with `ctx.above`).
pub fn level(
    h: &Host,
    seed: u64,
    sets: &[(&str, &str)],
    above: Option<&Map>,
) -> warren_lua::Result<Map> {
    generate_at(h, seed, sets, if above.is_some() { 2 } else { 1 }, above)
}

/// A level at depth 2 below the level `h` makes at depth 1, both with `seed` and `sets`.
pub fn below_itself(h: &Host, seed: u64, sets: &[(&str, &str)]) -> Map {
    let above = level(h, seed, sets, None).unwrap();
    level(h, seed, sets, Some(&above)).unwrap()
}

/// [`least_budget`] of `recipe` with `sets`, on the run's map (`on = "map"`) and on
/// `ctx.above` (`on = "above"`): a recipe that calls the same functions on either, which take
/// the fast path on the run's map and the declared bindings on the other.
pub fn least_budgets_on_both(
    dir: &Path,
    recipe: &str,
    sets: &[(&str, &str)],
    above: &Map,
) -> (u64, u64) {
    let on = |map| {
        let sets: Vec<(&str, &str)> = [("on", map)]
            .into_iter()
            .chain(sets.iter().copied())
            .collect();
        least_budget(dir, recipe, &sets, Some(above))
    };
    (on("map"), on("above"))
}

/// The smallest instruction budget within which a generation of `recipe` (seed 1, parameters
/// `sets`, below `above` at depth 2 when given) finishes.
pub fn least_budget(dir: &Path, recipe: &str, sets: &[(&str, &str)], above: Option<&Map>) -> u64 {
    let (mut lo, mut hi) = (100u64, 10_000_000u64);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let limits = Limits {
            instructions: mid,
            ..Limits::default()
        };
        match level(&host_for(dir, "least", recipe, limits), 1, sets, above) {
            Ok(_) => hi = mid,
            Err(warren_lua::Error::Budget(_)) => lo = mid + 1,
            Err(e) => panic!("{sets:?}: {e}"),
        }
    }
    lo
}
