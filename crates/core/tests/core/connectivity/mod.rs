//! Behaviour of flood fill, components, closest pairs and fix-up, on hand-made and random maps.

mod bitgrid;
mod fill;

use crate::common::ascii::{
    ascii_map, grid_map, put_door, reference_components, reference_flood, CHASM, FLOOR,
};
use proptest::prelude::*;
use warren_core::gen::connectivity::{
    components, fixup, map_adjacency, mark_connected, ClosestPair, Components, Connectivity,
    FixupError, FloodError, NO_COMPONENT,
};
use warren_core::map::{
    dogleg, passable, Adjacency, Brush, DogLeg, Map, MapError, Point, FLAG_CONNECTED,
};
use warren_core::rng::Rng;

fn connected_rows(map: &Map) -> Vec<String> {
    let w = map.width() as usize;
    map.flag_cells()
        .chunks(w)
        .map(|row| {
            row.iter()
                .map(|f| if f & FLAG_CONNECTED != 0 { 'c' } else { '-' })
                .collect()
        })
        .collect()
}

#[test]
fn flood_follows_diagonals_and_doors_and_marks_exactly_the_reached_cells() {
    let mut map = ascii_map(&[
        "..######", //
        "##.###..", //
        "###+##..", //
        "####.###", //
        "########",
    ]);
    let reached = mark_connected(&mut map, Point::new(0, 0), Adjacency::Eight).unwrap();
    assert_eq!(reached, 5);
    assert_eq!(
        connected_rows(&map),
        ["cc------", "--c-----", "---c----", "----c---", "--------"]
    );
    // Starting in the other area clears the first one's flags.
    assert_eq!(
        mark_connected(&mut map, Point::new(7, 2), Adjacency::Eight).unwrap(),
        4
    );
    assert_eq!(
        connected_rows(&map),
        ["--------", "------cc", "------cc", "--------", "--------"]
    );
}

#[test]
fn diagonal_steps_pass_between_solid_corners_but_not_through_walls() {
    let mut map = ascii_map(&[
        ".#.", //
        "#.#", //
        "##.",
    ]);
    assert_eq!(
        mark_connected(&mut map, Point::new(1, 1), Adjacency::Eight).unwrap(),
        4
    );
    let mut wall = ascii_map(&[
        ".#.", //
        ".#.", //
        ".#.",
    ]);
    assert_eq!(
        mark_connected(&mut wall, Point::new(0, 0), Adjacency::Eight).unwrap(),
        3
    );
}

#[test]
fn four_neighbour_steps_never_cut_a_corner() {
    let rows = [
        ".#.", //
        "#.#", //
        "##.",
    ];
    let mut map = ascii_map(&rows);
    assert_eq!(
        mark_connected(&mut map, Point::new(1, 1), Adjacency::Four).unwrap(),
        1
    );
    assert_eq!(components(&map, Adjacency::Four).len(), 4);
    assert_eq!(components(&map, Adjacency::Eight).len(), 1);
    // Runs that overlap share a column; runs that only meet at a corner do not.
    let runs = ascii_map(&["...#...", "###..##", "......."]);
    assert_eq!(components(&runs, Adjacency::Four).len(), 2);
    assert_eq!(components(&runs, Adjacency::Eight).len(), 1);
}

#[test]
fn doors_join_areas_and_hazards_split_them() {
    let mut map = ascii_map(&[
        "..+..~..", //
        "########",
    ]);
    for adjacency in [Adjacency::Four, Adjacency::Eight] {
        assert_eq!(
            mark_connected(&mut map, Point::new(0, 0), adjacency).unwrap(),
            5
        );
        let list: Vec<usize> = components(&map, adjacency)
            .list()
            .iter()
            .map(|c| c.size)
            .collect();
        assert_eq!(list, [5, 2]);
    }
    let e = mark_connected(&mut map, Point::new(5, 0), Adjacency::Eight).unwrap_err();
    assert_eq!(e, FloodError::Solid { x: 5, y: 0 });
}

