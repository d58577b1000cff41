//! The dungeon's region keys (`[dungeon]` layout, `[[room]]`, `[[streamer]]`, `[[vault]]`):
//! the shipped data uses every knob, and every bad value is an error at file:line:col.

use crate::common::*;

#[test]
fn the_shipped_data_uses_every_kind_of_region() {
    let data = registry().data.clone();
    assert!(data.corridor.len() >= 3);
    let weights: Vec<f64> = data.corridor.iter().map(|c| c.weight).collect();
    assert!(
        weights.windows(2).any(|w| w[0] != w[1]),
        "corridor weights differ"
    );
    assert!(data.corridor.iter().any(|c| c.staple) && data.corridor.iter().any(|c| !c.staple));
    let mut rooms: Vec<&str> = data.room.iter().map(|r| r.kind.as_str()).collect();
    rooms.sort_unstable();
    rooms.dedup();
    let mut all = warren_core::gen::dungeon::RoomKind::NAMES.to_vec();
    all.sort_unstable();
    assert_eq!(rooms, all);
    let mut streamers: Vec<&str> = data.streamer.iter().map(|s| s.kind.as_str()).collect();
    streamers.sort_unstable();
    streamers.dedup();
    assert_eq!(streamers, ["chasm", "lava", "river", "rock"]);
    assert!(data.vault.len() >= 3);
}

#[test]
fn each_bad_dungeon_value_names_file_line_and_column() {
    let room = |extra: &str| {
        format!("[[room]]\nname = \"r\"\nweight = 1\nkind = \"normal\"\nfloor = \"floor\"\nwall = \"rock\"\ndoor = \"floor\"\n{extra}")
    };
    let streamer = |extra: &str| {
        format!("[[streamer]]\nname = \"s\"\nweight = 1\nkind = \"river\"\nterrain = \"floor\"\nmin_width = 1\nmax_width = 2\n{extra}")
    };
    let vault = |grid: &str, legend: &str| {
        format!("[[vault]]\nname = \"v\"\nweight = 1\ngrid = \"\"\"\n{grid}\n\"\"\"\n[vault.legend]\n{legend}")
    };
    let legend = "\"#\" = \"rock\"\n\".\" = \"floor\"\n";
    let cases: Vec<(String, &str)> = vec![
        ("[dungeon]\nlevel_width = 100\n".into(), "regions/bad.toml:2:15: level_width = 100 is not a multiple of panel_width = 32"),
        ("[dungeon]\npanel_width = 4\n".into(), "regions/bad.toml:2:15: dungeon.panel_width = 4 is out of range (8..=256)"),
        ("[dungeon]\nlevel_width = 2048\npanel_width = 16\nroom_max_width = 14\n".into(), "regions/bad.toml:2:15: level_width = 2048 makes 128 panels of 16; at most 32 are allowed"),
        ("[dungeon]\nmin_stairs = 5\nmax_stairs = 2\n".into(), "regions/bad.toml:2:14: min_stairs = 5 must not exceed max_stairs = 2"),
        ("[dungeon]\nroom_max_width = 40\n".into(), "regions/bad.toml:2:18: dungeon.room_max_width = 40 is out of range (5..=30)"),
        ("[dungeon]\nreduce_chasm_chance = 150\n".into(), "regions/bad.toml:2:23: dungeon.reduce_chasm_chance = 150 is not a percentage (0..=100)"),
        ("[dungeon]\nfixup_trials = 0\n".into(), "regions/bad.toml:2:16: dungeon.fixup_trials = 0 is out of range (1..=1000)"),
        ("[dungeon]\ncorridor = \"sewer\"\n".into(), "regions/bad.toml:2:12: corridor = 'sewer' names no [[corridor]] region (known: )"),
        ("[dungeon]\nup_stairs = \"rock\"\n".into(), "regions/bad.toml:2:13: dungeon.up_stairs = 'rock' is a solid terrain; it must be open (solid = false)"),
        (room("").replace("normal", "hexagon"), "regions/bad.toml:4:8: room 'r': kind = 'hexagon' is not a room kind (valid: normal, lifecave, castle, maze, destroyed, pillared, circular)"),
        (room("").replace("floor = \"floor\"", "floor = \"rock\""), "regions/bad.toml:5:9: room 'r': floor = 'rock' is a solid terrain"),
        (room("furnishing = \"marble\"\n"), "regions/bad.toml:8:14: room 'r': furnishing = 'marble' is not a terrain"),
        (room("min_depth = 5\nmax_depth = 2\n"), "regions/bad.toml:8:13: min_depth = 5 must not exceed max_depth = 2"),
        (room("").replace("weight = 1", "weight = -1"), "regions/bad.toml:3:10: room 'r': weight = -1 is not a valid weight"),
        (streamer("").replace("river", "mud"), "regions/bad.toml:4:8: streamer 's': kind = 'mud' is not a streamer kind (valid: river, chasm, lava, rock)"),
        (streamer("").replace("max_width = 2", "max_width = 20"), "regions/bad.toml:7:13: streamer 's': max_width = 20 is out of range (1..=16)"),
        (streamer("priority = \"high\"\n"), "regions/bad.toml:8:12: streamer 's': priority = 'high' is not a priority name (valid: empty, corridor_wall"),
        (streamer("min_depth = 0\n"), "regions/bad.toml:8:13: streamer 's': min_depth = 0 is out of range (1..=1000)"),
        (vault("###\n#.", legend), "regions/bad.toml:4:8: vault 'v' grid row 2 is 2 glyphs long; valid: 3 glyphs, like row 1"),
        (vault("###\n#Z#", legend), "regions/bad.toml:4:8: vault 'v' grid row 2, column 2 is 'Z'; valid: a glyph of the vault's legend"),
        (vault("###\n#.#\n###", legend), "regions/bad.toml:4:8: vault 'v' grid row 2, column 2 is open but sealed in by solid cells"),
        (vault(&"#".repeat(126), legend), "regions/bad.toml:4:8: vault 'v' is 126×1; with a 2-cell margin it must fit the 128×128 level"),
        (vault("#.#", "\"#\" = \"rock\"\n\".\" = \"lava\"\n"), "regions/bad.toml:9:7: vault 'v': legend.\".\" = 'lava' is not a terrain"),
        (vault("#.#", "\"#\" = \"rock\"\n\"..\" = \"floor\"\n"), "regions/bad.toml:9:8: legend key \"..\" must be exactly one character"),
        (
            format!("[[corridor]]\nname = \"x\"\nweight = 1\nfloor = \"floor\"\nwalls = \"rock\"\ndoor = \"floor\"\n\n{}", room("").replace("name = \"r\"", "name = \"x\"")),
            "regions/bad.toml:9:8: room 'x' has the name of corridor #1 (regions/bad.toml)",
        ),
        (
            "[[corridor]]\nname = \"x\"\nweight = 1\nfloor = \"rock\"\nwalls = \"rock\"\ndoor = \"floor\"\n".into(),
            "regions/bad.toml:4:9: corridor 'x': floor = 'rock' is a solid terrain",
        ),
        ("[dungeon]\nwooden_door_depth = -1\n".into(), "regions/bad.toml:2:21: dungeon.wooden_door_depth = -1 is out of range (0..=1000)"),
        ("[dungeon]\nstreamer_chance = 101\n".into(), "regions/bad.toml:2:19: dungeon.streamer_chance = 101 is not a percentage (0..=100)"),
        ("[dungeon]\nwooden_door = \"iron\"\n[[door]]\nname = \"iron\"\nclosed = \"rock\"\nopen = \"floor\"\nwooden = false\n".into(), "regions/bad.toml:2:15: dungeon.wooden_door = 'iron' is not wooden; name a [[door]] kind with wooden = true"),
        ("[dungeon]\nwooden_door = \"oak\"\n".into(), "regions/bad.toml:2:15: dungeon.wooden_door = 'oak' is neither a [[door]] kind (known: none) nor a terrain"),
        (
            format!("[[door]]\nname = \"iron\"\nclosed = \"rock\"\nopen = \"floor\"\nwooden = false\n\n{}", room("").replace("door = \"floor\"", "door = \"iron\"")),
            "regions/bad.toml:13:8: room 'r': door = 'iron' is not wooden, and on levels 1..=3 ([dungeon] wooden_door_depth) doors must be, but no [[door]] kind is wooden",
        ),
        (
            format!("[[door]]\nname = \"iron\"\nclosed = \"rock\"\nopen = \"floor\"\nwooden = false\n\n{}", vault("#+#", "\"#\" = \"rock\"\n\"+\" = \"iron\"\n").replace("grid =", "keep_doors = false\ngrid =")),
            "regions/bad.toml:16:7: vault 'v': legend.\"+\" = 'iron' is not wooden",
        ),
    ];
    for (bad, want) in &cases {
        let e = load_err(bad);
        assert!(e.contains(want), "{bad}\n  got  {e}\n  want {want}");
    }
}

