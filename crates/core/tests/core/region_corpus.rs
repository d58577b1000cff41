//! Malformed region files, generated systematically from the schema: every number out of range
//! or of the wrong type, NaN and infinities, unknown and missing keys, unknown terrains, bad
//! glyphs and colours, broken TOML, sections defined twice. Each must be refused with its
//! message located at file:line:col, and none may panic.

use crate::common::TEST_TERRAIN as TERRAIN;
use warren_core::region::{Registry, Source};

/// One malformed file and where and what its error must be.
struct Case {
    text: String,
    line: usize,
    col: usize,
    message: String,
}

fn case(text: impl Into<String>, line: usize, col: usize, message: impl Into<String>) -> Case {
    Case {
        text: text.into(),
        line,
        col,
        message: message.into(),
    }
}

const CORRIDOR: &str =
    "[[corridor]]\nname = \"c\"\nweight = 1\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n";

/// A kind of door drawn with the test terrains (rock shut, floor open).
const DOOR_KIND: &str = "[[door]]\nname = \"d\"\nclosed = \"rock\"\nopen = \"floor\"\n";

/// Wrong types for an integer key, with what each is in plain words.
const NOT_INTEGERS: &[(&str, &str)] = &[
    ("\"ten\"", "text"),
    ("true", "true or false"),
    ("1.5", "a fractional number"),
    ("nan", "a fractional number"),
    ("inf", "a fractional number"),
    ("[1]", "a list"),
    ("{ a = 1 }", "a table"),
];

/// Integer keys: (table header + prefix lines, key, path shown in messages, lo, hi, message
/// kind). The key is written on the line after the prefix.
fn integer_cases(out: &mut Vec<Case>) {
    let corridor_constants = format!("{CORRIDOR}[corridor.constants]\n");
    let keys: Vec<(String, &str, String, i64, i64, bool)> = vec![
        (
            "[dungeon]\n".into(),
            "turn_chance",
            "dungeon.turn_chance".into(),
            0,
            100,
            true,
        ),
        (
            "[dungeon]\n".into(),
            "stubborn_corridor",
            "dungeon.stubborn_corridor".into(),
            0,
            100,
            true,
        ),
        (
            "[dungeon]\nsegment_maxlen = 1000\n".into(),
            "segment_minlen",
            "dungeon.segment_minlen".into(),
            1,
            1000,
            false,
        ),
        (
            "[dungeon]\nsegment_minlen = 1\n".into(),
            "segment_maxlen",
            "dungeon.segment_maxlen".into(),
            1,
            1000,
            false,
        ),
        (
            corridor_constants.clone(),
            "turn_chance",
            "corridor 'c': constants.turn_chance".into(),
            0,
            100,
            true,
        ),
        (
            corridor_constants.clone(),
            "stubborn_corridor",
            "corridor 'c': constants.stubborn_corridor".into(),
            0,
            100,
            true,
        ),
        (
            format!("{corridor_constants}segment_maxlen = 1000\n"),
            "segment_minlen",
            "corridor 'c': constants.segment_minlen".into(),
            1,
            1000,
            false,
        ),
        (
            format!("{corridor_constants}segment_minlen = 1\n"),
            "segment_maxlen",
            "corridor 'c': constants.segment_maxlen".into(),
            1,
            1000,
            false,
        ),
        (
            "[limits]\n".into(),
            "max_instructions",
            "limits.max_instructions".into(),
            1_000_000,
            100_000_000_000,
            false,
        ),
        (
            "[limits]\n".into(),
            "max_memory_mib",
            "limits.max_memory_mib".into(),
            16,
            16_384,
            false,
        ),
        (
            "[dungeon]\n".into(),
            "secret_door_reveal_depth",
            "dungeon.secret_door_reveal_depth".into(),
            0,
            1000,
            false,
        ),
        (
            "[dungeon]\n".into(),
            "secret_door_reveal_radius",
            "dungeon.secret_door_reveal_radius".into(),
            0,
            1000,
            false,
        ),
    ];
    for (prefix, key, path, lo, hi, percent) in keys {
        let line = prefix.lines().count() + 1;
        let col = key.len() + 4;
        let range = |v: i64| {
            if percent {
                format!("{path} = {v} is not a percentage (0..=100)")
            } else {
                format!("{path} = {v} is out of range ({lo}..={hi})")
            }
        };
        for v in [lo - 1, hi + 1, i64::MIN, i64::MAX, -1] {
            if v == -1 && lo - 1 == -1 {
                continue;
            }
            out.push(case(format!("{prefix}{key} = {v}\n"), line, col, range(v)));
        }
        for (v, kind) in NOT_INTEGERS {
            out.push(case(
                format!("{prefix}{key} = {v}\n"),
                line,
                col,
                format!("{path} = {v} is {kind}, but must be a whole number"),
            ));
        }
        out.push(case(
            format!("{prefix}{key} = 1e400\n"),
            line,
            col,
            format!("{path} = 1e400 is too large to be a number"),
        ));
    }
}

