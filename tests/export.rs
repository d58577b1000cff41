//! Maps that engines and tools load, through the real binary: the JSON document (format 2:
//! every cell's exact terrain and region, rooms with their doors, exact seeds, one shape for
//! one level or many) and the Tiled export, read back with the independent `tiled` crate and
//! checked against the JSON of the same run.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use tiled::{LayerType, ObjectShape, PropertyValue, TileLayer};

/// The JSON document of a run.
fn json(args: &[&str]) -> Value {
    let mut all = vec!["run"];
    all.extend(args);
    all.extend(["--format", "json"]);
    serde_json::from_slice(&stdout(&all)).unwrap()
}

fn rows(level: &Value, key: &str) -> Vec<Vec<usize>> {
    level[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|i| i.as_u64().unwrap() as usize)
                .collect()
        })
        .collect()
}

#[test]
fn every_cell_keeps_its_exact_terrain_and_region() {
    let doc = json(&["scripts/dungeon.lua", "--seed", "1"]);
    assert_eq!(doc["format"], 2);
    let level = &doc["levels"][0];
    let terrains = level["terrains"].as_array().unwrap();
    let names: Vec<&str> = terrains
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let regions: Vec<&str> = level["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(regions[0], "", "index 0 is 'no region'");
    let terrain = rows(level, "terrain_rows");
    let region = rows(level, "region_rows");
    let glyphs: Vec<Vec<char>> = level["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    assert_eq!(terrain.len(), 128);
    let mut distinct_under_hash = std::collections::BTreeSet::new();
    for y in 0..128 {
        assert_eq!((terrain[y].len(), region[y].len()), (128, 128));
        for x in 0..128 {
            let t = &terrains[terrain[y][x]];
            // The exact terrain agrees with the glyph row and the legend (the contract).
            assert_eq!(t["glyph"].as_str().unwrap(), glyphs[y][x].to_string());
            let entry = &level["legend"][glyphs[y][x].to_string()];
            assert_eq!(entry["solid"], t["solid"]);
            assert!(entry["terrains"]
                .as_array()
                .unwrap()
                .contains(&t["name"].clone()));
            assert!(region[y][x] < regions.len());
            if glyphs[y][x] == '#' {
                distinct_under_hash.insert(names[terrain[y][x]]);
            }
        }
    }
    assert!(
        distinct_under_hash.len() >= 3,
        "terrains sharing '#' are told apart: {distinct_under_hash:?}"
    );
    // The map edge is its own terrain, not the first one drawn with '#'.
    assert_eq!(names[terrain[0][0]], "map edge");
    // Region names are stamped where the recipe stamped them: every room is its region's.
    let used: std::collections::BTreeSet<&str> = region
        .iter()
        .flatten()
        .map(|&r| regions[r])
        .filter(|r| !r.is_empty())
        .collect();
    assert!(used.len() >= 5, "{used:?}");
}

#[test]
fn rooms_list_their_doors_statistics_are_integers_and_seeds_are_exact() {
    let doc = json(&["scripts/dungeon.lua", "--seed", "1", "--levels", "2"]);
    let levels = doc["levels"].as_array().unwrap();
    let level = &levels[0];
    let doors: Vec<&Value> = level["doors"].as_array().unwrap().iter().collect();
    let room_doors: Vec<&Value> = level["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["doors"].as_array().unwrap())
        .collect();
    assert!(!room_doors.is_empty(), "dungeon rooms list their doors");
    for d in &room_doors {
        let of_map = doors.iter().any(|m| m["x"] == d["x"] && m["y"] == d["y"]);
        assert!(of_map, "{d} is a door of the map");
    }
    // Every door of the map says its state.
    for d in &doors {
        let state = d["state"].as_str().unwrap_or_default();
        assert!(
            ["closed", "open", "locked", "secret", "broken"].contains(&state),
            "{d}"
        );
    }
    // Whole statistics are written as integers, fractions as numbers.
    let stats = &level["stats"];
    assert!(stats["open_cells"].is_u64(), "{stats}");
    assert!(stats["fixup_tunnels"].is_u64(), "{stats}");
    assert!(stats["open_fraction"].is_f64(), "{stats}");
    // Seeds are exact decimal strings: level 2's seed uses all 64 bits.
    assert_eq!(doc["seed"], "1");
    assert_eq!(level["seed"], "1");
    let second: u64 = levels[1]["seed"].as_str().unwrap().parse().unwrap();
    let exact = warren_lua::run::level_seed(1, 2);
    assert_eq!(second, exact);
    assert!(exact > 1 << 53, "the case a JavaScript number would round");
}

#[test]
fn one_level_and_several_share_one_shape() {
    let one = json(&["scripts/rooms.lua", "--seed", "5"]);
    let three = json(&["scripts/rooms.lua", "--seed", "5", "--levels", "3"]);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&one), keys(&three));
    assert_eq!(keys(&one), ["format", "levels", "params", "recipe", "seed"]);
    assert_eq!(one["levels"].as_array().unwrap().len(), 1);
    assert_eq!(keys(&one["levels"][0]), keys(&three["levels"][2]));
    assert_eq!(
        one["levels"][0], three["levels"][0],
        "level 1 is the same map"
    );
}

#[test]
fn the_region_layer_has_a_legend_in_json_and_on_stderr() {
    let doc = json(&["scripts/dungeon.lua", "--seed", "1", "--layer", "region"]);
    let level = &doc["levels"][0];
    let layer = &level["layer"];
    assert_eq!(layer["name"], "region");
    let legend = layer["legend"].as_object().unwrap();
    let regions = level["regions"].as_array().unwrap();
    let region = rows(level, "region_rows");
    for (y, row) in layer["rows"].as_array().unwrap().iter().enumerate() {
        for (x, g) in row.as_str().unwrap().chars().enumerate() {
            if region[y][x] == 0 {
                continue;
            }
            let names = legend[&g.to_string()].as_array().unwrap();
            assert!(names.contains(&regions[region[y][x]]), "({x}, {y}) '{g}'");
        }
    }

    let out = warren()
        .args([
            "run",
            "scripts/dungeon.lua",
            "--seed",
            "1",
            "--layer",
            "region",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("region layer: a "), "{err}");
    for (g, names) in legend {
        let name = names[0].as_str().unwrap();
        assert!(err.contains(&format!("{g} {name}")), "{g} {name} in {err}");
    }
    assert!(err.lines().all(|l| l.chars().count() <= 80), "{err}");
    // Standard output stays the map alone.
    let map = String::from_utf8(out.stdout).unwrap();
    assert_eq!(map.lines().count(), 128);
}

/// The Tiled map of a run (`--out DIR/NAME.tmx`) loaded with the `tiled` crate, and the JSON
/// of the same run.
fn tiled_and_json(args: &[&str], dir: &Path) -> (tiled::Map, Value) {
    let tmx = dir.join("map.tmx");
    let mut all = vec!["run"];
    all.extend(args);
    all.extend(["--out", tmx.to_str().unwrap()]);
    let out = warren().args(&all).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let map = tiled::Loader::new()
        .load_tmx_map(&tmx)
        .unwrap_or_else(|e| panic!("{e}"));
    (map, json(args))
}

fn string(p: Option<&PropertyValue>) -> String {
    match p {
        Some(PropertyValue::StringValue(s)) => s.clone(),
        other => panic!("not a string: {other:?}"),
    }
}

fn int(p: Option<&PropertyValue>) -> i64 {
    match p {
        Some(PropertyValue::IntValue(i)) => *i as i64,
        other => panic!("not an int: {other:?}"),
    }
}

/// The object layers of a level group, by name: each object's type, name, position and
/// properties as JSON values.
fn object_layers(group: &tiled::GroupLayer) -> BTreeMap<String, Vec<(String, Value)>> {
    let mut out = BTreeMap::new();
    for layer in group.layers() {
        let LayerType::Objects(objects) = layer.layer_type() else {
            continue;
        };
        let list = objects
            .objects()
            .map(|o| {
                let props: serde_json::Map<String, Value> =
                    o.properties
                        .iter()
                        .map(|(k, v)| {
                            let v = match v {
                                PropertyValue::IntValue(i) => Value::from(*i),
                                PropertyValue::BoolValue(b) => Value::from(*b),
                                PropertyValue::FloatValue(f) => Value::from(*f as f64),
                                // Lists and objects are JSON text; plain strings stay strings.
                                PropertyValue::StringValue(s) => serde_json::from_str(s)
                                    .unwrap_or_else(|_| Value::from(s.clone())),
                                other => panic!("{k}: {other:?}"),
                            };
                            (k.clone(), v)
                        })
                        .collect();
                (o.user_type.clone(), Value::Object(props))
            })
            .collect();
        out.insert(layer.name.clone(), list);
    }
    out
}

#[test]
fn tiled_maps_load_with_the_tiled_crate_and_match_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &["scripts/dungeon.lua", "--seed", "1"],
        &[
            "scripts/rooms.lua",
            "--seed",
            "7",
            "--set",
            "corridor_spawns=true",
        ],
        &["scripts/townmaze.lua", "--seed", "3"],
    ];
    for args in cases {
        let (map, doc) = tiled_and_json(args, dir.path());
        let level = &doc["levels"][0];
        let (w, h) = (
            level["width"].as_u64().unwrap() as u32,
            level["height"].as_u64().unwrap() as u32,
        );
        assert_eq!((map.width, map.height), (w, h), "{args:?}");
        assert_eq!(string(map.properties.get("recipe")), doc["recipe"]);
        assert_eq!(string(map.properties.get("seed")), doc["seed"]);
        for (k, v) in doc["params"].as_object().unwrap() {
            let p = map.properties.get(&format!("param.{k}"));
            match v {
                Value::Number(n) => assert_eq!(int(p), n.as_i64().unwrap(), "{k}"),
                Value::Bool(b) => assert_eq!(p, Some(&PropertyValue::BoolValue(*b)), "{k}"),
                Value::String(s) => assert_eq!(&string(p), s, "{k}"),
                other => panic!("{k}: {other}"),
            }
        }

        // The tileset: one tile per terrain, named and solid as the JSON says, with an image
        // that exists beside the map.
        let tileset = &map.tilesets()[0];
        let terrains = level["terrains"].as_array().unwrap();
        assert_eq!(tileset.tilecount as usize, terrains.len());
        for (id, t) in terrains.iter().enumerate() {
            let tile = tileset.get_tile(id as u32).unwrap();
            assert_eq!(string(tile.properties.get("terrain")), t["name"]);
            assert_eq!(
                tile.properties.get("solid"),
                Some(&PropertyValue::BoolValue(t["solid"].as_bool().unwrap()))
            );
            assert_eq!(
                tile.properties.get("hazard"),
                Some(&PropertyValue::BoolValue(t["hazard"].as_bool().unwrap()))
            );
        }
        let image = tileset.image.as_ref().unwrap();
        let png = std::fs::read(&image.source).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));

        // One group per level: the terrain layer holds every cell's exact terrain.
        let LayerType::Group(group) = map.get_layer(0).unwrap().layer_type() else {
            panic!("level 1 is a group layer");
        };
        assert_eq!(int(map.get_layer(0).unwrap().properties.get("depth")), 1);
        let LayerType::Tiles(TileLayer::Finite(tiles)) = group.get_layer(0).unwrap().layer_type()
        else {
            panic!("the first layer of a level is its terrain");
        };
        let terrain = rows(level, "terrain_rows");
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let tile = tiles.get_tile(x, y).unwrap();
                assert_eq!(tile.id() as usize, terrain[y as usize][x as usize]);
            }
        }

        // Objects: every annotation, every field, in cells.
        let layers = object_layers(&group);
        let rooms = &layers["rooms"];
        assert_eq!(rooms.len(), level["rooms"].as_array().unwrap().len());
        for ((kind, props), room) in rooms.iter().zip(level["rooms"].as_array().unwrap()) {
            assert_eq!(kind, "room");
            assert_eq!(props, room, "{args:?}");
        }
        let corridors = &layers["corridors"];
        for ((kind, props), c) in corridors.iter().zip(level["corridors"].as_array().unwrap()) {
            assert_eq!(kind, "corridor");
            assert_eq!(props, c);
        }
        assert_eq!(
            corridors.len(),
            level["corridors"].as_array().unwrap().len()
        );
        let doors: Vec<&Value> = layers["doors"].iter().map(|(_, p)| p).collect();
        let json_doors: Vec<&Value> = level["doors"].as_array().unwrap().iter().collect();
        assert_eq!(doors, json_doors);
        let spawns: Vec<&Value> = layers["spawns"].iter().map(|(_, p)| p).collect();
        let json_spawns: Vec<&Value> = level["spawns"].as_array().unwrap().iter().collect();
        assert_eq!(spawns, json_spawns);
        let stairs: Vec<(String, i64, i64)> = layers["stairs"]
            .iter()
            .map(|(_, p)| {
                let dir = p["direction"].as_str().unwrap().to_string();
                (dir, p["x"].as_i64().unwrap(), p["y"].as_i64().unwrap())
            })
            .collect();
        let mut json_stairs = Vec::new();
        for dir in ["up", "down"] {
            for s in level["stairs"][dir].as_array().unwrap() {
                json_stairs.push((
                    dir.to_string(),
                    s["x"].as_i64().unwrap(),
                    s["y"].as_i64().unwrap(),
                ));
            }
        }
        assert_eq!(stairs, json_stairs);
    }
}

