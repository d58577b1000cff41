use warren_core::map::{DoorKind, TerrainTable};
use warren_core::region::resolve::{corridor, dungeon, Problems};
use warren_core::region::schema::{CorridorConstants, CorridorDef, DungeonDef, TURN_CHANCE};
use warren_core::tpath;

fn table() -> TerrainTable {
    TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
        ("door", '+', false),
    ])
}

fn corridor_def() -> CorridorDef {
    CorridorDef {
        name: "c".into(),
        weight: 1.0,
        floor: "floor".into(),
        walls: "rock".into(),
        door: "door".into(),
        staple: false,
        keep_doors: false,
        constants: CorridorConstants::default(),
    }
}

#[test]
fn a_corridor_resolves_to_ids_and_overrides() {
    let mut c = corridor_def();
    c.constants.turn_chance = Some(40);
    let mut p = Problems::default();
    let r = corridor(&c, &DungeonDef::default(), &table(), &mut p).unwrap();
    assert!(p.is_empty());
    assert_eq!((r.style.floor, r.style.walls), (1, 0));
    assert_eq!(r.door, DoorKind::uniform("door", 2));
    assert_eq!(r.style.constants.turn_chance, Some(40));
    assert_eq!(r.style.constants.segment_maxlen, None);
}

#[test]
fn problems_name_keys_below_the_prefix() {
    let mut c = corridor_def();
    c.floor = "rock".into();
    c.weight = -1.0;
    c.constants.turn_chance = Some(200);
    let mut p = Problems::at(tpath!["corridor", 2]);
    assert!(corridor(&c, &DungeonDef::default(), &table(), &mut p).is_none());
    let messages: Vec<&str> = p.found.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "corridor[2].floor = 'rock' is a solid terrain; it must be open (solid = false)",
            "corridor[2].weight = -1 is not a valid weight (a finite number ≥ 0)",
            "corridor[2].constants.turn_chance = 200 is not a percentage (0..=100)",
        ]
    );
    assert_eq!(
        p.found[2].0,
        tpath!["corridor", 2, "constants", "turn_chance"]
    );
    let mut p = Problems::default();
    corridor(&c, &DungeonDef::default(), &table(), &mut p);
    assert!(
        p.joined().contains("constants.turn_chance = 200 is not"),
        "{}",
        p.joined()
    );
}

/// A table with an oak (wooden) and an iron door kind, or the iron one alone.
fn doors(with_oak: bool) -> TerrainTable {
    let kind = |name: &str, wooden| DoorKind {
        wooden,
        ..DoorKind::uniform(name, 0)
    };
    let mut kinds = vec![kind("iron", false)];
    if with_oak {
        kinds.insert(0, kind("oak", true));
    }
    table().with_doors(kinds)
}

#[test]
fn the_wooden_door_is_the_first_wooden_kind_unless_named() {
    let mut p = Problems::default();
    let d = dungeon(&DungeonDef::default(), &["c"], &doors(true), &mut p).unwrap();
    assert_eq!(d.wooden_door.map(|k| k.name), Some("oak".into()));
    let iron = DungeonDef {
        wooden_door: Some("iron".into()),
        ..DungeonDef::default()
    };
    assert!(dungeon(&iron, &["c"], &doors(true), &mut p).is_none());
    assert_eq!(
        p.joined(),
        "wooden_door = 'iron' is not wooden; name a [[door]] kind with wooden = true"
    );
    let mut p = Problems::default();
    let d = dungeon(&DungeonDef::default(), &["c"], &doors(false), &mut p).unwrap();
    assert_eq!(d.wooden_door, None);
}

#[test]
fn a_region_whose_door_cannot_become_wooden_is_an_error_unless_it_keeps_its_doors() {
    let mut c = corridor_def();
    c.door = "iron".into();
    let mut p = Problems::at(tpath!["corridor", 1]);
    assert!(corridor(&c, &DungeonDef::default(), &doors(false), &mut p).is_none());
    assert_eq!(
        p.joined(),
        "corridor[1].door = 'iron' is not wooden, and on levels 1..=3 ([dungeon] \
             wooden_door_depth) doors must be, but no [[door]] kind is wooden; declare one \
             (wooden = true), set keep_doors = true here, or set [dungeon] wooden_door_depth = 0"
    );
    let never = DungeonDef {
        wooden_door_depth: 0,
        ..DungeonDef::default()
    };
    let mut kept = c.clone();
    kept.keep_doors = true;
    for (c, d, t) in [
        (&kept, &DungeonDef::default(), doors(false)),
        (&c, &never, doors(false)),
        (&c, &DungeonDef::default(), doors(true)),
    ] {
        let mut p = Problems::default();
        assert!(corridor(c, d, &t, &mut p).is_some(), "{}", p.joined());
    }
}

#[test]
fn a_dungeon_applies_the_stairs_defaults_and_checks_its_corridor() {
    let mut p = Problems::default();
    let d = dungeon(&DungeonDef::default(), &["c"], &table(), &mut p).unwrap();
    assert_eq!(d.constants.turn_chance, TURN_CHANCE.default_value() as u32);
    assert_eq!(d.up_stairs, None, "no terrain is called \"up stairs\"");
    let def = DungeonDef {
        corridor: Some("sewer".into()),
        ..DungeonDef::default()
    };
    assert!(dungeon(&def, &["c"], &table(), &mut p).is_none());
    assert_eq!(
        p.joined(),
        "corridor = 'sewer' names no [[corridor]] region (known: 'c')"
    );
}
