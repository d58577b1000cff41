//! `scripts/townmaze.lua`: the real binary prints TownMaze's towns, every parameter is obeyed,
//! every sanity check of `getargs` has its own message, and over 1,000 seeds the rendered map
//! and its JSON annotations keep TownMaze's promises.

use crate::common::*;
use assert_cmd::Command;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use warren_core::render::json::{self, LevelInfo, RunInfo};

type Cell = (i64, i64);

fn warren() -> Command {
    let mut c = Command::cargo_bin("warren").unwrap();
    c.current_dir(root()).env("NO_COLOR", "1");
    c
}

/// `warren run scripts/townmaze.lua` with `args`; stdout on success.
fn town(args: &[&str]) -> String {
    let out = warren()
        .args(["run", "scripts/townmaze.lua"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `--set` arguments for each `key=value`.
fn sets<'a>(pairs: &[&'a str]) -> Vec<&'a str> {
    pairs.iter().flat_map(|p| ["--set", p]).collect()
}

fn point(v: &Value) -> Cell {
    (v["x"].as_i64().unwrap(), v["y"].as_i64().unwrap())
}

/// Every promise of a finished town, checked on the JSON output alone: rows, legend, rooms,
/// doors, gate spawns and the street corridor. Returns the first broken promise.
/// The JSON object of one generated level, as `--format json` writes it.
fn level_json(map: &warren_core::map::Map, seed: u64) -> Value {
    let params = BTreeMap::new();
    let run = RunInfo {
        recipe: "townmaze",
        seed,
        params: &params,
    };
    let info = LevelInfo {
        seed,
        depth: 1,
        layer: None,
    };
    let mut doc: Value = serde_json::from_str(&json::to_string(&run, &[(map, info)])).unwrap();
    doc["levels"][0].take()
}

fn check(v: &Value, leftgates: usize) -> Result<(), String> {
    let rows: Vec<Vec<char>> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let (w, h) = (rows[0].len() as i64, rows.len() as i64);
    // Whether each glyph is solid, read from the legend once rather than for every question.
    let solid_glyphs: BTreeMap<char, bool> = v["legend"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(glyph, entry)| (glyph.chars().next().unwrap(), entry["solid"] == true))
        .collect();
    let solid = |(x, y): Cell| solid_glyphs.get(&rows[y as usize][x as usize]) == Some(&true);
    let centre = |(x, y): Cell| x % 2 == 1 && y % 2 == 1;
    let [street] = v["corridors"].as_array().unwrap().as_slice() else {
        return Err("expected one street corridor".into());
    };
    if street["region"] != "street" {
        return Err(format!("corridor region {}", street["region"]));
    }
    let streets: BTreeSet<Cell> = street["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(point)
        .collect();
    if let Some(&c) = streets.iter().find(|&&c| solid(c)) {
        return Err(format!("street cell {c:?} is solid"));
    }
    // Every room has exactly one door, and it opens onto a street.
    let mut rooms = BTreeSet::new();
    let mut room_doors = Vec::new();
    for room in v["rooms"].as_array().unwrap() {
        let c = point(room);
        if (room["w"].as_i64(), room["h"].as_i64()) != (Some(1), Some(1)) || !centre(c) {
            return Err(format!("room {room} is not one cell's floor"));
        }
        let doors: Vec<Cell> = room["doors"]
            .as_array()
            .unwrap()
            .iter()
            .map(point)
            .collect();
        let [d] = doors[..] else {
            return Err(format!("room at {c:?} has doors {doors:?}"));
        };
        let beyond = (2 * d.0 - c.0, 2 * d.1 - c.1);
        if (d.0 - c.0).abs() + (d.1 - c.1).abs() != 1 || solid(d) || !streets.contains(&beyond) {
            return Err(format!(
                "door {d:?} of room {c:?} does not open onto a street"
            ));
        }
        if solid(c) || streets.contains(&c) {
            return Err(format!("room floor {c:?} is solid or a street"));
        }
        rooms.insert(c);
        room_doors.push(d);
    }
    // Gates: as many as leftgates, in the town wall, opening onto a street; doors lists them.
    let gates: Vec<Cell> = v["spawns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["what"] == "gate")
        .map(point)
        .collect();
    let open_in_wall = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((1..h - 1).flat_map(|y| [(0, y), (w - 1, y)]))
        .filter(|&c| !solid(c))
        .count();
    if gates.len() != leftgates || open_in_wall != leftgates {
        return Err(format!(
            "{} gates, {open_in_wall} openings in the wall, leftgates {leftgates}",
            gates.len()
        ));
    }
    for &(x, y) in &gates {
        let inside = (x.clamp(1, w - 2), y.clamp(1, h - 2));
        if !streets.contains(&inside) {
            return Err(format!("gate ({x}, {y}) does not open onto a street"));
        }
    }
    let doors: Vec<Cell> = v["doors"].as_array().unwrap().iter().map(point).collect();
    room_doors.extend(&gates);
    if doors != room_doors {
        return Err("doors are not the rooms' doors followed by the gates".into());
    }
    // All street cells form one network.
    let first = *streets.iter().next().ok_or("no street")?;
    let mut seen = BTreeSet::from([first]);
    let mut queue = VecDeque::from([first]);
    while let Some((x, y)) = queue.pop_front() {
        for n in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if streets.contains(&n) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    if seen.len() != streets.len() {
        return Err(format!(
            "{} of {} street cells connected",
            seen.len(),
            streets.len()
        ));
    }
    // Every cell centre is a room, a street or a solid unused block, and no unused block
    // touches a street; the four corners are unused.
    let mut unused = BTreeSet::new();
    for y in (1..h).step_by(2) {
        for x in (1..w).step_by(2) {
            let c = (x, y);
            if rooms.contains(&c) || streets.contains(&c) {
                continue;
            }
            if !solid(c) {
                return Err(format!("cell {c:?} is open but neither room nor street"));
            }
            let around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)];
            let beyond = [(x + 2, y), (x - 2, y), (x, y + 2), (x, y - 2)];
            if around.iter().chain(&beyond).any(|n| streets.contains(n)) {
                return Err(format!("unused cell {c:?} touches a street"));
            }
            unused.insert(c);
        }
    }
    for corner in [(1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)] {
        if !unused.contains(&corner) {
            return Err(format!("corner {corner:?} is not unused"));
        }
    }
    // No isolated pillar: no solid wall junction with four open street arms.
    for y in (2..h - 1).step_by(2) {
        for x in (2..w - 1).step_by(2) {
            let arms = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)];
            if solid((x, y)) && arms.iter().all(|a| streets.contains(a)) {
                return Err(format!("pillar at ({x}, {y})"));
            }
        }
    }
    // Nothing else is open: rooms, doors, gates and streets are all a walker can enter.
    let open = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&c| !solid(c))
        .count();
    if open != rooms.len() + doors.len() + streets.len() {
        return Err(format!("{open} open cells beyond rooms, doors and streets"));
    }
    Ok(())
}

