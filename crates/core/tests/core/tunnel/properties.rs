//! Determinism, and properties over 10,000 random tunnels on random maps.

use crate::tunnel::test_map::*;
use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest, ProptestConfig};
use warren_core::gen::tunnel::{
    tunnel, StopReason, TunnelConfig, TunnelConstants, TunnelFlags, TunnelLevel, TunnelRequest,
    MAX_CORRIDOR_LENGTH,
};
use warren_core::map::{Dir, Map, Point};
use warren_core::rng::Rng;

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
            map.flag_cells_mut()[i] |= warren_core::map::FLAG_CONNECTED;
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
                        prop_assert!(map.in_bounds(*p), "{:?}", p);
                    }
                    prop_assert!(map.in_bounds(out.end));
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
