//! Behaviour of the whole primitive on hand-drawn maps, and property tests on random ones.

use super::rules::{assess, ForcedTurn};
use super::test_map::*;
use super::*;
use crate::map::{priority as prio, Dir};

const P: fn(i32, i32) -> Point = Point::new;

fn blank(w: usize, h: usize) -> Vec<String> {
    vec!["#".repeat(w); h]
}

fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Paints `glyph` over the rectangle `x0..=x1, y0..=y1` of `rows`.
fn paint(rows: &mut [String], x0: usize, y0: usize, x1: usize, y1: usize, glyph: char) {
    for row in rows.iter_mut().take(y1 + 1).skip(y0) {
        let mut cells: Vec<char> = row.chars().collect();
        for c in cells.iter_mut().take(x1 + 1).skip(x0) {
            *c = glyph;
        }
        *row = cells.into_iter().collect();
    }
}

/// A walled room with floor `x0..=x1, y0..=y1`.
fn room(rows: &mut [String], x0: usize, y0: usize, x1: usize, y1: usize) {
    paint(rows, x0 - 1, y0 - 1, x1 + 1, y1 + 1, 'W');
    paint(rows, x0, y0, x1, y1, '.');
}

fn dig(map: &mut Map, cfg: &TunnelConfig, req: &TunnelRequest, seed: u64) -> TunnelOutcome {
    let mut level = TunnelLevel::default();
    tunnel(map, cfg, &mut level, req, &mut Rng::new(seed)).expect("valid tunnel")
}

// ---------------------------------------------------------------- forced turns

#[test]
fn near_edge_forces_a_turn_when_four_steps_would_leave_the_map() {
    let map = map_from(&rows(&blank(12, 9)));
    let dest = P(0, 0);
    let turn = |x, y, d| assess(&map, P(x, y), d, dest, 0, 100).turn;
    assert_eq!(turn(8, 4, Dir::East), Some(ForcedTurn::NearEdge));
    assert_eq!(turn(7, 4, Dir::East), None);
    assert_eq!(turn(3, 4, Dir::West), Some(ForcedTurn::NearEdge));
    assert_eq!(turn(4, 4, Dir::West), None);
    assert_eq!(turn(5, 3, Dir::North), Some(ForcedTurn::NearEdge));
    assert_eq!(turn(5, 4, Dir::North), None);
    assert_eq!(turn(5, 5, Dir::South), Some(ForcedTurn::NearEdge));
    assert_eq!(turn(5, 4, Dir::South), None);
}

#[test]
fn standing_on_a_vault_forces_a_turn() {
    let mut g = blank(20, 20);
    paint(&mut g, 10, 10, 10, 10, 'V');
    let map = map_from(&rows(&g));
    let a = assess(&map, P(10, 10), Dir::East, P(1, 1), 0, 100);
    assert_eq!(a.turn, Some(ForcedTurn::Vault));
    let a = assess(&map, P(9, 10), Dir::East, P(1, 1), 0, 100);
    assert_eq!(
        a.turn, None,
        "a vault ahead is no reason; standing on one is"
    );
}

#[test]
fn two_corridor_walls_ahead_force_a_turn_but_one_does_not() {
    let mut g = blank(20, 20);
    paint(&mut g, 11, 10, 12, 10, 'c');
    paint(&mut g, 11, 5, 11, 5, 'c');
    let map = map_from(&rows(&g));
    let a = assess(&map, P(10, 10), Dir::East, P(1, 1), 0, 100);
    assert_eq!(a.turn, Some(ForcedTurn::CorridorWallAhead));
    let a = assess(&map, P(10, 5), Dir::East, P(1, 1), 0, 100);
    assert_eq!(a.turn, None);
}

#[test]
fn running_along_a_room_wall_forces_a_turn_and_facing_one_asks_for_a_door() {
    let mut g = blank(20, 20);
    paint(&mut g, 10, 10, 11, 10, 'W');
    let map = map_from(&rows(&g));
    let along = assess(&map, P(10, 10), Dir::East, P(1, 1), 0, 100);
    assert_eq!(along.turn, Some(ForcedTurn::RoomWallAlong));
    assert!(!along.room_door);
    let facing = assess(&map, P(9, 10), Dir::East, P(1, 1), 0, 100);
    assert_eq!(facing.turn, None);
    assert!(facing.room_door);
}

#[test]
fn reaching_the_destination_axis_forces_a_turn_only_on_the_travelled_axis() {
    let map = map_from(&rows(&blank(20, 20)));
    let turn = |d, dest| assess(&map, P(10, 10), d, dest, 0, 100).turn;
    assert_eq!(turn(Dir::East, P(10, 3)), Some(ForcedTurn::DestinationAxis));
    assert_eq!(
        turn(Dir::West, P(10, 15)),
        Some(ForcedTurn::DestinationAxis)
    );
    assert_eq!(turn(Dir::North, P(10, 3)), None);
    assert_eq!(
        turn(Dir::North, P(3, 10)),
        Some(ForcedTurn::DestinationAxis)
    );
    assert_eq!(turn(Dir::East, P(3, 10)), None);
}

