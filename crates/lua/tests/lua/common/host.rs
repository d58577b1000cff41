//! Helpers every test binary that runs a Lua host shares (the CLI's tests include this file by
//! path): the repository's tree, the shipped recipes and regions, generations with parameters
//! set by name, and temporary trees beside a copy of the shipped regions.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::map::Map;
use warren_core::region::Registry;
use warren_lua::{Host, Limits, ParamValues, Run};

/// The repository's root: the workspace's, whichever crate's tests include this file.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .expect("the workspace root holds Cargo.lock")
        .to_path_buf()
}

/// The shipped registry.
pub fn registry() -> Arc<Registry> {
    Arc::new(Registry::load_dir(&root().join("regions")).expect("shipped regions load"))
}

/// A host for a shipped recipe.
pub fn host(script: &str) -> Host {
    Host::load(
        &root().join("scripts").join(script),
        registry(),
        Limits::default(),
    )
    .expect("recipe loads")
}

/// Parameters with `--set`-style overrides.
pub fn params(host: &Host, sets: &[(&str, &str)]) -> ParamValues {
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    host.resolve_params(&sets).expect("params resolve")
}

/// Generates one level.
pub fn generate(host: &Host, seed: u64, params: &ParamValues) -> Map {
    host.generate(&Run {
        seed,
        params,
        depth: 1,
        above: None,
    })
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Writes files into a fresh temporary directory.
pub fn temp_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Copies the shipped regions into `dir/regions`.
pub fn copy_regions(dir: &Path) {
    let to = dir.join("regions");
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(root().join("regions")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// Two terrains (solid rock, open floor) for region-file tests; its first line is a comment.
pub const TEST_TERRAIN: &str = include_str!("../../../../../tests/fixtures/two_terrains.toml");
