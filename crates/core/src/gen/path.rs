//! Paths under [`MoveRules`]: the cheapest path between two cells (A*), the farthest reachable
//! cell (a "distant exit"), and culling the open cells a walker cannot reach.

use super::area::Area;
use super::field::distance::{distance_map, search, CostGrid, MoveRules};
use super::field::{Field, UNREACHABLE};
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{passable, Adjacency, Brush, Map, Point, FLAG_TERRAIN};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The cheapest path from `from` to `to` inside `area` under `rules`, both ends included
/// (`[from]` when they are the same cell), or `None` when no walk reaches `to`. Like a distance
/// map's source, `from` may be a cell the rules do not enter; every later cell is entered by
/// the rules. Among paths of equal cost the search keeps the one it finds first, which depends
/// only on the map, so the path is the same on every run.
pub fn shortest_path(
    map: &Map,
    area: Area<'_>,
    from: Point,
    to: Point,
    rules: &MoveRules,
    meter: &mut dyn Meter,
) -> Result<Option<Vec<Point>>, ToolError> {
    map.index(from)?;
    map.index(to)?;
    let grid = CostGrid::new(map, area, rules, meter)?;
    if from == to {
        return Ok(Some(vec![from]));
    }
    let (start, goal) = (grid.padded(from), grid.padded(to));
    if grid.cost[goal] == 0 {
        return Ok(None);
    }
    // The smallest cost a step can have makes the heuristic admissible: Manhattan steps for
    // 4-way walkers, Chebyshev steps for 8-way ones (a diagonal costs what a straight step does).
    let least = grid
        .cost
        .iter()
        .copied()
        .filter(|&c| c > 0)
        .min()
        .unwrap_or(1) as u64;
    let eight = grid.steps.len() == 8;
    let heuristic = |i: usize| -> u64 {
        let p = grid.point(i);
        let (dx, dy) = ((p.x - to.x).unsigned_abs(), (p.y - to.y).unsigned_abs());
        least * if eight { dx.max(dy) } else { dx + dy } as u64
    };
    let mut best = vec![u64::MAX; grid.cost.len()];
    let mut came = vec![u32::MAX; grid.cost.len()];
    let mut heap = BinaryHeap::new();
    best[start] = 0;
    heap.push(Reverse((heuristic(start), 0u64, start as u32)));
    let mut meter = Batched::new(meter);
    while let Some(Reverse((_, g, i))) = heap.pop() {
        let i = i as usize;
        if g > best[i] {
            continue;
        }
        if i == goal {
            break;
        }
        meter.work(grid.steps.len() as u64)?;
        for &s in &grid.steps {
            let n = i.wrapping_add_signed(s);
            let c = grid.cost[n] as u64;
            if c != 0 && g + c < best[n] {
                best[n] = g + c;
                came[n] = i as u32;
                heap.push(Reverse((g + c + heuristic(n), g + c, n as u32)));
            }
        }
    }
    meter.finish()?;
    if best[goal] == u64::MAX {
        return Ok(None);
    }
    let mut path = vec![to];
    let mut i = goal;
    while i != start {
        i = came[i] as usize;
        path.push(grid.point(i));
    }
    path.reverse();
    Ok(Some(path))
}

/// The cells of a walk down a distance map from `from` to one of its sources: each step goes to
/// the neighbour (in `adjacency`) with the smallest value, the first in the adjacency's
/// direction order among equals. `None` when `from` is unreachable.
pub fn descend(field: &Field, from: Point, adjacency: Adjacency) -> Option<Vec<Point>> {
    let at = |p: Point| field.get(p).unwrap_or(UNREACHABLE);
    let mut here = at(from);
    if !here.is_finite() {
        return None;
    }
    let mut path = vec![from];
    let mut p = from;
    while here > 0.0 {
        let (next, v) = adjacency
            .dirs()
            .iter()
            .map(|&d| p.step(d))
            .map(|q| (q, at(q)))
            .fold((p, here), |best, c| if c.1 < best.1 { c } else { best });
        if next == p {
            break;
        }
        p = next;
        here = v;
        path.push(p);
    }
    Some(path)
}

/// The cell farthest (by walking cost under `rules`) from `from` inside `area`: the "distant
/// exit". The first in row-major order among equals; `from` itself when nothing else is
/// reachable.
pub fn farthest_from(
    map: &Map,
    area: Area<'_>,
    from: Point,
    rules: &MoveRules,
    meter: &mut dyn Meter,
) -> Result<Point, ToolError> {
    let f = distance_map(map, area, &[from], rules, meter)?;
    Ok(super::field::distance::farthest(&f).unwrap_or(from))
}

/// Writes `brush` on every passable cell of `area` that a walker in `adjacency` cannot reach
/// from any of `from` (through passable cells of the area), leaving one connected area (in that
/// adjacency) where the writes succeed: a write that loses to a higher priority leaves its cell
/// as it was. A door on a cell walled this way is taken away with it. Returns the number of
/// cells written.
pub fn cull_unreachable(
    map: &mut Map,
    area: Area<'_>,
    from: &[Point],
    adjacency: Adjacency,
    brush: &Brush,
    meter: &mut dyn Meter,
) -> Result<usize, ToolError> {
    if from.is_empty() {
        return Err(ToolError::NoSources {
            what: "cull_unreachable",
        });
    }
    for p in from {
        map.index(*p)?;
    }
    let grid = CostGrid::new(map, area, &MoveRules::new(adjacency), meter)?;
    let dist = search(&grid, from, meter)?;
    let w = map.width() as usize;
    let mut written = 0;
    for i in 0..map.len() {
        let padded = (i % w + 1) + (i / w + 1) * grid.stride;
        if grid.cost[padded] != 0 && dist[padded] == u32::MAX && passable(map.flag_cells()[i]) {
            let wrote = map.write_index(i, brush);
            // A door standing there would keep the walled cell open: it goes with the wall.
            if wrote && map.flag_cells()[i] & FLAG_TERRAIN != 0 {
                map.remove_door(map.point(i))?;
            }
            written += wrote as usize;
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::connectivity::ascii::{ascii_map, grid_map, ROCK};
    use crate::gen::connectivity::components;
    use crate::gen::field::distance::Cost;
    use crate::gen::meter::Unmetered;
    use crate::map::Rect;
    use crate::rng::Rng;

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
}