#[test]
fn a_segment_longer_than_maxlen_forces_a_turn() {
    let map = map_from(&rows(&blank(20, 20)));
    let turn = |len| assess(&map, P(10, 10), Dir::East, P(1, 1), len, 5).turn;
    assert_eq!(turn(6), Some(ForcedTurn::SegmentTooLong));
    assert_eq!(turn(5), None);
}

#[test]
fn forced_turn_reasons_come_in_source_order() {
    let mut g = blank(20, 20);
    paint(&mut g, 10, 10, 10, 10, 'V');
    let map = map_from(&rows(&g));
    let a = assess(&map, P(10, 10), Dir::East, P(10, 1), 50, 5);
    assert_eq!(a.turn, Some(ForcedTurn::Vault));
}

#[test]
fn a_direct_tunnel_turns_on_reaching_the_destination_column() {
    let mut g = blank(30, 20);
    room(&mut g, 14, 12, 16, 14);
    let mut map = map_from(&rows(&g));
    let out = dig(
        &mut map,
        &config(),
        &request((3, 4), (15, 13), flags(&["direct"])),
        1,
    );
    assert_eq!(out.stop, StopReason::Arrived, "{}", render(&map));
    let corner = out.path.iter().position(|&p| p == P(15, 4));
    let corner = corner.unwrap_or_else(|| panic!("no corner at (15, 4):\n{}", render(&map)));
    assert!(out.path[..corner].iter().all(|p| p.y == 4));
    assert!(out.path[corner..].iter().all(|p| p.x == 15));
}

#[test]
fn tunnels_never_floor_vaults_or_the_map_edge() {
    let mut g = blank(30, 20);
    paint(&mut g, 0, 0, 29, 0, 'X');
    paint(&mut g, 10, 2, 12, 17, 'V');
    room(&mut g, 22, 8, 25, 11);
    let mut map = map_from(&rows(&g));
    let before = map.clone();
    for seed in 0..20 {
        let out = dig(
            &mut map,
            &config(),
            &request((4, 9), (23, 9), flags(&[])),
            seed,
        );
        for p in out.carved {
            let old = before.priority_at(p).unwrap_or(0);
            assert!(old <= prio::ROOM_FLOOR, "floored {p:?} of priority {old}");
        }
    }
    for (i, &p) in before.priority_cells().iter().enumerate() {
        if p >= prio::VAULT {
            assert_eq!(map.terrain_cells()[i], before.terrain_cells()[i]);
        }
    }
}

// ---------------------------------------------------------------- doors

/// An old corridor (x = 6..8) between the start and a walled room (floor x = 11..12).
const DOOR_MAP: [&str; 11] = [
    "XXXXXXXXXXXXXXXX",
    "X#####c,c######X",
    "X#####c,c######X",
    "X#####c,c#WWWW#X",
    "X#####c,c#W..W#X",
    "X#####c,c#W..W#X",
    "X#####c,c#W..W#X",
    "X#####c,c#WWWW#X",
    "X#####c,c######X",
    "X#####c,c######X",
    "XXXXXXXXXXXXXXXX",
];

#[test]
fn a_door_is_made_before_cutting_another_corridors_wall() {
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &config(),
        &request((2, 5), (12, 5), flags(&["direct"])),
        7,
    );
    assert_eq!(out.doors[0], P(5, 5), "{}", render(&map));
    assert_eq!(map.terrain_at(P(5, 5)), Ok(DOOR));
    assert_eq!(map.priority_at(P(5, 5)), Ok(DOOR_PRIORITY));
    // The corridor walls it crossed became floor, joining the two corridors.
    assert_eq!(map.terrain_at(P(6, 5)), Ok(TUNNEL_FLOOR));
    assert_eq!(map.terrain_at(P(8, 5)), Ok(TUNNEL_FLOOR));
}

#[test]
fn a_door_meets_a_room_wall_on_the_current_or_the_next_cell_evenly() {
    let mut at_current = 0;
    let mut at_wall = 0;
    for seed in 0..200 {
        let mut map = map_from(&DOOR_MAP);
        let out = dig(
            &mut map,
            &config(),
            &request((2, 5), (12, 5), flags(&["direct"])),
            seed,
        );
        assert_eq!(out.doors.len(), 2, "{}", render(&map));
        assert_eq!(map.notes.doors, out.doors);
        match out.doors[1] {
            p if p == P(9, 5) => at_current += 1,
            p if p == P(10, 5) => at_wall += 1,
            p => panic!("door at {p:?}"),
        }
        assert_eq!(map.terrain_at(out.doors[1]), Ok(DOOR));
        // A door in the room wall is open and in the room's region: the walk arrives on it.
        let end = if out.doors[1] == P(10, 5) {
            P(10, 5)
        } else {
            P(11, 5)
        };
        assert_eq!((out.stop, out.end), (StopReason::Arrived, end));
    }
    assert!((70..=130).contains(&at_current), "{at_current} / {at_wall}");
}