#[test]
fn seed_3_prints_a_23_by_77_town() {
    let out = town(&["--seed", "3"]);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 23);
    assert!(rows.iter().all(|r| r.chars().count() == 77), "{out}");
    assert!(rows[0].starts_with("###") && rows[22].ends_with("###"));
    let gates = rows[0].matches('-').count()
        + rows[22].matches('-').count()
        + rows
            .iter()
            .filter(|r| r.starts_with('|') || r.ends_with('|'))
            .count();
    assert_eq!(gates, 2, "leftgates defaults to 2:\n{out}");
    let doc: Value = serde_json::from_str(&town(&["--seed", "3", "--format", "json"])).unwrap();
    let v = &doc["levels"][0];
    check(v, 2).unwrap();
    assert_eq!(doc["recipe"], "townmaze");
    assert_eq!(v["stats"]["gates"], 2);
}

#[test]
fn every_parameter_is_obeyed() {
    let json = |pairs: &[&str]| -> Value {
        let mut args = vec!["--seed", "8", "--format", "json"];
        args.extend(sets(pairs));
        let doc: Value = serde_json::from_str(&town(&args)).unwrap();
        doc["levels"][0].clone()
    };
    let count = |v: &Value, glyphs: &[char]| -> usize {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_str()
                    .unwrap()
                    .chars()
                    .filter(|c| glyphs.contains(c))
                    .count()
            })
            .sum()
    };
    // Size, gates left open, unused blocks: visible in the finished town.
    let all = [
        "height=31",
        "width=45",
        "gates=6",
        "leftgates=3",
        "courts=2",
        "unused=2",
        "straightness=100",
    ];
    let v = json(&all);
    assert_eq!(
        (v["height"].as_i64(), v["width"].as_i64()),
        (Some(31), Some(45))
    );
    check(&v, 3).unwrap();
    let debug = json(&[&all[..], &["show=debug"]].concat());
    assert_eq!(count(&debug, &['U']), 4 + 2, "the corners and two blocks");
    // Gates and courtyards: visible as street directions right after they are seeded.
    let seeded = |pairs: &[&str]| count(&json(pairs), &['^', '>', 'v', '<']);
    assert_eq!(
        seeded(&["gates=6", "leftgates=0", "stop_after=gates", "show=debug"]),
        6
    );
    assert_eq!(
        seeded(&[
            "gates=0",
            "leftgates=0",
            "courts=7",
            "stop_after=courts",
            "show=debug"
        ]),
        7
    );
    // Straightness: the share of street cells continuing the street they came from.
    let straight = |s: &str| -> f64 {
        let (mut ahead, mut streets) = (0, 0);
        for seed in 1..=4 {
            let (sd, seed) = (format!("straightness={s}"), seed.to_string());
            let args = [
                &["--seed", &seed, "--format", "json"][..],
                &sets(&[
                    "height=41",
                    "width=61",
                    "show=debug",
                    "stop_after=connect",
                    &sd,
                ]),
            ]
            .concat();
            let doc: Value = serde_json::from_str(&town(&args)).unwrap();
            let rows: Vec<Vec<char>> = doc["levels"][0]["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().chars().collect())
                .collect();
            for (y, row) in rows.iter().enumerate() {
                for (x, &c) in row.iter().enumerate() {
                    let (dx, dy): (i64, i64) = match c {
                        '^' => (0, -2),
                        'v' => (0, 2),
                        '<' => (-2, 0),
                        '>' => (2, 0),
                        _ => continue,
                    };
                    streets += 1;
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    let next = rows.get(ny as usize).and_then(|r| r.get(nx as usize));
                    ahead += usize::from(next == Some(&c));
                }
            }
        }
        ahead as f64 / streets as f64
    };
    let (bendy, straightest) = (straight("0"), straight("998"));
    assert!(straightest > bendy + 0.2, "{bendy} vs {straightest}");
}

