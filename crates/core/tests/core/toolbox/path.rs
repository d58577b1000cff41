use crate::common::ascii::{ascii_map, grid_map, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::connectivity::components;
use warren_core::gen::field::distance::Cost;
use warren_core::gen::field::distance::{distance_map, MoveRules};
use warren_core::gen::field::UNREACHABLE;
use warren_core::gen::meter::Unmetered;
use warren_core::gen::path::{cull_unreachable, descend, farthest_from, shortest_path};
use warren_core::map::Rect;
use warren_core::map::{Adjacency, Brush, Point};
use warren_core::rng::Rng;

/// Over 1,000 seeds of random maps and costs: a path exists exactly when the distance map
/// reaches the goal; it starts and ends where asked, steps between neighbours into cells
/// the rules enter, and costs what the distance map says.
#[test]
fn paths_cost_what_distance_maps_say() {
    let mut rng = Rng::new(3);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 20) as usize, rng.range(1, 14) as usize);
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(35)).collect();
        let map = grid_map(w, h, &solid);
        let adjacency = if seed % 2 == 0 {
            Adjacency::Four
        } else {
            Adjacency::Eight
        };
        let mut rules = MoveRules::new(adjacency);
        if seed % 3 == 0 {
            rules = rules.with(ROCK, Cost::Units(rng.range(2, 6) as u32));
        }
        let pick =
            |rng: &mut Rng| Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32);
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let field = distance_map(&map, Area::Map, &[a], &rules, &mut Unmetered).unwrap();
        let path = shortest_path(&map, Area::Map, a, b, &rules, &mut Unmetered).unwrap();
        let want = field.get(b).unwrap();
        let Some(path) = path else {
            assert_eq!(want, UNREACHABLE, "seed {seed}: no path, but a distance");
            continue;
        };
        assert_eq!((path[0], *path.last().unwrap()), (a, b), "seed {seed}");
        let cost_of = |path: &[Point]| -> f32 {
            let mut cost = 0.0;
            for pair in path.windows(2) {
                let (p, q) = (pair[0], pair[1]);
                assert!(
                    adjacency.dirs().iter().any(|&d| p.step(d) == q),
                    "seed {seed}"
                );
                cost += match (map.is_solid(q).unwrap(), rules.costs.get(ROCK as usize)) {
                    (true, Some(Cost::Units(c))) => *c as f32,
                    (true, _) => panic!("seed {seed}: the path enters rock"),
                    (false, _) => 1.0,
                };
            }
            cost
        };
        assert_eq!(cost_of(&path), want, "seed {seed}");
        let mut down = descend(&field, b, adjacency).unwrap();
        assert_eq!(*down.last().unwrap(), a, "seed {seed}");
        down.reverse();
        assert_eq!(
            cost_of(&down),
            want,
            "seed {seed}: a descent is a cheapest path"
        );
    }
}

/// Over 1,000 seeds: after culling from a cell, the passable cells form one area in the
/// chosen adjacency, the one that held the cell; and nothing reachable was touched.
#[test]
fn culling_leaves_one_area() {
    let mut rng = Rng::new(9);
    for seed in 0..1000 {
        let (w, h) = (rng.range(2, 24) as usize, rng.range(2, 16) as usize);
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(45)).collect();
        let mut map = grid_map(w, h, &solid);
        let Some(start) = (0..map.len()).find(|&i| !solid[i]).map(|i| map.point(i)) else {
            continue;
        };
        let adjacency = if seed % 2 == 0 {
            Adjacency::Four
        } else {
            Adjacency::Eight
        };
        let before = components(&map, adjacency);
        let kept = before.list()[before.component_at(start).unwrap().unwrap()].size;
        let culled = cull_unreachable(
            &mut map,
            Area::Map,
            &[start],
            adjacency,
            &Brush::new(ROCK).forced(),
            &mut Unmetered,
        )
        .unwrap();
        let after = components(&map, adjacency);
        assert_eq!(after.len(), 1, "seed {seed}");
        assert_eq!(after.list()[0].size, kept, "seed {seed}");
        assert_eq!(culled + kept, solid.iter().filter(|&&s| !s).count());
    }
}

#[test]
fn culling_stays_in_its_area_and_the_far_cell_is_the_distant_exit() {
    let mut map = ascii_map(&["#######", "#..#..#", "#######"]);
    let culled = cull_unreachable(
        &mut map,
        Area::Rect(Rect::new(0, 0, 5, 3)),
        &[Point::new(1, 1)],
        Adjacency::Four,
        &Brush::new(ROCK),
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(culled, 1, "only (4, 1) is in the area and cut off");
    assert!(map.is_solid(Point::new(4, 1)).unwrap());
    assert!(!map.is_solid(Point::new(5, 1)).unwrap());
    // A door cut off with its room goes with it when the room is walled.
    let mut map = ascii_map(&["#######", "#..#+.#", "#######"]);
    let culled = cull_unreachable(
        &mut map,
        Area::Map,
        &[Point::new(1, 1)],
        Adjacency::Four,
        &Brush::new(ROCK),
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(culled, 2);
    assert!(!map.is_passable(Point::new(4, 1)).unwrap());
    assert!(map.notes.doors.is_empty());
    let map = ascii_map(&["#####", "#...#", "#.#.#", "#####"]);
    let rules = MoveRules::new(Adjacency::Four);
    let far = farthest_from(&map, Area::Map, Point::new(1, 2), &rules, &mut Unmetered);
    assert_eq!(far.unwrap(), Point::new(3, 2));
    let none = shortest_path(
        &map,
        Area::Map,
        Point::new(1, 1),
        Point::new(2, 2),
        &rules,
        &mut Unmetered,
    );
    assert_eq!(none.unwrap(), None);
}
