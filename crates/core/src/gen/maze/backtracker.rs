//! The recursive backtracker: from the first cell of each part of the grid, step to a random
//! unvisited neighbour, opening the wall, and back up when there is none.

use super::Grid;
use crate::rng::Rng;

/// Carves a spanning tree of each connected part of `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let mut visited = vec![false; grid.len()];
    let mut stack = Vec::new();
    for first in 0..grid.len() {
        if visited[first] || !grid.usable(first) {
            continue;
        }
        visited[first] = true;
        stack.push(first);
        while let Some(&k) = stack.last() {
            // The unvisited neighbours, in the order of the steps, listed without a branch on
            // whether each was visited (a coin toss on a maze's frontier): each is stored in
            // the next slot, kept only if unvisited; a step through a wall that may not open
            // stands for `k` itself, which is visited.
            let mut choices = [0; 4];
            let mut count = 0;
            for n in grid.around(k) {
                choices[count] = n;
                count += !visited[n] as usize;
            }
            if count == 0 {
                stack.pop();
                continue;
            }
            let n = choices[rng.below(count as u64) as usize];
            grid.open(k, n);
            visited[n] = true;
            stack.push(n);
        }
    }
}
