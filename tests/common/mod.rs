//! Helpers shared by the integration tests.
#![allow(dead_code)]

#[cfg(unix)]
pub mod process;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::map::{passable, Adjacency, Map, Point};
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

/// Two terrains (solid rock, open floor) for region-file tests.
pub const TEST_TERRAIN: &str = r##"
[[terrain]]
name = "rock"
glyph = "#"
color = "#505050"
solid = true

[[terrain]]
name = "floor"
glyph = "."
color = "#c0c0c0"
solid = false
"##;

/// Loads [`TEST_TERRAIN`] as `regions/a.toml` plus `bad` as `regions/bad.toml`; returns the
/// error text (panics if loading succeeds).
pub fn load_err(bad: &str) -> String {
    let sources = vec![
        warren_core::region::Source {
            path: "regions/a.toml".into(),
            text: TEST_TERRAIN.into(),
        },
        warren_core::region::Source {
            path: "regions/bad.toml".into(),
            text: bad.into(),
        },
    ];
    match warren_core::region::Registry::from_sources(sources) {
        Ok(_) => panic!("should fail:\n{bad}"),
        Err(e) => e.to_string(),
    }
}
