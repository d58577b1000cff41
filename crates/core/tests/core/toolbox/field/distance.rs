use crate::common::ascii::{ascii_map, grid_map, CHASM, ROCK};
use std::collections::{BinaryHeap, VecDeque};
use warren_core::gen::area::Area;
use warren_core::gen::area::Mask;
use warren_core::gen::field::distance::{distance_map, farthest, Cost, MoveRules};
use warren_core::gen::field::{Field, UNREACHABLE};
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::Rect;
use warren_core::map::{Adjacency, Map, Point, TerrainId};
use warren_core::rng::Rng;

/// A mask whose bounding rectangle is the whole map still keeps its holes: a search never
/// enters a cell the mask leaves out (the whole-map shortcut is for rectangles only).
#[test]
fn a_mask_spanning_the_map_keeps_its_holes() {
    let map = grid_map(5, 5, &[false; 25]);
    let mut mask = Mask::new(5, 5, true);
    mask.set(Point::new(2, 2), false).unwrap();
    let rules = MoveRules::new(Adjacency::Four);
    let f = distance_map(
        &map,
        Area::Mask(&mask),
        &[Point::new(0, 0)],
        &rules,
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(f.get(Point::new(2, 2)).unwrap(), UNREACHABLE);
    assert_eq!(f.get(Point::new(4, 4)).unwrap(), 8.0);
}

/// A random `w × h` map, `percent` of it rock.
fn random_map(rng: &mut Rng, w: usize, h: usize, percent: i64) -> Map {
    let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(percent)).collect();
    grid_map(w, h, &solid)
}

/// The neighbours of `p` on `map` in `adjacency`.
fn neighbours(map: &Map, p: Point, adjacency: Adjacency) -> Vec<Point> {
    adjacency
        .dirs()
        .iter()
        .map(|&d| p.step(d))
        .filter(|q| map.in_bounds(*q))
        .collect()
}

/// Breadth-first distances from `sources` over passable cells: the plain algorithm.
fn reference_bfs(map: &Map, sources: &[Point], adjacency: Adjacency) -> Vec<f32> {
    let mut dist = vec![UNREACHABLE; map.len()];
    let mut queue = VecDeque::new();
    for &s in sources {
        dist[map.index(s).unwrap()] = 0.0;
        queue.push_back(s);
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[map.index(p).unwrap()];
        for q in neighbours(map, p, adjacency) {
            let j = map.index(q).unwrap();
            if map.is_passable(q).unwrap() && dist[j] == UNREACHABLE {
                dist[j] = d + 1.0;
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Distances by a binary-heap Dijkstra with a per-cell cost function (`None`: blocked).
fn reference_dijkstra(
    map: &Map,
    sources: &[Point],
    adjacency: Adjacency,
    cost: impl Fn(Point) -> Option<u32>,
) -> Vec<f32> {
    let mut dist = vec![u32::MAX; map.len()];
    let mut heap = BinaryHeap::new();
    for &s in sources {
        dist[map.index(s).unwrap()] = 0;
        heap.push(std::cmp::Reverse((0u32, s.x, s.y)));
    }
    while let Some(std::cmp::Reverse((d, x, y))) = heap.pop() {
        let p = Point::new(x, y);
        if d > dist[map.index(p).unwrap()] {
            continue;
        }
        for q in neighbours(map, p, adjacency) {
            let j = map.index(q).unwrap();
            if let Some(c) = cost(q) {
                if d + c < dist[j] {
                    dist[j] = d + c;
                    heap.push(std::cmp::Reverse((d + c, q.x, q.y)));
                }
            }
        }
    }
    dist.iter()
        .map(|&d| if d == u32::MAX { UNREACHABLE } else { d as f32 })
        .collect()
}

/// Over 1,000 seeds, random maps with one to three sources: the distance map equals an
/// independent breadth-first search, 4- and 8-way.
#[test]
fn distances_equal_an_independent_bfs() {
    let mut rng = Rng::new(7);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 24) as usize, rng.range(1, 16) as usize);
        let percent = rng.range(0, 60);
        let map = random_map(&mut rng, w, h, percent);
        let sources: Vec<Point> = (0..rng.range(1, 3))
            .map(|_| Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32))
            .collect();
        for adjacency in [Adjacency::Four, Adjacency::Eight] {
            let rules = MoveRules::new(adjacency);
            let f = distance_map(&map, Area::Map, &sources, &rules, &mut Unmetered).unwrap();
            assert_eq!(
                f.values(),
                reference_bfs(&map, &sources, adjacency),
                "seed {seed} {adjacency}"
            );
        }
    }
}

