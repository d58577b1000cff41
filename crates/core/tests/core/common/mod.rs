//! Helpers the core's tests share: the shipped regions, a small terrain table, and region
//! files that must fail to load.

/// Maps from ASCII rows (rock, floor, door, chasm) and plain reference algorithms (floods,
/// components) that the fast ones are checked against.
pub mod ascii;

use std::path::PathBuf;
use std::sync::Arc;
use warren_core::map::{Rgb, Terrain};
use warren_core::region::{Registry, Source};

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shipped registry.
pub fn registry() -> Arc<Registry> {
    Arc::new(Registry::load_dir(&root().join("regions")).expect("shipped regions load"))
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

/// Two terrains (solid rock, open floor) for region-file tests; its first line is a comment.
pub const TEST_TERRAIN: &str = include_str!("../../../../../tests/fixtures/two_terrains.toml");

/// Loads [`TEST_TERRAIN`] as `regions/a.toml` plus `bad` as `regions/bad.toml`; returns the
/// error text (panics if loading succeeds).
pub fn load_err(bad: &str) -> String {
    let sources = vec![
        Source {
            path: "regions/a.toml".into(),
            text: TEST_TERRAIN.into(),
        },
        Source {
            path: "regions/bad.toml".into(),
            text: bad.into(),
        },
    ];
    match Registry::from_sources(sources) {
        Ok(_) => panic!("should fail:\n{bad}"),
        Err(e) => e.to_string(),
    }
}

/// An uncoloured terrain (black, no hazard, the default move cost), for tables built by hand
/// with door kinds or glyphs that `TerrainTable::plain` cannot give.
pub fn terrain(name: impl Into<String>, glyph: char, solid: bool) -> Terrain {
    Terrain {
        name: name.into(),
        glyph,
        color: Rgb(0, 0, 0),
        solid,
        hazard: false,
        move_cost: None,
    }
}
