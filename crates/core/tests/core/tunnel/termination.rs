//! Arrival, the step limit, restarts and the edge clamp.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::{StopReason, MAX_CORRIDOR_LENGTH};
use warren_core::map::Dir;

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
