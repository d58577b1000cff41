use proptest::strategy::Just;
use warren_core::gen::meter::{Stopped, Tally, Unmetered};
use warren_core::gen::rooms::{
    connect_rooms, each_nearest_pair, nearest_pairs, orthogonal, scatter_rooms, scatter_rooms_into,
    touches_any, touches_any_scalar, KeptBounds, RoomsError, ScatterOptions, Strategy,
};
use warren_core::map::{bresenham_cells, Adjacency, Brush, Map, Point, Rect};
use warren_core::rng::Rng;

#[test]
fn scattered_rooms_never_touch_and_stay_inside() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let opts = ScatterOptions {
            attempts: 30,
            min_size: 3,
            max_size: 10,
        };
        let rooms = scatter_rooms(80, 50, &mut rng, &opts, &mut Unmetered).unwrap();
        assert!(!rooms.is_empty());
        for (i, a) in rooms.iter().enumerate() {
            assert!(
                a.x >= 1 && a.y >= 1 && a.x2() <= 78 && a.y2() <= 48,
                "{a:?}"
            );
            for b in &rooms[i + 1..] {
                assert!(!a.intersects(b, 1));
            }
        }
    }
}

#[test]
fn four_neighbour_lines_step_orthogonally() {
    let line: Vec<Point> =
        orthogonal(bresenham_cells(Point::new(1, 1), Point::new(9, 4))).collect();
    assert_eq!(line.first(), Some(&Point::new(1, 1)));
    assert_eq!(line.last(), Some(&Point::new(9, 4)));
    for w in line.windows(2) {
        let (dx, dy) = ((w[1].x - w[0].x).abs(), (w[1].y - w[0].y).abs());
        assert_eq!(dx + dy, 1, "{line:?}");
    }
    assert_eq!(line.len(), 8 + 3 + 1);
}

proptest::proptest! {
    /// The SIMD overlap test (four rooms a compare, the last group padded) answers as the
    /// plain one and as a test of each room, past the 64 rooms held on the stack too, and at
    /// the lanes' extremes.
    #[test]
    fn both_overlap_tests_agree(
        kept in proptest::collection::vec(proptest::array::uniform4(-70_000i32..70_000), 0..80),
        v in proptest::array::uniform4(-70_000i32..70_000),
        near in proptest::option::of(0usize..80),
        extreme in proptest::option::of(proptest::array::uniform4(proptest::prop_oneof![
            Just(i32::MIN + 1), Just(-1), Just(0), Just(i32::MAX)
        ])),
    ) {
        let mut kept = kept;
        // Often a kept room the candidate touches exactly (equal lanes).
        if let Some(i) = near.filter(|&i| i < kept.len()) {
            kept[i] = v;
        }
        let v = extreme.unwrap_or(v);
        let expected = kept.iter().any(|q| (0..4).all(|i| v[i] <= q[i]));
        let bounds: KeptBounds = kept.iter().copied().collect();
        proptest::prop_assert_eq!(bounds.len(), kept.len());
        proptest::prop_assert!(bounds.iter().eq(kept.iter().copied()));
        proptest::prop_assert_eq!(touches_any(&bounds, v), expected);
        proptest::prop_assert_eq!(touches_any_scalar(&bounds, v), expected);
    }

    /// Scattering (overlap tests on precomputed bounds) keeps the rooms the tutorial's
    /// test keeps, from the same draws.
    #[test]
    fn scatter_keeps_what_the_overlap_test_keeps(
        seed: u64,
        (width, height) in (8i32..200, 8i32..120),
        attempts in 0u32..400,
        (min_size, extra) in (1i32..8, 0i32..6),
        reused in proptest::collection::vec(proptest::array::uniform4(0i32..9), 0..9),
    ) {
        let opts = ScatterOptions { attempts, min_size, max_size: min_size + extra };
        let rooms =
            scatter_rooms(width, height, &mut Rng::new(seed), &opts, &mut Unmetered).unwrap();
        // A list used before takes the same rooms, and nothing of what it held.
        let mut list: Vec<Rect> = reused.iter().map(|&[x, y, w, h]| Rect::new(x, y, w, h)).collect();
        let (mut rng, meter) = (Rng::new(seed), &mut Unmetered);
        scatter_rooms_into(width, height, &mut rng, &opts, meter, &mut list).unwrap();
        proptest::prop_assert_eq!(&list, &rooms);
        let mut rng = Rng::new(seed);
        let mut expected: Vec<Rect> = Vec::new();
        for _ in 0..attempts {
            let w = rng.range(min_size as i64, opts.max_size as i64) as i32;
            let h = rng.range(min_size as i64, opts.max_size as i64) as i32;
            if width - w - 1 < 1 || height - h - 1 < 1 {
                continue;
            }
            let x = rng.range(1, (width - w - 1) as i64) as i32;
            let y = rng.range(1, (height - h - 1) as i64) as i32;
            let room = Rect::new(x, y, w, h);
            if !expected.iter().any(|r| room.intersects(r, 1)) {
                expected.push(room);
            }
        }
        proptest::prop_assert_eq!(rooms, expected);
    }

    /// The pairing is the tutorial's: for each room in order, the nearest room (lowest
    /// index on ties) not yet connected, if any: for centres close together (many ties),
    /// thousands of cells apart, and at negative coordinates.
    #[test]
    fn nearest_pairs_match_the_plain_search(
        centres in proptest::collection::vec((0i32..12, 0i32..12), 0..90),
        scale in proptest::prop_oneof![Just(1), Just(2_978), Just(3_000)],
        offset in proptest::prop_oneof![Just(0), Just(-7), Just(40_000)],
    ) {
        let at = |c: i32| offset + c * scale;
        let rooms: Vec<Rect> =
            centres.iter().map(|&(x, y)| Rect::new(at(x), at(y), 1, 1)).collect();
        let mut connected = vec![false; rooms.len()];
        let mut expected = Vec::new();
        for (i, a) in rooms.iter().enumerate() {
            let best = (0..rooms.len())
                .filter(|&j| j != i && !connected[j])
                .min_by_key(|&j| (a.center().dist2(rooms[j].center()), j));
            if let Some(j) = best {
                expected.push((i, j));
                connected[i] = true;
            }
        }
        proptest::prop_assert_eq!(nearest_pairs(&rooms), expected);
    }
}

