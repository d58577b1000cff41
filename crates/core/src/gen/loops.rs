//! Brogue's loops (`addLoops` in Architect.c): a level grown as a tree of rooms has one way
//! between any two places; a door knocked through a wall where two open cells are close in space
//! but far apart by path makes a loop, so a walker has a choice.
//!
//! **The rule.** A candidate is a closed cell of the area, off the map's edge, with open cells on
//! two opposite sides (west and east, or north and south) and closed cells on the other two: a
//! one-cell wall between two places. Candidates are tried in a random order (drawn from the
//! rng); a candidate becomes an opening when the walking distance between its two sides, over
//! the open cells in the chosen adjacency, is at least `min_distance` steps (sides that no walk
//! joins are infinitely far, so a loop may also join two separate areas). Each opening changes
//! the distances the next candidates see. The search from one side stops at `min_distance`
//! steps, so a candidate costs at most the cells within that distance.

use super::area::Area;
use super::field::distance::{fill_padded_passable, padded_steps};
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{passable, Adjacency, Brush, Door, DoorState, Map, Point};
use crate::rng::Rng;

/// How loops are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loops {
    /// The shortest walk, in steps, between the two sides of a wall that earns it an opening,
    /// `2..=100_000` (Brogue: 20 on an 79×29 level).
    pub min_distance: u32,
    /// The most openings made, `0..=100_000`.
    pub max_count: u32,
    /// How a walker steps when distances are measured.
    pub adjacency: Adjacency,
}

impl Default for Loops {
    fn default() -> Self {
        Loops {
            min_distance: 20,
            max_count: 1000,
            adjacency: Adjacency::Eight,
        }
    }
}