/// Float keys: weights (finite, ≥ 0) and the time limit.
fn float_cases(out: &mut Vec<Case>) {
    let spawn = "[[spawn]]\nname = \"orc\"\n";
    let door = format!("{DOOR_KIND}[door.weights]\n");
    let weights = [
        (
            CORRIDOR.replace("weight = 1\n", ""),
            "corridor 'c': weight",
            "weight",
        ),
        (spawn.to_string(), "spawn 'orc': weight", "weight"),
        (door.clone(), "door 'd': weights.closed", "closed"),
        (door.clone(), "door 'd': weights.open", "open"),
        (door.clone(), "door 'd': weights.locked", "locked"),
        (door, "door 'd': weights.secret", "secret"),
    ];
    for (prefix, path, key) in &weights {
        let line = prefix.lines().count() + 1;
        let col = key.len() + 4;
        for (v, shown) in [
            ("nan", "NaN"),
            ("inf", "inf"),
            ("-inf", "-inf"),
            ("-1", "-1"),
            ("-0.5", "-0.5"),
            ("-1e300", "-1e300"),
        ] {
            out.push(case(
                format!("{prefix}{key} = {v}\n"),
                line,
                col,
                format!("{path} = {shown} is not a valid weight (a finite number ≥ 0)"),
            ));
        }
        out.push(case(
            format!("{prefix}{key} = \"heavy\"\n"),
            line,
            col,
            format!("{path} = \"heavy\" is text, but must be a number"),
        ));
        out.push(case(
            format!("{prefix}{key} = true\n"),
            line,
            col,
            format!("{path} = true is true or false, but must be a number"),
        ));
    }
    for (v, shown) in [
        ("0", "0"),
        ("0.05", "0.05"),
        ("601", "601"),
        ("1e308", "1e308"),
        ("nan", "NaN"),
        ("inf", "inf"),
        ("-1", "-1"),
    ] {
        out.push(case(
            format!("[limits]\nmax_seconds = {v}\n"),
            2,
            15,
            format!("limits.max_seconds = {shown} is out of range (0.1..=600)"),
        ));
    }
    out.push(case(
        "[limits]\nmax_seconds = \"soon\"\n",
        2,
        15,
        "limits.max_seconds = \"soon\" is text, but must be a number",
    ));
}

/// Weights that are each finite but add up past the largest number: the second entry of each
/// list is reported at its weight.
fn weight_total_cases(out: &mut Vec<Case>) {
    let entries: [(&str, &str); 5] = [
        (
            "corridor",
            "floor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n",
        ),
        (
            "room",
            "kind = \"normal\"\nfloor = \"floor\"\nwall = \"rock\"\ndoor = \"floor\"\n",
        ),
        (
            "streamer",
            "kind = \"river\"\nterrain = \"floor\"\nmin_width = 1\nmax_width = 2\n",
        ),
        ("vault", "grid = \".\"\n[vault.legend]\n\".\" = \"floor\"\n"),
        ("spawn", ""),
    ];
    for (kind, rest) in entries {
        for (first, second, shown) in [
            ("1.7e308", "1.7e308", "1.7e308"),
            ("1e308", "9e307", "9e307"),
            ("1.7976931348623157e308", "1e292", "1e292"),
        ] {
            let one = format!("[[{kind}]]\nname = \"a\"\nweight = {first}\n{rest}");
            let line = one.lines().count() + 3;
            out.push(case(
                format!("{one}[[{kind}]]\nname = \"b\"\nweight = {second}\n{rest}"),
                line,
                10,
                format!(
                    "{kind} 'b': weight = {shown} takes the total of the {kind} weights past the \
                     largest number (about 1.8e308); weights must add up to a finite total"
                ),
            ));
        }
    }
}

