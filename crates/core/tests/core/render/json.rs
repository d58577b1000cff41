use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use warren_core::map::{Brush, Door, DoorState, Rect, Room, TerrainTable};
use warren_core::map::{Map, Point};
use warren_core::render::json::{to_string, LayerInfo, LevelInfo, RunInfo, Writer};

fn map() -> Map {
    let table = TerrainTable::plain(&[
        ("rock", '#', true),
        ("edge", '#', true),
        ("floor", '.', false),
        ("door", '+', false),
    ]);
    let mut m = Map::new(6, 6, 0, Arc::new(table)).unwrap();
    let hall = m.region_id("hall");
    m.fill_rect(&Rect::new(1, 1, 3, 2), &Brush::new(2).region(hall))
        .unwrap();
    m.write(Point::new(4, 1), &Brush::new(3)).unwrap();
    // Too far from the room (three cells) to be one of its doors.
    m.notes
        .doors
        .push(Door::new(Point::new(1, 5), DoorState::Closed));
    m.write(Point::new(5, 0), &Brush::new(1).forced()).unwrap();
    m.notes
        .doors
        .push(Door::new(Point::new(4, 1), DoorState::Locked));
    m.notes.rooms.push(Room {
        rect: Rect::new(1, 1, 3, 2),
        kind: "hall".into(),
        doors: Vec::new(),
    });
    m.notes.stats.insert("halls".into(), 12.0);
    m.notes.stats.insert("ratio".into(), 0.25);
    m
}

fn doc(levels: &[(&Map, LevelInfo)], seed: u64) -> Value {
    let params = BTreeMap::from([("width".to_string(), Value::from(6))]);
    let run = RunInfo {
        recipe: "test",
        seed,
        params: &params,
    };
    let text = to_string(&run, levels);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn info(seed: u64, depth: u32) -> LevelInfo<'static> {
    LevelInfo {
        seed,
        depth,
        layer: None,
    }
}

#[test]
fn every_cell_keeps_its_exact_terrain_and_region() {
    let m = map();
    let v = doc(&[(&m, info(7, 1))], 7);
    let level = &v["levels"][0];
    assert_eq!(level["rows"][0], "######");
    assert_eq!(
        level["legend"]["#"]["terrains"],
        serde_json::json!(["rock", "edge"])
    );
    let names: Vec<&str> = level["terrains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["rock", "edge", "floor", "door"]);
    assert_eq!(level["terrain_rows"][0][5], 1, "the edge cell, not 'rock'");
    assert_eq!(level["terrain_rows"][1][4], 3);
    assert_eq!(level["regions"], serde_json::json!(["", "hall"]));
    assert_eq!(
        level["region_rows"][1],
        serde_json::json!([0, 1, 1, 1, 0, 0])
    );
}

#[test]
fn rooms_list_doors_on_their_walls_and_whole_statistics_are_integers() {
    let m = map();
    let v = doc(&[(&m, info(7, 1))], 7);
    let level = &v["levels"][0];
    assert_eq!(
        level["rooms"][0]["doors"],
        serde_json::json!([{"x": 4, "y": 1}])
    );
    assert!(level["stats"]["halls"].is_u64());
    assert_eq!(level["stats"]["ratio"], 0.25);
    assert_eq!(level["stats"]["open_cells"], 7);
}

#[test]
fn seeds_are_exact_strings_and_one_level_has_the_shape_of_many() {
    let m = map();
    let big = u64::MAX - 1;
    let one = doc(&[(&m, info(big, 1))], big);
    assert_eq!(one["format"], 2);
    assert_eq!(one["seed"], big.to_string());
    assert_eq!(one["levels"][0]["seed"], big.to_string());
    let two = doc(&[(&m, info(1, 1)), (&m, info(2, 2))], 1);
    assert_eq!(two["levels"].as_array().unwrap().len(), 2);
    assert_eq!(two["levels"][1]["depth"], 2);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&one), keys(&two));
    assert_eq!(keys(&one["levels"][0]), keys(&two["levels"][1]));
}

