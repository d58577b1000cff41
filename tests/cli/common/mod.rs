//! Helpers the tests of the binary share: the repository's tree, the binary run from it, temporary
//! trees beside a copy of the shipped regions, and a host for the sweeps that check many seeds.

#[cfg(unix)]
pub mod process;
pub mod server;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::map::Map;
use warren_core::region::Registry;
use warren_lua::{Host, Limits, ParamValues, Run};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

/// Copies directory `from` into `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            copy_dir(&p, &to.join(p.file_name().unwrap()));
        } else {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// The real `warren` binary, run from the repository root without colour.
pub fn warren() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("warren").unwrap();
    c.current_dir(root()).env("NO_COLOR", "1");
    c
}

/// Runs the binary with `args`, asserts success, returns stdout.
pub fn stdout(args: &[&str]) -> Vec<u8> {
    let out = warren().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Two terrains (solid rock, open floor) for region-file tests; its first line is a comment.
pub const TEST_TERRAIN: &str = include_str!("../../fixtures/two_terrains.toml");
