//! Randomised Prim's algorithm: from the first cell of each part of the grid, open a random wall
//! of the frontier (walls between a reached cell and an unreached one) until none is left.

use super::Grid;
use crate::rng::Rng;

/// Carves a spanning tree of each connected part of `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let mut reached = vec![false; grid.len()];
    let mut frontier: Vec<(usize, usize)> = Vec::new();
    for first in 0..grid.len() {
        if reached[first] || !grid.usable(first) {
            continue;
        }
        reached[first] = true;
        frontier.extend(grid.neighbours(first).map(|n| (first, n)));
        while !frontier.is_empty() {
            let (from, to) = frontier.swap_remove(rng.below(frontier.len() as u64) as usize);
            if reached[to] {
                continue;
            }
            reached[to] = true;
            grid.open(from, to);
            frontier.extend(
                grid.neighbours(to)
                    .filter(|&n| !reached[n])
                    .map(|n| (to, n)),
            );
        }
    }
}