/// Adds loops to `map` inside `area` (see the module's rule): each opening is written with
/// `door` through the map's priority rules (a candidate whose write loses is skipped); when the
/// door's terrain is not passable (a closed door) a closed door is recorded there, so walkers
/// pass. Returns the openings in the order they were made.
pub fn add_loops(
    map: &mut Map,
    area: Area<'_>,
    options: &Loops,
    rng: &mut Rng,
    door: &Brush,
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, ToolError> {
    let o = options;
    let range =
        |key, value: u32, bounds| ToolError::check_range("loops", key, value as i64, bounds);
    range("min_distance", o.min_distance, (2, 100_000))?;
    range("max_count", o.max_count, (0, 100_000))?;
    let scope = area.on(map)?;
    let (w, h) = (map.width(), map.height());
    let open_at = |map: &Map, x: i32, y: i32| {
        x >= 0 && y >= 0 && x < w && y < h && passable(map.flag_cells()[(x + y * w) as usize])
    };
    let mut candidates: Vec<Point> = scope
        .cells()
        .filter(|p| p.x > 0 && p.y > 0 && p.x < w - 1 && p.y < h - 1)
        .filter(|p| !open_at(map, p.x, p.y) && sides(map, *p, &open_at).is_some())
        .collect();
    rng.shuffle(&mut candidates);
    let mut search = Search::new(map, o.adjacency);
    let mut work = Batched::new(meter);
    let mut made = Vec::new();
    for p in candidates {
        if made.len() >= o.max_count as usize {
            break;
        }
        work.work(1)?;
        // Earlier openings may have changed this cell's sides.
        let Some((a, b)) = sides(map, p, &open_at) else {
            continue;
        };
        let near = search.within(a, b, o.min_distance, &mut work)?;
        if near || !map.write(p, door)? {
            continue;
        }
        if !open_at(map, p.x, p.y) {
            map.add_door(Door::new(p, DoorState::Closed))?;
        }
        search.opened(map, p);
        made.push(p);
    }
    work.finish()?;
    Ok(made)
}

/// The two open cells on opposite sides of `p` when the other two sides are closed.
fn sides(map: &Map, p: Point, open_at: &dyn Fn(&Map, i32, i32) -> bool) -> Option<(Point, Point)> {
    let open = |dx: i32, dy: i32| open_at(map, p.x + dx, p.y + dy);
    let (w, e, n, s) = (open(-1, 0), open(1, 0), open(0, -1), open(0, 1));
    match (w && e && !n && !s, n && s && !w && !e) {
        (true, _) => Some((Point::new(p.x - 1, p.y), Point::new(p.x + 1, p.y))),
        (_, true) => Some((Point::new(p.x, p.y - 1), Point::new(p.x, p.y + 1))),
        _ => None,
    }
}

/// The mark of a cell no walker may stand on: above every generation.
const CLOSED: u32 = u32::MAX;

/// A breadth-first search bounded by a number of steps, over a copy of the map's open cells
/// padded with a ring of closed ones (so a step needs no bounds check), its visited marks
/// stamped with a generation so that no search clears them. Every candidate runs one.
struct Search {
    /// Padded row length.
    stride: usize,
    /// Each padded cell's mark: [`CLOSED`] where a walker may not stand (kept up to date by
    /// [`Search::opened`]), else the last generation that reached it (0: none). A step asks
    /// one question of one array: is the mark below this generation?
    stamp: Vec<u32>,
    generation: u32,
    /// The padded index offsets of a walker's steps.
    steps: Vec<isize>,
    frontier: Vec<u32>,
    next: Vec<u32>,
}

impl Search {
    /// A search over the open cells of `map` as they are, walkers stepping as `adjacency` says.
    fn new(map: &Map, adjacency: Adjacency) -> Search {
        let (w, h) = (map.width() as usize, map.height() as usize);
        let stride = w + 2;
        let mut stamp = vec![CLOSED; stride * (h + 2)];
        fill_padded_passable(map, [CLOSED, 0], &mut stamp);
        Search {
            stride,
            stamp,
            generation: 0,
            steps: padded_steps(adjacency, stride),
            frontier: Vec::new(),
            next: Vec::new(),
        }
    }

    /// The padded index of `p`.
    fn padded(&self, p: Point) -> usize {
        (p.x as usize + 1) + (p.y as usize + 1) * self.stride
    }

    /// Takes note that the cell at `p` of `map` may have changed (an opening was written).
    fn opened(&mut self, map: &Map, p: Point) {
        let i = self.padded(p);
        let open = passable(map.flag_cells()[p.x as usize + p.y as usize * map.width() as usize]);
        self.stamp[i] = if open { 0 } else { CLOSED };
    }

    /// Whether a walk over open cells reaches `to` from `from` in fewer than `limit` steps.
    fn within(
        &mut self,
        from: Point,
        to: Point,
        limit: u32,
        work: &mut Batched<'_>,
    ) -> Result<bool, ToolError> {
        if self.generation == CLOSED - 1 {
            // Every generation used: the marks start again (closed cells stay closed).
            for mark in self.stamp.iter_mut().filter(|m| **m != CLOSED) {
                *mark = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
        let g = self.generation;
        let target = self.padded(to) as u32;
        let start = self.padded(from) as u32;
        self.frontier.clear();
        // Marked reached, unless closed: a closed mark stays (the sides are open cells anyway).
        if self.stamp[start as usize] != CLOSED {
            self.stamp[start as usize] = g;
        }
        self.frontier.push(start);
        for _ in 1..limit {
            self.next.clear();
            work.work(self.frontier.len() as u64)?;
            for &i in &self.frontier {
                for &d in &self.steps {
                    // The padding is closed: a step from a map cell stays on the grid.
                    let j = (i as isize + d) as usize;
                    if self.stamp[j] >= g {
                        continue;
                    }
                    if j as u32 == target {
                        return Ok(true);
                    }
                    self.stamp[j] = g;
                    self.next.push(j as u32);
                }
            }
            if self.next.is_empty() {
                return Ok(false);
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        Ok(false)
    }
}