#[test]
fn doors_take_the_door_of_the_region_they_open_into() {
    let mut cfg = config();
    cfg.doors.by_region.insert("room".into(), TUNNEL_WALL);
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &cfg,
        &request((2, 5), (12, 5), flags(&["direct"])),
        3,
    );
    assert_eq!(map.terrain_at(out.doors[0]), Ok(DOOR), "rock has no region");
    assert_eq!(
        map.terrain_at(out.doors[1]),
        Ok(TUNNEL_WALL),
        "the room's door"
    );
}

#[test]
fn an_existing_door_is_not_made_twice() {
    let mut map = map_from(&DOOR_MAP);
    let cfg = config();
    let mut level = TunnelLevel::default();
    let req = request((2, 5), (12, 5), flags(&["direct"]));
    tunnel(&mut map, &cfg, &mut level, &req, &mut Rng::new(1)).expect("valid");
    let doors = map.notes.doors.clone();
    let again = tunnel(&mut map, &cfg, &mut level, &req, &mut Rng::new(1)).expect("valid");
    assert!(again.doors.iter().all(|d| !doors.contains(d)));
    let mut all = map.notes.doors.clone();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), map.notes.doors.len());
}

// ---------------------------------------------------------------- termination

#[test]
fn arrival_needs_an_open_cell_in_the_destinations_region_and_panel() {
    // With panels 12 wide, the door at (10, 5) and the floor at (11, 5) are open and in the
    // room, but in the panel left of the destination's.
    let mut cfg = config();
    cfg.panel_width = 12;
    for seed in 0..10 {
        let mut map = map_from(&DOOR_MAP);
        let out = dig(
            &mut map,
            &cfg,
            &request((2, 5), (12, 5), flags(&["direct"])),
            seed,
        );
        assert_eq!((out.stop, out.end), (StopReason::Arrived, P(12, 5)));
    }
}

#[test]
fn the_old_corridor_is_open_but_in_the_wrong_region_so_the_walk_goes_on() {
    // (7, 5) is open and within 9 of the destination, but belongs to the old corridor.
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &config(),
        &request((2, 5), (12, 5), flags(&["direct"])),
        4,
    );
    assert!(out.path.contains(&P(7, 5)));
    assert_ne!(out.end, P(8, 5));
}

#[test]
fn an_unreachable_destination_stops_at_the_step_limit() {
    // The destination is rock: never open, so never arrived at.
    let mut map = map_from(&rows(&blank(30, 20)));
    let out = dig(
        &mut map,
        &config(),
        &request((3, 3), (20, 12), flags(&[])),
        1,
    );
    assert_eq!(out.stop, StopReason::StepLimit);
    assert_eq!(out.steps, MAX_CORRIDOR_LENGTH);
    assert!(out.path.len() <= MAX_CORRIDOR_LENGTH as usize);
}

#[test]
fn walking_off_the_map_restarts_and_still_terminates() {
    let mut map = map_from(&rows(&blank(10, 10)));
    let mut req = request((0, 5), (8, 8), flags(&[]));
    req.start_dir = Some(Dir::West);
    let out = dig(&mut map, &config(), &req, 1);
    assert_eq!(out.stop, StopReason::StepLimit);
    assert_eq!(out.path, vec![P(0, 5)]);
    // On a 3-wide map the edge clamp itself walks off the map.
    let mut map = map_from(&rows(&blank(3, 3)));
    let out = dig(&mut map, &config(), &request((1, 1), (2, 2), flags(&[])), 1);
    assert_eq!(out.stop, StopReason::StepLimit);
}

#[test]
fn the_edge_clamp_turns_a_tunnel_back_from_the_edge() {
    let mut g = blank(30, 20);
    room(&mut g, 20, 8, 24, 12);
    let mut map = map_from(&rows(&g));
    let mut req = request((3, 10), (22, 10), flags(&["direct"]));
    req.start_dir = Some(Dir::West);
    let out = dig(&mut map, &config(), &req, 1);
    assert_eq!(&out.path[..3], &[P(3, 10), P(2, 10), P(3, 10)]);
    assert_eq!(out.stop, StopReason::Arrived);
}

// ---------------------------------------------------------------- styles and constants

fn twisty() -> CorridorStyle {
    let mut s = style("twisty", 1.0, false);
    s.constants = ConstantOverrides {
        turn_chance: Some(100),
        stubborn_corridor: Some(100),
        segment_minlen: Some(0),
        segment_maxlen: Some(2),
    };
    s
}

