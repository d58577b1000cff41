//! The first ten minutes through the real binary: readable in an 80-column terminal, one way to
//! find the regions for every command, paths in messages relative to the current directory,
//! and the command-line conventions (usage mistakes exit 2, formats from file names, colour
//! and NO_COLOR, the stubs hint).

use crate::common::*;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `warren ARGS` with standard output on a terminal (a pseudo-terminal from util-linux's
/// `script`), in `dir`, with extra environment; returns what the terminal showed.
fn on_terminal(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> String {
    let bin = env!("CARGO_BIN_EXE_warren");
    let command = std::iter::once(bin)
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut c = Command::new("script");
    c.args(["-qec", &command, "/dev/null"])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("util-linux `script` runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_map_wider_than_the_terminal_says_so_and_suggests_an_image() {
    let shown = on_terminal(
        &root(),
        &[("COLUMNS", "80")],
        &["run", "scripts/dungeon.lua", "--seed", "1"],
    );
    let note = shown
        .lines()
        .skip_while(|l| !l.starts_with("note:"))
        .collect::<Vec<_>>();
    assert_eq!(note.len(), 2, "{shown}");
    assert!(
        note[0].contains("the map is 128 columns wide and this terminal 80"),
        "{note:?}"
    );
    assert!(note[1].contains("--out map.png"), "{note:?}");
    assert!(note.iter().all(|l| l.trim_end().chars().count() <= 80));

    // A map that fits gets no note; nor does a pipe.
    let fits = on_terminal(
        &root(),
        &[("COLUMNS", "80")],
        &["run", "scripts/rooms.lua", "--seed", "1"],
    );
    assert!(!fits.contains("note:"), "{fits}");
    let piped = warren()
        .env("COLUMNS", "80")
        .args(["run", "scripts/dungeon.lua", "--seed", "1"])
        .output()
        .unwrap();
    assert!(stderr(&piped).is_empty(), "{}", stderr(&piped));
}

#[test]
fn writing_a_file_prints_a_one_line_summary() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("dungeon.png");
    let out = warren()
        .args(["run", "scripts/dungeon.lua", "--seed", "1", "--out"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    // The file is named as from the current directory (relative when they share more than
    // the root, as a checkout under /tmp and a temporary directory do).
    let (wrote, summary) = err
        .strip_prefix("wrote ")
        .and_then(|rest| rest.split_once(": "))
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(
        root().join(wrote).canonicalize().unwrap(),
        png.canonicalize().unwrap(),
        "{err}"
    );
    assert!(
        summary.starts_with("dungeon 128×128, seed 1, 16 rooms"),
        "{err}"
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn colour_on_a_terminal_unless_no_color_is_set_to_something() {
    let args = ["run", "scripts/rooms.lua", "--seed", "1"];
    let plain = on_terminal(&root(), &[("NO_COLOR", "1")], &args);
    assert!(!plain.contains("\x1b["), "NO_COLOR=1 turns colour off");
    let empty = on_terminal(&root(), &[("NO_COLOR", "")], &args);
    assert!(
        empty.contains("\x1b[38;2;"),
        "an empty NO_COLOR does not turn colour off"
    );
    let unset = on_terminal(&root(), &[], &args);
    assert!(unset.contains("\x1b[38;2;"));
}

#[test]
fn usage_mistakes_exit_2_with_one_message_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let bmp = dir.path().join("x.bmp");
    let bmp = bmp.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["--set", "width"], "expected KEY=VALUE (e.g. width=120), got \"width\""),
        (&["--set", "=3"], "expected KEY=VALUE"),
        (&["--max-seconds", "0"], "0 is not in (0, 86400] seconds"),
        (&["--max-seconds", "soon"], "\"soon\" is not a number of seconds"),
        (
            &["--format", "png"],
            "--format png writes a file: add --out FILE.png (it is never written to standard output)",
        ),
        (
            &["--out", bmp],
            "cannot tell the format from the file name; use .txt or .map (ascii), .ans (ansi), .json, .png, .tmx (tiled), .ldtk",
        ),
    ];
    for (extra, expected) in cases {
        let out = warren()
            .args(["run", "scripts/rooms.lua", "--seed", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{extra:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // `watch` and `batch` follow the same rules.
    for args in [
        &["watch", "scripts/rooms.lua", "--set", "width"][..],
        &[
            "batch",
            "scripts/rooms.lua",
            "--count",
            "1",
            "--set",
            "width",
        ],
        &[
            "batch",
            "scripts/rooms.lua",
            "--count",
            "1",
            "--max-seconds",
            "0",
        ],
        &["watch", "scripts/rooms.lua", "--format", "png"],
    ] {
        let out = warren().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn out_infers_the_format_from_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let text = String::from_utf8(stdout(&["run", "scripts/rooms.lua", "--seed", "2"])).unwrap();
    for (name, check) in [
        ("m.txt", "ascii"),
        ("m.MAP", "ascii"),
        ("m.ans", "ansi"),
        ("m.json", "json"),
        ("m.png", "png"),
        ("m.tmx", "tiled"),
    ] {
        let path = dir.path().join(name);
        stdout(&[
            "run",
            "scripts/rooms.lua",
            "--seed",
            "2",
            "--out",
            path.to_str().unwrap(),
        ]);
        let bytes = std::fs::read(&path).unwrap();
        match check {
            "ascii" => assert_eq!(String::from_utf8(bytes).unwrap(), text, "{name}"),
            "ansi" => assert!(bytes.starts_with(b"\x1b[38;2;"), "{name}"),
            "json" => assert!(serde_json::from_slice::<serde_json::Value>(&bytes).is_ok()),
            "png" => assert!(bytes.starts_with(b"\x89PNG")),
            _ => assert!(bytes.starts_with(b"<?xml")),
        }
    }
}

/// How many recipes `scripts/` ships (its `*.lua` files; modules live in `scripts/lib/`).
fn shipped_recipes() -> usize {
    std::fs::read_dir(root().join("scripts"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "lua")
        })
        .count()
}

#[test]
fn check_finds_the_regions_from_any_directory_like_run() {
    for sub in ["", "scripts", "scripts/lib"] {
        let dir = root().join(sub);
        let out = run_in(&dir, &["check"]);
        assert!(out.status.success(), "from {sub:?}: {}", stderr(&out));
        let regions = if sub.is_empty() {
            "regions".to_string()
        } else {
            format!("{}regions", "../".repeat(sub.matches('/').count() + 1))
        };
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "region file(s) in {regions}, {} recipe(s)",
                shipped_recipes()
            )),
            "from {sub:?}: {err}"
        );
    }
    // Recipes named on the command line find the regions beside or above them.
    let out = run_in(&root().join("scripts"), &["check", "rooms.lua"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("in ../regions, 1 recipe(s)"));

    let lost = tempfile::tempdir().unwrap();
    let out = run_in(lost.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no regions/ directory here or in a directory above"));
}

#[test]
fn paths_in_errors_are_relative_to_the_current_directory() {
    let dir = temp_tree(&[(
        "scripts/r.lua",
        "return { params = { width = { default = 8 }, height = { default = 8 } }, generate = function(map) map:fill(\"nowhere\") end }",
    )]);
    copy_regions(dir.path());
    let terrain = dir.path().join("regions/terrain.toml");
    let good = std::fs::read_to_string(&terrain).unwrap();
    std::fs::write(&terrain, format!("{good}\n[[terrain]]\nname = 3\n")).unwrap();

    // The broken region file, as run finds it from the project and from scripts/.
    let script = dir.path().join("scripts/r.lua");
    for (cwd, script_arg, expected) in [
        (
            dir.path().to_path_buf(),
            "scripts/r.lua",
            "regions/terrain.toml:",
        ),
        (
            dir.path().join("scripts"),
            "r.lua",
            "../regions/terrain.toml:",
        ),
        // An absolute script path is shown relative too.
        (
            dir.path().to_path_buf(),
            script.to_str().unwrap(),
            "regions/terrain.toml:",
        ),
    ] {
        let out = run_in(&cwd, &["run", script_arg, "--seed", "1"]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.starts_with(&format!("error: {expected}")), "{err}");
        let check = run_in(&cwd, &["check"]);
        assert!(
            stderr(&check).contains(&format!(
                "in {}",
                expected.trim_end_matches("/terrain.toml:")
            )),
            "{}",
            stderr(&check)
        );
        assert!(
            String::from_utf8_lossy(&check.stdout).starts_with(expected),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
    }

    // batch finds and names them the same way.
    let out = run_in(
        dir.path(),
        &["batch", script.to_str().unwrap(), "--count", "1"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: regions/terrain.toml:"),
        "{}",
        stderr(&out)
    );

    // A recipe error names the recipe relative to the current directory, whatever was typed.
    std::fs::write(&terrain, good).unwrap();
    let out = run_in(
        dir.path(),
        &["run", script.to_str().unwrap(), "--seed", "1"],
    );
    assert!(
        stderr(&out).starts_with("error: scripts/r.lua:1: "),
        "{}",
        stderr(&out)
    );

    // watch prints the same paths.
    let mut child = Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(dir.path().join("scripts"))
        .args(["watch", script.to_str().unwrap(), "--seed", "1"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap()));
    let first = lines.next().unwrap().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"q\n").unwrap();
    child.wait().unwrap();
    assert!(first.starts_with("error: r.lua:1: "), "{first}");
}

#[test]
fn stubs_check_names_the_file_it_checked() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("my-stubs.lua");
    std::fs::write(&stale, "-- old\n").unwrap();
    let out = warren()
        .args(["stubs", "--check"])
        .arg(&stale)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let p = stale.display();
    assert_eq!(
        err.trim_end(),
        format!("error: {p}: out of date with the Lua API; run `warren stubs --out {p}`")
    );
}