/// Runs the binary with `--set` for each pair; it must fail with exit code 1, print nothing and
/// name the recipe and `message` on stderr.
fn rejected(pairs: &[&str], message: &str) {
    let out = warren()
        .args(["run", "scripts/townmaze.lua", "--seed", "1"])
        .args(sets(pairs))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{pairs:?}: {stderr}");
    assert!(
        stderr.contains("scripts/townmaze.lua"),
        "{pairs:?}: {stderr}"
    );
    assert!(stderr.contains(message), "{pairs:?}: {stderr}");
    assert!(out.stdout.is_empty());
}

/// One test per sanity check of `getargs`. Rules a range expresses are caught by the recipe's
/// declared ranges before generation; the rest by `warren.town.new`, which names the rule and
/// its formula.
macro_rules! sanity_checks {
    ($($name:ident: [$($set:expr),*] => $message:expr;)*) => {
        $(
            #[test]
            fn $name() {
                rejected(&[$($set),*], $message);
            }
        )*
    };
}

sanity_checks! {
    sanity_height_at_least_11: ["height=9"] => "height = 9 is out of range (11..=4095)";
    sanity_height_odd: ["height=24"] =>
        "height must be odd (walls on even rows and columns, cells on odd ones), got 24";
    sanity_width_at_least_11: ["width=7"] => "width = 7 is out of range (11..=4095)";
    sanity_width_odd: ["width=78"] =>
        "width must be odd (walls on even rows and columns, cells on odd ones), got 78";
    sanity_gates_at_least_0: ["gates=-1"] => "gates = -1 is out of range (0..=2336)";
    sanity_gates_fit_the_wall: ["gates=25"] =>
        "gates must be at most 2*((height-6)/7)+2*((width-6)/7) = 24 for a 23×77 town, got 25";
    sanity_leftgates_at_least_0: ["leftgates=-1"] => "leftgates = -1 is out of range (0..=2336)";
    sanity_leftgates_at_most_gates: ["leftgates=5"] =>
        "leftgates must be at most gates = 4, got 5";
    sanity_courts_at_least_0: ["courts=-2"] => "courts = -2 is out of range (0..=463761)";
    sanity_courts_fit: ["courts=37"] =>
        "courts must be at most ((height-5)/6)*((width-5)/6) = 36 for a 23×77 town, got 37";
    sanity_some_street: ["gates=0", "leftgates=0"] =>
        "courts + gates must be at least 1 so that some street exists, got 0 + 0";
    sanity_unused_at_least_0: ["unused=-1"] => "unused = -1 is out of range (0..=85264)";
    sanity_unused_fit: ["unused=6"] =>
        "unused must be at most ((height-1)/14)*((width-1)/14) = 5 for a 23×77 town, got 6";
    sanity_straightness_at_least_0: ["straightness=-1"] =>
        "straightness = -1 is out of range (0..=998)";
    sanity_straightness_at_most_998: ["straightness=999"] =>
        "straightness = 999 is out of range (0..=998)";
}