/// Over 1,000 seeds, with costs per terrain (rock enterable at a price, chasms blocked or
/// dear): the distance map equals a binary-heap Dijkstra.
#[test]
fn weighted_distances_equal_a_reference_dijkstra() {
    let mut rng = Rng::new(11);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 20) as usize, rng.range(1, 14) as usize);
        let mut map = random_map(&mut rng, w, h, 40);
        for i in 0..map.len() {
            if rng.percent(10) {
                map.write_index(i, &warren_core::map::Brush::new(CHASM).forced());
            }
        }
        let rock = rng.range(1, 9) as u32;
        let chasm = if rng.percent(50) {
            Cost::Blocked
        } else {
            Cost::Units(3)
        };
        let adjacency = if seed % 2 == 0 {
            Adjacency::Four
        } else {
            Adjacency::Eight
        };
        let rules = MoveRules::new(adjacency)
            .with(ROCK, Cost::Units(rock))
            .with(CHASM, chasm);
        let src = [Point::new(
            rng.below(w as u64) as i32,
            rng.below(h as u64) as i32,
        )];
        let f = distance_map(&map, Area::Map, &src, &rules, &mut Unmetered).unwrap();
        let want = reference_dijkstra(&map, &src, adjacency, |q| {
            let t = map.terrain_at(q).unwrap();
            match (t, chasm) {
                (ROCK, _) => Some(rock),
                (CHASM, Cost::Blocked) => None,
                (CHASM, _) => Some(3),
                _ => Some(1),
            }
        });
        assert_eq!(f.values(), want, "seed {seed}");
    }
}

/// Over 2,000 seeds, every path through [`distance_map`] (the bit-set walk for unit costs,
/// plain or through a cost table, and Dial's buckets) against a binary-heap Dijkstra: random
/// maps of rock, floor, doors and chasms, random costs per terrain (the map's rule, units,
/// blocked), the whole map, a rectangle or a mask, one to four sources anywhere (walls and
/// cells outside the area too, repeats allowed), 4- and 8-way; widths around the 64-cell
/// words. The meter is charged what it always was: a unit a cell of the map, then one per
/// step from each cell reached.
#[test]
fn every_path_equals_a_reference_dijkstra_under_random_rules_and_areas() {
    let mut rng = Rng::new(23);
    let pick = |rng: &mut Rng| match rng.below(6) {
        0 | 1 => Cost::Default,
        2 => Cost::Units(1),
        3 => Cost::Blocked,
        _ => Cost::Units(rng.range(1, 12) as u32),
    };
    for seed in 0..2000 {
        let w = match seed % 4 {
            0 => rng.range(1, 8),
            1 => rng.range(60, 70),
            2 => rng.range(120, 135),
            _ => rng.range(1, 40),
        } as usize;
        let h = rng.range(1, 12) as usize;
        let percent = rng.range(0, 50);
        let mut map = random_map(&mut rng, w, h, percent);
        for i in 0..map.len() {
            match rng.below(20) {
                0 => {
                    map.write_index(i, &warren_core::map::Brush::new(CHASM).forced());
                }
                1 => crate::common::ascii::put_door(&mut map, i),
                _ => {}
            }
        }
        let mut rules = MoveRules::new(if rng.percent(50) {
            Adjacency::Four
        } else {
            Adjacency::Eight
        });
        if rng.percent(60) {
            for t in 0..rng.range(1, 4) as TerrainId {
                rules = rules.with(t, pick(&mut rng));
            }
        }
        let mut mask = Mask::new(w as i32, h as i32, false);
        for i in 0..w * h {
            mask.set(map.point(i), rng.percent(80)).unwrap();
        }
        let (x, y) = (rng.below(w as u64) as i32, rng.below(h as u64) as i32);
        let rect = Rect::new(
            x,
            y,
            rng.range(1, w as i64 - x as i64) as i32,
            rng.range(1, h as i64 - y as i64) as i32,
        );
        let (area, inside): (Area<'_>, Box<dyn Fn(Point) -> bool>) = match rng.below(3) {
            0 => (Area::Map, Box::new(|_| true)),
            1 => (Area::Rect(rect), Box::new(move |p| rect.contains(p))),
            _ => (Area::Mask(&mask), Box::new(|p: Point| mask.get(p.x, p.y))),
        };
        let sources: Vec<Point> = (0..rng.range(1, 4))
            .map(|_| Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32))
            .collect();
        let mut tally = Tally::new();
        let f = distance_map(&map, area, &sources, &rules, &mut tally).unwrap();
        let want = reference_dijkstra(&map, &sources, rules.adjacency, |q| {
            if !inside(q) {
                return None;
            }
            let t = map.terrain_at(q).unwrap();
            match rules
                .costs
                .get(t as usize)
                .copied()
                .unwrap_or(Cost::Default)
            {
                Cost::Default => map.is_passable(q).unwrap().then_some(1),
                Cost::Units(c) => Some(c),
                Cost::Blocked => None,
            }
        });
        assert_eq!(f.values(), want, "seed {seed} {rules:?}");
        let reached = want.iter().filter(|d| d.is_finite()).count() as u64;
        let steps = rules.adjacency.dirs().len() as u64;
        assert_eq!(tally.cells, (w * h) as u64 + reached * steps, "seed {seed}");
    }
}

