//! A live recipe: reloads what changed, keeps the rest, follows required modules
//! (`watch/live.rs`).

use std::collections::BTreeSet;
use std::path::PathBuf;
use warren_lua::watch::changes::canonical_file;
use warren_lua::watch::live::Generated;
use warren_lua::watch::{Batch, LiveRecipe};
use warren_lua::Limits;

const TERRAIN: &str = "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n[[terrain]]\nname = \"floor\"\nglyph = \".\"\ncolor = \"#ffffff\"\nsolid = false\n";
const RECIPE: &str = "return { params = { width = { default = 4 }, height = { default = 2 } },\n  generate = function(map, ctx) map:fill(\"floor\", { force = true }) end }\n";

fn tree() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let regions = dir.path().join("regions");
    std::fs::create_dir(&regions).unwrap();
    std::fs::write(regions.join("terrain.toml"), TERRAIN).unwrap();
    let script = dir.path().join("r.lua");
    std::fs::write(&script, RECIPE).unwrap();
    (dir, regions, script)
}

fn rows(g: &Generated) -> Vec<String> {
    warren_core::render::View::terrain(&g.levels[0].map).rows()
}

#[test]
fn a_broken_part_is_reported_and_the_rest_stays_loaded() {
    let (_dir, regions, script) = tree();
    let mut live = LiveRecipe::load(&script, &regions, vec![], Limits::default());
    assert!(live.problems().is_empty());
    assert_eq!(rows(&live.generate(1, 1).unwrap()), vec!["....", "...."]);

    std::fs::write(regions.join("terrain.toml"), "[[terrain]\n").unwrap();
    live.reload(true, false);
    let e = live.generate(1, 1).unwrap_err().to_string();
    assert!(e.contains("terrain.toml:1:"), "{e}");
    assert!(live.host().is_some());

    std::fs::write(regions.join("terrain.toml"), TERRAIN.replace('.', ",")).unwrap();
    std::fs::write(&script, RECIPE.replace("map:fill", "map:fil")).unwrap();
    live.reload(true, true);
    assert_eq!(
        live.problems().len(),
        0,
        "a runtime error is not a load error"
    );
    let e = live.generate(1, 1).unwrap_err().to_string();
    assert!(e.contains("r.lua:2:"), "{e}");

    std::fs::write(&script, RECIPE).unwrap();
    live.reload(false, true);
    assert_eq!(rows(&live.generate(1, 1).unwrap()), vec![",,,,", ",,,,"]);
}

#[test]
fn modules_required_while_generating_are_followed_once_noted() {
    let (dir, regions, script) = tree();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/late.lua"), "return \"floor\"\n").unwrap();
    let lazy = RECIPE.replace("map:fill(\"floor\"", "map:fill(require \"lib.late\"");
    std::fs::write(&script, lazy).unwrap();
    let mut live = LiveRecipe::load(&script, &regions, vec![], Limits::default());
    let late = canonical_file(&dir.path().join("lib/late.lua"));
    let batch = Batch {
        paths: BTreeSet::from([late]),
        errors: vec![],
    };
    assert!(live.changed(&batch).is_empty(), "not required yet");
    assert!(!live.note_required());
    live.generate(1, 1).unwrap();
    assert!(live.note_required());
    assert!(!live.note_required(), "noted once");
    assert_eq!(live.changed(&batch).describe(), "script (late.lua)");
}

#[test]
fn changes_name_the_files_they_touch() {
    let (_dir, regions, script) = tree();
    let live = LiveRecipe::load(&script, &regions, vec![], Limits::default());
    let batch = Batch {
        paths: BTreeSet::from([
            canonical_file(&regions.join("terrain.toml")),
            canonical_file(&script),
            canonical_file(&script.with_file_name("unrelated.lua")),
        ]),
        errors: vec![],
    };
    let c = live.changed(&batch);
    assert_eq!(c.describe(), "regions (terrain.toml), script (r.lua)");
}
