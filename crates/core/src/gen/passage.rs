//! A natural passage between two cells: a meandering walk of orthogonal steps that drifts
//! towards its end, widened here and there, so that joining two caves looks like more cave
//! rather than a ruled corridor.

use crate::map::{Dir, Point};
use crate::rng::Rng;

/// Percent of steps that head for the end (along the axis with more distance left, by chance
/// in proportion to it).
const TOWARDS: u64 = 55;
/// Percent of steps, after those, that go across the way to the end (meandering).
const ACROSS: u64 = 30;
/// Percent chance per cell that the passage's width changes by one.
const ROUGHNESS: u64 = 30;
/// The widest the passage gets beyond its middle cell (cells added on each side).
const MOST_WIDTH: u8 = 2;

/// The cells of a natural passage from `from` to `to` on a `width × height` map: every cell of
/// the walk in order, each followed by the cells widening the passage there. Each step of the
/// walk is orthogonal and every widening cell shares a side with its walk cell, so the passage
/// joins its ends in both 4- and 8-neighbour adjacency. Cells stay inside the map's edge (both
/// ends must). The walk heads for `to` on 55% of steps, goes across on 30% and any way on the
/// rest; after `4 × distance + 64` steps it heads straight there, so it always arrives.
pub fn natural_passage(
    from: Point,
    to: Point,
    (width, height): (i32, i32),
    rng: &mut Rng,
) -> Vec<Point> {
    let inside = |p: Point| p.x >= 1 && p.y >= 1 && p.x <= width - 2 && p.y <= height - 2;
    let distance = (from.x - to.x).abs() + (from.y - to.y).abs();
    let patience = 4 * distance + 64;
    let mut cells = Vec::with_capacity(3 * distance as usize + 8);
    let mut widen: u8 = 0;
    let mut p = from;
    let mut steps = 0;
    loop {
        cells.push(p);
        if rng.below(100) < ROUGHNESS {
            widen = if widen == 0 || (widen < MOST_WIDTH && rng.below(2) == 0) {
                widen + 1
            } else {
                widen - 1
            };
        }
        let sides = [Dir::East, Dir::South, Dir::West, Dir::North];
        cells.extend(
            sides[..2 * widen as usize]
                .iter()
                .map(|&d| p.step(d))
                .filter(|&q| inside(q)),
        );
        if p == to {
            return cells;
        }
        // Steps towards `to` stay inside (both ends are), so this ends after `patience` steps
        // at the latest.
        loop {
            steps += 1;
            let dir = if steps > patience {
                towards(p, to, rng)
            } else {
                match rng.below(100) {
                    r if r < TOWARDS => towards(p, to, rng),
                    r if r < TOWARDS + ACROSS => across(p, to, rng),
                    _ => Dir::CARDINAL[rng.below(4) as usize],
                }
            };
            if inside(p.step(dir)) {
                p = p.step(dir);
                break;
            }
        }
    }
}

/// A step towards `to` (which differs from `p`), on an axis chosen in proportion to the
/// distance left along it.
fn towards(p: Point, to: Point, rng: &mut Rng) -> Dir {
    let (dx, dy) = (to.x - p.x, to.y - p.y);
    let horizontal = (rng.below((dx.abs() + dy.abs()) as u64) as i32) < dx.abs();
    match (horizontal, dx > 0, dy > 0) {
        (true, true, _) => Dir::East,
        (true, false, _) => Dir::West,
        (false, _, true) => Dir::South,
        (false, _, false) => Dir::North,
    }
}

/// A step across the way to `to`: perpendicular to the axis with more distance left.
fn across(p: Point, to: Point, rng: &mut Rng) -> Dir {
    let horizontal_way = (to.x - p.x).abs() >= (to.y - p.y).abs();
    let flip = rng.below(2) == 0;
    match (horizontal_way, flip) {
        (true, true) => Dir::North,
        (true, false) => Dir::South,
        (false, true) => Dir::West,
        (false, false) => Dir::East,
    }
}
