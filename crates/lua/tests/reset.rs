//! Every map starts from the same state: the shipped recipes never leave their state dirty (so
//! reuse costs nothing), and a recipe that does is loaded again before the next run, so its maps
//! equal those of a fresh host.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_lua::{run, Host, Limits, Run};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn host(script: &Path) -> Host {
    let registry = Arc::new(run::load_registry(None, script).unwrap());
    Host::load(script, registry, Limits::default()).unwrap()
}

fn rows(host: &Host, seed: u64) -> String {
    let params = host.resolve_params(&[]).unwrap();
    let map = host
        .generate(&Run {
            seed,
            params: &params,
            depth: 1,
            above: None,
        })
        .unwrap();
    let view = warren_core::render::layers::LayerChoice::from_name("terrain")
        .view(&map)
        .unwrap();
    format!(
        "{}{:?}",
        warren_core::render::text::ascii(&view),
        map.notes.tags
    )
}

#[test]
fn shipped_recipes_leave_their_state_clean() {
    for name in ["rooms", "cave", "dungeon", "townmaze"] {
        let script = root().join("scripts").join(format!("{name}.lua"));
        let h = host(&script);
        for seed in 1..=3 {
            rows(&h, seed);
        }
        assert_eq!(h.rebuilds(), 0, "{name} left its state dirty");
    }
}

#[test]
fn a_stateful_recipe_is_reloaded_and_gives_the_fresh_maps() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("regions")).unwrap();
    for f in std::fs::read_dir(root().join("regions")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.path().join("regions").join(f.file_name().unwrap())).unwrap();
    }
    let script = dir.path().join("scripts/counter.lua");
    std::fs::write(
        &script,
        r#"
local n = 0
local seen = {}
return {
  name = "counter",
  params = { width = { default = 24, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    n = n + 1
    seen[#seen + 1] = tostring({})
    map:fill("rock wall")
    for i = 1, n do map:set(i, 1, "floor") end
    map:tag("ids", table.concat(seen, ","))
  end,
}
"#,
    )
    .unwrap();
    let h = host(&script);
    let reused: Vec<String> = (1..=3).map(|s| rows(&h, s)).collect();
    assert_eq!(h.rebuilds(), 2);
    for (i, m) in reused.iter().enumerate() {
        assert_eq!(m, &rows(&host(&script), i as u64 + 1));
    }
}