#[test]
fn flood_follows_a_serpentine_that_turns_at_every_column() {
    // Vertical corridors joined alternately at the bottom and the top: every turn reverses the
    // fill's direction, which the row sweeps must follow.
    let (w, h) = (131, 40);
    let solid: Vec<bool> = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let joint = if (x / 2) % 2 == 0 { h - 1 } else { 0 };
            x % 2 == 1 && y != joint
        })
        .collect();
    let mut map = grid_map(w, h, &solid);
    let start = Point::new(0, 0);
    let want = reference_flood(&map, start, Adjacency::Eight);
    assert_eq!(
        mark_connected(&mut map, start, Adjacency::Eight).unwrap(),
        map.open_count()
    );
    let got: Vec<bool> = map
        .flag_cells()
        .iter()
        .map(|f| f & FLAG_CONNECTED != 0)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn flood_start_off_the_map_or_on_rock_is_an_error_and_changes_nothing() {
    let mut map = ascii_map(&["..#", "..."]);
    map.flag_cells_mut()[0] |= FLAG_CONNECTED;
    let before = map.flag_cells().to_vec();
    let off = mark_connected(&mut map, Point::new(3, 0), Adjacency::Eight).unwrap_err();
    assert_eq!(
        off.to_string(),
        "(3, 0) is outside the 3×2 map (x 0..=2, y 0..=1)"
    );
    let solid = mark_connected(&mut map, Point::new(2, 0), Adjacency::Eight).unwrap_err();
    assert_eq!(solid, FloodError::Solid { x: 2, y: 0 });
    assert!(solid.to_string().contains("(2, 0)"));
    assert_eq!(map.flag_cells(), &before[..]);
}

#[test]
fn components_have_sizes_representatives_and_labels_in_row_major_order() {
    let map = ascii_map(&[
        "###..", //
        "#.#.#", //
        ".##+#", //
        "#####", //
        "..#.#",
    ]);
    let comps = components(&map, Adjacency::Eight);
    let list: Vec<(Point, usize)> = comps
        .list()
        .iter()
        .map(|c| (c.representative, c.size))
        .collect();
    assert_eq!(
        list,
        [
            (Point::new(3, 0), 4),
            (Point::new(1, 1), 2),
            (Point::new(0, 4), 2),
            (Point::new(3, 4), 1),
        ]
    );
    assert_eq!(comps.component_at(Point::new(3, 2)), Ok(Some(0)));
    assert_eq!(comps.component_at(Point::new(0, 2)), Ok(Some(1)));
    assert_eq!(comps.component_at(Point::new(0, 0)), Ok(None));
    assert!(comps.component_at(Point::new(5, 0)).is_err());
    assert_eq!(comps.labels()[4 * 5 + 1], 2);
    assert_eq!(comps.labels()[0], NO_COMPONENT);
}

#[test]
fn components_of_a_map_without_open_cells_is_empty() {
    let comps = components(&ascii_map(&["###", "###"]), Adjacency::Eight);
    assert!(comps.is_empty());
    assert!(comps.labels().iter().all(|&l| l == NO_COMPONENT));
}

#[test]
fn scratch_is_reused_across_maps_of_different_sizes() {
    let mut scratch = Connectivity::new();
    let mut out = Components::new();
    scratch.components(
        &ascii_map(&["..#..", "#####", "....."]),
        &mut out,
        Adjacency::Eight,
    );
    assert_eq!(out.len(), 3);
    scratch.components(&ascii_map(&[".#", ".."]), &mut out, Adjacency::Eight);
    assert_eq!(out.len(), 1);
    assert_eq!(out.labels(), &[0, NO_COMPONENT, 0, 0]);
    assert_eq!((out.width(), out.height()), (2, 2));
}

