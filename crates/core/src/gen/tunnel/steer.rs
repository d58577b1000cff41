//! Direction choices: the start direction, Incursion's `CorrectDir`, the stubborn random turn
//! and the hard turn away from the map's edge.

use crate::map::{Dir, Point};
use crate::rng::Rng;

/// Incursion's `dist`: the longer axis distance plus half the shorter one.
pub fn incursion_dist(a: Point, b: Point) -> i32 {
    let (dx, dy) = ((a.x - b.x).abs(), (a.y - b.y).abs());
    dx.max(dy) + dx.min(dy) / 2
}

/// The start direction when none is given: along the axis with the longer distance (ties go
/// north/south), towards the destination.
pub fn initial_dir(start: Point, dest: Point) -> Dir {
    if (start.x - dest.x).abs() > (start.y - dest.y).abs() {
        if start.x > dest.x {
            Dir::West
        } else {
            Dir::East
        }
    } else if start.y > dest.y {
        Dir::North
    } else {
        Dir::South
    }
}

/// Incursion's `CorrectDir`: a direction towards `dest` that never reverses `curr`.
///
/// When aligned with the destination on one axis it heads straight for it (unless that would
/// reverse). Otherwise it prefers the axis with the longer distance, swaps the choice one time
/// in four (`random(4)`), and falls back to the other axis rather than reverse.
pub fn correct_dir(pos: Point, dest: Point, curr: Dir, rng: &mut Rng) -> Dir {
    let mut aligned = None;
    if pos.x == dest.x {
        aligned = Some(if pos.y > dest.y {
            Dir::North
        } else {
            Dir::South
        });
    }
    if pos.y == dest.y {
        aligned = Some(if pos.x > dest.x { Dir::West } else { Dir::East });
    }
    if let Some(d) = aligned {
        if !d.is_diametric(curr) {
            return d;
        }
    }
    let lx = (pos.x - dest.x).abs();
    let ly = (pos.y - dest.y).abs();
    let mut first = if pos.y > dest.y {
        Dir::North
    } else {
        Dir::South
    };
    let mut second = if pos.x > dest.x { Dir::West } else { Dir::East };
    if lx > ly {
        std::mem::swap(&mut first, &mut second);
    }
    if rng.below(4) == 0 {
        std::mem::swap(&mut first, &mut second);
    }
    if first.is_diametric(curr) {
        second
    } else {
        first
    }
}

/// The stubborn turn: a uniformly random cardinal direction other than `old` (reversing is
/// allowed), drawn exactly as the original's `!random(4) ? EAST : !random(3) ? WEST : …` loop.
pub fn random_turn(old: Dir, rng: &mut Rng) -> Dir {
    loop {
        let d = if rng.below(4) == 0 {
            Dir::East
        } else if rng.below(3) == 0 {
            Dir::West
        } else if rng.below(2) == 0 {
            Dir::North
        } else {
            Dir::South
        };
        if d != old {
            return d;
        }
    }
}

/// The hard override near the map's edge: within 2 cells of the left edge go east, else of the
/// top go south, else within 3 of the right go west, else of the bottom go north.
pub fn clamp_at_edge(pos: Point, dir: Dir, width: i32, height: i32) -> Dir {
    if pos.x <= 2 {
        Dir::East
    } else if pos.y <= 2 {
        Dir::South
    } else if pos.x >= width - 3 {
        Dir::West
    } else if pos.y >= height - 3 {
        Dir::North
    } else {
        dir
    }
}

/// Whether a walk can stand on `p` on a map of `width × height`: the walk's edge clamp (the
/// original's `if (x <= 2) CurrDir = EAST; …`) turns every walk back before it leaves column 2,
/// row 2, column `width − 3` or row `height − 3`, so no walk stands in the two outermost columns
/// or rows.
pub fn within_reach(p: Point, width: i32, height: i32) -> bool {
    (2..=width - 3).contains(&p.x) && (2..=height - 3).contains(&p.y)
}