#[test]
fn a_layer_carries_its_rows_and_legend() {
    let m = map();
    let painter = warren_core::render::LayerChoice::Region
        .painter(&m)
        .unwrap();
    let legend = warren_core::render::LayerChoice::Region.legend(&m);
    let level = LevelInfo {
        seed: 1,
        depth: 1,
        layer: Some(LayerInfo {
            name: "region",
            painter: &painter,
            legend: &legend,
        }),
    };
    let v = doc(&[(&m, level)], 1);
    let layer = &v["levels"][0]["layer"];
    assert_eq!(layer["name"], "region");
    assert_eq!(layer["rows"][1], "#aaa+#");
    assert_eq!(layer["legend"]["a"], serde_json::json!(["hall"]));
}

#[test]
fn the_document_is_written_as_it_is_produced() {
    let m = map();
    let params = BTreeMap::new();
    let run = RunInfo {
        recipe: "test",
        seed: 1,
        params: &params,
    };
    let mut w = Writer::start(Vec::new(), &run).unwrap();
    assert!(String::from_utf8_lossy(&w.out).starts_with("{\n  \"format\": 2,"));
    let before = w.out.len();
    w.level(&m, &info(1, 1)).unwrap();
    let first = String::from_utf8(w.out[before..].to_vec()).unwrap();
    assert!(
        first.contains("\"terrain_rows\"") && first.ends_with("    }"),
        "{first}"
    );
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_ok());
}

#[test]
fn no_levels_is_still_a_document() {
    let v = doc(&[], 3);
    assert_eq!(v["levels"], serde_json::json!([]));
}

#[test]
fn rows_keep_every_glyph_json_escapes_or_not_and_ids_of_several_digits() {
    // Glyphs JSON must escape (a quote, a backslash, a tab, a control character), ASCII ones,
    // glyphs of two and three bytes and DEL; ids of one to four digits.
    let glyphs = ['"', '\\', '\t', '\u{1}', 'a', '~', 'é', '█', '\u{7f}'];
    let count = 1100;
    let terrains: Vec<(String, char, bool)> = (0..count)
        .map(|i| (format!("t{i}"), glyphs[i % glyphs.len()], false))
        .collect();
    let named: Vec<(&str, char, bool)> = terrains
        .iter()
        .map(|(n, g, s)| (n.as_str(), *g, *s))
        .collect();
    let table = TerrainTable::plain(&named);
    let (width, height) = (40usize, 30usize);
    let id = |x: usize, y: usize| (y * width + x) * 7 % count;
    let mut m = Map::new(width as i64, height as i64, 0, Arc::new(table)).unwrap();
    for y in 0..height {
        for x in 0..width {
            let at = Point::new(x as i32, y as i32);
            m.write(at, &Brush::new(id(x, y) as u16).forced()).unwrap();
        }
    }
    let params = BTreeMap::new();
    let run = RunInfo {
        recipe: "test",
        seed: 1,
        params: &params,
    };
    let text = to_string(&run, &[(&m, info(1, 1))]);
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let level = &v["levels"][0];
    for y in 0..height {
        let row: String = (0..width)
            .map(|x| glyphs[id(x, y) % glyphs.len()])
            .collect();
        assert_eq!(level["rows"][y], row, "row {y}");
        // Byte for byte as serde_json writes the row (`\t`, not `\u0009`; é and DEL as they are).
        let written = serde_json::to_string(&row).unwrap();
        assert!(text.contains(&written), "row {y} not written as {written}");
        let ids: Vec<usize> = (0..width).map(|x| id(x, y)).collect();
        assert_eq!(level["terrain_rows"][y], serde_json::json!(ids), "row {y}");
        let written = format!(
            "[{}]",
            ids.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(
            text.contains(&written),
            "ids of row {y} not written as {written}"
        );
    }
}