#[test]
fn closest_pair_is_exact_with_a_row_major_tie_break() {
    let map = ascii_map(&[
        "..#####", //
        "..##...", //
        "####...", //
        ".######",
    ]);
    let comps = components(&map, Adjacency::Eight);
    let mut scratch = Connectivity::new();
    let pair = scratch.closest_pair(&comps, 0, 1).unwrap();
    // (4, 1) and (4, 2) are both 3 away; the earlier target cell wins, and of the two sources
    // 3 away from it, (1, 0) comes before (1, 1).
    assert_eq!(
        pair,
        ClosestPair {
            from: Point::new(1, 0),
            to: Point::new(4, 1),
            distance: 3,
            target: 1,
        }
    );
    // And back: (1, 0) is the first cell of area 0 that is 3 away from area 1.
    let back = scratch.closest_pair(&comps, 1, 0).unwrap();
    assert_eq!(
        (back.from, back.to, back.distance),
        (Point::new(4, 1), Point::new(1, 0), 3)
    );
    let all = scratch.closest_pairs_from(&comps, 0).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0], pair);
    assert_eq!(
        all[1],
        ClosestPair {
            from: Point::new(0, 1),
            to: Point::new(0, 3),
            distance: 2,
            target: 2,
        }
    );
    let itself = scratch.closest_pair(&comps, 2, 2).unwrap();
    assert_eq!(
        (itself.from, itself.to, itself.distance),
        (Point::new(0, 3), Point::new(0, 3), 0)
    );
    let bad = scratch.closest_pair(&comps, 0, 3).unwrap_err();
    assert_eq!(
        bad.to_string(),
        "there is no component 3: the map has 3 component(s), numbered from 0"
    );
}

/// A fix-up connector that carves a dog-leg of floor, edge included.
fn carve(map: &mut Map, _: &mut Rng, from: Point, to: Point) -> Result<usize, MapError> {
    let path = dogleg(from, to, DogLeg::HorizontalFirst);
    map.carve_path(&path, &Brush::new(FLOOR).forced())
        .map(|c| c.len())
}

#[test]
fn fixup_joins_every_area_and_reports_each_tunnel() {
    let mut map = ascii_map(&[
        "..#######", //
        "..#######", //
        "#######..", //
        "#.#####..", //
        "#########",
    ]);
    let report = fixup(&mut map, &mut Rng::new(1), 26, Adjacency::Eight, carve).unwrap();
    assert_eq!(report.components_before, 3);
    assert_eq!(report.trials, 1);
    let tunnels: Vec<_> = report
        .tunnels
        .iter()
        .map(|t| (t.from, t.to, t.distance, t.area))
        .collect();
    // Nearest first: area 2 (the single cell) is 2 away, area 1 is 6 away.
    assert_eq!(
        tunnels,
        [
            (Point::new(0, 1), Point::new(1, 3), 2, 2),
            (Point::new(1, 0), Point::new(7, 2), 6, 1),
        ]
    );
    assert_eq!(report.tunnels[0].component.size, 1);
    assert!(report.tunnels[1]
        .to_string()
        .contains("area 1 (4 cells from (7, 2))"));
    assert_eq!(components(&map, Adjacency::Eight).len(), 1);
    assert!(map
        .flag_cells()
        .iter()
        .all(|f| (f & FLAG_CONNECTED != 0) == (f & warren_core::map::FLAG_SOLID == 0)));
}

#[test]
fn fixup_of_trivial_maps_draws_nothing() {
    let mut never = |_: &mut Map, _: &mut Rng, _: Point, _: Point| -> Result<(), MapError> {
        panic!("no tunnel needed")
    };
    let mut solid = ascii_map(&["###", "###"]);
    let report = fixup(
        &mut solid,
        &mut Rng::new(1),
        0,
        Adjacency::Eight,
        &mut never,
    )
    .unwrap();
    assert_eq!((report.components_before, report.trials), (0, 0));
    let mut one = ascii_map(&["#..", ".#."]);
    let report = fixup(&mut one, &mut Rng::new(1), 0, Adjacency::Eight, &mut never).unwrap();
    assert_eq!((report.components_before, report.trials), (1, 0));
    assert!(report.tunnels.is_empty());
    assert_eq!(connected_rows(&one), ["-cc", "c-c"]);
}

