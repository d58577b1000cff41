//! A modder's mistakes through the real binary: one mistake gives one error, unknown names get
//! "did you mean", and messages name the file:line:col, the entry by its name, the key and the
//! expected type in plain words (no serde wording).

use crate::common::*;
use std::path::Path;
use std::process::Output;

/// A project with the shipped regions and recipes, `edit` applied to `regions/FILE`.
fn project(file: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_regions(dir.path());
    std::fs::create_dir_all(dir.path().join("scripts/lib")).unwrap();
    for script in [
        "dungeon.lua",
        "rooms.lua",
        "cave.lua",
        "townmaze.lua",
        "lib/cave.lua",
    ] {
        std::fs::copy(
            root().join("scripts").join(script),
            dir.path().join("scripts").join(script),
        )
        .unwrap();
    }
    let path = dir.path().join("regions").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&path, edited).unwrap();
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

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `text` with the first `from` after `after` replaced by `to`.
fn replace_after(text: &str, after: &str, from: &str, to: &str) -> String {
    let start = text.find(after).unwrap();
    let at = start + text[start..].find(from).unwrap();
    format!("{}{to}{}", &text[..at], &text[at + from.len()..])
}

#[test]
fn a_type_error_in_terrain_toml_is_one_problem() {
    let dir = project("terrain.toml", |t| {
        replace_after(t, "name = \"rock\"", "solid = true", "solid = \"no\"")
    });
    let out = warren_in(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let problems = lines(&out.stdout);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("regions/terrain.toml:")
            && problems[0]
                .ends_with(": terrain 'rock': solid = \"no\" is text, but must be true or false"),
        "{problems:?}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: regions: terrain and region names in recipes were not checked"),
        "{err}"
    );
    assert!(err.contains("check: 1 problem(s)"), "{err}");

    // `run` says the same, once.
    let out = warren_in(dir.path(), &["run", "scripts/dungeon.lua", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = lines(&out.stderr);
    assert_eq!(err.len(), 1, "{err:#?}");
    assert_eq!(err[0], format!("error: {}", problems[0]));
}

#[test]
fn a_broken_header_in_terrain_toml_is_one_problem() {
    let dir = project("terrain.toml", |t| {
        let at = t.find("name = \"rock\"").unwrap();
        let header = t[..at].rfind("[[terrain]]").unwrap();
        format!("{}[[terrain]{}", &t[..header], &t[header + 11..])
    });
    let out = warren_in(dir.path(), &["check"]);
    let problems = lines(&out.stdout);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("unclosed array table, expected `]`"),
        "{problems:?}"
    );
}

