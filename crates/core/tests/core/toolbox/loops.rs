use crate::common::ascii::{ascii_map, grid_map, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::connectivity::components;
use warren_core::gen::field::distance::{distance_map, MoveRules};
use warren_core::gen::loops::{add_loops, Loops};
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::{Adjacency, Brush, Map, Point};
use warren_core::rng::Rng;

/// The walking distance between `a` and `b` on `map` (infinite when no walk joins them).
fn walk(map: &Map, a: Point, b: Point, adjacency: Adjacency) -> f32 {
    let rules = MoveRules::new(adjacency);
    let d = distance_map(map, Area::Map, &[a], &rules, &mut Unmetered).unwrap();
    d.get(b).unwrap()
}

/// Over 1,000 random maps: every opening was a one-cell wall whose sides were at least
/// `min_distance` apart just before it was made (replayed in order, measured by an
/// independent distance map), no more than `max_count` are made, areas never split, and the
/// same seed opens the same cells.
#[test]
fn loops_open_only_walls_between_far_places() {
    let mut rng = Rng::new(53);
    for seed in 0..1000 {
        let (w, h) = (rng.range(3, 24) as usize, rng.range(3, 16) as usize);
        let solid: Vec<bool> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                x == 0 || y == 0 || x == w - 1 || y == h - 1 || rng.percent(45)
            })
            .collect();
        let adjacency = if seed % 2 == 0 {
            Adjacency::Four
        } else {
            Adjacency::Eight
        };
        let options = Loops {
            min_distance: rng.range(2, 30) as u32,
            max_count: rng.range(0, 12) as u32,
            adjacency,
        };
        let run = |seed| {
            let mut map = grid_map(w, h, &solid);
            let made = add_loops(
                &mut map,
                Area::Map,
                &options,
                &mut Rng::new(seed),
                &Brush::new(FLOOR),
                &mut Unmetered,
            )
            .unwrap();
            (map, made)
        };
        let (map, made) = run(seed);
        assert_eq!(made, run(seed).1, "seed {seed}");
        assert!(made.len() <= options.max_count as usize, "seed {seed}");
        let mut replay = grid_map(w, h, &solid);
        let before = components(&replay, adjacency).len();
        for &p in &made {
            let open = |dx: i32, dy: i32| !replay.is_solid(Point::new(p.x + dx, p.y + dy)).unwrap();
            assert!(replay.is_solid(p).unwrap(), "seed {seed}: {p:?} was open");
            let (a, b) = if open(-1, 0) && open(1, 0) && !open(0, -1) && !open(0, 1) {
                (Point::new(p.x - 1, p.y), Point::new(p.x + 1, p.y))
            } else {
                assert!(open(0, -1) && open(0, 1) && !open(-1, 0) && !open(1, 0));
                (Point::new(p.x, p.y - 1), Point::new(p.x, p.y + 1))
            };
            let d = walk(&replay, a, b, adjacency);
            assert!(
                d >= options.min_distance as f32,
                "seed {seed}: opened {p:?} where the sides were {d} apart"
            );
            replay.write(p, &Brush::new(FLOOR)).unwrap();
        }
        assert_eq!(replay.terrain_cells(), map.terrain_cells(), "seed {seed}");
        assert!(components(&map, adjacency).len() <= before, "seed {seed}");
    }
}

#[test]
fn a_closed_door_is_recorded_and_near_walls_stay() {
    // Two rooms joined at the bottom: across the wall at row 1 the walk is 10 steps, at
    // row 2 8 steps, at row 3 6 steps (row 4's wall touches the passage below).
    let map_rows = [
        "#######", "#..#..#", "#..#..#", "#..#..#", "#..#..#", "#.....#", "#######",
    ];
    let mut map = ascii_map(&map_rows);
    let options = Loops {
        min_distance: 9,
        max_count: 10,
        adjacency: Adjacency::Four,
    };
    let door = Brush::new(ROCK);
    let made = add_loops(
        &mut map,
        Area::Map,
        &options,
        &mut Rng::new(1),
        &door,
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(made, [Point::new(3, 1)]);
    assert!(map.is_door(Point::new(3, 1)).unwrap());
    assert!(map.is_passable(Point::new(3, 1)).unwrap());
    let mut again = ascii_map(&map_rows);
    let strict = Loops {
        min_distance: 11,
        ..options
    };
    let none = add_loops(
        &mut again,
        Area::Map,
        &strict,
        &mut Rng::new(1),
        &door,
        &mut Unmetered,
    );
    assert_eq!(none.unwrap(), []);
    let bad = Loops {
        min_distance: 1,
        ..options
    };
    let e = add_loops(
        &mut again,
        Area::Map,
        &bad,
        &mut Rng::new(1),
        &door,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "loops option min_distance = 1 is out of range: 2..=100000"
    );
    let mut t = Tally::with_limit(3);
    let e = add_loops(
        &mut again,
        Area::Map,
        &options,
        &mut Rng::new(1),
        &door,
        &mut t,
    );
    assert!(matches!(e, Err(ToolError::Stopped(_))));
}
