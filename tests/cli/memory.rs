//! One memory account per generation, through the real binary: the Lua heap, the map, the
//! levels kept above it, debug layers, snapshots, towns and what drawing the output holds all
//! count against the same `--max-memory`. Running out is a located error (exit 1) that leaves no
//! output file behind. A small limit (64 MiB) keeps the maps small and the tests fast.

use crate::common::*;
use std::path::Path;
use std::time::Duration;

/// Long enough for a loaded test machine; a hang or runaway is what these tests catch.
const PATIENCE: Duration = Duration::from_secs(60);

/// The limit every run here gets, in MiB.
const LIMIT: &str = "64";

/// The budget's message for running out of the account.
const EXCEEDED: &str = "memory limit exceeded (64 MiB; raise it with --max-memory)";

/// Recipes that each fill one part of the account.
const RECIPES: &[(&str, &str)] = &[
    (
        "layers.lua",
        "return { params = { width = { default = 1024 }, height = { default = 1024 }, count = { default = 16 }, same = { default = false } },\n\
         generate = function(map, ctx)\n\
         local row = ('.'):rep(map.width) local rows = {} for i = 1, map.height do rows[i] = row end\n\
         for i = 1, ctx.params.count do map:add_layer(ctx.params.same and 'one' or 'l' .. i, { rows = rows }) end\n\
         end }\n",
    ),
    (
        "snaps.lua",
        "return { params = { width = { default = 1024 }, height = { default = 1024 } },\n\
         generate = function(map, ctx)\n\
         for i = 1, 20 do map:snapshot('step ' .. i) end\n\
         end }\n",
    ),
    (
        "snap_layer.lua",
        "return { params = { width = { default = 2560 }, height = { default = 2560 } },\n\
         generate = function(map, ctx)\n\
         map:snapshot('big')\n\
         end }\n",
    ),
    (
        "levels.lua",
        "return { params = { width = { default = 1448 }, height = { default = 1448 } },\n\
         generate = function(map, ctx)\n\
         map:fill('floor')\n\
         end }\n",
    ),
    (
        "town.lua",
        "return { params = { width = { default = 16 }, height = { default = 16 }, town = { default = true }, table = { default = true }, town_last = { default = false } },\n\
         generate = function(map, ctx)\n\
         local town, t = nil, {}\n\
         local function build() if ctx.params.town then town = warren.town.new { height = 2501, width = 2501 } end end\n\
         if not ctx.params.town_last then build() end\n\
         if ctx.params.table then for i = 1, 1500000 do t[i] = i end end\n\
         if ctx.params.town_last then build() end\n\
         end }\n",
    ),
];

/// The recipes with a private copy of the shipped regions.
fn tree() -> tempfile::TempDir {
    let dir = temp_tree(RECIPES);
    copy_regions(dir.path());
    dir
}

/// `warren run ARGS --seed 1 --max-memory 64` in `dir`.
fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut c = assert_cmd::Command::cargo_bin("warren").unwrap();
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .timeout(PATIENCE)
        .arg("run")
        .args(args)
        .args(["--seed", "1", "--max-memory", LIMIT]);
    c.output().unwrap()
}

/// Asserts the run failed with exit 1, its error starting with `located` and containing every
/// one of `contains`, and that `dir` holds nothing but the inputs (no output, no temp file).
fn refused(dir: &Path, out: &std::process::Output, located: &str, contains: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("error: "))
        .unwrap_or_else(|| panic!("no error line in:\n{err}"));
    assert!(
        line.starts_with(located),
        "expected '{located}…' in:\n{err}"
    );
    for c in contains {
        assert!(line.contains(c), "expected '{c}' in:\n{err}");
    }
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut inputs: Vec<String> = RECIPES.iter().map(|(n, _)| n.to_string()).collect();
    inputs.push("regions".into());
    inputs.sort();
    assert_eq!(left, inputs, "only the inputs may be left");
    line.to_string()
}