#[test]
fn style_constants_apply_to_their_tunnel_only() {
    let mut g = blank(40, 21);
    room(&mut g, 33, 8, 36, 12);
    let base = map_from(&rows(&g));
    let mut cfg = config();
    cfg.styles = vec![twisty(), style("plain", 1.0, true)];
    let mut level = TunnelLevel::default();
    let req = request((3, 10), (35, 10), flags(&[]));
    let mut rng = Rng::new(9);
    let mut saw_twisty = false;
    for _ in 0..20 {
        let mut map = base.clone();
        let out = tunnel(&mut map, &cfg, &mut level, &req, &mut rng).expect("valid");
        if out.style == 0 {
            assert!(!saw_twisty, "a non-staple style came back");
            saw_twisty = true;
            assert_eq!(out.constants, cfg.constants.with(&twisty().constants));
            assert!(out.path.iter().any(|p| p.y != 10), "twisty ran straight");
        } else {
            assert_eq!(out.constants, cfg.constants, "level constants restored");
            assert!(out.path.iter().all(|p| p.y == 10), "plain tunnel bent");
        }
    }
    assert!(saw_twisty);
    assert_eq!(cfg.constants.turn_chance, 0);
}

#[test]
fn staples_repeat_and_other_styles_do_not_while_others_remain() {
    let mut map = map_from(&rows(&blank(40, 30)));
    let mut cfg = config();
    cfg.styles = vec![
        style("a", 1.0, false),
        style("b", 1.0, false),
        style("s", 1.0, true),
    ];
    let mut level = TunnelLevel::default();
    let mut req = request((5, 5), (30, 20), flags(&["length"]));
    req.length_limit = Some(1);
    let mut rng = Rng::new(11);
    let mut counts = [0; 3];
    for _ in 0..40 {
        let out = tunnel(&mut map, &cfg, &mut level, &req, &mut rng).expect("valid");
        counts[out.style] += 1;
    }
    assert_eq!(counts, [1, 1, 38]);
    let used: Vec<&str> = level.used_styles.iter().map(String::as_str).collect();
    assert_eq!(used, ["a", "b"]);
}

#[test]
fn used_styles_come_back_once_all_are_used() {
    let mut map = map_from(&rows(&blank(40, 30)));
    let mut cfg = config();
    cfg.styles = vec![style("a", 1.0, false), style("b", 1.0, false)];
    let mut level = TunnelLevel::default();
    let mut req = request((5, 5), (30, 20), flags(&["length"]));
    req.length_limit = Some(1);
    let mut rng = Rng::new(12);
    let first = tunnel(&mut map, &cfg, &mut level, &req, &mut rng).expect("valid");
    let second = tunnel(&mut map, &cfg, &mut level, &req, &mut rng).expect("valid");
    assert_ne!(first.style, second.style);
    let third = tunnel(&mut map, &cfg, &mut level, &req, &mut rng).expect("valid");
    assert!(third.style < 2);
}

#[test]
fn short_tunnels_and_weightless_lists_use_the_default_style() {
    let mut map = map_from(&rows(&blank(40, 30)));
    let mut cfg = config();
    cfg.styles = vec![style("a", 1.0, false), style("home", 0.0, true)];
    cfg.default_style = 1;
    let mut level = TunnelLevel::default();
    // Incursion distance 5: (5,5) -> (9,7) is 4 + 2/2.
    let mut req = request((5, 5), (9, 7), flags(&["length"]));
    req.length_limit = Some(1);
    let out = tunnel(&mut map, &cfg, &mut level, &req, &mut Rng::new(1)).expect("valid");
    assert_eq!(out.style, 1);
    assert!(level.used_styles.is_empty());
    cfg.styles[0].weight = 0.0;
    req.dest = P(30, 20);
    let out = tunnel(&mut map, &cfg, &mut level, &req, &mut Rng::new(1)).expect("valid");
    assert_eq!(out.style, 1);
}

#[test]
fn the_corridor_is_recorded_with_its_style_and_stamped_with_its_region() {
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &config(),
        &request((2, 5), (12, 5), flags(&["direct"])),
        5,
    );
    assert_eq!(map.notes.corridors.len(), 1);
    let c = &map.notes.corridors[0];
    assert_eq!(c.region.as_deref(), Some("tunnel"));
    assert_eq!(c.cells, out.carved);
    let region = map.region_id("tunnel");
    for &p in &out.carved {
        assert_eq!(map.terrain_at(p), Ok(TUNNEL_FLOOR));
        assert_eq!(map.priority_at(p), Ok(prio::ROOM_FLOOR));
        assert_eq!(map.region_at(p), Ok(region));
    }
    // Walls of corridor-wall priority surround the start.
    assert_eq!(map.terrain_at(P(2, 4)), Ok(TUNNEL_WALL));
    assert_eq!(map.priority_at(P(2, 4)), Ok(prio::CORRIDOR_WALL));
}

// ---------------------------------------------------------------- flags

/// Two rooms on a row, 8 cells of rock apart.
fn two_rooms() -> Map {
    let mut g = blank(24, 10);
    room(&mut g, 2, 3, 5, 6);
    room(&mut g, 15, 3, 19, 6);
    map_from(&rows(&g))
}

