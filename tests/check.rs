//! `warren check` over fixtures with seeded mistakes (tests/fixtures/check/README.md): every
//! mistake is reported with its file and line, and nothing else is.

mod common;
use assert_cmd::Command;

fn check(args: &[&str]) -> (i32, Vec<String>) {
    let out = Command::cargo_bin("warren")
        .unwrap()
        .current_dir(common::root().join("tests/fixtures/check"))
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    let problems = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (out.status.code().unwrap_or(-1), problems)
}

/// Asserts that exactly the expected problems were reported: each `(location, text)` pair
/// matches one line that starts with the location and contains the text.
fn assert_problems(problems: &[String], expected: &[(&str, &str)]) {
    for (at, text) in expected {
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("{at}:")) && p.contains(text)),
            "no problem at {at} mentioning {text:?}; got:\n{}",
            problems.join("\n")
        );
    }
    assert_eq!(problems.len(), expected.len(), "{}", problems.join("\n"));
}

const LOAD_PROBLEMS: [(&str, &str); 3] = [
    ("scripts/params.lua:4", "default does not fit its own range"),
    ("scripts/requires.lua:1", "lib.missing"),
    ("scripts/syntax.lua:5", "')' expected"),
];

#[test]
fn every_recipe_mistake_is_found_with_its_line() {
    let (code, problems) = check(&[]);
    assert_eq!(code, 1);
    let mut expected = vec![
        ("scripts/lib/helpers.lua:5:17", "unknown terrain 'obsidian'"),
        ("scripts/names.lua:7:19", "map:set: unknown terrain 'flor'"),
        ("scripts/names.lua:8:30", "no region file declares [cave]"),
        (
            "scripts/names.lua:9:27",
            "ctx.regions.roms: no such region section",
        ),
        ("scripts/names.lua:10:26", "declares no parameter 'widht'"),
        (
            "scripts/names.lua:11:16",
            "warren.gen.scater_rooms does not exist",
        ),
        ("scripts/names.lua:12:53", "unknown terrain 'lava'"),
    ];
    expected.extend(LOAD_PROBLEMS);
    assert_problems(&problems, &expected);
}

#[test]
fn every_region_mistake_is_found_with_its_line_and_column() {
    let (code, problems) = check(&["--regions", "broken_regions"]);
    assert_eq!(code, 1);
    let mut expected = vec![
        ("broken_regions/broken.toml:5:9", "unclosed array table"),
        ("broken_regions/dungeon.toml:2:15", "not a percentage"),
        ("broken_regions/dungeon.toml:7:9", "unknown terrain 'lava'"),
        ("broken_regions/terrain.toml:13:9", "is not a colour"),
        ("broken_regions", "names in recipes were not checked"),
        // Sections are declared: a wrong one is found even when the region files are broken.
        (
            "scripts/names.lua:9:27",
            "ctx.regions.roms: no such region section",
        ),
        ("scripts/names.lua:10:26", "declares no parameter 'widht'"),
        (
            "scripts/names.lua:11:16",
            "warren.gen.scater_rooms does not exist",
        ),
    ];
    expected.extend(LOAD_PROBLEMS);
    assert_problems(&problems, &expected);
}

#[test]
fn clean_inputs_pass() {
    let (code, problems) = check(&["scripts/fine.lua"]);
    assert_eq!((code, problems), (0, vec![]));
    let out = Command::cargo_bin("warren")
        .unwrap()
        .current_dir(common::root())
        .arg("check")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the shipped regions and recipes must pass: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn stubs_check_accepts_the_checked_in_stubs_and_rejects_stale_ones() {
    let stubs = |file: &std::path::Path| {
        Command::cargo_bin("warren")
            .unwrap()
            .current_dir(common::root())
            .args(["stubs", "--check"])
            .arg(file)
            .output()
            .unwrap()
    };
    let shipped = common::root().join("scripts/types/warren.d.lua");
    assert!(stubs(&shipped).status.success());
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("warren.d.lua");
    let text = std::fs::read_to_string(&shipped).unwrap();
    std::fs::write(
        &stale,
        text.replace("function Map:snapshot(label) end\n", ""),
    )
    .unwrap();
    let out = stubs(&stale);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("out of date with the Lua API"));
}

#[test]
fn the_readme_api_table_is_checked_and_regenerated_between_its_markers() {
    let stubs = |args: &[&str], file: &std::path::Path| {
        Command::cargo_bin("warren")
            .unwrap()
            .current_dir(common::root())
            .args(["stubs", "--markdown"])
            .args(args)
            .arg(file)
            .output()
            .unwrap()
    };
    let readme = common::root().join("README.md");
    assert!(stubs(&["--check"], &readme).status.success());
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    let stale = text.replace("| `map:get(x, y)` |", "| `map:get(y, x)` |");
    assert_ne!(stale, text);
    std::fs::write(&copy, stale).unwrap();
    let out = stubs(&["--check"], &copy);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("run `warren stubs --markdown --out"), "{err}");
    // Regenerating touches only the table: the copy is the README again.
    assert!(stubs(&["--out"], &copy).status.success());
    assert!(
        std::fs::read_to_string(&copy).unwrap() == text,
        "regenerating the copy's table did not give the README back"
    );
}