/// Keys no section knows, and sections that do not exist: named by their entry, with a
/// suggestion when the key is a likely typo.
fn unknown_key_cases(out: &mut Vec<Case>) {
    let tables = [
        ("[dungeon]\n".to_string(), "dungeon: unknown key 'colour' (keys: turn_chance,"),
        ("[map]\n".into(), "map: unknown key 'colour' (keys: fill, edge)"),
        (
            "[rooms]\nfloor = \"floor\"\ncorridor = \"floor\"\nwall = \"rock\"\n".into(),
            "rooms: unknown key 'colour' (keys: floor, corridor, wall)",
        ),
        (
            "[cave]\nfloor = \"floor\"\nwall = \"rock\"\nentrance = \"floor\"\nexit = \"floor\"\npillar = \"rock\"\n".into(),
            "cave: unknown key 'colour'",
        ),
        ("[limits]\n".into(), "limits: unknown key 'colour'"),
        (
            "[[spawn]]\nname = \"orc\"\nweight = 1\n".into(),
            "spawn 'orc': unknown key 'colour'",
        ),
        (CORRIDOR.to_string(), "corridor 'c': unknown key 'colour'"),
        (
            format!("{CORRIDOR}[corridor.constants]\n"),
            "corridor 'c': constants: unknown key 'colour'",
        ),
        (
            "[[terrain]]\nname = \"x\"\nglyph = \"x\"\ncolor = \"#000000\"\nsolid = true\n".into(),
            "terrain 'x': unknown key 'colour'; did you mean 'color'?",
        ),
        (DOOR_KIND.into(), "door 'd': unknown key 'colour'"),
        (
            format!("{DOOR_KIND}[door.weights]\n"),
            "door 'd': weights: unknown key 'colour'",
        ),
        (String::new(), "unknown section 'colour' (sections: [[terrain]], [map],"),
    ];
    for (prefix, message) in tables {
        let line = prefix.lines().count() + 1;
        out.push(case(format!("{prefix}colour = 1\n"), line, 1, message));
    }
    out.push(case(
        "[vaults]\nx = 1\n",
        1,
        2,
        "unknown section 'vaults'; did you mean [[vault]]?",
    ));
    out.push(case("[[room]]\nx = 1\n", 2, 1, "room #1: unknown key 'x'"));
}

/// Required keys left out: reported at the table that lacks them.
fn missing_key_cases(out: &mut Vec<Case>) {
    let tables: [(&str, &[(&str, &str)]); 5] = [
        (
            "[[terrain]]",
            &[
                ("name", "\"x\""),
                ("glyph", "\"x\""),
                ("color", "\"#000000\""),
                ("solid", "true"),
            ],
        ),
        (
            "[[corridor]]",
            &[
                ("name", "\"c\""),
                ("weight", "1"),
                ("floor", "\"floor\""),
                ("walls", "\"rock\""),
                ("door", "\"floor\""),
            ],
        ),
        (
            "[rooms]",
            &[
                ("floor", "\"floor\""),
                ("corridor", "\"floor\""),
                ("wall", "\"rock\""),
            ],
        ),
        (
            "[cave]",
            &[
                ("floor", "\"floor\""),
                ("wall", "\"rock\""),
                ("entrance", "\"floor\""),
                ("exit", "\"floor\""),
                ("pillar", "\"rock\""),
            ],
        ),
        ("[[spawn]]", &[("name", "\"orc\""), ("weight", "1")]),
    ];
    for (header, keys) in tables {
        let section = header.trim_matches(['[', ']']);
        for (missing, _) in keys {
            let body: String = keys
                .iter()
                .filter(|(k, _)| k != missing)
                .map(|(k, v)| format!("{k} = {v}\n"))
                .collect();
            // A list entry is named by its `name`, or counted when that is what is missing.
            let entry = match keys.iter().find(|(k, _)| *k == "name") {
                Some(_) if *missing == "name" => format!("{section} #1"),
                Some((_, name)) => format!("{section} '{}'", name.trim_matches('"')),
                None => section.to_string(),
            };
            out.push(case(
                format!("{header}\n{body}"),
                1,
                1,
                format!("{entry} has no '{missing}', which is required"),
            ));
        }
    }
}

