//! The recursive backtracker: from the first cell of each part of the grid, step to a random
//! unvisited neighbour, opening the wall, and back up when there is none.

use super::Grid;
use crate::rng::Rng;

/// Carves a spanning tree of each connected part of `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let mut visited = vec![false; grid.len()];
    let mut stack = Vec::new();
    let mut choices = Vec::with_capacity(4);
    for first in 0..grid.len() {
        if visited[first] || !grid.usable(first) {
            continue;
        }
        visited[first] = true;
        stack.push(first);
        while let Some(&k) = stack.last() {
            choices.clear();
            choices.extend(grid.neighbours(k).filter(|&n| !visited[n]));
            if choices.is_empty() {
                stack.pop();
                continue;
            }
            let n = choices[rng.below(choices.len() as u64) as usize];
            grid.open(k, n);
            visited[n] = true;
            stack.push(n);
        }
    }
}
