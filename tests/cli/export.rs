//! Maps that engines and tools load, through the real binary: the JSON document (format 2:
//! every cell's exact terrain and region, rooms with their region and every way in, an entry
//! cell on every level, exact seeds, one shape for one level or many), every document checked
//! against the format's JSON Schema (`crates/core/schema/warren-map-2.schema.json`, with the
//! `boon` crate), the Tiled export read back with the independent `tiled` crate and the
//! LDtk export, both checked against the JSON of the same run. `tests/engines/check.py` reads
//! the same exports with pytmx, Tiled itself, ldtkpy and two engines' loaders (run in CI).

use crate::common::schema::Schema;
use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;
use tiled::{LayerType, ObjectShape, PropertyValue, TileLayer};

/// The format 2 schema, compiled once.
fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = root().join("crates/core/schema/warren-map-2.schema.json");
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        Schema::compile(&path.display().to_string(), schema)
    })
}

/// Checks `doc` against the schema and the rules a schema cannot state: rows and index rows
/// have the level's size, indices fall in their tables, every glyph is in the legend, the
/// start is a cell a walker may stand on, rooms' doors are doors of the map or open cells
/// around them.
fn check_document(doc: &Value, what: &str) {
    let errors = schema().errors(doc);
    assert!(errors.is_empty(), "{what}: not format 2: {errors:#?}");
    for level in doc["levels"].as_array().unwrap() {
        let (w, h) = (
            level["width"].as_u64().unwrap() as usize,
            level["height"].as_u64().unwrap() as usize,
        );
        let glyphs = level["rows"].as_array().unwrap();
        assert_eq!(glyphs.len(), h, "{what}: rows");
        for row in glyphs {
            let row = row.as_str().unwrap();
            assert_eq!(row.chars().count(), w, "{what}: a row's glyphs");
            for g in row.chars() {
                assert!(
                    level["legend"].get(g.to_string()).is_some(),
                    "{what}: '{g}'"
                );
            }
        }
        let terrains = level["terrains"].as_array().unwrap();
        let regions = level["regions"].as_array().unwrap();
        for (key, len) in [
            ("terrain_rows", terrains.len()),
            ("region_rows", regions.len()),
        ] {
            let table = rows(level, key);
            assert_eq!(table.len(), h, "{what}: {key}");
            assert!(
                table
                    .iter()
                    .all(|r| r.len() == w && r.iter().all(|&i| i < len)),
                "{what}: {key}"
            );
        }
        let terrain = rows(level, "terrain_rows");
        let doors: Vec<(i64, i64)> = level["doors"].as_array().unwrap().iter().map(xy).collect();
        let open = |(x, y): (i64, i64)| {
            let t = &terrains[terrain[y as usize][x as usize]];
            doors.contains(&(x, y)) || !(t["solid"] == true || t["hazard"] == true)
        };
        let start = &level["start"];
        assert!(
            !start.is_null(),
            "{what}: level {} has no start",
            level["depth"]
        );
        assert!(
            open(xy(start)),
            "{what}: the start {start} is not standable"
        );
        for room in level["rooms"].as_array().unwrap() {
            if let Some(region) = room["region"].as_str() {
                assert!(regions.contains(&Value::from(region)), "{what}: {room}");
            }
            for d in room["doors"].as_array().unwrap() {
                assert!(open(xy(d)), "{what}: the room door {d} is closed rock");
            }
        }
    }
}

/// A cell's `(x, y)`.
fn xy(v: &Value) -> (i64, i64) {
    (v["x"].as_i64().unwrap(), v["y"].as_i64().unwrap())
}

