//! Seeing generation: `--frames` writes one PNG per `map:snapshot` plus the final map, and
//! `--layer` draws debug layers in every format.

use crate::common::*;
use assert_cmd::Command;

fn warren(dir: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("warren").unwrap();
    c.current_dir(dir).env("NO_COLOR", "1");
    c
}

fn ok_stdout(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn frames_are_numbered_labelled_pngs_ending_with_the_final_map() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    let script = root().join("scripts/rooms.lua");
    let json = ok_stdout(warren(dir.path()).args([
        "run",
        script.to_str().unwrap(),
        "--seed",
        "3",
        "--frames",
        "frames",
        "--format",
        "json",
        "--layer",
        "components",
    ]));
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "000-rooms.png",
            "001-corridors.png",
            "002-final.png",
            "animation.gif"
        ]
    );
    let gif = std::fs::read(frames.join(names.pop().unwrap())).unwrap();
    assert!(gif.starts_with(b"GIF89a"));
    let pngs: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(frames.join(n)).unwrap())
        .collect();
    assert!(pngs.iter().all(|p| p.starts_with(b"\x89PNG\r\n\x1a\n")));
    assert_ne!(pngs[0], pngs[1], "rooms and corridors differ");

    // The last frame is exactly what `--out` writes for the same run and layer.
    ok_stdout(warren(dir.path()).args([
        "run",
        script.to_str().unwrap(),
        "--seed",
        "3",
        "--layer",
        "components",
        "--out",
        "final.png",
    ]));
    assert_eq!(
        std::fs::read(dir.path().join("final.png")).unwrap(),
        pngs[2]
    );

    // JSON keeps the terrain rows and adds the layer beside them: rooms are all joined.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let v = &v["levels"][0];
    let plain: serde_json::Value = serde_json::from_str(&ok_stdout(warren(dir.path()).args([
        "run",
        script.to_str().unwrap(),
        "--seed",
        "3",
        "--format",
        "json",
    ])))
    .unwrap();
    let plain = &plain["levels"][0];
    assert_eq!(v["rows"], plain["rows"]);
    assert!(plain.get("layer").is_none());
    assert_eq!(v["layer"]["name"], "components");
    let layer_rows: String = v["layer"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        layer_rows.contains('a') && !layer_rows.contains('b'),
        "one connected area"
    );
}

#[test]
fn recipe_layers_and_the_priority_heat_map_render_as_text() {
    let dir = temp_tree(&[(
        "r.lua",
        r##"return { params = { width = { default = 5 }, height = { default = 3 } },
  generate = function(map, ctx)
    map:fill_rect({ x = 1, y = 1, w = 3, h = 1 }, "floor", { priority = "room_floor" })
    map:add_layer("marks", { rows = { "     ", " ! ? ", "     " }, colors = { ["!"] = "#ff0000" } })
  end }
"##,
    )]);
    copy_regions(dir.path());
    let run = |layer: &str| {
        ok_stdout(warren(dir.path()).args(["run", "r.lua", "--seed", "1", "--layer", layer]))
    };
    assert_eq!(run("terrain"), "#####\n#...#\n#####\n");
    assert_eq!(run("marks"), "#####\n#!.?#\n#####\n");
    assert_eq!(run("priority"), "#####\n#555#\n#####\n");
    let ansi = ok_stdout(warren(dir.path()).args([
        "run", "r.lua", "--seed", "1", "--layer", "marks", "--format", "ansi",
    ]));
    assert!(ansi.contains("\x1b[38;2;255;0;0m!"), "{ansi:?}");

    let out = warren(dir.path())
        .args(["run", "r.lua", "--seed", "1", "--layer", "heat"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no such layer (available: terrain, priority, region, components, marks)"),
        "{err}"
    );
}

