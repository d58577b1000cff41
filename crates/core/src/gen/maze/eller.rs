//! Eller's algorithm: one row at a time, each cell in a set. Neighbours in different sets are
//! joined at random (on the last row, always); then every set sends at least one cell down, and
//! cells of the next row not reached from above start sets of their own. Only a row of sets is
//! kept.

use super::Grid;
use crate::rng::Rng;

/// Carves a spanning tree of a rectangular `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let (w, h) = (grid.width, grid.height);
    if w == 0 || h == 0 {
        return;
    }
    let mut set: Vec<usize> = (0..w).collect();
    let mut next_set = w;
    for j in 0..h {
        let last = j + 1 == h;
        for i in 0..w - 1 {
            if set[i] != set[i + 1] && (last || rng.percent(50)) {
                let (keep, gone) = (set[i], set[i + 1]);
                for s in set.iter_mut().filter(|s| **s == gone) {
                    *s = keep;
                }
                grid.open(i + j * w, i + 1 + j * w);
            }
        }
        if last {
            break;
        }
        // Each set's cells, in row order; at least one of each goes down.
        let mut below = vec![usize::MAX; w];
        let mut seen = vec![false; w];
        for i in 0..w {
            if seen[i] {
                continue;
            }
            let members: Vec<usize> = (i..w).filter(|&m| set[m] == set[i]).collect();
            for &m in &members {
                seen[m] = true;
            }
            let must = members[rng.below(members.len() as u64) as usize];
            for &m in &members {
                if m == must || rng.percent(50) {
                    below[m] = set[m];
                    grid.open(m + j * w, m + (j + 1) * w);
                }
            }
        }
        for (s, b) in set.iter_mut().zip(below) {
            *s = if b == usize::MAX {
                next_set += 1;
                next_set
            } else {
                b
            };
        }
    }
}