/// References to terrains that do not exist.
fn unknown_terrain_cases(out: &mut Vec<Case>) {
    let tables: [(&str, &str, &[&str]); 4] = [
        ("[map]", "map.", &["fill", "edge"]),
        ("[rooms]", "rooms.", &["floor", "corridor", "wall"]),
        (
            "[cave]",
            "cave.",
            &["floor", "wall", "entrance", "exit", "pillar"],
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = 1",
            "corridor 'c': ",
            &["floor", "walls", "door"],
        ),
    ];
    for (header, entry, keys) in tables {
        for bad in keys.iter() {
            let body: String = keys
                .iter()
                .map(|k| format!("{k} = \"{}\"\n", if k == bad { "lava" } else { "floor" }))
                .collect();
            let line = header.lines().count() + 1 + keys.iter().position(|k| k == bad).unwrap_or(0);
            out.push(case(
                format!("{header}\n{body}"),
                line,
                bad.len() + 4,
                if *bad == "door" {
                    format!("{entry}door = 'lava' is neither a [[door]] kind (known: none) nor a terrain")
                } else {
                    format!("{entry}{bad} = 'lava' is not a terrain (known: 'rock', 'floor')")
                },
            ));
        }
    }
}

/// Terrain definitions that cannot be drawn.
fn terrain_cases(out: &mut Vec<Case>) {
    let terrain = |name: &str, glyph: &str, color: &str, solid: &str| {
        format!("[[terrain]]\nname = {name}\nglyph = {glyph}\ncolor = {color}\nsolid = {solid}\n")
    };
    // (TOML literal, the string it denotes)
    for (glyph, value) in [
        ("\"\"", ""),
        ("\"ab\"", "ab"),
        ("\"\\u0007\"", "\u{7}"),
        ("\"\\n\"", "\n"),
        ("\"##\"", "##"),
    ] {
        out.push(case(
            terrain("\"x\"", glyph, "\"#000000\"", "true"),
            3,
            9,
            format!("terrain 'x': glyph = {value:?} must be exactly one printable character"),
        ));
    }
    for color in ["red", "#12345", "#gggggg", "", "#1234567", "000000"] {
        out.push(case(
            terrain("\"x\"", "\"x\"", &format!("\"{color}\""), "true"),
            4,
            9,
            format!("terrain 'x': color = {color:?} is not a colour of the form \"#rrggbb\""),
        ));
    }
    for name in ["\"\"", "\"   \""] {
        out.push(case(
            terrain(name, "\"x\"", "\"#000000\"", "true"),
            2,
            8,
            "terrain name must not be empty",
        ));
    }
    out.push(case(
        terrain("\"rock\"", "\"R\"", "\"#000000\"", "true"),
        2,
        8,
        "terrain 'rock' is already defined (regions/a.toml, terrain #1)",
    ));
    out.push(case(
        terrain("\"wall\"", "\".\"", "\"#000000\"", "true"),
        5,
        9,
        "terrain 'wall' shares glyph '.' with 'floor' but not its solidity",
    ));
    out.push(case(
        terrain("\"x\"", "\"x\"", "\"#000000\"", "\"yes\""),
        5,
        9,
        "terrain 'x': solid = \"yes\" is text, but must be true or false",
    ));
    out.push(case(
        "[[spawn]]\nname = \"orc\"\nweight = 1\n[[spawn]]\nname = \"orc\"\nweight = 2\n",
        5,
        8,
        "spawn 'orc' is already defined",
    ));
    out.push(case(
        format!("{CORRIDOR}{CORRIDOR}"),
        8,
        8,
        "corridor 'c' is already defined",
    ));
}

