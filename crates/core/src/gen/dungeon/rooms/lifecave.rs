//! A cave (`WriteLifeCave`): a cellular automaton grown over the panel, three cells in from
//! its border, then walled.

use super::paint::Paint;
use super::RoomLimits;
use crate::map::{Map, Point, Rect};
use crate::rng::Rng;

/// The automaton leaves this many cells of the panel untouched on every side.
const BUFFER: i32 = 3;
/// The original's number of automaton steps (it stops early once nothing changes).
const STEPS: usize = 20;
/// A cave whose largest area is smaller than this is not worth a panel.
const MIN_FLOOR: usize = 12;

/// Grows a cave in `panel`: each cell starts as wall with chance `life_percent`%, then each
/// step a cell with 5 or more wall neighbours becomes wall and one with 3 or fewer becomes
/// open (cells outside count as wall). Only the largest open area is kept, so the cave is one
/// room. Returns its bounding box, or `None` (and writes nothing) if it is too small.
pub fn lifecave(
    map: &mut Map,
    rng: &mut Rng,
    panel: Rect,
    paint: &Paint,
    lim: &RoomLimits,
) -> Option<Rect> {
    let area = panel.inset(BUFFER);
    if area.w < 4 || area.h < 4 {
        return None;
    }
    let grid = grow(area, rng, lim.life_percent);
    let cave = largest_area(&grid, area);
    if cave.len() < MIN_FLOOR {
        return None;
    }
    let mut keep = vec![false; grid.wall.len()];
    for &i in &cave {
        keep[i] = true;
    }
    let index = |p: Point| grid.index(p.x - area.x, p.y - area.y);
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for p in area.cells().filter(|&p| keep[index(p)]) {
        Paint::put(map, p, &paint.floor);
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    paint.walls_around(map, area, |p| area.contains(p) && keep[index(p)]);
    Some(Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// The automaton's grid: `area` with a one-cell ring of wall around it; 1 is wall, 0 open.
struct Grid {
    stride: usize,
    wall: Vec<u8>,
}

impl Grid {
    /// Index of cell `(x, y)` of the area (0-based, ring excluded).
    fn index(&self, x: i32, y: i32) -> usize {
        (x + 1) as usize + (y + 1) as usize * self.stride
    }
}

/// Seeds the grid and runs the automaton until it settles (at most [`STEPS`] steps).
fn grow(area: Rect, rng: &mut Rng, life_percent: u32) -> Grid {
    let stride = area.w as usize + 2;
    let mut grid = Grid {
        stride,
        wall: vec![1; stride * (area.h as usize + 2)],
    };
    for y in 0..area.h {
        for x in 0..area.w {
            let i = grid.index(x, y);
            grid.wall[i] = u8::from(rng.below(100) < u64::from(life_percent));
        }
    }
    let mut next = grid.wall.clone();
    // Walls in each column of three rows centred on the row being updated.
    let mut column = vec![0u8; stride];
    for _ in 0..STEPS {
        let mut changed = false;
        for y in 0..area.h {
            let row = grid.index(0, y) - 1;
            let w = &grid.wall;
            for (x, c) in column.iter_mut().enumerate() {
                let i = row + x;
                *c = w[i - stride] + w[i] + w[i + stride];
            }
            for x in 1..=area.w as usize {
                let i = row + x;
                let n = column[x - 1] + column[x] + column[x + 1] - w[i];
                let v = match n {
                    5.. => 1,
                    0..=3 => 0,
                    _ => w[i],
                };
                changed |= v != w[i];
                next[i] = v;
            }
        }
        if !changed {
            break;
        }
        std::mem::swap(&mut grid.wall, &mut next);
    }
    grid
}

/// Grid indices of the largest 8-connected open area (the first found on ties).
fn largest_area(grid: &Grid, area: Rect) -> Vec<usize> {
    let stride = grid.stride;
    let mut seen = vec![false; grid.wall.len()];
    let mut best: Vec<usize> = Vec::new();
    for y in 0..area.h {
        for x in 0..area.w {
            let start = grid.index(x, y);
            if grid.wall[start] == 1 || seen[start] {
                continue;
            }
            let mut found = vec![start];
            seen[start] = true;
            let mut k = 0;
            while k < found.len() {
                let i = found[k];
                k += 1;
                for j in [
                    i - stride - 1,
                    i - stride,
                    i - stride + 1,
                    i - 1,
                    i + 1,
                    i + stride - 1,
                    i + stride,
                    i + stride + 1,
                ] {
                    if grid.wall[j] == 0 && !seen[j] {
                        seen[j] = true;
                        found.push(j);
                    }
                }
            }
            if found.len() > best.len() {
                best = found;
            }
        }
    }
    best
}
