//! Corridor style choice, constant overrides and what the corridor records.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::{tunnel, TunnelLevel};
use warren_core::map::priority as prio;
use warren_core::rng::Rng;

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
