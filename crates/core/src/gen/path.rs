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
