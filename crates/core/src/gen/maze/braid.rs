//! Braiding: a dead end (a cell with one open wall) gets one more open wall, making a loop. The
//! dead ends are visited in random order; each still a dead end when its turn comes is braided
//! with the chance asked, towards a neighbour that is itself a dead end when there is one (two
//! dead ends go at once, as Jamis Buck's braid does), else towards any neighbour.

use super::Grid;
use crate::rng::Rng;

/// Braids `percent` (0–100) of `grid`'s dead ends. Returns the number braided.
pub fn braid(grid: &mut Grid, percent: u32, rng: &mut Rng) -> usize {
    if percent == 0 {
        return 0;
    }
    let degree = |g: &Grid, k: usize| g.linked(k).count();
    let mut ends: Vec<usize> = (0..grid.len())
        .filter(|&k| grid.usable(k) && degree(grid, k) == 1)
        .collect();
    rng.shuffle(&mut ends);
    let mut braided = 0;
    for k in ends {
        if degree(grid, k) != 1 || !rng.percent(percent as i64) {
            continue;
        }
        let closed: Vec<usize> = grid
            .neighbours(k)
            .filter(|&n| !grid.is_open(k, n))
            .collect();
        let ends_too: Vec<usize> = closed
            .iter()
            .copied()
            .filter(|&n| degree(grid, n) == 1)
            .collect();
        let pool = if ends_too.is_empty() {
            &closed
        } else {
            &ends_too
        };
        if pool.is_empty() {
            continue;
        }
        let n = pool[rng.below(pool.len() as u64) as usize];
        grid.open(k, n);
        braided += 1;
    }
    braided
}
