//! Recursive division: every wall starts open; a chamber is divided by a wall line across it
//! with one gap, and each side is divided again until chambers are one cell wide. A chamber
//! wider than tall is divided by a vertical line, taller than wide by a horizontal one, a square
//! one either way at random.

use super::Grid;
use crate::rng::Rng;

/// Carves a spanning tree of a rectangular `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let w = grid.width;
    for k in 0..grid.len() {
        for s in [(1, 0), (0, 1)] {
            if let Some(n) = grid.neighbour(k, s) {
                grid.open(k, n);
            }
        }
    }
    // Chambers still to divide: (left, top, width, height) in cells.
    let mut chambers = vec![(0, 0, w, grid.height)];
    while let Some((x, y, cw, ch)) = chambers.pop() {
        if cw < 2 && ch < 2 {
            continue;
        }
        let vertical = match (cw, ch) {
            (1, _) => false,
            (_, 1) => true,
            _ if cw > ch => true,
            _ if ch > cw => false,
            _ => rng.percent(50),
        };
        if vertical {
            // The wall runs between columns `x + at - 1` and `x + at`.
            let at = rng.range(1, cw as i64 - 1) as usize;
            let gap = y + rng.below(ch as u64) as usize;
            for j in y..y + ch {
                if j != gap {
                    grid.close(x + at - 1 + j * w, x + at + j * w);
                }
            }
            chambers.push((x, y, at, ch));
            chambers.push((x + at, y, cw - at, ch));
        } else {
            let at = rng.range(1, ch as i64 - 1) as usize;
            let gap = x + rng.below(cw as u64) as usize;
            for i in x..x + cw {
                if i != gap {
                    grid.close(i + (y + at - 1) * w, i + (y + at) * w);
                }
            }
            chambers.push((x, y, cw, at));
            chambers.push((x, y + at, cw, ch - at));
        }
    }
}
