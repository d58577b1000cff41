//! The region-file schema for editors (`schemas/regions.schema.json`) and the modder's
//! reference (`docs/region-reference.md`) are generated from the schema loading checks, are
//! current, and agree with loading: a maintained validator (the `boon` crate) accepts the
//! shipped region files and refuses what loading refuses.

use crate::common::root;
use crate::common::schema::Schema;
use serde_json::Value;
use warren_core::region::reference::{
    json_schema, json_schema_text, markdown, REFERENCE_PATH, SCHEMA_PATH,
};
use warren_core::region::Registry;

/// Where the generated schema is registered with the validator (it is compiled from memory).
const SCHEMA_LOCATION: &str = "file:///warren/regions.schema.json";

/// A region file's TOML as the JSON value a schema validator (and an editor) checks.
fn as_json(toml_text: &str) -> Value {
    let value: toml::Value = toml::from_str(toml_text).expect("the TOML parses");
    serde_json::to_value(value).unwrap()
}

/// The validator's complaints about a region file, one line each.
pub fn complaints(toml_text: &str) -> Vec<String> {
    Schema::compile(SCHEMA_LOCATION, json_schema()).errors(&as_json(toml_text))
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let on_disk = std::fs::read_to_string(root().join(SCHEMA_PATH)).unwrap_or_default();
    assert!(
        on_disk == json_schema_text(),
        "{SCHEMA_PATH} is stale: run `cargo run -- schema --out {SCHEMA_PATH}`"
    );
}

#[test]
fn the_committed_reference_is_the_generated_one() {
    let on_disk = std::fs::read_to_string(root().join(REFERENCE_PATH)).unwrap_or_default();
    assert!(
        on_disk == markdown(),
        "{REFERENCE_PATH} is stale: run `cargo run -- schema --markdown --out {REFERENCE_PATH}`"
    );
}

#[test]
fn every_shipped_region_file_validates() {
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("regions")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let problems = complaints(&std::fs::read_to_string(&path).unwrap());
            assert!(problems.is_empty(), "{}: {problems:?}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} region files found");
}

/// Region files with one mistake each. Loading refuses every one (beside the shipped terrain
/// file), and so does the schema, so an editor marks the mistake before warren runs.
const MISTAKES: &[(&str, &str)] = &[
    ("an unknown section", "[dungeo]\nturn_chance = 10\n"),
    ("an unknown key", "[dungeon]\nturn_chanse = 10\n"),
    ("a percentage above 100", "[dungeon]\nturn_chance = 101\n"),
    ("a panel too small", "[dungeon]\npanel_width = 4\n"),
    ("text for a number", "[dungeon]\nmax_vaults = \"2\"\n"),
    (
        "a room kind that does not exist",
        "[[room]]\nname = \"hall\"\nweight = 1\nkind = \"hexagon\"\nfloor = \"floor\"\nwall = \"rock wall\"\ndoor = \"door\"\n",
    ),
    (
        "a room without its kind",
        "[[room]]\nname = \"hall\"\nweight = 1\nfloor = \"floor\"\nwall = \"rock wall\"\ndoor = \"door\"\n",
    ),
    (
        "a negative weight",
        "[[spawn]]\nname = \"orc\"\nweight = -1\n",
    ),
    (
        "a glyph of two characters",
        "[[terrain]]\nname = \"moss\"\nglyph = \",,\"\ncolor = \"#5f8f3a\"\nsolid = false\n",
    ),
    (
        "a colour that is not #rrggbb",
        "[[terrain]]\nname = \"moss\"\nglyph = \",\"\ncolor = \"green\"\nsolid = false\n",
    ),
    (
        "a streamer wider than 16",
        "[[streamer]]\nname = \"flood\"\nweight = 1\nkind = \"river\"\nterrain = \"water\"\nmin_width = 1\nmax_width = 17\n",
    ),
    (
        "a vault legend key of two characters",
        "[[vault]]\nname = \"v\"\nweight = 1\ngrid = \"#\"\n[vault.legend]\n\"##\" = \"rock wall\"\n",
    ),
    ("a budget below its range", "[limits]\nmax_memory_mib = 8\n"),
    ("a time budget above its range", "[limits]\nmax_seconds = 601\n"),
    (
        "an unknown key in a nested table",
        "[[door]]\nname = \"d\"\nclosed = \"door\"\nopen = \"open door\"\n[door.weights]\nshut = 3\n",
    ),
];

#[test]
fn the_schema_refuses_what_loading_refuses() {
    let terrain = std::fs::read_to_string(root().join("regions/terrain.toml")).unwrap();
    for (what, text) in MISTAKES {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("terrain.toml"), &terrain).unwrap();
        std::fs::write(dir.path().join("mod.toml"), text).unwrap();
        assert!(
            Registry::load_dir(dir.path()).is_err(),
            "{what}: loading accepts it, so the schema must not be asked to refuse it"
        );
        assert!(
            !complaints(text).is_empty(),
            "{what}: the schema accepts\n{text}"
        );
    }
}

#[test]
fn the_schema_accepts_what_loading_accepts() {
    // Every key of every section, at the edges of its range.
    let text = r##"
[[terrain]]
name = "moss"
glyph = ","
color = "#5F8f3a"
solid = false
hazard = false
description = "soft"

[[door]]
name = "reed door"
closed = "door"
open = "open door"
locked = "locked door"
broken = "broken door"
secret = "rock wall"
[door.weights]
closed = 0
open = 0.5
locked = 1e6
secret = 10

[dungeon]
turn_chance = 0
stubborn_corridor = 100
segment_minlen = 1
segment_maxlen = 1000
level_width = 256
level_height = 64
panel_width = 32
panel_height = 32
min_streamers = 0
max_streamers = 64
room_min_width = 5
room_max_width = 30
secret_door_reveal_depth = 0
corridor = "mossy tunnel"
bridge = "bridge"

[[corridor]]
name = "mossy tunnel"
weight = 0
floor = "moss"
walls = "rock wall"
door = "reed door"
staple = true
[corridor.constants]
turn_chance = 100
segment_maxlen = 1

[[streamer]]
name = "stream"
weight = 2.5
kind = "river"
terrain = "water"
min_width = 1
max_width = 16
min_depth = 1
priority = "RIVER_STREAMER"

[[spawn]]
name = "frog"
weight = 0

[limits]
max_instructions = 1_000_000
max_memory_mib = 16384
max_seconds = 0.1
"##;
    let dir = tempfile::tempdir().unwrap();
    let terrain = std::fs::read_to_string(root().join("regions/terrain.toml")).unwrap();
    std::fs::write(dir.path().join("terrain.toml"), terrain).unwrap();
    std::fs::write(dir.path().join("mod.toml"), text).unwrap();
    if let Err(e) = Registry::load_dir(dir.path()) {
        panic!("loading refuses the sample, so it proves nothing: {e}");
    }
    assert_eq!(complaints(text), Vec::<String>::new());
}

#[test]
fn the_reference_states_every_dungeon_keys_range_and_default() {
    let page = markdown();
    let dungeon = &page[page.find("## `[dungeon]`").expect("a [dungeon] section")..];
    for k in warren_core::region::DUNGEON_KEYS {
        let row = dungeon
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", k.key)))
            .unwrap_or_else(|| panic!("no row for {}", k.key));
        let default = k.default.unwrap();
        assert!(
            row.contains(&format!("| `{default}` |"))
                && row.contains(&format!("{}..={}", k.min, k.max)),
            "{}: {row}",
            k.key
        );
    }
}
