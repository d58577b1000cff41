//! Region files: every validation error names file:line:col.

use crate::common::*;
use warren_core::region::{Registry, Source};

#[test]
fn shipped_regions_load() {
    let r = registry();
    assert!(r.terrains().id("floor").is_some());
    assert!(r.data.rooms.is_some() && r.data.cave.is_some());
}

#[test]
fn each_validation_error_names_file_line_and_column() {
    let cases: &[(&str, &str)] = &[
        ("[dungeon]\nturn_chance = 10\nturn_chance = 3\n", "regions/bad.toml:3:1: [dungeon]: 'turn_chance' is given twice (first on line 2); keep one"),
        ("[dungeon\n", "regions/bad.toml:1:9:"),
        ("[dungeon]\nturn_chanse = 10\n", "regions/bad.toml:2:1: dungeon: unknown key 'turn_chanse'; did you mean 'turn_chance'?"),
        ("[dungeon]\nturn_chance = 101\n", "regions/bad.toml:2:15: dungeon.turn_chance = 101 is not a percentage (0..=100)"),
        ("[dungeon]\nstubborn_corridor = -1\n", "regions/bad.toml:2:21: dungeon.stubborn_corridor = -1 is not a percentage"),
        ("[dungeon]\nsegment_minlen = 9\nsegment_maxlen = 4\n", "regions/bad.toml:2:18: segment_minlen = 9 must not exceed segment_maxlen = 4"),
        ("[dungeon]\nsegment_maxlen = 0\n", "regions/bad.toml:2:18: dungeon.segment_maxlen = 0 is out of range (1..=1000)"),
        ("[dungeon]\nturn_chance = \"ten\"\n", "regions/bad.toml:2:15: dungeon.turn_chance = \"ten\" is text, but must be a whole number"),
        (
            "[[corridor]]\nname = \"c\"\nweight = -2\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n",
            "regions/bad.toml:3:10: corridor 'c': weight = -2 is not a valid weight",
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = nan\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n",
            "regions/bad.toml:3:10: corridor 'c': weight = NaN is not a valid weight",
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = inf\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n",
            "regions/bad.toml:3:10: corridor 'c': weight = inf is not a valid weight",
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = 1\nfloor = \"lava\"\nwalls = \"rock\"\ndoor = \"floor\"\n",
            "regions/bad.toml:4:9: corridor 'c': floor = 'lava' is not a terrain (known: 'rock', 'floor')",
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = 1\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n[corridor.constants]\nturn_chance = 300\n",
            "regions/bad.toml:8:15: corridor 'c': constants.turn_chance = 300 is not a percentage",
        ),
        (
            "[[corridor]]\nname = \"c\"\nweight = 1\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n[corridor.constants]\nsegment_minlen = 50\n",
            "regions/bad.toml:8:18: corridor 'c': segment_minlen 50 exceeds segment_maxlen 10",
        ),
        ("[[terrain]]\nname = \"rock\"\nglyph = \"R\"\ncolor = \"#000000\"\nsolid = true\n", "regions/bad.toml:2:8: terrain 'rock' is already defined (regions/a.toml, terrain #1)"),
        ("[[terrain]]\nname = \"x\"\nglyph = \"ab\"\ncolor = \"#000000\"\nsolid = true\n", "regions/bad.toml:3:9: terrain 'x': glyph = \"ab\" must be exactly one printable character"),
        ("[[terrain]]\nname = \"x\"\nglyph = \"x\"\ncolor = \"red\"\nsolid = true\n", "regions/bad.toml:4:9: terrain 'x': color = \"red\" is not a colour of the form \"#rrggbb\""),
        ("[[terrain]]\nname = \"wall\"\nglyph = \".\"\ncolor = \"#000000\"\nsolid = true\n", "regions/bad.toml:5:9: terrain 'wall' shares glyph '.' with 'floor' but not its solidity"),
        ("[map]\nfill = \"granite\"\n", "regions/bad.toml:2:8: map.fill = 'granite' is not a terrain"),
        ("[rooms]\nfloor = \"floor\"\ncorridor = \"floor\"\nwall = \"wal\"\n", "regions/bad.toml:4:8: rooms.wall = 'wal' is not a terrain"),
        ("[cave]\nfloor = \"floor\"\n", "regions/bad.toml:1:1: cave has no 'wall', which is required"),
        ("[[spawn]]\nname = \"orc\"\nweight = 1e999\n", "regions/bad.toml:3:10: spawn 'orc': weight = 1e999 is too large to be a number"),
        ("[[spawn]]\nname = \"orc\"\nweight = 1\n[[spawn]]\nname = \"orc\"\nweight = 2\n", "regions/bad.toml:5:8: spawn 'orc' is already defined"),
    ];
    for (text, expected) in cases {
        let e = load_err(text);
        assert!(
            e.contains(expected),
            "\n--- input:\n{text}\n--- expected: {expected}\n--- got: {e}"
        );
    }
}

