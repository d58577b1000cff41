//! `warren check` over fixtures with seeded mistakes (tests/fixtures/check/README.md): every
//! mistake is reported with its file and line, and nothing else is.

use crate::common;
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

/// What the static analysis finds without the region data.
const STATIC_PROBLEMS: [(&str, &str); 14] = [
    (
        "scripts/api.lua:9:60",
        "unknown option 'attemps' in opts (did you mean 'attempts'?)",
    ),
    (
        "scripts/api.lua:10:16",
        "rects:sort: argument 1 (order) = \"left\" is not one of",
    ),
    (
        "scripts/api.lua:11:9",
        "map:set: argument 3 (terrain) is missing",
    ),
    (
        "scripts/api.lua:13:9",
        "rng has no method 'chanse' (did you mean 'chance'?)",
    ),
    (
        "scripts/api.lua:14:67",
        "opts.trials must be an integer in 1..=100000, got 0",
    ),
    (
        "scripts/globals.lua:5:10",
        "undefined global 'debug': warren's sandbox does not provide it",
    ),
    ("scripts/globals.lua:11:26", "string.splt does not exist"),
    (
        "scripts/globals.lua:14:7",
        "undefined global 'prnt' (did you mean 'print'?)",
    ),
    (
        "scripts/lib/lazy.lua:6:10",
        "undefined global 'undefined_helper'",
    ),
    (
        "scripts/lazy_missing.lua:6:28",
        "module 'lib.gone' not found",
    ),
    (
        "scripts/lib/broken.lua:3",
        "<name> or '...' expected near 'return'",
    ),
    ("scripts/names.lua:10:26", "declares no parameter 'widht'"),
    (
        "scripts/names.lua:11:16",
        "warren.gen.scater_rooms does not exist",
    ),
    (
        "scripts/warnings.lua:6:5",
        "warning: global 'cuont' is assigned but never read",
    ),
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
        ("scripts/names.lua:12:53", "unknown terrain 'lava'"),
        (
            "scripts/lib/lazy.lua:5:49",
            "map:fill_rect: unknown terrain 'lavaa'",
        ),
    ];
    expected.extend(LOAD_PROBLEMS);
    expected.extend(STATIC_PROBLEMS);
    assert_problems(&problems, &expected);
}

#[test]
fn every_region_mistake_is_found_with_its_line_and_column() {
    let (code, problems) = check(&["--regions", "broken_regions"]);
    assert_eq!(code, 1);
    let mut expected = vec![
        ("broken_regions/broken.toml:5:9", "unclosed array table"),
        ("broken_regions/dungeon.toml:2:15", "not a percentage"),
        (
            "broken_regions/dungeon.toml:7:9",
            "floor = 'lava' is not a terrain",
        ),
        ("broken_regions/terrain.toml:13:9", "is not a colour"),
    ];
    expected.extend(LOAD_PROBLEMS);
    expected.extend(STATIC_PROBLEMS);
    assert_problems(&problems, &expected);
}

#[test]
fn warnings_alone_pass_unless_denied() {
    let (code, problems) = check(&["scripts/warnings.lua"]);
    assert_eq!(code, 0);
    assert_problems(
        &problems,
        &[("scripts/warnings.lua:6:5", "warning: global 'cuont'")],
    );
    let (code, problems) = check(&["--deny-warnings", "scripts/warnings.lua"]);
    assert_eq!((code, problems.len()), (1, 1));
}

#[test]
fn status_lists_and_towns_are_not_taken_for_maps() {
    // The case that started the rewrite: `lists:count("frontier")` read as `map:count`.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("lists.lua");
    std::fs::write(
        &recipe,
        "local warren = require 'warren'\nreturn { params = { width = { default = 20 }, height = { default = 10 } },\n  generate = function(map, ctx)\n    local lists = warren.status_lists { cells = 4, statuses = { 'frontier', 'done' } }\n    local n = lists:count('frontier') + map:count('floor')\n    local town = warren.town.new { height = 11, width = 11 }\n    ctx.metric('streets', town:count('street'))\n    map:fill('rock')\n  end }\n",
    )
    .unwrap();
    let (code, problems) = check(&["--regions", "regions", recipe.to_str().unwrap()]);
    assert_eq!((code, problems), (0, vec![]));
}