/// The defaults a modder gets without a key are Incursion's: lifecaves start 55% wall
/// (`LIFE_PERCENT` in Annot.cpp), doors take the `Door` constructor's chances, and secret doors
/// are cleared within 17 of the up stairs down to depth 5; the shipped data keeps them.
#[test]
fn defaults_follow_incursion_and_the_shipped_data_keeps_them() {
    let d = warren_core::region::DungeonDef::default();
    assert_eq!(d.life_percent, 55);
    assert_eq!(
        (d.secret_door_reveal_depth, d.secret_door_reveal_radius),
        (5, 17)
    );
    // Doors are wooden on levels 1 to 3, as `MakeDoor` forces them.
    assert_eq!(d.wooden_door_depth, 3);
    assert_eq!(d.streamer_chance, None);
    let w = warren_core::region::DoorWeightsDef::default();
    assert_eq!(
        (w.closed, w.open, w.locked, w.secret),
        (27.0, 6.0, 27.0, 10.0)
    );
    let shipped = registry();
    assert_eq!(shipped.data.dungeon.life_percent, 55);
    let oak = shipped
        .terrains()
        .door("oak door")
        .expect("a shipped door kind");
    assert_eq!(oak.weights, warren_core::map::DoorWeights::INCURSION);
    assert!(oak.wooden && !shipped.terrains().door("iron-bound door").unwrap().wooden);
    assert_eq!(shipped.data.dungeon.wooden_door_depth, 3);
    assert_eq!(
        shipped
            .resolved
            .dungeon
            .wooden_door
            .as_ref()
            .map(|k| &*k.name),
        Some("oak door")
    );
    assert!(shipped.terrains().get(oak.closed).solid && !shipped.terrains().get(oak.open).solid);
    for name in ["chasm", "magma"] {
        assert!(
            shipped
                .terrains()
                .get(shipped.terrain(name).unwrap())
                .hazard,
            "{name}"
        );
    }
    assert!(
        !shipped
            .terrains()
            .get(shipped.terrain("water").unwrap())
            .hazard
    );
}