#[test]
fn areas_confine_the_walk_and_sources_may_be_walls() {
    let map = ascii_map(&["#######", "#.....#", "#.....#", "#######"]);
    let rules = MoveRules::new(Adjacency::Four);
    let f = distance_map(
        &map,
        Area::Rect(Rect::new(1, 1, 3, 2)),
        &[Point::new(1, 1)],
        &rules,
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(f.get(Point::new(3, 2)).unwrap(), 3.0);
    assert_eq!(f.get(Point::new(4, 1)).unwrap(), UNREACHABLE);
    // The distance from the walls: every rock cell a source.
    let walls: Vec<Point> = (0..map.len())
        .map(|i| map.point(i))
        .filter(|&p| map.is_solid(p).unwrap())
        .collect();
    let f = distance_map(&map, Area::Map, &walls, &rules, &mut Unmetered).unwrap();
    assert_eq!(f.get(Point::new(3, 1)).unwrap(), 1.0);
    assert_eq!(f.get(Point::new(0, 0)).unwrap(), 0.0);
    let mut mask = Mask::new(7, 4, false);
    mask.set(Point::new(2, 1), true).unwrap();
    let f = distance_map(
        &map,
        Area::Mask(&mask),
        &[Point::new(1, 1)],
        &rules,
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(f.get(Point::new(2, 1)).unwrap(), 1.0);
    assert_eq!(f.get(Point::new(2, 2)).unwrap(), UNREACHABLE);
}

#[test]
fn bad_rules_and_sources_are_errors_and_meters_stop_the_walk() {
    let map = ascii_map(&["....", "...."]);
    let rules = MoveRules::new(Adjacency::Eight);
    let e = distance_map(&map, Area::Map, &[], &rules, &mut Unmetered).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a distance map needs at least one source cell"
    );
    let e = distance_map(&map, Area::Map, &[Point::new(4, 0)], &rules, &mut Unmetered);
    assert!(matches!(e, Err(ToolError::Map(_))));
    let bad = rules.clone().with(0, Cost::Units(0));
    let e = distance_map(&map, Area::Map, &[Point::new(0, 0)], &bad, &mut Unmetered);
    assert_eq!(
        e.unwrap_err().to_string(),
        "a move cost of 0 is out of range: costs are whole numbers 1..=1000"
    );
    let mut t = Tally::with_limit(3);
    let e = distance_map(&map, Area::Map, &[Point::new(0, 0)], &rules, &mut t);
    assert!(matches!(e, Err(ToolError::Stopped(_))));
}

#[test]
fn the_farthest_cell_is_the_first_of_the_largest() {
    let map = ascii_map(&["#....", "#.#..", "#...."]);
    let f = distance_map(
        &map,
        Area::Map,
        &[Point::new(1, 0)],
        &MoveRules::new(Adjacency::Four),
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(farthest(&f), Some(Point::new(4, 2)));
    assert_eq!(farthest(&Field::new(2, 2, UNREACHABLE)), None);
}
