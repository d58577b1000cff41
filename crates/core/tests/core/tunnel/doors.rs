//! Doors before another corridor's wall and at room walls: features on their cells, which keep
//! their priority.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::{tunnel, StopReason, TunnelLevel};
use warren_core::map::{priority as prio, DoorState};
use warren_core::rng::Rng;

#[test]
fn a_door_is_made_before_cutting_another_corridors_wall() {
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &config(),
        &request((2, 5), (12, 5), flags(&["direct"])),
        7,
    );
    assert_eq!(out.doors[0], P(5, 5), "{}", map.to_ascii());
    let door = &map.notes.doors[0];
    assert_eq!((door.at(), door.state), (P(5, 5), DoorState::Closed));
    assert_eq!(door.kind.as_deref(), Some("door"));
    assert_eq!(map.is_door(P(5, 5)), Ok(true));
    // The walk went through it, and the corridor floored it as Incursion's WriteCorridor does
    // (the door is drawn in its final state when the level's doors are finished).
    assert_eq!(map.terrain_at(P(5, 5)), Ok(TUNNEL_FLOOR));
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
        assert_eq!(out.doors.len(), 2, "{}", map.to_ascii());
        let cells: Vec<_> = map.notes.doors.iter().map(|d| d.at()).collect();
        assert_eq!(cells, out.doors);
        match out.doors[1] {
            p if p == P(9, 5) => at_current += 1,
            p if p == P(10, 5) => at_wall += 1,
            p => panic!("door at {p:?}"),
        }
        // A closed door blocks the way until the corridor floors it: the walk goes through
        // and arrives on the room's floor.
        assert_eq!((out.stop, out.end), (StopReason::Arrived, P(11, 5)));
    }
    assert!((70..=130).contains(&at_current), "{at_current} / {at_wall}");
}

/// The root of the rows of doors along room walls: a door used to be terrain of its own
/// priority (ROOM_FURNITURE), so a tunnel standing on it no longer saw the room wall under it
/// and Incursion's "room wall here and ahead: turn, no door" rule stopped holding.
#[test]
fn a_door_keeps_its_cells_priority() {
    // A room wall with rock on both sides: the tunnel stops in the wall's door before the
    // corridor is written, so the door is seen as it is made.
    let mut g = blank(16, 9);
    room(&mut g, 9, 2, 13, 6);
    let map = map_from(&rows(&g));
    // Six cells: the walk ends on (7, 4), before the wall at x = 8.
    let mut req = request((2, 4), (12, 4), flags(&["direct", "length"]));
    req.length_limit = Some(6);
    let mut made = 0;
    for seed in 0..40 {
        let mut m = map.clone();
        let out = dig(&mut m, &config(), &req, seed);
        if out.doors.contains(&P(8, 4)) {
            made += 1;
            assert_eq!(m.priority_at(P(8, 4)), Ok(prio::ROOM_WALL));
            assert!(m.is_solid(P(8, 4)).unwrap());
        }
    }
    assert!(made > 0);
}

#[test]
fn doors_take_the_door_of_the_region_they_open_into() {
    let mut cfg = config();
    let iron = warren_core::map::DoorKind::uniform("iron", TUNNEL_WALL);
    cfg.doors.by_region.insert("room".into(), iron);
    let mut map = map_from(&DOOR_MAP);
    let out = dig(
        &mut map,
        &cfg,
        &request((2, 5), (12, 5), flags(&["direct"])),
        3,
    );
    let kinds: Vec<_> = map.notes.doors.iter().map(|d| d.kind.clone()).collect();
    assert_eq!(kinds[0].as_deref(), Some("door"), "rock has no region");
    assert_eq!(kinds[1].as_deref(), Some("iron"), "the room's door");
    assert_eq!(out.doors.len(), 2);
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
    assert!(again
        .doors
        .iter()
        .all(|d| !doors.iter().any(|e| e.at() == *d)));
    let mut all: Vec<_> = map.notes.doors.iter().map(|d| d.at()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), map.notes.doors.len());
}