#[test]
fn fixup_stops_at_the_trial_limit_with_an_error_that_says_so() {
    let mut map = ascii_map(&[".#.#..", "######", "....##"]);
    let idle = |_: &mut Map, _: &mut Rng, _: Point, _: Point| Ok::<(), MapError>(());
    let err = fixup(&mut map, &mut Rng::new(1), 3, Adjacency::Eight, idle).unwrap_err();
    match &err {
        FixupError::TrialLimit {
            trials,
            unconnected,
            largest,
            tunnels,
        } => {
            assert_eq!((*trials, *unconnected, *tunnels), (3, 3, 9));
            assert_eq!(largest.representative, Point::new(0, 2));
            assert_eq!(largest.size, 4);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err
        .to_string()
        .starts_with("fix-up tunnelling gave up after 3 trial(s): 3 open area(s)"));
}

#[test]
fn fixup_passes_connector_errors_on() {
    let mut map = ascii_map(&[".#.", "###"]);
    let failing =
        |m: &mut Map, _: &mut Rng, _: Point, _: Point| m.index(Point::new(9, 9)).map(|_| ());
    let err = fixup(&mut map, &mut Rng::new(1), 5, Adjacency::Eight, failing).unwrap_err();
    assert_eq!(
        err.to_string(),
        "fix-up tunnel from (0, 0) to (2, 0) failed: (9, 9) is outside the 3×2 map (x 0..=2, y 0..=1)"
    );
}

#[test]
fn fixup_keeps_trying_when_tunnels_fall_short() {
    // A connector that only carves the first half of the way needs several trials.
    let half = |map: &mut Map, _: &mut Rng, from: Point, to: Point| {
        let path = dogleg(from, to, DogLeg::VerticalFirst);
        let n = path.len().div_ceil(2);
        map.carve_path(&path[..n], &Brush::new(FLOOR).forced())
    };
    let mut map = ascii_map(&[
        ".#################", //
        "##################", //
        "#################.",
    ]);
    let report = fixup(&mut map, &mut Rng::new(1), 26, Adjacency::Eight, half).unwrap();
    assert!(report.trials > 2, "trials {}", report.trials);
    assert_eq!(report.tunnels.len() as u32, report.trials);
    assert_eq!(components(&map, Adjacency::Eight).len(), 1);
}

/// A random `width × height` map: noise with `rock` percent rock, then `passes` rounds of the
/// 4-5 cave rule (rock when at least 5 of the 3×3 cells are rock, off-map counting as rock),
/// then doors on 3% of the rock and chasms on 3% of the floor.
fn random_map(width: usize, height: usize, rock: i64, passes: u32, seed: u64) -> Map {
    let mut rng = Rng::new(seed);
    let mut solid: Vec<bool> = (0..width * height).map(|_| rng.percent(rock)).collect();
    for _ in 0..passes {
        let next = (0..width * height)
            .map(|i| {
                let (x, y) = ((i % width) as i64, (i / width) as i64);
                let rocks = (-1..=1)
                    .flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
                    .filter(|&(nx, ny)| {
                        nx < 0
                            || ny < 0
                            || nx >= width as i64
                            || ny >= height as i64
                            || solid[nx as usize + ny as usize * width]
                    })
                    .count();
                rocks >= 5
            })
            .collect();
        solid = next;
    }
    let mut map = grid_map(width, height, &solid);
    // A few doors in the rock and hazards on the floor.
    for (i, &rock) in solid.iter().enumerate() {
        if rng.percent(3) {
            if rock {
                put_door(&mut map, i);
            } else {
                map.write_index(i, &Brush::new(CHASM).forced());
            }
        }
    }
    map
}

fn map_strategy(max_w: usize, max_h: usize) -> impl Strategy<Value = Map> {
    (1..=max_w, 1..=max_h, 0i64..=100, 0u32..=3, any::<u64>())
        .prop_map(|(w, h, rock, passes, seed)| random_map(w, h, rock, passes, seed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fast_flood_matches_a_reference_bfs(map in map_strategy(200, 120), pick in any::<u64>()) {
        let mut map = map;
        let open: Vec<usize> = (0..map.len()).filter(|&i| passable(map.flag_cells()[i])).collect();
        prop_assume!(!open.is_empty());
        let start = map.point(open[(pick % open.len() as u64) as usize]);
        for adjacency in [Adjacency::Four, Adjacency::Eight] {
            let want = reference_flood(&map, start, adjacency);
            let reached = mark_connected(&mut map, start, adjacency).unwrap();
            let got: Vec<bool> =
                map.flag_cells().iter().map(|f| f & FLAG_CONNECTED != 0).collect();
            prop_assert_eq!(reached, want.iter().filter(|&&r| r).count());
            prop_assert!(got == want, "{} flood from {:?} differs", adjacency, start);
        }
    }

    #[test]
    fn components_match_a_reference_labelling(map in map_strategy(200, 120)) {
        for adjacency in [Adjacency::Four, Adjacency::Eight] {
            let (want_labels, want_list) = reference_components(&map, adjacency);
            let comps = components(&map, adjacency);
            prop_assert_eq!(comps.list(), &want_list[..]);
            let got: Vec<Option<usize>> = comps
                .labels()
                .iter()
                .map(|&l| (l != NO_COMPONENT).then_some(l as usize))
                .collect();
            prop_assert!(got == want_labels);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn closest_pairs_match_brute_force(map in map_strategy(30, 20)) {
        let comps = components(&map, Adjacency::Eight);
        let mut scratch = Connectivity::new();
        let cells: Vec<Vec<usize>> = (0..comps.len())
            .map(|k| (0..map.len()).filter(|&i| comps.labels()[i] == k as u32).collect())
            .collect();
        for a in 0..comps.len().min(6) {
            let each = scratch.closest_pairs_from(&comps, a).unwrap();
            prop_assert_eq!(each.len(), comps.len() - 1);
            for (b, cells_b) in cells.iter().enumerate().filter(|&(b, _)| b != a) {
                // Smallest (distance, to index, from index) over all pairs.
                let mut best = (u32::MAX, 0, 0);
                for &t in cells_b {
                    for &f in &cells[a] {
                        let d = map.point(f).chebyshev(map.point(t)) as u32;
                        best = best.min((d, t, f));
                    }
                }
                let want = ClosestPair {
                    from: map.point(best.2),
                    to: map.point(best.1),
                    distance: best.0,
                    target: b,
                };
                prop_assert_eq!(scratch.closest_pair(&comps, a, b).unwrap(), want);
                prop_assert_eq!(each[if b < a { b } else { b - 1 }], want);
            }
        }
    }

    #[test]
    fn fixup_always_ends_with_one_area(
        map in map_strategy(60, 40),
        seed in any::<u64>(),
        four: bool,
    ) {
        let adjacency = if four { Adjacency::Four } else { Adjacency::Eight };
        let mut map = map;
        let before = components(&map, adjacency).len();
        let report = fixup(&mut map, &mut Rng::new(seed), 26, adjacency, carve).unwrap();
        prop_assert_eq!(report.components_before, before);
        prop_assert_eq!(components(&map, adjacency).len(), before.min(1));
        prop_assert_eq!(report.tunnels.len(), before.saturating_sub(1));
        prop_assert!(report.trials <= 1);
        for f in map.flag_cells() {
            prop_assert_eq!(f & FLAG_CONNECTED != 0, passable(*f));
        }
        if before > 0 {
            prop_assert_eq!(map_adjacency(&map), adjacency);
        }
    }
}