#[test]
fn a_section_may_be_defined_in_one_file_only() {
    let sources = vec![
        Source {
            path: "a.toml".into(),
            text: format!("{TEST_TERRAIN}\n[dungeon]\nturn_chance = 5\n"),
        },
        Source {
            path: "b.toml".into(),
            text: "\n[dungeon]\nturn_chance = 6\n".into(),
        },
    ];
    let e = Registry::from_sources(sources).err().unwrap().to_string();
    assert!(
        e.contains("b.toml:2:1: [dungeon] is already defined in a.toml"),
        "{e}"
    );
}

#[test]
fn all_problems_are_reported_not_only_the_first() {
    let e = load_err("[map]\nfill = \"x\"\nedge = \"y\"\n[dungeon]\nturn_chance = 500\n");
    assert_eq!(e.lines().count(), 3, "{e}");
}

#[test]
fn directories_need_region_files_and_cap_their_size() {
    let empty = tempfile::tempdir().unwrap();
    let e = Registry::load_dir(empty.path()).err().unwrap().to_string();
    assert!(e.contains("no *.toml region files"), "{e}");

    let big = temp_tree(&[("huge.toml", &"# padding\n".repeat(200_000))]);
    let e = Registry::load_dir(big.path()).err().unwrap().to_string();
    assert!(
        e.contains("region files may be at most 1048576 bytes"),
        "{e}"
    );

    let bin = tempfile::tempdir().unwrap();
    std::fs::write(bin.path().join("x.toml"), b"name = \"\xff\"\n").unwrap();
    let e = Registry::load_dir(bin.path()).err().unwrap().to_string();
    assert!(e.contains("x.toml:1:9: file is not valid UTF-8"), "{e}");
}

/// `[[sample]]`: the shipped sample loads as a palette of its terrains, and every bad grid or
/// legend is an error at file:line:col that names the sample.
#[test]
fn samples_load_and_each_bad_one_names_file_line_and_column() {
    let r = registry();
    let houses = r
        .resolved
        .samples
        .iter()
        .find(|s| s.name == "town houses")
        .expect("regions/samples.toml has the town houses");
    assert_eq!(
        (houses.width, houses.height, houses.periodic),
        (12, 12, true)
    );
    assert_eq!(houses.terrains.len(), 4);
    let sample = |grid: &str, legend: &str| {
        format!(
            "[[sample]]\nname = \"s\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n[sample.legend]\n{legend}"
        )
    };
    let legend = "\"#\" = \"rock\"\n\".\" = \"floor\"\n";
    let cases: Vec<(String, &str)> = vec![
        (sample("##\n#", legend), "regions/bad.toml:3:8: sample 's' row 2 is 1 cells long; every row must be 2 long, like row 1"),
        (sample("##\n#Z", legend), "regions/bad.toml:3:8: sample 's' grid row 2, column 2: 'Z' is not in the legend (its glyphs: \"#.\")"),
        (sample(&"#".repeat(65), legend), "regions/bad.toml:3:8: sample 's' is 65×1; samples are at most 64×64"),
        (sample("", legend), "regions/bad.toml:3:8: sample 's' is empty"),
        (sample("#.", "\"#\" = \"rock\"\n\".\" = \"flor\"\n"), "regions/bad.toml:8:7: sample 's': legend.\".\" = 'flor' is not a terrain; did you mean 'floor'?"),
        (sample("#.", "\"#\" = \"rock\"\n\"..\" = \"floor\"\n"), "regions/bad.toml:8:8: legend key \"..\" must be exactly one character"),
        (format!("{}\n{}", sample("#.", legend), sample("#.", legend)), "regions/bad.toml:11:8: sample 's' is already defined"),
        ("[[sample]]\nname = \"s\"\ngrid = \"#\"\n".into(), "regions/bad.toml:1:1: sample 's' has no 'legend', which is required"),
    ];
    for (bad, want) in &cases {
        let e = load_err(bad);
        assert!(e.contains(want), "{bad}\n  got  {e}\n  want {want}");
    }
}