#[test]
fn hostile_nesting_is_skipped_with_a_warning_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("deep.lua");
    let deep = format!(
        "return {{ params = {{}}, generate = function(map, ctx) local x = {}1{} end }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    std::fs::write(&recipe, deep).unwrap();
    let (code, problems) = check(&["--regions", "regions", recipe.to_str().unwrap()]);
    assert_eq!(code, 1, "{problems:?}");
    // Lua refuses it (too many nested levels) and the static checks do not walk it.
    assert!(
        problems
            .iter()
            .any(|p| p.contains("not checked: nested more than 200 levels")),
        "{problems:?}"
    );
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
fn text_the_parser_cannot_read_is_lua_s_syntax_error_not_a_crash() {
    // full_moon's lexer panics on a backtick (Luau string interpolation); found by warren-fuzz.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("tick.lua");
    std::fs::write(
        &recipe,
        "return { params = {}, generate = function(map, ctx)\n  local s = `x`\nend }\n",
    )
    .unwrap();
    let out = Command::cargo_bin("warren")
        .unwrap()
        .current_dir(common::root().join("tests/fixtures/check"))
        .args(["check", "--regions", "regions", recipe.to_str().unwrap()])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(!text.contains("internal error"), "{text}");
    assert!(text.contains("tick.lua:2:"), "{text}");
}

/// A recipe built on libraries written the way public ones are, beside it in `scripts/`: a
/// JSON codec, an RNG module that seeds itself from the clock, a pretty-printer calling an
/// untyped `x:get()`, a `pcall`-guarded `string.dump` and a branch for another host.
const LIBRARY_RECIPE: &str = r#"local json = require "json"
local RNG = require "rng"
local pretty = require "pretty"
local ok, bytes = pcall(string.dump, function() end)
if love then love.graphics.print("hello") end
return {
  params = { width = { default = 20 }, height = { default = 10 } },
  generate = function(map, ctx)
    map:fill("rock")
    map:tag("state", json.encode({ RNG:getUniform() }))
    map:tag("shown", pretty.show(ctx.params.width))
    RARE
  end,
}
"#;

const LIBRARIES: [(&str, &str); 3] = [
    (
        "scripts/json.lua",
        "local json = { _version = '0.1' }\nfunction json.encode(v) return tostring(v) end\nfunction json.decode(s) return s end\nreturn json\n",
    ),
    (
        "scripts/rng.lua",
        "local RNG = { _s = 0 }\nfunction RNG:setSeed(s) self._s = s return self end\nfunction RNG:getUniform() self._s = (self._s * 69069 + 1) % 4294967296 return self._s / 4294967296 end\nRNG:setSeed(os.time())\nreturn RNG\n",
    ),
    (
        "scripts/pretty.lua",
        "local P = {}\nfunction P.show(x) if type(x) == 'table' then return tostring(x:get()) end return tostring(x) end\nreturn P\n",
    ),
];

/// `warren check` with no arguments in `dir`: exit code, stdout lines, stderr.
fn check_in(dir: &std::path::Path) -> (i32, Vec<String>, String) {
    let out = Command::cargo_bin("warren")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code().unwrap_or(-1),
        stdout.lines().map(str::to_string).collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn recipes_on_real_libraries_pass_and_a_missing_function_still_fails() {
    let recipe = LIBRARY_RECIPE.replace("RARE", "");
    let mut files = vec![("scripts/r.lua", recipe.as_str())];
    files.extend(LIBRARIES);
    let dir = common::temp_tree(&files);
    common::copy_regions(dir.path());
    let (code, out, err) = check_in(dir.path());
    assert_eq!(code, 0, "{out:?}\n{err}");
    // The one true warning: the RNG module seeds itself from the clock.
    assert_problems(
        &out,
        &[(
            "scripts/rng.lua:4:13",
            "warning: setSeed is seeded from the clock",
        )],
    );
    // Libraries beside the recipe are checked as modules (not as recipes: json.lua's
    // `decode` is no unknown recipe field), and what the checks cannot prove is noted.
    for note in [
        "note: scripts/json.lua: checked as a module (scripts/r.lua requires it), not as a recipe",
        "note: scripts/rng.lua: checked as a module",
        "note: scripts/pretty.lua: checked as a module",
        "note: scripts/r.lua:4:32: string.dump is not available in warren's sandbox: it is nil here",
        "note: scripts/pretty.lua:2:65: map:get: argument 1 (x) is missing",
        "1 recipe(s): no problems, 1 warning(s)",
    ] {
        assert!(err.contains(note), "{note} in:\n{err}");
    }
    // The true catch stays an error: a function the sandbox lacks, in a rarely taken branch.
    let recipe = LIBRARY_RECIPE.replace("RARE", "if ctx.params.width > 1000 then io.read() end");
    std::fs::write(dir.path().join("scripts/r.lua"), recipe).unwrap();
    let (code, out, _) = check_in(dir.path());
    assert_eq!(code, 1);
    assert_problems(
        &out,
        &[
            (
                "scripts/r.lua:12:40",
                "io.read is not available in warren's sandbox",
            ),
            (
                "scripts/rng.lua:4:13",
                "warning: setSeed is seeded from the clock",
            ),
        ],
    );
}

#[test]
fn the_rot_style_library_of_the_benchmarks_passes() {
    let out = Command::cargo_bin("warren")
        .unwrap()
        .current_dir(common::root())
        .args([
            "check",
            "--regions",
            "regions",
            "benches/rotlike/rotmaps.lua",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stdout.is_empty(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