#[test]
fn tiled_objects_sit_on_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let (map, doc) = tiled_and_json(&["scripts/dungeon.lua", "--seed", "2"], dir.path());
    let level = &doc["levels"][0];
    let LayerType::Group(group) = map.get_layer(0).unwrap().layer_type() else {
        panic!("a group");
    };
    let px = map.tile_width as f32;
    let mut seen = 0;
    for layer in group.layers().filter(|l| l.name != "corridors") {
        let LayerType::Objects(objects) = layer.layer_type() else {
            continue;
        };
        for o in objects.objects() {
            let (x, y) = (int(o.properties.get("x")), int(o.properties.get("y")));
            match &o.shape {
                ObjectShape::Rect { width, height } => {
                    assert_eq!((o.x, o.y), (x as f32 * px, y as f32 * px));
                    let w = int(o.properties.get("w"));
                    let h = int(o.properties.get("h"));
                    assert_eq!((*width, *height), (w as f32 * px, h as f32 * px));
                }
                ObjectShape::Point(..) => {
                    assert_eq!((o.x, o.y), ((x as f32 + 0.5) * px, (y as f32 + 0.5) * px));
                }
                other => panic!("{other:?}"),
            }
            seen += 1;
        }
    }
    let stairs = &level["stairs"];
    let expected = ["rooms", "doors", "spawns"]
        .iter()
        .map(|k| level[k].as_array().unwrap().len())
        .sum::<usize>()
        + stairs["up"].as_array().unwrap().len()
        + stairs["down"].as_array().unwrap().len();
    assert_eq!(seen, expected);
    // Corridors are polylines through their cells' centres.
    let corridors = group
        .layers()
        .find(|l| l.name == "corridors")
        .unwrap()
        .as_object_layer()
        .unwrap();
    for (o, c) in corridors
        .objects()
        .zip(level["corridors"].as_array().unwrap())
    {
        if c["cells"].as_array().unwrap().is_empty() {
            assert!(!o.visible && matches!(o.shape, ObjectShape::Point(..)));
            continue;
        }
        let ObjectShape::Polyline { points } = &o.shape else {
            panic!("{:?}", o.shape);
        };
        let cells = c["cells"].as_array().unwrap();
        assert_eq!(points.len(), cells.len());
        for ((dx, dy), cell) in points.iter().zip(cells) {
            let (x, y) = (
                cell["x"].as_f64().unwrap() as f32,
                cell["y"].as_f64().unwrap() as f32,
            );
            assert_eq!((o.x + dx, o.y + dy), ((x + 0.5) * px, (y + 0.5) * px));
        }
    }
}