#[test]
fn connect_stops_on_entering_an_area_of_the_other_connectedness() {
    let mut g = blank(24, 10);
    paint(&mut g, 2, 3, 5, 6, '.');
    paint(&mut g, 15, 3, 19, 6, '.');
    let mut map = map_from(&rows(&g));
    for x in 2..=5 {
        for y in 3..=6 {
            map.set_connected(P(x, y), true).expect("on map");
        }
    }
    let out = dig(
        &mut map,
        &config(),
        &request((5, 4), (18, 4), flags(&["connect"])),
        1,
    );
    assert_eq!((out.stop, out.end), (StopReason::Connected, P(15, 4)));
    assert!(out.path.iter().all(|&p| map.is_connected(p) == Ok(true)));
    assert_eq!(map.is_connected(P(16, 4)), Ok(false));
}

#[test]
fn connect_replaces_the_arrival_rule() {
    let mut map = two_rooms();
    let plain = dig(
        &mut map.clone(),
        &config(),
        &request((5, 4), (17, 4), flags(&[])),
        1,
    );
    assert_eq!(plain.stop, StopReason::Arrived);
    let out = dig(
        &mut map,
        &config(),
        &request((5, 4), (17, 4), flags(&["connect"])),
        1,
    );
    assert_eq!(out.stop, StopReason::StepLimit);
}

#[test]
fn direct_tunnels_never_turn_away_from_the_destination() {
    let mut g = blank(60, 40);
    room(&mut g, 40, 28, 44, 32);
    let base = map_from(&rows(&g));
    let mut cfg = config();
    cfg.constants = TunnelConstants {
        turn_chance: 50,
        stubborn_corridor: 100,
        segment_minlen: 1,
        segment_maxlen: 6,
    };
    let mut strays = 0;
    for seed in 0..20 {
        let req = request((8, 8), (42, 30), flags(&["direct"]));
        let out = dig(&mut base.clone(), &cfg, &req, seed);
        assert!(out
            .path
            .iter()
            .all(|p| (8..=42).contains(&p.x) && (8..=30).contains(&p.y)));
        let req = request((8, 8), (42, 30), flags(&[]));
        let out = dig(&mut base.clone(), &cfg, &req, seed);
        strays += out.path.iter().any(|p| p.x < 8 || p.y < 8) as usize;
    }
    assert!(strays > 10, "stubborn tunnels strayed only {strays} times");
}

#[test]
fn length_stops_once_the_corridor_is_that_long() {
    let mut map = two_rooms();
    let mut req = request((5, 4), (17, 4), flags(&["length"]));
    req.length_limit = Some(5);
    let out = dig(&mut map, &config(), &req, 1);
    assert_eq!(out.stop, StopReason::LengthLimit);
    assert_eq!(out.path.len(), 5);
    assert_eq!(out.end, P(9, 4));
}

#[test]
fn notouch_leaves_the_rooms_untouched() {
    let map = two_rooms();
    let req = request((3, 4), (17, 4), flags(&[]));
    let mut level = TunnelLevel::default();
    tunnel(
        &mut map.clone(),
        &config(),
        &mut level,
        &req,
        &mut Rng::new(1),
    )
    .expect("valid");
    assert_eq!(
        level.rooms_touched.len(),
        1,
        "both rooms are in panel (0, 0)"
    );
    let req = request((3, 4), (17, 4), flags(&["notouch"]));
    let mut level = TunnelLevel::default();
    tunnel(
        &mut map.clone(),
        &config(),
        &mut level,
        &req,
        &mut Rng::new(1),
    )
    .expect("valid");
    assert!(level.rooms_touched.is_empty());
}

/// Five rooms in a row, one per 10-wide panel.
fn five_rooms() -> (Map, TunnelConfig) {
    let mut g = blank(52, 10);
    for i in 0..5 {
        room(&mut g, 3 + 10 * i, 3, 6 + 10 * i, 6);
    }
    let mut cfg = config();
    cfg.panel_width = 10;
    (map_from(&rows(&g)), cfg)
}

