//! The hot registry: which files count, the last good registry kept (`watch/registry.rs`).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warren_lua::watch::changes::canonical_dir;
use warren_lua::watch::registry::touches_regions;
use warren_lua::watch::{Batch, HotRegistry, RegistryUpdate};

const GOOD: &str =
    "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n";

fn batch(paths: &[&Path]) -> Batch {
    Batch {
        paths: paths
            .iter()
            .map(|p| p.to_path_buf())
            .collect::<BTreeSet<_>>(),
        errors: vec![],
    }
}

#[test]
fn only_region_files_below_the_directory_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = canonical_dir(dir.path());
    std::fs::write(d.join("a.toml"), GOOD).unwrap();
    std::fs::write(d.join("notes.txt"), "").unwrap();
    assert!(touches_regions(&d, &batch(&[&d.join("a.toml")])));
    assert!(touches_regions(&d, &batch(&[&d.join("deleted.toml")])));
    assert!(!touches_regions(&d, &batch(&[&d.join("notes.txt")])));
    assert!(!touches_regions(
        &d,
        &batch(&[Path::new("/elsewhere/a.toml")])
    ));
}

#[test]
fn keeps_the_last_good_registry_and_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("terrain.toml");
    std::fs::write(&file, GOOD).unwrap();
    let mut hot = HotRegistry::open(dir.path()).unwrap();
    let first = hot.current();
    std::fs::write(&file, "[[terrain]]\nname = ").unwrap();
    let failed = hot.wait(Duration::from_secs(20));
    assert!(
        matches!(failed, Some(RegistryUpdate::Failed(_))),
        "{failed:?}"
    );
    assert!(Arc::ptr_eq(&first, &hot.current()));
    std::fs::write(&file, GOOD.replace("rock", "granite")).unwrap();
    match hot.wait(Duration::from_secs(20)) {
        Some(RegistryUpdate::Reloaded(r)) => {
            assert!(r.terrain("granite").is_ok());
            assert!(Arc::ptr_eq(&r, &hot.current()));
        }
        other => panic!("expected a reload, got {other:?}"),
    }
}
