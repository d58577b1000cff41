//! Randomised Kruskal's algorithm: take the walls that may open in random order and open each
//! one that joins two parts not yet joined (a union-find keeps the parts).

use super::Grid;
use crate::rng::Rng;

/// The representative of `k`'s part, halving paths on the way.
fn find(parent: &mut [usize], mut k: usize) -> usize {
    while parent[k] != k {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    k
}

/// Carves a spanning tree of each connected part of `grid`.
pub(super) fn carve(grid: &mut Grid, rng: &mut Rng) {
    let g: &Grid = grid;
    let mut walls: Vec<(usize, usize)> = (0..g.len())
        .flat_map(|k| {
            [(1, 0), (0, 1)]
                .into_iter()
                .filter_map(move |s| g.neighbour(k, s).map(|n| (k, n)))
        })
        .collect();
    rng.shuffle(&mut walls);
    let mut parent: Vec<usize> = (0..grid.len()).collect();
    for (a, b) in walls {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            grid.open(a, b);
        }
    }
}
