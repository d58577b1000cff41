//! `warren run scripts/dungeon.lua` from the command line: the README's command, five levels
//! whose stairs line up in the JSON output, and identical output across processes.

use crate::common::*;
use serde_json::Value;

#[test]
fn the_readme_command_prints_a_full_level() {
    let out = String::from_utf8(stdout(&["run", "scripts/dungeon.lua", "--seed", "1"])).unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 128);
    assert!(rows.iter().all(|r| r.chars().count() == 128));
    assert!(out.contains('.') && out.contains('>') && out.contains('+'));
}

#[test]
fn five_levels_in_json_have_stairs_that_line_up() {
    let args = [
        "run",
        "scripts/dungeon.lua",
        "--seed",
        "4",
        "--levels",
        "5",
        "--format",
        "json",
    ];
    let out = stdout(&args);
    assert_eq!(out, stdout(&args), "same output in a second process");
    let json: Value = serde_json::from_slice(&out).unwrap();
    let levels = json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 5);
    for (i, level) in levels.iter().enumerate() {
        assert_eq!(level["depth"], i as u64 + 1);
        let rows: Vec<&str> = level["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let solid = |p: &Value| {
            let (x, y) = (
                p["x"].as_u64().unwrap() as usize,
                p["y"].as_u64().unwrap() as usize,
            );
            let glyph = rows[y].chars().nth(x).unwrap().to_string();
            level["legend"][glyph.as_str()]["solid"].as_bool().unwrap()
        };
        let stairs = &level["stairs"];
        for p in stairs["up"]
            .as_array()
            .unwrap()
            .iter()
            .chain(stairs["down"].as_array().unwrap())
        {
            assert!(!solid(p), "level {}: stair on a solid cell", i + 1);
        }
        if i > 0 {
            assert_eq!(
                stairs["up"],
                levels[i - 1]["stairs"]["down"],
                "level {}",
                i + 1
            );
        } else {
            assert!(stairs["up"].as_array().unwrap().is_empty());
        }
    }
}

/// Door states reach every format: JSON lists each door's state and kind, and the PNG draws
/// each door with its state's terrain colour (ASCII with its glyph).
#[test]
fn door_states_are_in_the_json_and_the_png() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("level.png");
    let base = ["run", "scripts/dungeon.lua", "--seed", "2"];
    let doc: Value =
        serde_json::from_slice(&stdout(&[&base[..], &["--format", "json"]].concat())).unwrap();
    let json = &doc["levels"][0];
    let png_arg = png.to_str().unwrap();
    stdout(&[&base[..], &["--out", png_arg, "--scale", "1"]].concat());
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut pixels).unwrap();
    let registry = registry();
    let color = |name: &str| {
        let t = registry.terrains().get(registry.terrain(name).unwrap());
        [t.color.0, t.color.1, t.color.2]
    };
    let doors = json["doors"].as_array().unwrap();
    assert!(doors.len() > 20, "{} doors", doors.len());
    let mut seen = std::collections::BTreeSet::new();
    for d in doors {
        let (x, y) = (
            d["x"].as_u64().unwrap() as usize,
            d["y"].as_u64().unwrap() as usize,
        );
        let state = d["state"].as_str().unwrap();
        seen.insert(state.to_string());
        let iron = d["kind"] == "iron-bound door";
        let terrain = match (state, iron) {
            ("closed", false) => "door",
            ("open", false) => "open door",
            ("locked", false) => "locked door",
            ("broken", false) => "broken door",
            ("closed", true) => "iron door",
            ("open", true) => "open iron door",
            ("locked", true) => "locked iron door",
            ("broken", true) => "broken iron door",
            ("secret", _) => continue,
            other => panic!("state {other:?}"),
        };
        let i = (x + y * 128) * 3;
        assert_eq!(pixels[i..i + 3], color(terrain), "{d}");
        let glyph = json["rows"][y]
            .as_str()
            .unwrap()
            .chars()
            .nth(x)
            .unwrap()
            .to_string();
        let legend = &json["legend"][glyph.as_str()];
        assert!(
            legend["terrains"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t == terrain),
            "{d}"
        );
        assert_eq!(legend["solid"], !matches!(state, "open" | "broken"), "{d}");
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
    for (glyph, entry) in json["legend"].as_object().unwrap() {
        let hazard = entry["hazard"].as_bool().unwrap();
        assert_eq!(hazard, glyph == ":" || glyph == "=", "{glyph}: {entry}");
    }
}

/// A fix-up with thousands of cut-off areas on a 512×512 map: the work it reports to the budget
/// stops it within the budget, and the error names the recipe line that called it (issue 14:
/// it used to run for 30 s against a 4 s limit and blame another line).
const MANY_AREAS: &str = r#"local warren = require "warren"
return { name = "fix", params = { width = { default = 512 }, height = { default = 512 }, attempts = { default = 4000 }, fix = { default = 1 } },
generate = function(map, ctx)
  local cells = warren.gen.scatter_rooms(map, ctx.rng, { attempts = ctx.params.attempts, min_size = 1, max_size = 1 })
  map:carve_rooms(cells, "floor", { priority = "room_floor" }) if ctx.params.fix == 0 then return end
  local tunnels = warren.tunnel.new(map)
  local report = tunnels:fixup(map, ctx.rng)
  ctx.log(#report.tunnels)
end }
"#;

/// Runs the many-areas recipe with `limits` and returns its exit code, stderr and wall time.
fn fixup_run(limits: &[&str]) -> (Option<i32>, String, std::time::Duration) {
    let dir = temp_tree(&[("scripts/fix.lua", MANY_AREAS)]);
    copy_regions(dir.path());
    let started = std::time::Instant::now();
    let out = warren()
        .current_dir(dir.path())
        .args(["run", "scripts/fix.lua", "--seed", "1"])
        .args(limits)
        .output()
        .unwrap();
    let took = started.elapsed();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
    )
}

#[test]
fn a_runaway_fixup_stops_at_the_instruction_budget_at_its_own_line() {
    let (code, err, _) = fixup_run(&["--max-instructions", "5000000", "--max-seconds", "600"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("scripts/fix.lua:7: instruction budget exceeded (5000000 instructions"),
        "{err}"
    );
}

#[test]
fn a_runaway_fixup_stops_at_the_time_budget_at_its_own_line() {
    // Since the fix-up joins every cut-off area in one trial, 512×512 with 4,000 areas ends in
    // a fraction of a second; 2048×2048 with up to 20,000 areas takes seconds, about forty
    // times the scatter before it. The budget is four times what start-up and the scatter take
    // here and now (at least 1 s), so the clock runs out inside the fix-up however loaded the
    // machine is.
    let big = [
        "--set",
        "width=2048",
        "--set",
        "height=2048",
        "--set",
        "attempts=20000",
    ];
    let (code, err, before) =
        fixup_run(&[&["--set", "fix=0", "--max-seconds", "600"][..], &big[..]].concat());
    assert_eq!(code, Some(0), "{err}");
    let budget = (before.as_secs_f64() * 4.0).ceil().max(1.0) as u64;
    let seconds = budget.to_string();
    let (code, err, took) = fixup_run(&[&["--max-seconds", &seconds][..], &big[..]].concat());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "scripts/fix.lua:7: time budget exceeded ({budget} s"
        )),
        "{err}"
    );
    // The limit holds it to the budget (the rest is the process starting and exiting on a busy
    // machine).
    assert!(took.as_secs() < budget + 9, "took {took:?}");
}