#[test]
fn broken_rules_are_reported_together_at_the_recipe_line() {
    let out = warren()
        .args(["run", "scripts/townmaze.lua", "--seed", "1"])
        .args(sets(&["height=24", "leftgates=5", "courts=40", "unused=9"]))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let line = std::fs::read_to_string(root().join("scripts/townmaze.lua"))
        .unwrap()
        .lines()
        .position(|l| l.contains("warren.town.new {"))
        .unwrap()
        + 1;
    let located =
        format!("scripts/townmaze.lua:{line}: warren.town.new: invalid town parameters: ");
    assert!(stderr.contains(&located), "{stderr}");
    for rule in [
        "height must be odd",
        "leftgates must be at most gates = 4, got 5",
        "courts must be at most ((height-5)/6)*((width-5)/6) = 36 for a 24×77 town, got 40",
        "unused must be at most ((height-1)/14)*((width-1)/14) = 5 for a 24×77 town, got 9",
    ] {
        assert!(stderr.contains(rule), "{rule}: {stderr}");
    }
}

#[test]
fn the_debug_view_shows_statuses_and_directions_in_every_format() {
    let mid = town(&[
        "--seed",
        "4",
        "--set",
        "show=debug",
        "--set",
        "stop_after=gates",
        "--set",
        "unused=1",
    ]);
    for glyph in ['I', 'L', 'D', 'U'] {
        assert!(mid.contains(glyph), "{glyph}:\n{mid}");
    }
    assert!(mid.contains(['^', '>', 'v', '<']), "{mid}");
    let done: Value = serde_json::from_str(&town(&[
        "--seed",
        "4",
        "--set",
        "show=debug",
        "--format",
        "json",
    ]))
    .unwrap();
    let legend = done["levels"][0]["legend"].as_object().unwrap();
    assert_eq!(legend["D"]["terrain"], "debug dead");
    assert_eq!(legend["U"]["solid"], true);
    assert!(
        !legend.contains_key("I") && !legend.contains_key("L"),
        "none left isolated"
    );
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("debug.png");
    town(&[
        "--seed",
        "4",
        "--set",
        "show=debug",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(&std::fs::read(png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn same_seed_same_town_across_processes() {
    let args = ["--seed", "12", "--format", "json", "--set", "courts=3"];
    assert_eq!(town(&args), town(&args));
    assert_ne!(town(&["--seed", "12"]), town(&["--seed", "13"]));
}

#[test]
fn a_thousand_seeds_keep_every_promise_on_the_rendered_map() {
    let host = host("townmaze.lua");
    let spread: &[(&[(&str, &str)], u64)] = &[
        (&[], 300),
        (&[("height", "201"), ("width", "401")], 12),
        (
            &[("height", "41"), ("width", "61"), ("straightness", "0")],
            150,
        ),
        (
            &[("height", "41"), ("width", "61"), ("straightness", "998")],
            150,
        ),
        (&[("gates", "0"), ("leftgates", "0"), ("courts", "36")], 100),
        (&[("height", "57"), ("width", "85"), ("unused", "24")], 100),
        (&[("gates", "24"), ("leftgates", "0")], 60),
        (
            &[
                ("gates", "24"),
                ("leftgates", "24"),
                ("straightness", "998"),
            ],
            60,
        ),
        (
            &[
                ("height", "11"),
                ("width", "11"),
                ("gates", "0"),
                ("leftgates", "0"),
                ("courts", "1"),
            ],
            50,
        ),
        (
            &[
                ("height", "101"),
                ("width", "99"),
                ("gates", "52"),
                ("leftgates", "3"),
                ("courts", "240"),
                ("unused", "49"),
                ("straightness", "998"),
            ],
            30,
        ),
    ];
    let mut checked = 0;
    for (sets, seeds) in spread {
        let p = params(&host, sets);
        let leftgates = match &p["leftgates"] {
            warren_lua::ParamValue::Int(n) => *n as usize,
            other => panic!("{other:?}"),
        };
        for seed in 0..*seeds {
            let map = generate(&host, seed, &p);
            let v = level_json(&map, seed);
            if let Err(e) = check(&v, leftgates) {
                let rows: Vec<&str> = v["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                panic!("{sets:?} seed {seed}: {e}\n{}", rows.join("\n"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 1000);
}

#[test]
fn the_checks_catch_a_town_that_skips_a_step() {
    let host = host("townmaze.lua");
    let first_problem = |stop_after: &str| -> String {
        let p = params(&host, &[("stop_after", stop_after)]);
        (0..20)
            .find_map(|seed| {
                let map = generate(&host, seed, &p);
                let v = level_json(&map, seed);
                check(&v, 2).err()
            })
            .unwrap_or_default()
    };
    assert!(
        first_problem("connect").ends_with("has doors []"),
        "an isolated room"
    );
    assert!(
        first_problem("alleys").contains("has doors [("),
        "rooms with many doors"
    );
    assert!(first_problem("doors").contains("4 gates"));
    assert!(first_problem("close_gates").contains("pillar"));
    assert_eq!(first_problem("cleanup"), "");
}
