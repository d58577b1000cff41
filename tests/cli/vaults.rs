//! Vault templates through the real binary: `scripts/vaults.lua` runs and is the same map in
//! every process; a broken `[[prefab]]` is reported by `warren check` and `warren run` at its
//! file:line:col, once, with nothing on stdout; a bad tag in a recipe names its line.

use crate::common::*;
use std::path::Path;
use std::process::Output;

/// A project with the shipped regions and the vaults recipe, `edit` applied to
/// `regions/vaults.toml`.
fn project(edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_regions(dir.path());
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::copy(
        root().join("scripts/vaults.lua"),
        dir.path().join("scripts/vaults.lua"),
    )
    .unwrap();
    let path = dir.path().join("regions/vaults.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, edit(&text)).unwrap();
    dir
}

fn warren_in(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// The line and column of the first `needle` in `text`, 1-based.
fn place(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col)
}

#[test]
fn the_vaults_recipe_is_the_same_map_in_every_process_and_at_every_depth_it_keeps_its_rules() {
    let dir = project(|t| t.to_string());
    let run = |seed: &str| {
        warren_in(
            dir.path(),
            &[
                "run",
                "scripts/vaults.lua",
                "--seed",
                seed,
                "--levels",
                "9",
                "--format",
                "json",
            ],
        )
    };
    let (a, b) = (run("11"), run("11"));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same maps");
    let doc: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    let levels = doc["levels"].as_array().unwrap();
    let mut vaults = 0;
    for (i, level) in levels.iter().enumerate() {
        let depth = i + 1;
        for room in level["rooms"].as_array().unwrap() {
            if room["kind"] != "vault" {
                continue;
            }
            vaults += 1;
            let (x, y) = (
                room["x"].as_u64().unwrap() as usize,
                room["y"].as_u64().unwrap() as usize,
            );
            let row = level["rows"][y].as_str().unwrap();
            assert!(x < row.len());
        }
        // The strongroom (min_depth 3) draws its iron-bound door only from depth 3 on.
        let doors = level["doors"].as_array().unwrap();
        let iron = doors.iter().any(|d| d["kind"] == "iron-bound door");
        assert!(!iron || depth >= 3, "a strongroom at depth {depth}");
    }
    assert!(vaults >= 9, "about four vaults a level: {vaults}");
}

#[test]
fn a_broken_prefab_is_one_located_problem_for_check_and_run() {
    let cases: [(&str, &str, &str, &str); 4] = [
        // (replace, with, located at, message)
        (
            "#.?_?.#\n#.....#",
            "#.?_?.#\n#....#",
            "\n###+###",
            "prefab 'chapel': map: row 4 is 6 glyphs long but row 1 is 7",
        ),
        (
            "#.?_?.#",
            "#.?_?x#",
            "x#",
            "prefab 'chapel': map: glyph 'x' (row 3, column 6) is not in the legend",
        ),
        (
            "\"O\" = \"pillar\"",
            "\"O\" = \"pilar\"",
            "\"pilar\"",
            "prefab 'guardroom': legend.O = 'pilar' is not a terrain; did you mean 'pillar'?",
        ),
        (
            "count = 2",
            "count = 5",
            "5\nbecomes",
            "prefab 'strongroom': subst #1: count = 5, but the map has only 4 cell(s) of '$'",
        ),
    ];
    for (from, to, at, message) in cases {
        let dir = project(|t| {
            assert!(t.contains(from), "{from}");
            t.replacen(from, to, 1)
        });
        let text = std::fs::read_to_string(dir.path().join("regions/vaults.toml")).unwrap();
        let (line, col) = place(&text, at);
        let want = format!("regions/vaults.toml:{line}:{col}: {message}");
        let check = warren_in(dir.path(), &["check"]);
        assert_eq!(check.status.code(), Some(1));
        let problems = String::from_utf8_lossy(&check.stdout).to_string();
        assert_eq!(problems.lines().count(), 1, "{problems}");
        assert!(problems.starts_with(&want), "want {want:?}, got {problems}");
        let run = warren_in(dir.path(), &["run", "scripts/vaults.lua", "--seed", "1"]);
        assert_eq!(run.status.code(), Some(1));
        assert!(run.stdout.is_empty());
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.starts_with(&format!("error: {want}")), "{err}");
    }
}

#[test]
fn a_tag_no_template_has_is_an_error_at_the_recipe_line() {
    let dir = project(|t| t.to_string());
    let out = warren_in(
        dir.path(),
        &[
            "run",
            "scripts/vaults.lua",
            "--seed",
            "1",
            "--set",
            "tags=tresure",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("scripts/vaults.lua:")
            && err.contains(
                "opts.tags[1] = 'tresure' is no [[prefab]]'s tag (did you mean 'treasure'?)"
            ),
        "{err}"
    );
}
