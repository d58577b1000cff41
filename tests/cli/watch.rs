//! `warren watch` driven through real file edits: the binary runs, the test edits files the way
//! editors do, and reads the status lines on stderr and the `--out` file.

use crate::common;
use crate::common::*;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous: the machine running the tests may be busy.
const PATIENCE: Duration = Duration::from_secs(90);

const RECIPE: &str = r#"local style = require "lib.style"
return { params = { width = { default = 12 }, height = { default = 4 } },
  generate = function(map, ctx)
    map:fill(style.fill)
    map:tag("version", VERSION)
  end }
"#;

fn recipe(version: i64) -> String {
    RECIPE.replace("VERSION", &version.to_string())
}

/// A running `warren watch` over a private copy of the regions, a recipe and a module.
struct Watch {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Arc<Mutex<Vec<String>>>,
    dir: tempfile::TempDir,
}

impl Watch {
    fn start(extra: &[&str]) -> Watch {
        let w = Watch::spawn(extra, &recipe(1));
        w.wait_for_status("ok", 1);
        w
    }

    /// Starts watching a recipe with the given text, without waiting for anything.
    fn spawn(extra: &[&str], recipe_text: &str) -> Watch {
        Watch::spawn_tree(
            &[
                ("r.lua", recipe_text),
                ("lib/style.lua", "return { fill = \"floor\" }\n"),
            ],
            "r.lua",
            extra,
        )
    }

    /// Starts watching `script` among `files` (and a copy of the shipped regions).
    fn spawn_tree(files: &[(&str, &str)], script: &str, extra: &[&str]) -> Watch {
        let dir = temp_tree(files);
        copy_regions(dir.path());
        Watch::spawn_in(dir, script, extra)
    }

