use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use warren_core::map::{Brush, Door, DoorState, Rect, Room, TerrainTable};
use warren_core::map::{Map, Point};
use warren_core::render::json::{LevelInfo, RunInfo};
use warren_core::render::ldtk::{write, Iids};

/// Field values by identifier.
fn field_values(fields: &Value) -> BTreeMap<String, Value> {
    fields
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| {
            Some((
                f["__identifier"].as_str()?.to_string(),
                f["__value"].clone(),
            ))
        })
        .collect()
}

fn project() -> Value {
    let table = TerrainTable::plain(&[
        ("rock wall", '#', true),
        ("rock-wall", '#', true),
        ("floor", '.', false),
    ]);
    let mut m = Map::new(8, 6, 0, Arc::new(table)).unwrap();
    let hall = m.region_id("great hall");
    let rect = Rect::new(2, 2, 3, 2);
    m.fill_rect(&rect, &Brush::new(2).region(hall)).unwrap();
    m.write(Point::new(5, 2), &Brush::new(2)).unwrap();
    m.add_door(Door::new(Point::new(5, 2), DoorState::Open))
        .unwrap();
    m.notes.rooms.push(Room {
        rect,
        kind: "hall".into(),
        doors: Vec::new(),
    });
    let params = BTreeMap::from([
        ("width".to_string(), Value::from(8)),
        ("mood".to_string(), Value::from("grim")),
    ]);
    let run = RunInfo {
        recipe: "test",
        seed: u64::MAX,
        params: &params,
    };
    let info = LevelInfo {
        seed: u64::MAX,
        depth: 1,
        layer: None,
    };
    let mut out = Vec::new();
    write(&mut out, &run, &[(&m, info)]).unwrap();
    serde_json::from_slice(&out).unwrap_or_else(|e| {
        panic!("{e}\n{}", String::from_utf8_lossy(&out));
    })
}

#[test]
fn terrains_and_regions_are_int_grids_with_safe_unique_names() {
    let p = project();
    let layers = &p["defs"]["layers"];
    let names: Vec<&str> = layers[2]["intGridValues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["rock_wall", "rock_wall_2", "floor"]);
    assert_eq!(layers[1]["intGridValues"][0]["identifier"], "great_hall");
    let level = &p["levels"][0];
    let terrain = &level["layerInstances"][2];
    assert_eq!(terrain["__identifier"], "Terrain");
    let csv = terrain["intGridCsv"].as_array().unwrap();
    assert_eq!(csv.len(), 48);
    assert_eq!(csv[2 + 2 * 8], 3, "floor is terrain 2, value 3");
    let regions = level["layerInstances"][1]["intGridCsv"].as_array().unwrap();
    assert_eq!(
        (regions[2 + 2 * 8].clone(), regions[0].clone()),
        (json!(1), json!(0))
    );
}

#[test]
fn entities_carry_the_annotations_and_levels_the_run() {
    let p = project();
    let level = &p["levels"][0];
    let fields = field_values(&level["fieldInstances"]);
    assert_eq!(fields["seed"], u64::MAX.to_string());
    assert_eq!(fields["depth"], 1);
    assert_eq!(fields["param_width"], 8);
    assert_eq!(fields["param_mood"], "grim");
    let entities = level["layerInstances"][0]["entityInstances"]
        .as_array()
        .unwrap();
    let room = &entities[0];
    assert_eq!(room["__identifier"], "Room");
    assert_eq!(
        (room["width"].clone(), room["height"].clone()),
        (json!(48), json!(32))
    );
    let room_fields = field_values(&room["fieldInstances"]);
    assert_eq!(room_fields["region"], "great hall");
    assert_eq!(room_fields["doors"], json!([{"cx": 5, "cy": 2}]));
    let door = &entities[1];
    assert_eq!(door["__identifier"], "Door");
    assert_eq!(door["__grid"], json!([5, 2]));
    assert_eq!(field_values(&door["fieldInstances"])["state"], "open");
    assert_eq!(entities[2]["__identifier"], "Start");
    assert_eq!(entities[2]["__grid"], json!([3, 2]));
}

#[test]
fn instance_ids_are_uuids_drawn_from_the_seed() {
    let mut a = Iids::new(1);
    let id = a.next();
    assert_eq!(id.len(), 36);
    assert_eq!(&id[14..15], "4");
    assert_ne!(id, a.next());
    assert_eq!(id, Iids::new(1).next());
    assert_ne!(id, Iids::new(2).next());
}