/// Kinds of door whose states are drawn with the wrong terrains, hazards that cannot be, and
/// bridges and stairs that are not safe to stand on.
fn door_and_hazard_cases(out: &mut Vec<Case>) {
    // (key, value, line of the key, message) of a [[door]] after DOOR_KIND's four lines.
    let lava = "'lava' (known: 'rock', 'floor')";
    let doors: [(&str, &str, usize, String); 6] = [
        (
            "closed",
            "floor",
            3,
            "door 'd': closed = 'floor' must be solid: a shut door blocks movement".into(),
        ),
        (
            "open",
            "rock",
            4,
            "door 'd': open = 'rock' must be open: a walker passes this door without opening it"
                .into(),
        ),
        (
            "locked",
            "floor",
            5,
            "door 'd': locked = 'floor' must be solid: a shut door blocks movement".into(),
        ),
        (
            "secret",
            "floor",
            5,
            "door 'd': secret = 'floor' must be solid: a shut door blocks movement".into(),
        ),
        (
            "broken",
            "rock",
            5,
            "door 'd': broken = 'rock' must be open: a walker passes this door without opening it"
                .into(),
        ),
        (
            "locked",
            "lava",
            5,
            format!("door 'd': locked = {lava}")
                .replace("= 'lava' (", "= 'lava' is not a terrain ("),
        ),
    ];
    for (key, value, line, message) in doors {
        let text = match key {
            "closed" => DOOR_KIND.replace("closed = \"rock\"", "closed = \"floor\""),
            "open" => DOOR_KIND.replace("open = \"floor\"", "open = \"rock\""),
            _ => format!("{DOOR_KIND}{key} = \"{value}\"\n"),
        };
        out.push(case(text, line, key.len() + 4, message));
    }
    out.push(case(
        format!("{DOOR_KIND}[[door]]\nname = \"d\"\nclosed = \"rock\"\nopen = \"floor\"\n"),
        6,
        8,
        "door 'd' is already defined",
    ));
    out.push(case(
        "[[door]]\nname = \"d\"\nclosed = \"rock\"\n",
        1,
        1,
        "door 'd' has no 'open', which is required",
    ));
    let terrain = |name: &str, glyph: &str, solid: bool, hazard: bool| {
        format!(
            "[[terrain]]\nname = \"{name}\"\nglyph = \"{glyph}\"\ncolor = \"#000000\"\nsolid = {solid}\nhazard = {hazard}\n"
        )
    };
    out.push(case(
        terrain("spikes", "^", true, true),
        6,
        10,
        "terrain 'spikes' is solid; only an open terrain can be a hazard",
    ));
    out.push(case(
        terrain("pit", ".", false, true),
        6,
        10,
        "terrain 'pit' shares glyph '.' with 'floor' but not `hazard`",
    ));
    let pit = terrain("pit", "~", false, true);
    for key in ["bridge", "up_stairs", "down_stairs"] {
        out.push(case(
            format!("{pit}[dungeon]\n{key} = \"pit\"\n"),
            8,
            key.len() + 4,
            format!("dungeon.{key} = 'pit' is a hazard; it must be safe to stand on"),
        ));
    }
    out.push(case(
        "[dungeon]\nbridge = \"rock\"\n",
        2,
        10,
        "dungeon.bridge = 'rock' is a solid terrain; it must be open (solid = false)",
    ));
    out.push(case(
        "[[vault]]\nname = \"v\"\nweight = 1\ngrid = \".+.\"\n[vault.legend]\n\".\" = \"floor\"\n\"+\" = \"gate\"\n",
        7,
        7,
        "vault 'v': legend.\"+\" = 'gate' is not a terrain (known: 'rock', 'floor')",
    ));
}