#[test]
fn bad_layers_are_lua_errors_at_the_recipe_line() {
    let dir = temp_tree(&[(
        "r.lua",
        "return { params = { width = { default = 5 }, height = { default = 3 } },\n  generate = function(map, ctx)\n    map:add_layer(\"x\", { rows = { \"ab\" } })\n  end }\n",
    )]);
    copy_regions(dir.path());
    let out = warren(dir.path())
        .args(["run", "r.lua", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("r.lua:3: map:add_layer: 1 rows given; the map has 3 rows"),
        "{err}"
    );
}

/// Lists the entries of `dir`, sorted (hidden temporary files included).
fn entries(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A project holding the shipped regions and the recipe `name`, an `width`×`height` map whose
/// `generate` body is `body`.
fn project(name: &str, (width, height): (u32, u32), body: &str) -> tempfile::TempDir {
    let recipe = format!(
        "return {{ params = {{ width = {{ default = {width} }}, height = {{ default = {height} }} }},\n  generate = function(map, ctx)\n{body}\n  end }}\n"
    );
    let dir = temp_tree(&[(name, recipe.as_str())]);
    copy_regions(dir.path());
    dir
}

/// Runs `warren run RECIPE --seed 1 ARGS…` in `dir`; returns its exit code and stderr.
fn run_recipe(dir: &std::path::Path, recipe: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = warren(dir)
        .args(["run", recipe, "--seed", "1"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err)
}

#[test]
fn a_run_that_fails_after_its_snapshots_leaves_no_frame_behind() {
    // The snapshots are written as frames while the recipe runs, under temporary names: the
    // error after them removes every one, and the directory the run made.
    let dir = project(
        "r.lua",
        (8, 6),
        "    map:snapshot('one')\n    map:snapshot('two')\n    error('late')",
    );
    let (code, err) = run_recipe(dir.path(), "r.lua", &["--frames", "frames"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("r.lua:5: late"), "{err}");
    assert!(!dir.path().join("frames").exists(), "the frames' directory");
    // A directory that was there stays, empty.
    std::fs::create_dir(dir.path().join("kept")).unwrap();
    let (code, err) = run_recipe(dir.path(), "r.lua", &["--frames", "kept"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(entries(&dir.path().join("kept")), Vec::<String>::new());
}

#[test]
fn a_frame_refused_while_the_recipe_runs_ends_the_run_even_if_the_recipe_catches_it() {
    // The recipe's own file is named like its first frame: that frame is refused when the
    // snapshot is taken, the recipe's pcall does not hide it, and nothing is written.
    let dir = project(
        "000-first.png",
        (8, 6),
        "    local ok = pcall(map.snapshot, map, 'first')\n    map:snapshot('second')",
    );
    let recipe = std::fs::read(dir.path().join("000-first.png")).unwrap();
    let (code, err) = run_recipe(dir.path(), "000-first.png", &["--frames", "."]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--frames ./000-first.png: refusing to write onto the recipe"),
        "{err}"
    );
    assert_eq!(entries(dir.path()), ["000-first.png", "regions"]);
    assert_eq!(
        std::fs::read(dir.path().join("000-first.png")).unwrap(),
        recipe
    );
}

#[test]
fn writing_frames_is_not_counted_in_the_recipe_time_limit() {
    // Six snapshots of a 1024² map at --scale 2: writing their frames takes well over the
    // 0.3 s the recipe is given, and the recipe itself takes a few milliseconds.
    let dir = project(
        "r.lua",
        (1024, 1024),
        "    for i = 1, 6 do map:fill(i % 2 == 0 and 'floor' or 'rock') map:snapshot('step ' .. i) end",
    );
    let started = std::time::Instant::now();
    let frames = ["--frames", "frames", "--scale", "2", "--max-seconds", "0.3"];
    let (code, err) = run_recipe(dir.path(), "r.lua", &frames);
    let took = started.elapsed();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(entries(&dir.path().join("frames")).len(), 8);
    assert!(
        took.as_secs_f64() > 0.3,
        "the frames took {took:?}: too fast to show anything"
    );
}

#[test]
fn a_generation_streams_at_most_a_thousand_snapshots() {
    let dir = project(
        "r.lua",
        (8, 6),
        "    for i = 1, 1001 do map:snapshot('s') end",
    );
    let (code, err) = run_recipe(dir.path(), "r.lua", &["--frames", "frames"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("r.lua:3: map:snapshot: too many snapshots (at most 1000)"),
        "{err}"
    );
    assert!(!dir.path().join("frames").exists());
}

#[test]
fn a_layer_the_finished_map_lacks_is_refused_before_any_frame_is_written() {
    let dir = project("r.lua", (8, 6), "    map:snapshot('one')");
    let (code, err) = run_recipe(
        dir.path(),
        "r.lua",
        &["--layer", "marks", "--frames", "frames"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no such layer"), "{err}");
    assert!(!dir.path().join("frames").exists());
}
