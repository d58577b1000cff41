//! Each forced-turn rule on its own, and their effect on whole tunnels.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::rules::{assess, ForcedTurn};
use warren_core::gen::tunnel::StopReason;
use warren_core::map::{priority as prio, Dir};

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
    assert_eq!(out.stop, StopReason::Arrived, "{}", map.to_ascii());
    let corner = out.path.iter().position(|&p| p == P(15, 4));
    let corner = corner.unwrap_or_else(|| panic!("no corner at (15, 4):\n{}", map.to_ascii()));
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
