use warren_core::region::schema::{
    CorridorConstants, DungeonDef, RoomDef, StreamerDef, CORRIDOR_CONSTANTS, DUNGEON_KEYS,
    FIXUP_TRIALS, MAX_DEPTH, MIN_DEPTH, STREAMER_CHANCE, STREAMER_MAX_WIDTH, STREAMER_MIN_WIDTH,
    TURN_CHANCE,
};

/// The doc comment of field `key` of a section.
fn field_doc(of: &warren_core::region::shape::Section, key: &str) -> String {
    of.key(key)
        .unwrap_or_else(|| panic!("no field {key}"))
        .doc
        .to_string()
}

#[test]
fn the_dungeon_docs_state_each_keys_range_and_default_as_declared() {
    for k in DUNGEON_KEYS {
        let doc = field_doc(&DungeonDef::SHAPE, k.key);
        let default = format!("Default {}.", k.default_value());
        assert!(
            doc.contains(&default),
            "{}: doc lacks {default:?}: {doc}",
            k.key
        );
        let range = format!("{}..=", k.min);
        assert!(
            doc.contains(&range),
            "{}: doc lacks {range:?}: {doc}",
            k.key
        );
        if !k.key.starts_with("room_") {
            let range = format!("{}..={}", k.min, k.max);
            assert!(
                doc.contains(&range),
                "{}: doc lacks {range:?}: {doc}",
                k.key
            );
        }
    }
    for k in [MIN_DEPTH, MAX_DEPTH] {
        let doc = field_doc(&RoomDef::SHAPE, k.key);
        assert!(
            doc.contains(&format!("Default {}.", k.default_value())),
            "{doc}"
        );
        assert!(doc.contains(&format!("..={}", k.max)), "{doc}");
    }
    let doc = field_doc(&DungeonDef::SHAPE, STREAMER_CHANCE.key);
    assert!(doc.contains("0..=100. Default: none"), "{doc}");
    for k in [STREAMER_MIN_WIDTH, STREAMER_MAX_WIDTH] {
        let doc = field_doc(&StreamerDef::SHAPE, k.key);
        assert!(doc.contains(&format!("..={}", k.max)), "{doc}");
    }
    for k in CORRIDOR_CONSTANTS {
        let doc = field_doc(&CorridorConstants::SHAPE, k.key);
        assert!(doc.contains(&format!("{}..={}", k.min, k.max)), "{doc}");
    }
    assert_eq!(
        DungeonDef::default().int_values().map(Some),
        DUNGEON_KEYS.map(|k| k.default)
    );
}

#[test]
fn keys_check_their_range() {
    assert_eq!(TURN_CHANCE.check("dungeon.turn_chance", 100), None);
    assert_eq!(
        TURN_CHANCE.check("dungeon.turn_chance", 101).unwrap(),
        "dungeon.turn_chance = 101 is not a percentage (0..=100)"
    );
    assert_eq!(
        FIXUP_TRIALS.check("fixup_trials", 0).unwrap(),
        "fixup_trials = 0 is out of range (1..=1000)"
    );
}