#[test]
fn unknown_names_suggest_the_closest_one() {
    // A terrain.
    let dir = project("dungeon.toml", |t| {
        replace_after(
            t,
            "name = \"pillared hall\"",
            "\"flagstone\"",
            "\"flagstne\"",
        )
    });
    let out = warren_in(dir.path(), &["check"]);
    let problems = lines(&out.stdout);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].ends_with(
            ": room 'pillared hall': floor = 'flagstne' is not a terrain; did you mean 'flagstone'?"
        ),
        "{problems:?}"
    );
    // A key.
    let dir = project("dungeon.toml", |t| {
        replace_after(t, "name = \"pillared hall\"", "weight =", "wieght =")
    });
    let problems = lines(&warren_in(dir.path(), &["check"]).stdout);
    assert!(
        problems[0]
            .ends_with(": room 'pillared hall': unknown key 'wieght'; did you mean 'weight'?"),
        "{problems:?}"
    );
    // A section.
    let dir = project("dungeon.toml", |t| t.replacen("[dungeon]", "[dungeo]", 1));
    let problems = lines(&warren_in(dir.path(), &["check"]).stdout);
    assert!(
        problems[0].ends_with(": unknown section 'dungeo'; did you mean [dungeon]?"),
        "{problems:?}"
    );
    // A choice.
    let dir = project("dungeon.toml", |t| {
        replace_after(t, "name = \"pillared hall\"", "\"pillared\"", "\"pilared\"")
    });
    let problems = lines(&warren_in(dir.path(), &["check"]).stdout);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].ends_with(
            ": room 'pillared hall': kind = 'pilared' is not a room kind; did you mean 'pillared'?"
        ),
        "{problems:?}"
    );
    // A terrain in a recipe, and a parameter on the command line.
    let dir = project("dungeon.toml", |t| t.to_string() + "\n");
    let recipe = dir.path().join("scripts/rooms.lua");
    let text = std::fs::read_to_string(&recipe).unwrap();
    std::fs::write(
        &recipe,
        text.replacen(
            "generate = function(map, ctx)",
            "generate = function(map, ctx)\n    map:set(1, 1, \"flor\")",
            1,
        ),
    )
    .unwrap();
    let problems = lines(&warren_in(dir.path(), &["check", "scripts/rooms.lua"]).stdout);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("map:set: unknown terrain 'flor'")
                && p.contains("did you mean 'floor'?")),
        "{problems:?}"
    );
    let out = warren_in(
        dir.path(),
        &["run", "scripts/cave.lua", "--set", "lenght=3"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("unknown parameter 'lenght'; did you mean 'length'?"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn messages_name_the_entry_key_and_type_in_plain_words() {
    let cases: [(&str, &str, &str, &str, &str); 4] = [
        (
            "name = \"pillared hall\"",
            "weight = 2",
            "weight = \"2\"",
            "room 'pillared hall': weight = \"2\" is text, but must be a number",
            "weight",
        ),
        (
            "name = \"pillared hall\"",
            "kind = \"pillared\"\n",
            "",
            "room 'pillared hall' has no 'kind', which is required",
            "[[room]]",
        ),
        (
            "name = \"pillared hall\"",
            "weight = 2",
            "weight = -2",
            "room 'pillared hall': weight = -2 is not a valid weight (a finite number ≥ 0)",
            "weight",
        ),
        (
            "[dungeon]",
            "turn_chance =",
            "turn_chance = 1.5 #",
            "dungeon.turn_chance = 1.5 is a fractional number, but must be a whole number",
            "turn_chance",
        ),
    ];
    for (after, from, to, message, located_at) in cases {
        let dir = project("dungeon.toml", |t| replace_after(t, after, from, to));
        let out = warren_in(dir.path(), &["check"]);
        let problems = lines(&out.stdout);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        let p = &problems[0];
        assert!(p.ends_with(&format!(": {message}")), "{p}");
        for leak in ["invalid type", "expected f64", "missing field", "[0]", "`"] {
            assert!(!p.contains(leak), "serde wording in {p}");
        }
        // file:line:col, pointing at the key (or the entry's header for a missing key).
        let text = std::fs::read_to_string(dir.path().join("regions/dungeon.toml")).unwrap();
        let loc: Vec<&str> = p.splitn(4, ':').collect();
        assert_eq!(loc[0], "regions/dungeon.toml");
        let (line, col): (usize, usize) = (loc[1].parse().unwrap(), loc[2].parse().unwrap());
        let at = text.lines().nth(line - 1).unwrap();
        let entry_start = text[..text.find(after).unwrap()].lines().count();
        assert!(line >= entry_start.saturating_sub(1), "{p}");
        assert!(
            at[col - 1..].starts_with(located_at) || at.contains(located_at),
            "{p}: line {line} is {at:?}"
        );
    }
}

#[test]
fn a_terrain_whose_name_cannot_be_read_is_one_problem() {
    // A misspelled `name` key, and a name that is no text: the entry's name is lost, yet the
    // files that use 'rock' get no knock-on errors.
    for (to, message) in [
        (
            "nam = \"rock\"",
            "terrain #1: unknown key 'nam'; did you mean 'name'?",
        ),
        (
            "name = 3",
            "terrain #1: name = 3 is a whole number, but must be text in quotes",
        ),
    ] {
        let dir = project("terrain.toml", |t| t.replacen("name = \"rock\"", to, 1));
        let out = warren_in(dir.path(), &["check"]);
        assert_eq!(out.status.code(), Some(1));
        let problems = lines(&out.stdout);
        assert_eq!(problems.len(), 1, "{to}: {problems:#?}");
        assert!(
            problems[0].starts_with("regions/terrain.toml:9:") && problems[0].ends_with(message),
            "{problems:?}"
        );
    }
}

#[test]
fn typos_elsewhere_are_still_found_while_terrain_toml_is_broken() {
    // terrain.toml does not load, but its names still serve as "did you mean", and a typo of
    // one is reported (it is no knock-on error).
    for broken in [
        ("solid = true", "solid = \"no\""),
        ("name = \"rock\"", "name = 3"),
    ] {
        let dir = project("terrain.toml", |t| t.replacen(broken.0, broken.1, 1));
        let dungeon = dir.path().join("regions/dungeon.toml");
        let text = std::fs::read_to_string(&dungeon).unwrap();
        std::fs::write(
            &dungeon,
            replace_after(
                &text,
                "name = \"pillared hall\"",
                "\"flagstone\"",
                "\"flagstne\"",
            ),
        )
        .unwrap();
        let problems = lines(&warren_in(dir.path(), &["check"]).stdout);
        assert_eq!(problems.len(), 2, "{broken:?}: {problems:#?}");
        assert!(problems[0].starts_with("regions/terrain.toml:"));
        assert!(
            problems[1].starts_with("regions/dungeon.toml:")
                && problems[1].ends_with(
                    ": room 'pillared hall': floor = 'flagstne' is not a terrain; did you mean 'flagstone'?"
                ),
            "{problems:?}"
        );
    }
    // A corridor name gets a suggestion too.
    let dir = project("dungeon.toml", |t| {
        replace_after(t, "[dungeon]", "corridor = \"", "corridor = \"x")
    });
    let problems = lines(&warren_in(dir.path(), &["check"]).stdout);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("names no [[corridor]] region; did you mean '"),
        "{problems:?}"
    );
}

#[test]
fn syntax_mistakes_are_told_in_plain_words() {
    // (after, from, to, the message's end, the line it is reported on, below `after`'s line
    // in the shipped file)
    let cases: [(&str, &str, &str, &str, usize); 7] = [
        (
            "[cave]",
            "wall = \"cave wall\"",
            "wall = cave wall",
            "[cave]: wall = cave wall is not a value; write text in quotes: wall = \"cave wall\"",
            2,
        ),
        (
            "[cave]",
            "wall = \"cave wall\"",
            "wall = \"cave wall",
            "[cave]: wall = \"cave wall is not closed: end the text with \" on the same line",
            2,
        ),
        (
            "[cave]",
            "wall = \"cave wall\"",
            "wall = \"cave wall\" \"x\"",
            "[cave]: wall = \"cave wall\" \"x\" has more after its value; write one key = value per line (comments start with #)",
            2,
        ),
        (
            "[cave]",
            "wall = \"cave wall\"",
            "wall = \"cave wall\"\nwall = \"cave wall\"",
            "[cave]: 'wall' is given twice (first on line 5); keep one",
            3,
        ),
        (
            "[cave]",
            "[cave]",
            "[cave]\n[cave]",
            "[cave] is written twice (first on line 3); write each section once, with all of its keys",
            1,
        ),
        (
            "[cave]",
            "[cave]",
            "[[cave]]",
            "[[cave]] is one section, not a list: write [cave]",
            0,
        ),
        (
            "[cave]",
            "[cave]",
            "[room]",
            "[room] is a list of entries: write each entry as [[room]]",
            0,
        ),
    ];
    for (after, from, to, message, below) in cases {
        let dir = project("cave.toml", |t| replace_after(t, after, from, to));
        let out = warren_in(dir.path(), &["check"]);
        assert_eq!(out.status.code(), Some(1));
        let problems = lines(&out.stdout);
        assert_eq!(problems.len(), 1, "{to}: {problems:#?}");
        let p = &problems[0];
        assert!(p.ends_with(&format!(": {message}")), "{p}");
        assert!(!p.contains('`') && !p.contains("expected"), "{p}");
        let text = std::fs::read_to_string(root().join("regions/cave.toml")).unwrap();
        let line = text[..text.find(after).unwrap()].matches('\n').count() + 1 + below;
        assert!(
            p.starts_with(&format!("regions/cave.toml:{line}:")),
            "{p}: expected line {line}"
        );
    }
}

#[test]
fn cli_reports_region_errors_with_exit_1() {
    let dir = temp_tree(&[(
        "regions/t.toml",
        &format!("{TEST_TERRAIN}\n[dungeon]\nturn_chance = 101\n"),
    )]);
    let out = assert_cmd::Command::cargo_bin("warren")
        .unwrap()
        .args([
            "run",
            root().join("scripts/rooms.lua").to_str().unwrap(),
            "--regions",
            dir.path().join("regions").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("t.toml:15:15: dungeon.turn_chance = 101 is not a percentage"),
        "{err}"
    );
}

/// `warren run scripts/rooms.lua` with the shipped regions plus `regions/bad.toml` = `bad`:
/// its stderr (the run must fail).
fn run_with_bad_region(bad: &str) -> String {
    let dir = temp_tree(&[("regions/bad.toml", bad)]);
    copy_regions(dir.path());
    let out = warren()
        .args(["run", "scripts/rooms.lua", "--seed", "1", "--regions"])
        .arg(dir.path().join("regions"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_header_nested_forty_thousand_deep_is_placed_at_its_line() {
    let deep = format!("# deep\n\n[{}]\nx = 1\n", vec!["a"; 40_000].join("."));
    let err = run_with_bad_region(&deep);
    assert!(
        err.contains("bad.toml:3:1: tables, keys or arrays nested too deeply"),
        "{err}"
    );
    assert!(err.len() < 2000, "{} bytes", err.len());
}

#[test]
fn every_wrong_limits_key_is_reported() {
    let err =
        run_with_bad_region("[limits]\nmax_secnds = 1\nmax_memry_mib = 3\nmax_instructons = 5\n");
    for (line, key, meant) in [
        (2, "max_secnds", "max_seconds"),
        (3, "max_memry_mib", "max_memory_mib"),
        (4, "max_instructons", "max_instructions"),
    ] {
        let place = format!("bad.toml:{line}:");
        let want = format!(": limits: unknown key '{key}'; did you mean '{meant}'?");
        let found = err
            .lines()
            .any(|l| l.contains(&place) && l.ends_with(&want));
        assert!(found, "{place}…{want}\n{err}");
    }
}