#[test]
fn wander_may_stop_in_the_second_or_a_later_new_room() {
    // Rooms found n = 2, 3, 4 stop with chance (1 - 1/n)²: 1/4, 4/9, 9/16; the fifth room is
    // reached at its door, where the walk arrives.
    let (base, cfg) = five_rooms();
    let mut stops_in_room = [0; 5];
    let runs = 400;
    for seed in 0..runs {
        let mut level = TunnelLevel::default();
        let req = request((4, 5), (44, 5), flags(&["wander", "direct"]));
        let mut map = base.clone();
        let out = tunnel(&mut map, &cfg, &mut level, &req, &mut Rng::new(seed)).expect("ok");
        if out.stop == StopReason::Wandered {
            assert_eq!(map.priority_at(out.end), Ok(prio::ROOM_FLOOR));
            stops_in_room[(out.end.x / 10) as usize] += 1;
        } else {
            assert_eq!(out.stop, StopReason::Arrived);
        }
    }
    let expected = [
        0.0,
        1.0 / 4.0,
        3.0 / 4.0 * 4.0 / 9.0,
        3.0 / 4.0 * 5.0 / 9.0 * 9.0 / 16.0,
        0.0,
    ];
    for (room, (&got, want)) in stops_in_room.iter().zip(expected).enumerate() {
        let want = want * runs as f64;
        assert!(
            (got as f64 - want).abs() <= 30.0,
            "room {room}: {stops_in_room:?}"
        );
    }
    for seed in 0..20 {
        let req = request((4, 5), (44, 5), flags(&["direct"]));
        assert_eq!(
            dig(&mut base.clone(), &cfg, &req, seed).stop,
            StopReason::Arrived
        );
    }
}

#[test]
fn rooms_touched_by_earlier_tunnels_do_not_count_again() {
    let (base, cfg) = five_rooms();
    let mut level = TunnelLevel::default();
    let req = request((4, 5), (44, 5), flags(&["direct"]));
    tunnel(&mut base.clone(), &cfg, &mut level, &req, &mut Rng::new(1)).expect("ok");
    // The last room is reached at its door, before its floor.
    let panels: Vec<Point> = level.rooms_touched.iter().copied().collect();
    assert_eq!(panels, [P(0, 0), P(1, 0), P(2, 0), P(3, 0)]);
    for seed in 0..30 {
        let req = request((4, 5), (44, 5), flags(&["direct", "wander"]));
        let out = tunnel(
            &mut base.clone(),
            &cfg,
            &mut level,
            &req,
            &mut Rng::new(seed),
        );
        assert_eq!(out.map(|o| o.stop), Ok(StopReason::Arrived));
    }
}

#[test]
fn exact_finishes_on_the_destination_cell_even_in_rock() {
    let base = map_from(&rows(&blank(40, 30)));
    let mut cfg = config();
    cfg.constants = TunnelConstants {
        turn_chance: 30,
        stubborn_corridor: 40,
        segment_minlen: 2,
        segment_maxlen: 8,
    };
    for seed in 0..30 {
        let mut map = base.clone();
        let out = dig(
            &mut map,
            &cfg,
            &request((4, 4), (31, 22), flags(&["exact"])),
            seed,
        );
        assert_eq!(out.stop, StopReason::Exact);
        assert_eq!((out.end, out.path.last()), (P(31, 22), Some(&P(31, 22))));
        assert_eq!(map.terrain_at(P(31, 22)), Ok(TUNNEL_FLOOR));
    }
    let mut map = base.clone();
    let out = dig(
        &mut map,
        &cfg,
        &request((4, 4), (4, 4), flags(&["exact"])),
        1,
    );
    assert_eq!((out.stop, out.path), (StopReason::Exact, vec![P(4, 4)]));
}

fn turns(path: &[Point]) -> usize {
    let steps: Vec<(i32, i32)> = path
        .windows(2)
        .map(|w| (w[1].x - w[0].x, w[1].y - w[0].y))
        .collect();
    steps.windows(2).filter(|s| s[0] != s[1]).count()
}

