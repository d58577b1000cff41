//! Helpers the host's integration tests share: a recipe written beside a copy of the shipped
//! regions, and a generation with parameters set by name.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::map::Map;
use warren_lua::{run, Host, Limits, Run};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A host for `recipe`, written as `scripts/<name>.lua` under `dir` next to a copy of the
/// shipped regions, with `limits`.
pub fn host_for(dir: &Path, name: &str, recipe: &str, limits: Limits) -> Host {
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::create_dir_all(dir.join("regions")).unwrap();
    for f in std::fs::read_dir(root().join("regions")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("regions").join(f.file_name().unwrap())).unwrap();
    }
    let script = dir.join("scripts").join(format!("{name}.lua"));
    std::fs::write(&script, recipe).unwrap();
    let registry = Arc::new(run::load_registry(None, &script).unwrap());
    Host::load(&script, registry, limits).unwrap()
}

/// One generation with `seed`, the parameters `sets` by name, at `depth` below `above`.
pub fn generate(
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
    generate(h, seed, sets, if above.is_some() { 2 } else { 1 }, above)
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
