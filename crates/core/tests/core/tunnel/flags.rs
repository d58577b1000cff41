//! The seven `TT_*` flags.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::{tunnel, StopReason, TunnelConstants, TunnelFlags, TunnelLevel};
use warren_core::map::{priority as prio, Dir, Point};
use warren_core::rng::Rng;

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
        assert_eq!(out.stop, StopReason::Arrived, "{}", map.to_ascii());
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