#[test]
fn tiled_levels_are_groups_and_the_first_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let (map, doc) = tiled_and_json(
        &["scripts/dungeon.lua", "--seed", "4", "--levels", "3"],
        dir.path(),
    );
    let groups: Vec<_> = map.layers().collect();
    assert_eq!(groups.len(), 3);
    for (i, g) in groups.iter().enumerate() {
        assert_eq!(g.name, format!("level {}", i + 1));
        assert_eq!(g.visible, i == 0);
        assert_eq!(
            string(g.properties.get("seed")),
            doc["levels"][i]["seed"],
            "exact seeds, as strings"
        );
        let stat = |k: &str| g.properties.get(&format!("stat.{k}")).cloned();
        assert_eq!(
            stat("open_cells"),
            Some(PropertyValue::IntValue(
                doc["levels"][i]["stats"]["open_cells"].as_i64().unwrap() as i32
            ))
        );
    }
    // Both files are written, and only them.
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["map.tiles.png", "map.tmx"]);
}

#[test]
fn tiled_output_is_deterministic_and_needs_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let path = dir.path().join(name);
        stdout(&[
            "run",
            "scripts/cave.lua",
            "--seed",
            "3",
            "--format",
            "tiled",
            "--out",
            path.to_str().unwrap(),
        ]);
        std::fs::read_to_string(path).unwrap()
    };
    let (a, b) = (run("a.tmx"), run("b.tmx"));
    assert_eq!(
        a.replace("a.tiles.png", "b.tiles.png"),
        b,
        "same map, only the image name differs"
    );
    let out = warren()
        .args(["run", "scripts/cave.lua", "--format", "tiled"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--format tiled writes a file: add --out FILE.tmx"),
        "{err}"
    );
}
