use crate::common::ascii::{grid_map, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::area::Mask;
use warren_core::gen::connectivity::components;
use warren_core::gen::maze::{maze, Algorithm, Carved, MazeBrushes};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{Adjacency, Rect};
use warren_core::map::{Brush, Map, Point};
use warren_core::rng::Rng;

const ALL: [Algorithm; 5] = [
    Algorithm::Backtracker,
    Algorithm::Prim,
    Algorithm::Kruskal,
    Algorithm::Eller,
    Algorithm::Division,
];

/// The open cells of `map` and the pairs of them side by side (4-way).
fn graph(map: &Map) -> (usize, usize) {
    let (w, h) = (map.width(), map.height());
    let open = |x: i32, y: i32| x < w && y < h && map.is_passable(Point::new(x, y)).unwrap();
    let mut cells = 0;
    let mut pairs = 0;
    for y in 0..h {
        for x in 0..w {
            if open(x, y) {
                cells += 1;
                pairs += open(x + 1, y) as usize + open(x, y + 1) as usize;
            }
        }
    }
    (cells, pairs)
}

fn carve(
    w: usize,
    h: usize,
    area: Area<'_>,
    algorithm: Algorithm,
    braid: u32,
    seed: u64,
) -> (Map, Carved) {
    let mut map = grid_map(w, h, &vec![true; w * h]);
    let passage = Brush::new(FLOOR);
    let brushes = MazeBrushes {
        passage: &passage,
        wall: None,
    };
    let carved = maze(
        &mut map,
        area,
        algorithm,
        braid,
        &mut Rng::new(seed),
        brushes,
        &mut Unmetered,
    )
    .unwrap();
    (map, carved)
}

/// Over 1,000 seeds per algorithm and random sizes: the carved map is a spanning tree (its open
/// cells are one 4-connected area with exactly one fewer side-by-side pair than cells: no loop),
/// every maze cell is open, and the same seed carves the same maze.
#[test]
fn every_algorithm_makes_a_spanning_tree() {
    let mut rng = Rng::new(41);
    for algorithm in ALL {
        for seed in 0..1000 {
            let (w, h) = (rng.range(3, 41) as usize, rng.range(3, 31) as usize);
            let (map, carved) = carve(w, h, Area::Map, algorithm, 0, seed);
            let want_cells = ((w - 1) / 2) * ((h - 1) / 2);
            assert_eq!(carved.cells, want_cells, "{algorithm:?} seed {seed}");
            assert_eq!(
                carved.passages + 1,
                carved.cells,
                "{algorithm:?} seed {seed}"
            );
            let (cells, pairs) = graph(&map);
            assert_eq!(pairs + 1, cells, "{algorithm:?} seed {seed}: a loop");
            assert_eq!(
                components(&map, Adjacency::Four).len(),
                1,
                "{algorithm:?} seed {seed}"
            );
            assert_eq!(
                map.terrain_cells(),
                carve(w, h, Area::Map, algorithm, 0, seed).0.terrain_cells()
            );
        }
    }
}

/// Over 1,000 seeds per algorithm: braiding keeps the maze connected and adds one loop per wall
/// it opens; braiding every dead end leaves none (on grids at least two cells each way).
#[test]
fn braids_add_loops_and_remove_dead_ends() {
    let mut rng = Rng::new(43);
    for algorithm in ALL {
        for seed in 0..1000 {
            let (w, h) = (rng.range(5, 41) as usize, rng.range(5, 31) as usize);
            let percent = if seed % 2 == 0 {
                100
            } else {
                rng.range(1, 99) as u32
            };
            let (map, carved) = carve(w, h, Area::Map, algorithm, percent, seed);
            assert_eq!(
                carved.passages + 1,
                carved.cells + carved.braided,
                "{algorithm:?} seed {seed}"
            );
            assert_eq!(
                components(&map, Adjacency::Four).len(),
                1,
                "{algorithm:?} seed {seed}"
            );
            if percent == 100 {
                let (gw, gh) = ((w - 1) / 2, (h - 1) / 2);
                for j in 0..gh {
                    for i in 0..gw {
                        let p = Point::new(1 + 2 * i as i32, 1 + 2 * j as i32);
                        let exits = Adjacency::Four
                            .dirs()
                            .iter()
                            .filter(|&&d| map.is_passable(p.step(d)).unwrap())
                            .count();
                        assert!(exits >= 2, "{algorithm:?} seed {seed}: dead end at {p:?}");
                    }
                }
            }
        }
    }
}

/// Backtracker, Prim and Kruskal on masks: a spanning tree of each connected part of the grid
/// the mask allows; nothing outside the mask is touched. Eller and division refuse masks.
#[test]
fn graph_algorithms_work_on_masks() {
    let mut rng = Rng::new(47);
    for seed in 0..1000 {
        let (w, h) = (rng.range(5, 31) as i32, rng.range(5, 25) as i32);
        let mut mask = Mask::new(w, h, false);
        for c in mask.cells_mut() {
            *c = rng.percent(85);
        }
        let algorithm = ALL[(seed % 3) as usize];
        let (map, _) = carve(
            w as usize,
            h as usize,
            Area::Mask(&mask),
            algorithm,
            0,
            seed,
        );
        for i in 0..map.len() {
            let p = map.point(i);
            assert!(
                mask.get(p.x, p.y) || map.is_solid(p).unwrap(),
                "seed {seed}"
            );
        }
        let (cells, pairs) = graph(&map);
        let parts = components(&map, Adjacency::Four).len();
        assert_eq!(pairs + parts, cells, "{algorithm:?} seed {seed}: a loop");
    }
    let mut map = grid_map(9, 9, &[true; 81]);
    let mut mask = Mask::new(9, 9, true);
    mask.set(Point::new(3, 3), false).unwrap();
    let floor = Brush::new(FLOOR);
    let b = MazeBrushes {
        passage: &floor,
        wall: None,
    };
    let e = maze(
        &mut map,
        Area::Mask(&mask),
        Algorithm::Eller,
        0,
        &mut Rng::new(1),
        b,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "eller needs a rectangular area (the whole map, a rectangle or a room), not a mask"
    );
    let e = maze(
        &mut map,
        Area::Map,
        Algorithm::Prim,
        101,
        &mut Rng::new(1),
        b,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "maze option braid = 101 is out of range: 0..=100"
    );
}

#[test]
fn mazes_in_rooms_keep_the_outer_ring_and_can_wall_first() {
    let mut map = grid_map(13, 9, &[]);
    let (floor, rock) = (Brush::new(FLOOR), Brush::new(ROCK));
    let b = MazeBrushes {
        passage: &floor,
        wall: Some(&rock),
    };
    let room = Rect::new(2, 2, 7, 5);
    let carved = maze(
        &mut map,
        Area::Rect(room),
        Algorithm::Division,
        0,
        &mut Rng::new(5),
        b,
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(carved.cells, 6);
    for p in room.outline() {
        assert!(map.is_solid(p).unwrap(), "{p:?} on the ring");
    }
    assert!(
        !map.is_solid(Point::new(0, 0)).unwrap(),
        "outside the room untouched"
    );
    assert!(ALL
        .iter()
        .all(|a| Algorithm::from_name(a.name()) == Some(*a)));
}