#[test]
fn the_pairs_stop_at_the_first_refusal() {
    let rooms: Vec<Rect> = (0..70)
        .map(|i| Rect::new(i * 3, (i * 7) % 11, 1, 1))
        .collect();
    let all = nearest_pairs(&rooms);
    assert_eq!(all.len(), 69);
    let mut seen = Vec::new();
    let refused = each_nearest_pair(&rooms, |i, j| {
        seen.push((i, j));
        if seen.len() == 5 {
            Err("enough")
        } else {
            Ok(())
        }
    });
    assert_eq!(refused, Err("enough"));
    assert_eq!(seen, all[..5]);
}

#[test]
fn nearest_pairs_follow_the_tutorial() {
    let rooms = [
        Rect::new(1, 1, 3, 3),
        Rect::new(10, 1, 3, 3),
        Rect::new(5, 1, 3, 3),
    ];
    // 0 → 2 (nearest), 1 → 0? no: 0 is connected, so 1 → 2; 2 → (0 and 1 connected) none.
    assert_eq!(nearest_pairs(&rooms), vec![(0, 2), (1, 2)]);
}

/// An 80×50 map, the generator for `seed` after it scattered rooms, and the rooms.
fn scattered(seed: u64) -> (Map, Rng, Vec<Rect>) {
    let mut rng = Rng::new(seed);
    let opts = ScatterOptions {
        attempts: 30,
        min_size: 3,
        max_size: 10,
    };
    let rooms = scatter_rooms(80, 50, &mut rng, &opts, &mut Unmetered).unwrap();
    (
        Map::new(80, 50, 0, crate::common::ascii::terrains()).unwrap(),
        rng,
        rooms,
    )
}

const STRATEGIES: [Strategy; 4] = [
    Strategy::Nearest,
    Strategy::Lines,
    Strategy::Dogleg,
    Strategy::Bsp,
];

/// The corridors' work is charged in full, batched or not: a limit of exactly the work
/// succeeds (and makes the unmetered map), one less stops with `Stopped`, for every strategy
/// and adjacency.
#[test]
fn connect_rooms_stops_exactly_past_its_work() {
    for seed in 0..50 {
        for strategy in STRATEGIES {
            for adjacency in [Adjacency::Four, Adjacency::Eight] {
                let brush = Brush::new(1);
                let (mut free, mut r, rooms) = scattered(seed);
                let mut t = Tally::new();
                connect_rooms(
                    &mut free,
                    &mut r,
                    &rooms,
                    strategy,
                    (&brush, adjacency),
                    &mut t,
                )
                .unwrap();
                let (mut m, mut r, rooms) = scattered(seed);
                let mut exact = Tally::with_limit(t.cells);
                connect_rooms(
                    &mut m,
                    &mut r,
                    &rooms,
                    strategy,
                    (&brush, adjacency),
                    &mut exact,
                )
                .unwrap();
                assert!(crate::map::same(&m, &free));
                let (mut m, mut r, rooms) = scattered(seed);
                let mut short = Tally::with_limit(t.cells - 1);
                let e = connect_rooms(
                    &mut m,
                    &mut r,
                    &rooms,
                    strategy,
                    (&brush, adjacency),
                    &mut short,
                )
                .unwrap_err();
                assert!(matches!(e, RoomsError::Stopped(Stopped)), "{e:?}");
            }
        }
    }
}