/// Files that are not TOML.
fn syntax_cases(out: &mut Vec<Case>) {
    let broken: &[(&str, usize, usize, &str)] = &[
        ("[dungeon\n", 1, 9, ""),
        (
            "[dungeon]\nturn_chance = \n",
            2,
            15,
            "[dungeon]: 'turn_chance' has no value after '='",
        ),
        ("[dungeon]\n= 1\n", 2, 1, ""),
        (
            "[dungeon]\nturn_chance = 1 1\n",
            2,
            15,
            "[dungeon]: turn_chance = 1 1 is not a value; a number is written without spaces, text in quotes",
        ),
        ("[[terrain]\n", 1, 11, "unclosed array table, expected `]`"),
        ("[map]\nfill = \"rock\n", 2, 13, ""),
        (
            "[limits]\nmax_memory_mib = [1, 2\n",
            2,
            23,
            "unclosed array, expected `]`",
        ),
        (
            "[dungeon]\nturn_chance = 10\nturn_chance = 3\n",
            3,
            1,
            "[dungeon]: 'turn_chance' is given twice (first on line 2); keep one",
        ),
        (
            "[dungeon]\n[dungeon]\n",
            2,
            2,
            "[dungeon] is written twice (first on line 1); write each section once",
        ),
        ("[dungeon]\nturn_chance = 0x\n", 2, 15, ""),
        (
            "[dungeon]\nturn_chance = 1_\n",
            2,
            16,
            "`_` may only go between digits",
        ),
        (
            "\u{feff}\u{feff}[dungeon]\n",
            1,
            3,
            "key with no value, expected `=`",
        ),
        ("[dungeon]\nturn_chance = 9223372036854775808\n", 2, 15, ""),
        ("[dungeon]\nturn chance = 1\n", 2, 6, ""),
        (
            "[map]\nfill = 'rock\n",
            2,
            13,
            "[map]: fill = 'rock is not closed: end the text with ' on the same line",
        ),
        ("x = \"\\q\"\n", 1, 7, "missing escaped value"),
    ];
    for (text, line, col, message) in broken {
        out.push(case(*text, *line, *col, *message));
    }
}

/// Single sections defined in two files: reported in the second, at the section.
fn duplicate_section_cases(out: &mut Vec<Case>) {
    for section in ["map", "dungeon", "limits"] {
        out.push(case(
            format!("\n[{section}]\n"),
            2,
            1,
            format!(
                "[{section}] is already defined in regions/a.toml; it may appear in only one file"
            ),
        ));
    }
}

fn corpus() -> Vec<Case> {
    let mut out = Vec::new();
    integer_cases(&mut out);
    float_cases(&mut out);
    unknown_key_cases(&mut out);
    missing_key_cases(&mut out);
    unknown_terrain_cases(&mut out);
    terrain_cases(&mut out);
    door_and_hazard_cases(&mut out);
    syntax_cases(&mut out);
    duplicate_section_cases(&mut out);
    weight_total_cases(&mut out);
    out
}

#[test]
fn every_malformed_region_file_is_refused_at_its_line_and_column() {
    let cases = corpus();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let first = format!("{TERRAIN}\n[map]\n[dungeon]\n[limits]\n");
    let mut failures = Vec::new();
    for c in &cases {
        let duplicate = c.message.contains("is already defined in regions/a.toml");
        let sources = vec![
            Source {
                path: "regions/a.toml".into(),
                text: if duplicate {
                    first.clone()
                } else {
                    TERRAIN.into()
                },
            },
            Source {
                path: "regions/bad.toml".into(),
                text: c.text.clone(),
            },
        ];
        let outcome = std::panic::catch_unwind(|| Registry::from_sources(sources));
        let expected = format!("regions/bad.toml:{}:{}: {}", c.line, c.col, c.message);
        match outcome {
            Err(_) => failures.push(format!("PANIC\n{}", c.text)),
            Ok(Ok(_)) => failures.push(format!("accepted\n{}", c.text)),
            Ok(Err(e)) if !e.to_string().contains(&expected) => failures.push(format!(
                "--- input:\n{}--- expected: {expected}\n--- got: {e}",
                c.text
            )),
            Ok(Err(_)) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn too_many_terrains_is_reported_at_the_first_one_too_many() {
    // 65535 terrains fit (ids are 16 bits); the 65536th is named where it is written.
    let defined = TERRAIN.matches("[[terrain]]").count();
    let extra: String = (defined..=u16::MAX as usize)
        .map(|i| {
            format!(
                "[[terrain]]\nname = \"t{i}\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n"
            )
        })
        .collect();
    let sources = vec![
        Source {
            path: "regions/a.toml".into(),
            text: TERRAIN.into(),
        },
        Source {
            path: "regions/many.toml".into(),
            text: extra,
        },
    ];
    let e = Registry::from_sources(sources).unwrap_err().to_string();
    let index = u16::MAX as usize - defined;
    let line = index * 5 + 1;
    assert_eq!(
        e,
        format!(
            "regions/many.toml:{line}:1: too many terrains: this is terrain number 65536; at \
             most 65535 may be defined"
        )
    );
}
