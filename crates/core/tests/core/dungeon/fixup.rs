//! Unit tests of step 5b: the fix-up tunnelling.

use crate::dungeon::test_support::{blank, render, CHASM, CORRIDOR, DOOR, FLOOR, VAULT_WALL, WALL};
use warren_core::gen::connectivity::{components, FixupError};
use warren_core::gen::dungeon::{fixup_level, DungeonError, FixupOptions};
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tunnel::{
    ConstantOverrides, CorridorStyle, DoorTable, TunnelConfig, TunnelConstants, TunnelLevel,
};
use warren_core::map::{priority, Adjacency, Brush, Map, Point, Rect};
use warren_core::rng::Rng;

fn config() -> TunnelConfig {
    TunnelConfig {
        styles: vec![CorridorStyle {
            name: "passage".into(),
            weight: 1.0,
            staple: true,
            floor: CORRIDOR,
            walls: WALL,
            constants: ConstantOverrides::default(),
        }],
        default_style: 0,
        constants: TunnelConstants {
            turn_chance: 20,
            stubborn_corridor: 40,
            segment_minlen: 3,
            segment_maxlen: 8,
        },
        panel_width: 16,
        panel_height: 16,
        doors: DoorTable::uniform(DOOR),
    }
}

fn scattered(seed: u64) -> Map {
    let mut map = blank(64, 48);
    let mut rng = Rng::new(seed);
    let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR);
    for _ in 0..12 {
        let x = rng.range(3, 55) as i32;
        let y = rng.range(3, 40) as i32;
        map.fill_rect(
            &Rect::new(x, y, rng.range(1, 5) as i32, rng.range(1, 5) as i32),
            &floor,
        )
        .unwrap();
    }
    // A vault with an opening, in the way of some tunnels.
    let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
    map.outline_rect(&Rect::new(28, 18, 9, 9), &vault).unwrap();
    map.write(
        Point::new(32, 18),
        &Brush::new(FLOOR).priority(priority::VAULT),
    )
    .unwrap();
    map.fill_rect(
        &Rect::new(29, 19, 7, 7),
        &Brush::new(FLOOR).priority(priority::VAULT),
    )
    .unwrap();
    map
}

#[test]
fn every_map_ends_as_one_area() {
    for seed in 0..300 {
        let mut map = scattered(seed);
        let adjacency = if seed % 2 == 0 {
            Adjacency::Eight
        } else {
            Adjacency::Four
        };
        let opts = FixupOptions {
            adjacency,
            ..FixupOptions::default()
        };
        let report = fixup_level(
            &mut map,
            &config(),
            &mut TunnelLevel::default(),
            &mut Rng::new(seed),
            &opts,
            &mut Unmetered,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", render(&map)));
        let areas = components(&map, adjacency).len();
        assert_eq!(areas, 1, "seed {seed} {adjacency}\n{}", render(&map));
        assert!(report.components_before > 1);
        assert!(report.trials <= 2, "seed {seed}: {} trials", report.trials);
        for p in Rect::new(28, 18, 9, 9).cells() {
            assert!(
                map.priority_at(p).unwrap() == priority::VAULT,
                "seed {seed}: vault damaged"
            );
        }
    }
}

#[test]
fn the_work_is_metered_and_a_meter_stops_the_fixup() {
    let mut map = scattered(3);
    let mut tally = Tally::new();
    let level = &mut TunnelLevel::default();
    fixup_level(
        &mut map,
        &config(),
        level,
        &mut Rng::new(3),
        &FixupOptions::default(),
        &mut tally,
    )
    .unwrap();
    assert!(tally.cells > 2 * map.len() as u64, "{} cells", tally.cells);
    let mut map = scattered(3);
    let mut short = Tally::with_limit(map.len() as u64 + 10);
    let level = &mut TunnelLevel::default();
    let e = fixup_level(
        &mut map,
        &config(),
        level,
        &mut Rng::new(3),
        &FixupOptions::default(),
        &mut short,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            FixupError::Connector {
                error: DungeonError::Stopped(_),
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_sealed_vault_is_a_clear_error() {
    let mut map = blank(40, 30);
    map.fill_rect(
        &Rect::new(3, 3, 4, 4),
        &Brush::new(FLOOR).priority(priority::ROOM_FLOOR),
    )
    .unwrap();
    let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
    map.outline_rect(&Rect::new(20, 10, 6, 6), &vault).unwrap();
    map.fill_rect(
        &Rect::new(21, 11, 4, 4),
        &Brush::new(FLOOR).priority(priority::VAULT),
    )
    .unwrap();
    let e = fixup_level(
        &mut map,
        &config(),
        &mut TunnelLevel::default(),
        &mut Rng::new(1),
        &FixupOptions::default(),
        &mut Unmetered,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("is sealed"), "{e}");
}

/// A chasm across the level: a walker cannot cross it, so the fix-up bridges it, and
/// without a bridge the far side is sealed off.
#[test]
fn hazards_split_areas_and_the_fix_up_bridges_them() {
    let split = || {
        let mut map = blank(40, 20);
        let floor = Brush::new(FLOOR).priority(priority::ROOM_FLOOR);
        map.fill_rect(&Rect::new(3, 3, 14, 14), &floor).unwrap();
        map.fill_rect(&Rect::new(23, 3, 14, 14), &floor).unwrap();
        let chasm = Brush::new(CHASM).priority(priority::RIVER_STREAMER);
        map.fill_rect(&Rect::new(17, 1, 6, 18), &chasm).unwrap();
        map
    };
    for adjacency in [Adjacency::Four, Adjacency::Eight] {
        let opts = FixupOptions {
            adjacency,
            bridge: Some(FLOOR),
            ..FixupOptions::default()
        };
        let mut map = split();
        let report = fixup_level(
            &mut map,
            &config(),
            &mut TunnelLevel::default(),
            &mut Rng::new(3),
            &opts,
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(report.components_before, 2);
        assert_eq!(components(&map, adjacency).len(), 1, "{}", render(&map));
        let no_bridge = FixupOptions {
            bridge: None,
            ..opts
        };
        let e = fixup_level(
            &mut split(),
            &config(),
            &mut TunnelLevel::default(),
            &mut Rng::new(3),
            &no_bridge,
            &mut Unmetered,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("is sealed"), "{e}");
    }
}

#[test]
fn the_trial_limit_is_reported() {
    let mut map = scattered(7);
    let e = fixup_level(
        &mut map,
        &config(),
        &mut TunnelLevel::default(),
        &mut Rng::new(1),
        &FixupOptions {
            trials: 0,
            ..FixupOptions::default()
        },
        &mut Unmetered,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("gave up after 0 trial(s)"), "{e}");
}