/// The JSON document of a run, checked against the schema.
fn json(args: &[&str]) -> Value {
    let mut all = vec!["run"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let doc = serde_json::from_slice(&stdout(&all)).unwrap();
    check_document(&doc, &args.join(" "));
    doc
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
    let doors: Vec<(i64, i64)> = level["doors"].as_array().unwrap().iter().map(xy).collect();
    let room_doors: Vec<(i64, i64)> = level["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["doors"].as_array().unwrap().iter().map(xy))
        .collect();
    let features = room_doors.iter().filter(|d| doors.contains(d)).count();
    assert!(features > 0, "dungeon rooms list their doors");
    assert!(
        features < room_doors.len(),
        "and the openings tunnels made without a door"
    );
    // Every door of the map says its state.
    for d in level["doors"].as_array().unwrap() {
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

/// The rooms of `level` that a corridor enters (a corridor cell, still open, in the ring
/// around the room beside one of its sides) with no door listed within a cell of the way in.
fn entered_without_a_door(level: &Value) -> Vec<String> {
    let terrains = level["terrains"].as_array().unwrap();
    let terrain = rows(level, "terrain_rows");
    let doors: Vec<(i64, i64)> = level["doors"].as_array().unwrap().iter().map(xy).collect();
    let open = |&(x, y): &(i64, i64)| {
        let t = &terrains[terrain[y as usize][x as usize]];
        doors.contains(&(x, y)) || (t["solid"] == false && t["hazard"] == false)
    };
    let corridor: std::collections::BTreeSet<(i64, i64)> = level["corridors"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["cells"].as_array().unwrap().iter().map(xy))
        .filter(open)
        .collect();
    let mut missing = Vec::new();
    for room in level["rooms"].as_array().unwrap() {
        let (x, y) = xy(room);
        let (w, h) = (room["w"].as_i64().unwrap(), room["h"].as_i64().unwrap());
        let ring = (x..x + w)
            .flat_map(|cx| [(cx, y - 1), (cx, y + h)])
            .chain((y..y + h).flat_map(|cy| [(x - 1, cy), (x + w, cy)]));
        let doors: Vec<(i64, i64)> = room["doors"].as_array().unwrap().iter().map(xy).collect();
        for cell in ring.filter(|c| corridor.contains(c)) {
            // The opening it is part of: the open cells of the same side, next to each other.
            let step = if cell.1 == y - 1 || cell.1 == y + h {
                (1, 0)
            } else {
                (0, 1)
            };
            let side = |c: &(i64, i64)| {
                if step.0 == 1 {
                    (x..x + w).contains(&c.0)
                } else {
                    (y..y + h).contains(&c.1)
                }
            };
            let mut run = vec![cell];
            for dir in [1, -1] {
                let mut c = cell;
                loop {
                    c = (c.0 + dir * step.0, c.1 + dir * step.1);
                    if !side(&c) || !open(&c) {
                        break;
                    }
                    run.push(c);
                }
            }
            // Some door of the room is in it or beside it.
            let served = doors.iter().any(|d| {
                run.iter()
                    .any(|c| (d.0 - c.0).abs() <= 1 && (d.1 - c.1).abs() <= 1)
            });
            if !served {
                missing.push(format!("{room} entered at {cell:?}"));
            }
        }
    }
    missing
}

#[test]
fn every_room_a_corridor_enters_lists_a_door_there() {
    for args in [
        ["scripts/rooms.lua", "--seed", "7"],
        ["scripts/rooms.lua", "--seed", "11"],
        ["scripts/dungeon.lua", "--seed", "1"],
        ["scripts/dungeon.lua", "--seed", "5"],
    ] {
        let doc = json(&args);
        let level = &doc["levels"][0];
        let missing = entered_without_a_door(level);
        assert!(missing.is_empty(), "{args:?}: {missing:#?}");
        // The tutorial's corridors make no door features: rooms list the openings.
        if args[0] == "scripts/rooms.lua" {
            for room in level["rooms"].as_array().unwrap() {
                assert!(!room["doors"].as_array().unwrap().is_empty(), "{room}");
            }
        }
    }
}

#[test]
fn every_level_has_an_entry_cell_and_rooms_name_their_region() {
    // The tutorial's start, tagged by start_and_stairs.
    let doc = json(&["scripts/rooms.lua", "--seed", "7"]);
    let level = &doc["levels"][0];
    assert_eq!(
        xy(&level["start"]),
        (
            level["tags"]["start_x"].as_i64().unwrap(),
            level["tags"]["start_y"].as_i64().unwrap()
        )
    );
    // A dungeon's first level has no up stairs: the start is in its first room; deeper
    // levels start on their up stairs.
    let doc = json(&["scripts/dungeon.lua", "--seed", "3", "--levels", "3"]);
    let levels = doc["levels"].as_array().unwrap();
    assert!(levels[0]["stairs"]["up"].as_array().unwrap().is_empty());
    let first = &levels[0]["rooms"][0];
    let (x, y) = xy(first);
    let (sx, sy) = xy(&levels[0]["start"]);
    assert!(
        (x..x + first["w"].as_i64().unwrap()).contains(&sx)
            && (y..y + first["h"].as_i64().unwrap()).contains(&sy),
        "{first} holds the start ({sx}, {sy})"
    );
    for level in &levels[1..] {
        assert_eq!(level["start"], level["stairs"]["up"][0]);
    }
    // Dungeon rooms are drawn in a room region; the cave's entrance too.
    let named = levels[0]["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["region"].is_string())
        .count();
    assert!(
        named * 2 > levels[0]["rooms"].as_array().unwrap().len(),
        "{named}"
    );
}

#[test]
fn every_recipe_and_option_writes_format_2() {
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for script in [
        "scripts/rooms.lua",
        "scripts/cave.lua",
        "scripts/townmaze.lua",
        "scripts/dungeon.lua",
    ] {
        for seed in ["1", "2", "9"] {
            runs.push(vec![script, "--seed", seed]);
        }
    }
    runs.extend([
        vec!["scripts/dungeon.lua", "--seed", "4", "--levels", "4"],
        vec!["scripts/dungeon.lua", "--seed", "2", "--layer", "region"],
        vec!["scripts/rooms.lua", "--seed", "3", "--set", "corridors=bsp"],
        vec![
            "scripts/rooms.lua",
            "--seed",
            "3",
            "--set",
            "corridor_spawns=true",
        ],
        vec![
            "scripts/cave.lua",
            "--seed",
            "5",
            "--set",
            "row_event=secret_exit",
        ],
        vec![
            "scripts/rooms.lua",
            "--seed",
            "1",
            "--set",
            "width=16",
            "--set",
            "height=16",
        ],
    ]);
    for args in runs {
        json(&args);
    }
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

/// A property as a JSON value (object references as `{"object": id}`).
fn prop(v: &PropertyValue) -> Value {
    match v {
        PropertyValue::IntValue(i) => Value::from(*i),
        PropertyValue::BoolValue(b) => Value::from(*b),
        PropertyValue::FloatValue(f) => Value::from(*f as f64),
        PropertyValue::StringValue(s) => Value::from(s.clone()),
        PropertyValue::ObjectValue(id) => serde_json::json!({ "object": id }),
        other => panic!("{other:?}"),
    }
}

/// One object as the tests see it: id, type, properties.
type Obj = (u32, String, serde_json::Map<String, Value>);

/// The object layers of a level group, by name: each object's id, type and properties.
fn object_layers(group: &tiled::GroupLayer) -> BTreeMap<String, Vec<Obj>> {
    let mut out = BTreeMap::new();
    for layer in group.layers() {
        let LayerType::Objects(objects) = layer.layer_type() else {
            continue;
        };
        let list = objects
            .objects()
            .map(|o| {
                let props = o
                    .properties
                    .iter()
                    .map(|(k, v)| (k.clone(), prop(v)))
                    .collect();
                (o.id(), o.user_type.clone(), props)
            })
            .collect();
        out.insert(layer.name.clone(), list);
    }
    out
}

/// `{"cell_x": x, "cell_y": y}` and `extra`, for a JSON cell.
fn cell_props(cell: &Value, extra: &[(&str, &Value)]) -> serde_json::Map<String, Value> {
    let mut p: serde_json::Map<String, Value> = extra
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.to_string(), (*v).clone()))
        .collect();
    p.insert("cell_x".into(), cell["x"].clone());
    p.insert("cell_y".into(), cell["y"].clone());
    p
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

        // Objects: every annotation, its cell in cell_x / cell_y, no JSON text anywhere.
        let layers = object_layers(&group);
        let names: Vec<String> = group.layers().skip(1).map(|l| l.name.clone()).collect();
        assert_eq!(
            names,
            [
                "rooms",
                "doors",
                "entrances",
                "corridors",
                "stairs",
                "spawns",
                "start"
            ]
        );
        let json_rooms = level["rooms"].as_array().unwrap();
        assert_eq!(layers["rooms"].len(), json_rooms.len());
        for ((_, kind, props), room) in layers["rooms"].iter().zip(json_rooms) {
            assert_eq!(kind, "room");
            let mut expected = cell_props(
                room,
                &[("kind", &room["kind"]), ("region", &room["region"])],
            );
            expected.insert("cell_w".into(), room["w"].clone());
            expected.insert("cell_h".into(), room["h"].clone());
            assert_eq!(props, &expected, "{args:?}");
        }
        let json_doors = level["doors"].as_array().unwrap();
        let doors: Vec<_> = layers["doors"].iter().map(|(_, _, p)| p.clone()).collect();
        let expected: Vec<_> = json_doors
            .iter()
            .map(|d| cell_props(d, &[("state", &d["state"]), ("kind", &d["kind"])]))
            .collect();
        assert_eq!(doors, expected);
        // Entrances refer to their room (and door) by object id.
        let room_of: BTreeMap<u32, usize> = layers["rooms"]
            .iter()
            .enumerate()
            .map(|(i, (id, _, _))| (*id, i))
            .collect();
        let door_at: BTreeMap<u32, &Value> = layers["doors"]
            .iter()
            .zip(json_doors)
            .map(|((id, _, _), d)| (*id, d))
            .collect();
        let mut entrances = vec![Vec::new(); json_rooms.len()];
        for (_, kind, p) in &layers["entrances"] {
            assert_eq!(kind, "entrance");
            let room = room_of[&(p["room"]["object"].as_u64().unwrap() as u32)];
            let cell = serde_json::json!({"x": p["cell_x"], "y": p["cell_y"]});
            if let Some(door) = p.get("door") {
                let d = door_at[&(door["object"].as_u64().unwrap() as u32)];
                assert_eq!(xy(d), xy(&cell));
            }
            entrances[room].push(cell);
        }
        for (room, cells) in json_rooms.iter().zip(&entrances) {
            assert_eq!(&room["doors"].as_array().unwrap()[..], &cells[..]);
        }
        let corridors = &layers["corridors"];
        assert_eq!(
            corridors.len(),
            level["corridors"].as_array().unwrap().len()
        );
        for ((_, kind, props), c) in corridors.iter().zip(level["corridors"].as_array().unwrap()) {
            assert_eq!(kind, "corridor");
            let cells = c["cells"].as_array().unwrap();
            assert_eq!(props["cells"], cells.len());
            assert_eq!(props.get("region"), c.get("region"));
        }
        let spawns: Vec<_> = layers["spawns"].iter().map(|(_, _, p)| p.clone()).collect();
        let expected: Vec<_> = level["spawns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| cell_props(s, &[("what", &s["what"])]))
            .collect();
        assert_eq!(spawns, expected);
        let stairs: Vec<_> = layers["stairs"].iter().map(|(_, _, p)| p.clone()).collect();
        let mut expected = Vec::new();
        for dir in ["up", "down"] {
            for s in level["stairs"][dir].as_array().unwrap() {
                expected.push(cell_props(s, &[("direction", &Value::from(dir))]));
            }
        }
        assert_eq!(stairs, expected);
        let start: Vec<_> = layers["start"].iter().map(|(_, _, p)| p.clone()).collect();
        assert_eq!(start, [cell_props(&level["start"], &[])]);
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
            let cell = |k: &str| int(o.properties.get(k));
            let (x, y) = (cell("cell_x"), cell("cell_y"));
            match &o.shape {
                ObjectShape::Rect { width, height } => {
                    assert_eq!((o.x, o.y), (x as f32 * px, y as f32 * px));
                    let (w, h) = (cell("cell_w"), cell("cell_h"));
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
    let entrances: usize = level["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["doors"].as_array().unwrap().len())
        .sum();
    let expected = ["rooms", "doors", "spawns"]
        .iter()
        .map(|k| level[k].as_array().unwrap().len())
        .sum::<usize>()
        + stairs["up"].as_array().unwrap().len()
        + stairs["down"].as_array().unwrap().len()
        + entrances
        + 1;
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
        assert_eq!(
            (
                int(o.properties.get("cell_x")),
                int(o.properties.get("cell_y"))
            ),
            xy(&cells[0])
        );
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

/// A level's LDtk field values by identifier.
fn ldtk_fields(instances: &Value) -> BTreeMap<String, Value> {
    instances
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["__identifier"].as_str().unwrap().to_string(),
                f["__value"].clone(),
            )
        })
        .collect()
}

#[test]
fn ldtk_projects_hold_the_json_s_cells_and_annotations() {
    let args = ["scripts/dungeon.lua", "--seed", "6", "--levels", "2"];
    let doc = json(&args);
    let mut all = vec!["run"];
    all.extend(args);
    all.extend(["--format", "ldtk"]);
    let text = stdout(&all);
    assert_eq!(text, stdout(&all), "the same project every run");
    let project: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(
        project["jsonVersion"],
        warren_core::render::ldtk::JSON_VERSION
    );
    let layers: Vec<&str> = project["defs"]["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(layers, ["Entities", "Regions", "Terrain"]);
    let values = project["defs"]["layers"][2]["intGridValues"]
        .as_array()
        .unwrap();
    assert_eq!(
        values.len(),
        doc["levels"][0]["terrains"].as_array().unwrap().len()
    );
    let levels = project["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    for (ldtk, level) in levels.iter().zip(doc["levels"].as_array().unwrap()) {
        let fields = ldtk_fields(&ldtk["fieldInstances"]);
        assert_eq!(fields["seed"], level["seed"]);
        assert_eq!(fields["depth"], level["depth"]);
        assert_eq!(fields["recipe"], doc["recipe"]);
        for (k, v) in doc["params"].as_object().unwrap() {
            assert_eq!(&fields[&format!("param_{k}")], v, "{k}");
        }
        assert_eq!(ldtk["worldDepth"], level["depth"].as_i64().unwrap() - 1);
        let instances = ldtk["layerInstances"].as_array().unwrap();
        let terrain: Vec<usize> = instances[2]["intGridCsv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize - 1)
            .collect();
        let expected: Vec<usize> = rows(level, "terrain_rows").concat();
        assert_eq!(terrain, expected, "every cell's terrain");
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for e in instances[0]["entityInstances"].as_array().unwrap() {
            *counts
                .entry(e["__identifier"].as_str().unwrap())
                .or_default() += 1;
        }
        let len = |v: &Value| v.as_array().unwrap().len();
        let stairs = len(&level["stairs"]["up"]) + len(&level["stairs"]["down"]);
        let count = |k: &str| counts.get(k).copied().unwrap_or(0);
        assert_eq!(count("Room"), len(&level["rooms"]));
        assert_eq!(count("Door"), len(&level["doors"]));
        assert_eq!(count("Stairs"), stairs);
        assert_eq!(count("Spawn"), len(&level["spawns"]));
        assert_eq!(count("Corridor"), len(&level["corridors"]));
        assert_eq!(count("Start"), 1);
        let start = instances[0]["entityInstances"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["__identifier"] == "Start")
            .unwrap();
        let (x, y) = xy(&level["start"]);
        assert_eq!(start["__grid"], serde_json::json!([x, y]));
    }
    // `--out NAME.ldtk` picks the format.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.ldtk");
    stdout(&[
        "run",
        "scripts/dungeon.lua",
        "--seed",
        "6",
        "--levels",
        "2",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&path).unwrap(), text);
}
