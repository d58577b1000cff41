//! Doors before another corridor's wall and at room walls.

use crate::gen::tunnel::test_map::*;
use crate::gen::tunnel::*;

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