#[test]
fn natural_tunnels_curve_but_stay_connected_and_arrive() {
    let mut g = blank(70, 50);
    room(&mut g, 55, 38, 60, 42);
    let base = map_from(&rows(&g));
    let mut natural_turns = 0;
    for seed in 0..20 {
        let req = request((6, 6), (57, 40), flags(&["natural", "direct"]));
        let mut map = base.clone();
        let out = dig(&mut map, &config(), &req, seed);
        assert_eq!(out.stop, StopReason::Arrived, "{}", render(&map));
        for w in out.path.windows(2) {
            let manhattan = (w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs();
            assert_eq!(
                manhattan, 1,
                "path breaks between {:?} and {:?}",
                w[0], w[1]
            );
        }
        natural_turns += turns(&out.path);
        let req = request((6, 6), (57, 40), flags(&["direct"]));
        let plain = dig(&mut base.clone(), &config(), &req, seed);
        assert!(turns(&plain.path) <= 1, "plain direct tunnel is an L");
    }
    assert!(
        natural_turns > 20 * 10,
        "only {natural_turns} bends in 20 natural tunnels"
    );
}

#[test]
fn a_given_start_direction_is_the_first_step() {
    let mut map = two_rooms();
    let mut req = request((5, 4), (17, 4), flags(&[]));
    req.start_dir = Some(Dir::South);
    let out = dig(&mut map, &config(), &req, 1);
    assert_eq!(out.path[1], P(5, 5));
}

#[test]
fn flag_names_parse_and_unknown_names_are_listed() {
    let f = TunnelFlags::from_names(&TunnelFlags::NAMES).expect("all known");
    assert!(f.connect && f.direct && f.length && f.notouch && f.exact && f.wander && f.natural);
    let e = TunnelFlags::from_names(&["direct", "sideways"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tunnel: flag is \"sideways\"; valid: connect, direct, length, notouch, exact, wander, natural"
    );
}

// ---------------------------------------------------------------- validation

#[test]
fn bad_requests_are_errors_that_name_the_value_and_leave_the_map_alone() {
    let base = two_rooms();
    let cases: Vec<(TunnelRequest, &str)> = vec![
        (
            request((24, 4), (17, 4), flags(&[])),
            "tunnel start: (24, 4) is outside the 24×10 map (x 0..=23, y 0..=9)",
        ),
        (
            request((3, 4), (17, -1), flags(&[])),
            "tunnel destination: (17, -1) is outside the 24×10 map (x 0..=23, y 0..=9)",
        ),
        (
            TunnelRequest {
                start_dir: Some(Dir::NorthEast),
                ..request((3, 4), (17, 4), flags(&[]))
            },
            "tunnel: start_dir is north_east; valid: north, south, east or west",
        ),
        (
            request((3, 4), (17, 4), flags(&["length"])),
            "tunnel: length_limit is missing; valid: 1..=8192 with the `length` flag",
        ),
        (
            TunnelRequest {
                length_limit: Some(0),
                ..request((3, 4), (17, 4), flags(&["length"]))
            },
            "tunnel: length_limit is 0; valid: 1..=8192",
        ),
        (
            TunnelRequest {
                length_limit: Some(9),
                ..request((3, 4), (17, 4), flags(&[]))
            },
            "tunnel: length_limit is 9; valid: no limit unless the `length` flag is set",
        ),
        (
            request((3, 4), (22, 4), flags(&["exact"])),
            "tunnel: destination with the `exact` flag is (22, 4); valid: x 2..=21, y 2..=7 \
             (the walk never reaches the outer two rings)",
        ),
    ];
    for (req, message) in cases {
        let mut map = base.clone();
        let e = tunnel(
            &mut map,
            &config(),
            &mut TunnelLevel::default(),
            &req,
            &mut Rng::new(1),
        );
        assert_eq!(e.map_err(|e| e.to_string()).err().as_deref(), Some(message));
        assert_eq!(map.terrain_cells(), base.terrain_cells());
        assert!(map.notes.corridors.is_empty());
    }
}

#[test]
fn bad_configs_are_errors_that_name_the_setting() {
    let map = two_rooms();
    let check = |edit: &dyn Fn(&mut TunnelConfig), message: &str| {
        let mut cfg = config();
        edit(&mut cfg);
        assert_eq!(
            cfg.validate(&map).map_err(|e| e.to_string()),
            Err(message.into())
        );
    };
    check(
        &|c| c.styles.clear(),
        "tunnel: styles is an empty list; valid: at least one corridor style",
    );
    check(
        &|c| c.default_style = 1,
        "tunnel: default_style is 1; valid: 0..=0",
    );
    check(
        &|c| c.constants.turn_chance = 101,
        "tunnel: constants.turn_chance is 101; valid: 0..=100",
    );
    check(
        &|c| c.constants.segment_minlen = 101,
        "tunnel: constants.segment_minlen is 101; valid: 0..=segment_maxlen (100)",
    );
    check(
        &|c| c.constants.segment_maxlen = 9000,
        "tunnel: constants.segment_maxlen is 9000; valid: 0..=8192",
    );
    check(
        &|c| c.panel_height = 0,
        "tunnel: panel_height is 0; valid: 1 or more",
    );
    check(
        &|c| c.styles[0].weight = f64::NAN,
        "tunnel: styles[0] (\"tunnel\").weight is NaN; valid: a finite number ≥ 0",
    );
    check(
        &|c| c.styles[0].walls = 99,
        "tunnel: styles[0] (\"tunnel\").walls is 99; valid: a terrain id 0..=9",
    );
    check(
        &|c| c.styles[0].constants.stubborn_corridor = Some(200),
        "tunnel: styles[0] (\"tunnel\").stubborn_corridor is 200; valid: 0..=100",
    );
    check(
        &|c| {
            c.doors.by_region.insert("room".into(), 40);
        },
        "tunnel: doors[\"room\"] is 40; valid: a terrain id 0..=9",
    );
}

// ---------------------------------------------------------------- determinism and properties

#[test]
fn same_seed_same_tunnel() {
    let (base, cfg) = five_rooms();
    let req = request((4, 5), (44, 8), flags(&["wander", "natural"]));
    let (mut a, mut b) = (base.clone(), base.clone());
    let oa = dig(&mut a, &cfg, &req, 77);
    let ob = dig(&mut b, &cfg, &req, 77);
    assert_eq!(oa, ob);
    assert_eq!(a.terrain_cells(), b.terrain_cells());
    assert_eq!(a.notes, b.notes);
}

/// A random map: rooms, vaults, old corridors, connected patches, a forced edge or not.
fn random_map(rng: &mut Rng, w: usize, h: usize) -> Map {
    let mut g = blank(w, h);
    let n = rng.below(8);
    for _ in 0..n {
        let (x0, y0) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let (x1, y1) = (
            (x0 + 1 + rng.below(8) as usize).min(w - 1),
            (y0 + 1 + rng.below(6) as usize).min(h - 1),
        );
        let glyph = ['W', '.', 'o', 'c', ',', 'V', '+'][rng.below(7) as usize];
        paint(&mut g, x0, y0, x1, y1, glyph);
        if glyph == 'W' && x1 >= x0 + 2 && y1 >= y0 + 2 {
            paint(&mut g, x0 + 1, y0 + 1, x1 - 1, y1 - 1, '.');
        }
    }
    if rng.below(2) == 0 {
        paint(&mut g, 0, 0, w - 1, 0, 'X');
        paint(&mut g, 0, h - 1, w - 1, h - 1, 'X');
    }
    let mut map = map_from(&rows(&g));
    for i in 0..map.len() {
        if rng.below(4) == 0 {
            map.flag_cells_mut()[i] |= crate::map::FLAG_CONNECTED;
        }
    }
    map
}

fn random_request(rng: &mut Rng, map: &Map) -> TunnelRequest {
    let (w, h) = (map.width() as u64, map.height() as u64);
    let point = |rng: &mut Rng| Point::new(rng.below(w) as i32, rng.below(h) as i32);
    let mut flags = TunnelFlags::default();
    for (i, f) in [
        &mut flags.connect,
        &mut flags.direct,
        &mut flags.length,
        &mut flags.notouch,
        &mut flags.exact,
        &mut flags.wander,
        &mut flags.natural,
    ]
    .into_iter()
    .enumerate()
    {
        *f = rng.below(if i == 0 || i == 2 { 6 } else { 3 }) == 0;
    }
    TunnelRequest {
        start: point(rng),
        dest: point(rng),
        flags,
        start_dir: [
            None,
            Some(Dir::North),
            Some(Dir::South),
            Some(Dir::East),
            Some(Dir::West),
        ][rng.below(5) as usize],
        length_limit: flags.length.then(|| 1 + rng.below(200) as u32),
    }
}

fn random_config(rng: &mut Rng) -> TunnelConfig {
    let mut cfg = config();
    cfg.constants = TunnelConstants {
        turn_chance: rng.below(101) as u32,
        stubborn_corridor: rng.below(101) as u32,
        segment_minlen: rng.below(6) as u32,
        segment_maxlen: 6 + rng.below(10) as u32,
    };
    cfg.styles.push(twisty());
    cfg.panel_width = 1 + rng.below(20) as i32;
    cfg.panel_height = 1 + rng.below(20) as i32;
    cfg
}

mod properties {
    use super::*;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest, ProptestConfig};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// 200 random maps × 50 random requests = 10,000 tunnels.
        #[test]
        fn tunnels_terminate_stay_on_the_map_and_never_lower_a_priority(
            seed in any::<u64>(),
            w in 1usize..=48,
            h in 1usize..=40,
        ) {
            let mut rng = Rng::new(seed);
            let mut map = random_map(&mut rng, w, h);
            let cfg = random_config(&mut rng);
            let mut level = TunnelLevel::default();
            for _ in 0..50 {
                let req = random_request(&mut rng, &map);
                let before = map.clone();
                match tunnel(&mut map, &cfg, &mut level, &req, &mut rng) {
                    Ok(out) => {
                        prop_assert!(out.steps <= MAX_CORRIDOR_LENGTH);
                        prop_assert!(out.path.len() <= MAX_CORRIDOR_LENGTH as usize);
                        for p in out.path.iter().chain(&out.carved).chain(&out.doors) {
                            prop_assert!(map.in_bounds(p.x as i64, p.y as i64), "{:?}", p);
                        }
                        prop_assert!(map.in_bounds(out.end.x as i64, out.end.y as i64));
                        prop_assert!(out.carved.iter().all(|p| out.path.contains(p)));
                        for &d in &out.doors {
                            prop_assert!(before.is_solid(d) == Ok(true), "door on open {:?}", d);
                        }
                        prop_assert_eq!(map.notes.corridors.len(), before.notes.corridors.len() + 1);
                        if out.stop == StopReason::Exact {
                            prop_assert_eq!(out.end, req.dest);
                        }
                    }
                    Err(_) => {
                        prop_assert_eq!(map.terrain_cells(), before.terrain_cells());
                        prop_assert_eq!(map.priority_cells(), before.priority_cells());
                    }
                }
                prop_assert_eq!((map.width(), map.height()), (w as i32, h as i32));
                for (i, (&now, &was)) in
                    map.priority_cells().iter().zip(before.priority_cells()).enumerate()
                {
                    prop_assert!(now >= was, "cell {:?} lowered {} -> {}", map.point(i), was, now);
                }
            }
        }
    }
}
