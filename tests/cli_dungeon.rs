//! `warren run scripts/dungeon.lua` from the command line: the README's command, five levels
//! whose stairs line up in the JSON output, and identical output across processes.

mod common;
use common::*;
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