/// Asserts the run succeeded.
fn fits(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn debug_layers_count_against_the_memory_limit() {
    let dir = tree();
    // Sixteen 8 MiB layers on a 1024² map: the account runs out at the add_layer line.
    let out = run(dir.path(), &["layers.lua", "--out", "o.png"]);
    refused(
        dir.path(),
        &out,
        "layers.lua:4: ",
        &[EXCEEDED, "map:add_layer needs 8 MiB with "],
    );
    // Four fit, and so does replacing one layer sixteen times (a replaced layer is given back).
    let out = run(
        dir.path(),
        &["layers.lua", "--set", "count=4", "--out", "o.png"],
    );
    fits(&out);
    let out = run(
        dir.path(),
        &["layers.lua", "--set", "same=true", "--out", "o.txt"],
    );
    fits(&out);
}

#[test]
fn streamed_snapshots_hold_no_copy_and_their_frames_count_against_the_memory_limit() {
    let dir = tree();
    // Twenty snapshots of a 1024² map (6 MiB a copy): each is written as a frame when taken,
    // so none is held and they fit in 64 MiB.
    fits(&run(dir.path(), &["snaps.lua", "--frames", "frames"]));
    let frames = std::fs::read_dir(dir.path().join("frames"))
        .unwrap()
        .count();
    assert_eq!(
        frames, 22,
        "twenty snapshots, the final map and the animation"
    );
    // What writing a snapshot's frame holds is checked at the snapshot's line: the components
    // layer's labels and its quantiser's colours, 30 MiB for 2560² cells beside the map's 38.
    let out = run(
        dir.path(),
        &[
            "snap_layer.lua",
            "--layer",
            "components",
            "--frames",
            "frames2",
            "--scale",
            "1",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("snap_layer.lua:3: ") && err.contains(EXCEEDED),
        "{err}"
    );
    assert!(err.contains("map:snapshot needs 30 MiB"), "{err}");
    assert!(!dir.path().join("frames2").exists(), "no frame left behind");
}

#[test]
fn every_level_counts_against_the_memory_limit() {
    let dir = tree();
    // Eight 1448² levels (12 MiB each) do not fit together although each fits alone: refused
    // before the first is made, naming the flag.
    let out = run(
        dir.path(),
        &["levels.lua", "--levels", "8", "--out", "o.json"],
    );
    refused(
        dir.path(),
        &out,
        "--levels 8: 8 levels of 1448×1448 kept together (and the copy of the level above that \
         each one sees) needs 108 MiB with ",
        &["over the 64 MiB memory limit (raise it with --max-memory)"],
    );
    fits(&run(
        dir.path(),
        &["levels.lua", "--levels", "2", "--out", "o.json"],
    ));
}

#[test]
fn map_sizes_are_checked_against_the_memory_limit_before_allocating() {
    let dir = tree();
    let out = run(
        dir.path(),
        &[
            "levels.lua",
            "--set",
            "width=4096",
            "--set",
            "height=4096",
            "--out",
            "o.json",
        ],
    );
    refused(
        dir.path(),
        &out,
        "levels.lua:1: ",
        &[
            "params.width × params.height: a 4096×4096 map needs 96 MiB with ",
            "over the 64 MiB memory limit (raise it with --max-memory)",
        ],
    );
}

#[test]
fn frames_are_checked_against_the_memory_limit_before_any_frame_is_written() {
    let dir = tree();
    // The components layer's frame is charged a label per cell (4 bytes), and a frame of more
    // than 256 colours gives its quantiser the colours of 2^20 cells (4 MiB): 30 MiB for 2560²
    // cells beside the map's 38.
    let size = ["--set", "width=2560", "--set", "height=2560"];
    let frames = ["--frames", "frames", "--scale", "1"];
    let out = run(
        dir.path(),
        &[&["levels.lua", "--layer", "components"][..], &size, &frames].concat(),
    );
    refused(
        dir.path(),
        &out,
        "--frames at --scale 1: a 2560×2560-pixel animation frame needs 30 MiB with 38 MiB ",
        &["over the 64 MiB memory limit (raise it with --max-memory)"],
    );
    // Four 1448² levels' frames fit, a level at a time; their PNG's painters, all four levels'
    // labels together, do not: refused, and the frames written are not kept.
    let out = run(
        dir.path(),
        &[
            &["levels.lua", "--levels", "4", "--layer", "components"][..],
            &["--format", "png", "--out", "o.png"],
            &frames,
        ]
        .concat(),
    );
    refused(
        dir.path(),
        &out,
        "--out o.png: drawing it needs 32 MiB with 49 MiB ",
        &["over the 64 MiB memory limit (raise it with --max-memory)"],
    );
}

#[test]
fn drawing_a_layer_is_checked_against_the_memory_limit_before_writing() {
    let dir = tree();
    // ANSI text of a 2896² map's components layer: its areas found first, charged a label per
    // cell (32 MiB beside the map and the Lua state, 49).
    let size = ["--set", "width=2896", "--set", "height=2896"];
    let ansi = ["--format", "ansi", "--out", "o.ans"];
    let out = run(
        dir.path(),
        &[&["levels.lua", "--layer", "components"][..], &size, &ansi].concat(),
    );
    refused(
        dir.path(),
        &out,
        "--out o.ans: drawing it needs 32 MiB with 49 MiB ",
        &["over the 64 MiB memory limit (raise it with --max-memory)"],
    );
    // Every other layer, like the terrain, is drawn from the map a row at a time.
    for layer in ["region", "priority", "terrain"] {
        fits(&run(
            dir.path(),
            &[&["levels.lua", "--layer", layer][..], &size, &ansi].concat(),
        ));
    }
}

#[test]
fn a_town_and_the_lua_heap_share_one_memory_limit() {
    let dir = tree();
    // A 2501² town (about 42 MiB) and a table of 1.5 M numbers (32 MiB) each fit alone…
    fits(&run(
        dir.path(),
        &["town.lua", "--set", "table=false", "--out", "o.txt"],
    ));
    fits(&run(
        dir.path(),
        &["town.lua", "--set", "town=false", "--out", "o.txt"],
    ));
    std::fs::remove_file(dir.path().join("o.txt")).unwrap();
    // …but not together, in either order: the heap runs out beside the town…
    let out = run(dir.path(), &["town.lua", "--out", "o.txt"]);
    refused(
        dir.path(),
        &out,
        "town.lua:6: ",
        &[EXCEEDED, "the Lua heap holds "],
    );
    // …or the town does not fit beside the heap.
    let out = run(
        dir.path(),
        &["town.lua", "--set", "town_last=true", "--out", "o.txt"],
    );
    refused(
        dir.path(),
        &out,
        "town.lua:4: ",
        &[EXCEEDED, "warren.town.new needs 42 MiB with "],
    );
}
