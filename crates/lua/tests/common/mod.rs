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
