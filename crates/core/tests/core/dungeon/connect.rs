//! Unit tests of step 5: connecting the panels.

use crate::dungeon::test_support::{blank, render, DOOR, FLOOR, WALL, WATER};
use proptest::prelude::*;
use warren_core::gen::dungeon::{closest, connect_panels, Panels};
use warren_core::gen::meter::Unmetered;
use warren_core::gen::tunnel::{
    incursion_dist, ConstantOverrides, CorridorStyle, DoorTable, StopReason, TunnelConfig,
    TunnelConstants, TunnelFlags, TunnelLevel,
};
use warren_core::map::{priority, Brush, Point, Rect};

const P: fn(i32, i32) -> Point = Point::new;

/// Seed 159's level 4 in small: a river runs down the last column inside the map's edge,
/// through both panels of a 32 × 64 level; the upper panel holds a walled room whose south
/// wall faces the lower panel. The closest open cells of the two panels are river cells in
/// that last column, where no tunnel can stand: the tunnel must head for a cell it can reach
/// and arrive, not walk beside the room's wall until its steps run out.
#[test]
fn panel_tunnels_head_for_cells_they_can_reach() {
    for seed in 0..40 {
        let mut map = blank(32, 64);
        let panels = Panels::new(32, 64, 32, 32).unwrap();
        let (river, room) = (map.region_id("river"), map.region_id("room"));
        let water = Brush::new(WATER).priority(priority::RIVER_STREAMER);
        map.fill_rect(&Rect::new(30, 1, 1, 62), &water.region(river))
            .unwrap();
        let wall = Brush::new(WALL).priority(priority::ROOM_WALL).region(room);
        map.fill_rect(&Rect::new(6, 10, 20, 18), &wall).unwrap();
        let floor = Brush::new(FLOOR)
            .priority(priority::ROOM_FLOOR)
            .region(room);
        map.fill_rect(&Rect::new(7, 11, 18, 16), &floor).unwrap();
        let config = TunnelConfig {
            styles: vec![CorridorStyle {
                name: "passage".into(),
                weight: 1.0,
                staple: true,
                floor: FLOOR,
                walls: WALL,
                constants: ConstantOverrides::default(),
            }],
            default_style: 0,
            constants: TunnelConstants {
                turn_chance: 10,
                stubborn_corridor: 30,
                segment_minlen: 4,
                segment_maxlen: 10,
            },
            panel_width: 32,
            panel_height: 32,
            doors: DoorTable::uniform(DOOR),
        };
        let dug = connect_panels(
            &mut map,
            &panels,
            &config,
            &mut TunnelLevel::default(),
            &mut warren_core::rng::Rng::new(seed),
            TunnelFlags {
                direct: true,
                wander: true,
                ..TunnelFlags::default()
            },
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(dug.len(), 1, "seed {seed}");
        let t = &dug[0];
        assert_ne!(
            t.stop,
            StopReason::StepLimit,
            "seed {seed}\n{}",
            render(&map)
        );
        assert!(
            t.doors.len() <= 2,
            "seed {seed}: {:?}\n{}",
            t.doors,
            render(&map)
        );
    }
}

#[test]
fn closest_matches_a_plain_search() {
    let a = [P(1, 1), P(5, 5), P(9, 2)];
    let b = [P(20, 2), P(12, 6), P(12, 2)];
    assert_eq!(closest(&a, &b), Some((P(9, 2), P(12, 2))));
    assert_eq!(closest(&a, &[]), None);
    assert_eq!(closest(&[], &b), None);
}

proptest! {
    #[test]
    fn pruned_search_finds_the_first_minimal_pair(
        a in prop::collection::vec((0i32..60, 0i32..60), 1..40),
        b in prop::collection::vec((0i32..60, 0i32..60), 1..40),
    ) {
        let a: Vec<Point> = a.into_iter().map(|(x, y)| P(x, y)).collect();
        let b: Vec<Point> = b.into_iter().map(|(x, y)| P(x, y)).collect();
        let mut want = None;
        for (i, &p) in a.iter().enumerate() {
            for (j, &q) in b.iter().enumerate() {
                let key = (incursion_dist(p, q), i, j);
                if want.is_none_or(|w| key < w) {
                    want = Some(key);
                }
            }
        }
        let want = want.map(|(_, i, j)| (a[i], b[j]));
        prop_assert_eq!(closest(&a, &b), want);
    }
}