    /// Starts watching `script` in `dir`.
    fn spawn_in(dir: tempfile::TempDir, script: &str, extra: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warren"))
            .current_dir(dir.path())
            .args(["watch", script, "--seed", "5", "--out", "out.json"])
            .args(extra)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("warren starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let stdin = child.stdin.take();
        Watch {
            child,
            stdin,
            lines,
            dir,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn stderr(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// Status lines of one kind (`ok` or `error`) so far.
    fn statuses(&self, kind: &str) -> usize {
        let prefix = format!("watch: {kind} ·");
        let lines = self.lines.lock().unwrap();
        lines.iter().filter(|l| l.starts_with(&prefix)).count()
    }

    fn wait_for_status(&self, kind: &str, count: usize) {
        let start = Instant::now();
        while self.statuses(kind) < count {
            if start.elapsed() > PATIENCE {
                panic!(
                    "waited {PATIENCE:?} for {count} '{kind}' status lines; stderr:\n{}",
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The level in `out.json`.
    fn out(&self) -> serde_json::Value {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(self.path("out.json")).unwrap()).unwrap();
        doc["levels"][0].clone()
    }

    fn version(&self) -> i64 {
        self.out()["tags"]["version"].as_i64().unwrap()
    }

    fn rows(&self) -> String {
        let v = self.out();
        let rows: Vec<&str> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        rows.join("\n")
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a file the way editors with atomic saves do: a temporary beside it, then a rename.
fn atomic_write(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// The shipped terrain file with the floor drawn as `glyph`.
fn terrain_with_floor(w: &Watch, glyph: &str) -> String {
    let text = std::fs::read_to_string(w.path("regions/terrain.toml")).unwrap();
    let floor = "name = \"floor\"\nglyph = \".\"";
    assert!(text.contains(floor));
    text.replace(floor, &format!("name = \"floor\"\nglyph = \"{glyph}\""))
}

#[test]
fn in_place_atomic_and_delete_recreate_edits_all_regenerate() {
    let mut w = Watch::start(&[]);
    assert_eq!(w.version(), 1);
    assert!(w.rows().contains('.'));

    // In place: a region file rewritten where it is.
    std::fs::write(w.path("regions/terrain.toml"), terrain_with_floor(&w, ",")).unwrap();
    w.wait_for_status("ok", 2);
    assert!(
        w.rows().contains(',') && !w.rows().contains('.'),
        "{}",
        w.rows()
    );
    assert!(w
        .stderr()
        .contains("watch: ok · regions (terrain.toml) · seed 5 ·"));

    // Atomic rename over a required module.
    atomic_write(&w.path("lib/style.lua"), "return { fill = \"door\" }\n");
    w.wait_for_status("ok", 3);
    assert!(w.rows().contains('+'), "{}", w.rows());
    assert!(w.stderr().contains("script (style.lua)"));

    // Delete, then recreate, the recipe itself.
    std::fs::remove_file(w.path("r.lua")).unwrap();
    w.wait_for_status("error", 1);
    assert!(w.stderr().contains("r.lua: cannot read"), "{}", w.stderr());
    assert_eq!(w.version(), 1, "the last good map stays");
    std::fs::write(w.path("r.lua"), recipe(3)).unwrap();
    w.wait_for_status("ok", 4);
    assert_eq!(w.version(), 3);

    // Keys: r + Enter re-rolls the seed.
    w.type_line("r");
    w.wait_for_status("ok", 5);
    let last = w.stderr().lines().last().unwrap_or("").to_string();
    assert!(last.starts_with("watch: ok · re-rolled · seed "), "{last}");
    assert_ne!(w.out()["seed"], "5");
}

#[test]
fn a_burst_of_fifty_writes_regenerates_once_with_the_final_content() {
    let w = Watch::start(&[]);
    for v in 100..150 {
        std::fs::write(w.path("r.lua"), recipe(v)).unwrap();
    }
    w.wait_for_status("ok", 2);
    assert_eq!(w.version(), 149);
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(w.statuses("ok"), 2, "{}", w.stderr());
    assert_eq!(w.statuses("error"), 0, "{}", w.stderr());
}

#[test]
fn a_broken_toml_keeps_the_last_good_map_until_it_is_fixed() {
    let w = Watch::start(&[]);
    let good = std::fs::read(w.path("out.json")).unwrap();
    std::fs::write(
        w.path("regions/terrain.toml"),
        "[map]\nfill = \"rock\"\n[[terrain]\nname = \"x\"\n",
    )
    .unwrap();
    w.wait_for_status("error", 1);
    assert!(
        w.stderr().contains("terrain.toml:3:11:"),
        "line:col expected:\n{}",
        w.stderr()
    );
    assert!(w.stderr().contains("keeping the last good map"));
    assert_eq!(std::fs::read(w.path("out.json")).unwrap(), good);

    std::fs::write(w.path("regions/terrain.toml"), {
        let text = std::fs::read_to_string(common::root().join("regions/terrain.toml")).unwrap();
        text.replace("glyph = \".\"", "glyph = \",\"")
    })
    .unwrap();
    w.wait_for_status("ok", 2);
    assert!(w.rows().contains(','), "{}", w.rows());
}

#[test]
fn runtime_errors_and_runaway_recipes_are_reported_and_watching_goes_on() {
    let w = Watch::start(&["--max-instructions", "20000000"]);
    let good = std::fs::read(w.path("out.json")).unwrap();

    let broken = recipe(2).replace("map:fill(style.fill)", "error(\"boom\")");
    std::fs::write(w.path("r.lua"), broken).unwrap();
    w.wait_for_status("error", 1);
    assert!(w.stderr().contains("r.lua:4: boom"), "{}", w.stderr());
    assert_eq!(std::fs::read(w.path("out.json")).unwrap(), good);

    let runaway = recipe(2).replace("map:fill(style.fill)", "while true do end");
    std::fs::write(w.path("r.lua"), runaway).unwrap();
    w.wait_for_status("error", 2);
    assert!(
        w.stderr().contains("instruction budget exceeded"),
        "{}",
        w.stderr()
    );
    assert_eq!(std::fs::read(w.path("out.json")).unwrap(), good);

    std::fs::write(w.path("r.lua"), recipe(4)).unwrap();
    w.wait_for_status("ok", 2);
    assert_eq!(w.version(), 4);
}

#[test]
fn a_recipe_broken_from_the_start_is_watched_until_it_is_fixed() {
    let w = Watch::spawn(&[], "return {\n");
    w.wait_for_status("error", 1);
    assert!(w.stderr().contains("no good map yet"), "{}", w.stderr());
    assert!(!w.path("out.json").exists());
    std::fs::write(w.path("r.lua"), recipe(7)).unwrap();
    w.wait_for_status("ok", 1);
    assert_eq!(w.version(), 7);
}

#[test]
fn watch_takes_the_run_options() {
    let dir = temp_tree(&[
        ("r.lua", &recipe(1)),
        ("lib/style.lua", "return { fill = \"floor\" }\n"),
    ]);
    copy_regions(dir.path());
    let list = |command: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_warren"))
            .current_dir(dir.path())
            .args([
                command,
                "r.lua",
                "--list-params",
                "--set",
                "width=20",
                "--layer",
                "priority",
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(list("watch"), list("run"));
    assert!(list("watch").contains("width"));
}

#[test]
fn a_regions_directory_removed_and_created_again_is_followed() {
    let w = Watch::start(&[]);
    let spare = w.path("spare");
    copy_dir(&w.path("regions"), &spare);

    // Removed: the error is shown and the last good map stays.
    std::fs::remove_dir_all(w.path("regions")).unwrap();
    w.wait_for_status("error", 1);
    assert!(w.rows().contains('.'));

    // Created again (with a different floor): regenerated from the new directory.
    std::fs::write(
        spare.join("terrain.toml"),
        terrain_with_floor_in(&spare, ","),
    )
    .unwrap();
    copy_dir(&spare, &w.path("regions"));
    w.wait_for_status("ok", 2);
    assert!(w.rows().contains(','), "{}\n{}", w.rows(), w.stderr());

    // And the new directory is watched: a later edit in it regenerates too.
    let text = terrain_with_floor_in(&w.path("regions"), "a");
    std::fs::write(w.path("regions/terrain.toml"), text).unwrap();
    w.wait_for_status("ok", 3);
    assert!(w.rows().contains('a'), "{}\n{}", w.rows(), w.stderr());

    // Swapped for another directory renamed into place: the new one is followed, the old
    // one (now under another name) is not.
    let next = w.path("next");
    copy_dir(&w.path("regions"), &next);
    std::fs::write(next.join("terrain.toml"), terrain_with_floor_in(&next, "b")).unwrap();
    std::fs::rename(w.path("regions"), w.path("old")).unwrap();
    std::fs::rename(&next, w.path("regions")).unwrap();
    w.wait_for_status("ok", 4);
    assert!(w.rows().contains('b'), "{}\n{}", w.rows(), w.stderr());
    let old = terrain_with_floor_in(&w.path("old"), "c");
    std::fs::write(w.path("old/terrain.toml"), old).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(w.statuses("ok"), 4, "{}", w.stderr());
    let text = terrain_with_floor_in(&w.path("regions"), "d");
    std::fs::write(w.path("regions/terrain.toml"), text).unwrap();
    w.wait_for_status("ok", 5);
    assert!(w.rows().contains('d'), "{}\n{}", w.rows(), w.stderr());
}

#[test]
fn a_recipe_directory_removed_and_created_again_is_followed() {
    let w = Watch::spawn_tree(
        &[
            ("scripts/r.lua", &recipe(1)),
            ("scripts/lib/style.lua", "return { fill = \"floor\" }\n"),
        ],
        "scripts/r.lua",
        &[],
    );
    w.wait_for_status("ok", 1);
    let spare = w.path("spare");
    copy_dir(&w.path("scripts"), &spare);

    std::fs::remove_dir_all(w.path("scripts")).unwrap();
    w.wait_for_status("error", 1);
    assert!(w.stderr().contains("r.lua"), "{}", w.stderr());
    assert_eq!(w.version(), 1, "the last good map stays");

    std::fs::write(spare.join("r.lua"), recipe(2)).unwrap();
    copy_dir(&spare, &w.path("scripts"));
    w.wait_for_status("ok", 2);
    assert_eq!(w.version(), 2, "{}", w.stderr());

    // The recipe and its module in the new directory are watched.
    std::fs::write(w.path("scripts/r.lua"), recipe(3)).unwrap();
    w.wait_for_status("ok", 3);
    assert_eq!(w.version(), 3, "{}", w.stderr());
    atomic_write(
        &w.path("scripts/lib/style.lua"),
        "return { fill = \"door\" }\n",
    );
    w.wait_for_status("ok", 4);
    assert!(w.rows().contains('+'), "{}\n{}", w.rows(), w.stderr());
}

/// The terrain file in `dir` with the floor drawn as `glyph`.
fn terrain_with_floor_in(dir: &Path, glyph: &str) -> String {
    let text = std::fs::read_to_string(dir.join("terrain.toml")).unwrap();
    let floor = floor_lines(&text);
    text.replace(&floor, &format!("name = \"floor\"\nglyph = \"{glyph}\""))
}

/// The `name = "floor"` line and the glyph line after it, whatever the glyph is now.
fn floor_lines(text: &str) -> String {
    let start = text
        .find("name = \"floor\"\nglyph = \"")
        .expect("a floor terrain");
    let rest = &text[start..];
    let glyph_line_end = rest
        .match_indices('\n')
        .nth(1)
        .map_or(rest.len(), |(i, _)| i);
    rest[..glyph_line_end].to_string()
}

#[test]
fn a_huge_error_is_shown_capped() {
    let huge = recipe(1).replace(
        "map:fill(style.fill)",
        "error(string.rep('x', 15 * 1000 * 1000) .. 'END')",
    );
    let w = Watch::spawn(&[], &huge);
    w.wait_for_status("error", 1);
    let err = w.stderr();
    let longest = err.lines().map(str::len).max().unwrap_or(0);
    assert!(longest <= 4200, "a line of {longest} bytes");
    assert!(
        err.contains("r.lua:4: xxx"),
        "{}",
        &err[..err.len().min(200)]
    );
    assert!(err.contains("bytes omitted] …") && err.contains("xEND"));
}

#[test]
fn regenerations_start_from_the_same_state_as_a_fresh_run() {
    // A recipe that keeps a module-level counter, replaces a global and extends `string`: every
    // regeneration of the pinned seed must still give the map a fresh `warren run` gives.
    let stateful = r#"
local n = 0
return { name = "stateful", params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    n = n + 1
    map:fill("rock wall")
    map:tag("n", n)
    map:tag("seen", tostring(rawget(_G, "marker")))
    marker = true
    map:tag("had", tostring(string.shout ~= nil))
    function string.shout(s) return s .. "!" end
    map:tag("id", tostring({}))
    map:tag("clock", os.clock())
    map:tag("time", os.time())
  end }
"#;
    let mut w = Watch::spawn(&[], stateful);
    w.wait_for_status("ok", 1);
    let first = w.out();
    for i in 2..=3 {
        w.type_line("");
        w.wait_for_status("ok", i);
        assert_eq!(w.out()["tags"], first["tags"], "regeneration {i}");
    }
    assert_eq!(first["tags"]["n"].as_i64(), Some(1));
    let fresh = Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(w.dir.path())
        .args(["run", "r.lua", "--seed", "5", "--format", "json"])
        .output()
        .unwrap();
    let fresh: serde_json::Value = serde_json::from_slice(&fresh.stdout).unwrap();
    assert_eq!(fresh["levels"][0]["tags"], first["tags"]);
}

#[test]
fn regenerations_of_a_library_that_writes_its_module_table_equal_fresh_runs() {
    // The rot library's default generator keeps its state in its module table: every map
    // writes it, and the reset after each puts it back.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("benches/rotlike"), dir.path());
    copy_regions(dir.path());
    // Watch::spawn_in watches seed 5.
    let args = ["--set", "gen=digger", "--set", "width=40"];
    let mut w = Watch::spawn_in(dir, "rotmaps.lua", &args);
    w.wait_for_status("ok", 1);
    let first = w.out();
    for i in 2..=3 {
        w.type_line("");
        w.wait_for_status("ok", i);
        assert_eq!(w.out(), first, "regeneration {i}");
    }
    let fresh = Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(w.dir.path())
        .args(["run", "rotmaps.lua", "--seed", "5", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let fresh: serde_json::Value = serde_json::from_slice(&fresh.stdout).unwrap();
    assert_eq!(fresh["levels"][0], first);
}

#[test]
fn q_quits_while_a_long_generation_runs() {
    // The first seed generates at once; a re-roll starts a generation that would run for a
    // minute. `q` cancels it at its next budget checkpoint instead of waiting for it.
    let slow = recipe(1).replace(
        "map:fill(style.fill)",
        "if ctx.seed ~= 5 then while true do end end map:fill(style.fill)",
    );
    let mut w = Watch::spawn(
        &["--max-instructions", "1000000000000", "--max-seconds", "60"],
        &slow,
    );
    w.wait_for_status("ok", 1);
    w.type_line("r");
    std::thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    w.type_line("q");
    let status = loop {
        if let Some(status) = w.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(20),
            "still running after q; stderr:\n{}",
            w.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{}", w.stderr());
    assert_eq!(w.statuses("error"), 0, "{}", w.stderr());
}

#[test]
fn renaming_the_terrains_away_prints_a_few_lines_not_one_per_broken_reference() {
    let w = Watch::start(&[]);
    std::fs::rename(w.path("regions/terrain.toml"), w.path("terrain.toml.bak")).unwrap();
    w.wait_for_status("error", 1);
    let err = w.stderr();
    let errors = err.lines().filter(|l| l.starts_with("error: ")).count();
    assert!(errors <= 6, "{errors} error lines:\n{err}");
    assert!(err.contains("more (warren check lists them all)"), "{err}");
    assert!(err.len() < 4000, "{} bytes:\n{err}", err.len());
}

#[test]
fn regions_replaced_by_a_file_is_reported() {
    let w = Watch::start(&[]);
    std::fs::remove_dir_all(w.path("regions")).unwrap();
    std::fs::write(w.path("regions"), "not a directory\n").unwrap();
    let start = Instant::now();
    while !w
        .stderr()
        .contains("is a file, not a directory of region files")
    {
        assert!(start.elapsed() < PATIENCE, "{}", w.stderr());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(w.rows().contains('.'), "the last good map stays");
}

#[test]
fn an_edited_vault_template_is_picked_up_and_a_broken_one_keeps_the_last_map() {
    let recipe = r#"local warren = require "warren"
return { params = { width = { default = 16 }, height = { default = 10 } },
  generate = function(map, ctx)
    map:fill("rock")
    local placed = warren.toolbox.place_vaults(map, ctx.rng:stream("v"), {
      floor = "floor", wall = "rock wall", depth = 1, tags = { "watched" } })
    map:tag("placed", #placed)
  end }
"#;
    let vault = |fill: &str| {
        format!(
            "[[prefab]]\nname = \"watched\"\ntags = [\"watched\"]\nmap = \"\"\"\n###\n#X#\n#.#\n\"\"\"\n[prefab.legend]\nX = \"{fill}\"\n"
        )
    };
    let altar = vault("altar");
    let mut w = Watch::spawn_tree(
        &[("r.lua", recipe), ("regions/watched.toml", &altar)],
        "r.lua",
        &[],
    );
    w.wait_for_status("ok", 1);
    assert!(w.rows().contains('_'), "{}", w.rows());
    assert_eq!(w.out()["tags"]["placed"], 1);

    // The template edited: its altar becomes water.
    std::fs::write(w.path("regions/watched.toml"), vault("water")).unwrap();
    w.wait_for_status("ok", 2);
    assert!(
        w.rows().contains('~') && !w.rows().contains('_'),
        "{}",
        w.rows()
    );

    // A ragged row: the error names the cell, and the last good map stays.
    let good = std::fs::read(w.path("out.json")).unwrap();
    let ragged = vault("water").replace("#.#\n", "#.\n");
    std::fs::write(w.path("regions/watched.toml"), ragged).unwrap();
    w.wait_for_status("error", 1);
    assert!(
        w.stderr()
            .contains("watched.toml:7:3: prefab 'watched': map: row 3 is 2 glyphs long"),
        "{}",
        w.stderr()
    );
    assert_eq!(std::fs::read(w.path("out.json")).unwrap(), good);
    w.type_line("q");
}
