//! Step 5 (seed 003, "Connect Each Panel"): a tunnel between the closest edge cells of every
//! pair of neighbouring panels.

use super::panels::Panels;
use super::DungeonError;
use crate::gen::tunnel::{
    incursion_dist, tunnel, TunnelConfig, TunnelFlags, TunnelLevel, TunnelOutcome, TunnelRequest,
};
use crate::map::{Dir, Map, Point, Rect};
use crate::rng::Rng;

/// Joins each panel to its left, upper and upper-left neighbour: all open "edge" cells of every
/// panel (open cells with fewer than four open orthogonal neighbours) are found first, then for
/// each pair the closest two by Incursion's `dist` (ties: the earliest cell of the panel, then of
/// its neighbour, in row order) are joined by a tunnel with `flags` (Incursion uses direct and
/// wander). Pairs where either panel has no open cell are skipped. Returns every tunnel dug.
// The original tests `px > 1 && py > 1` for the diagonal, skipping the first row and column of
// diagonals; every panel with an upper-left neighbour is joined to it here.
pub fn connect_panels(
    map: &mut Map,
    panels: &Panels,
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    rng: &mut Rng,
    flags: TunnelFlags,
) -> Result<Vec<TunnelOutcome>, DungeonError> {
    let order = panels.all();
    let tiles: Vec<Vec<Point>> = order
        .iter()
        .map(|&p| edge_cells(map, panels.rect(p)))
        .collect();
    let mut dug = Vec::new();
    for &p in &order {
        let here = &tiles[panels.index(p)];
        for (dx, dy) in [(-1, 0), (0, -1), (-1, -1)] {
            let n = Point::new(p.x + dx, p.y + dy);
            if n.x < 0 || n.y < 0 {
                continue;
            }
            let Some((from, to)) = closest(here, &tiles[panels.index(n)]) else {
                continue;
            };
            let req = TunnelRequest::new(from, to, flags);
            dug.push(tunnel(map, config, level, &req, rng)?);
        }
    }
    Ok(dug)
}

/// Open cells of `panel` with fewer than four open orthogonal neighbours, in row order.
pub fn edge_cells(map: &Map, panel: Rect) -> Vec<Point> {
    let open = |p: Point| map.is_solid(p).map(|s| !s).unwrap_or(false);
    panel
        .cells()
        .filter(|&p| open(p) && Dir::CARDINAL.iter().filter(|&&d| open(p.step(d))).count() < 4)
        .collect()
}

/// The pair `(a, b)` minimising `(dist, index of a, index of b)`. Cells of `a` are tried in
/// order of their distance to `b`'s bounding box, stopping once that bound exceeds the best
/// distance found, so neighbouring panels cost little more than their facing sides.
pub fn closest(a: &[Point], b: &[Point]) -> Option<(Point, Point)> {
    let first = *b.first()?;
    let (x0, y0, x1, y1) = b.iter().fold(
        (first.x, first.y, first.x, first.y),
        |(x0, y0, x1, y1), q| (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y)),
    );
    let gap = |v: i32, lo: i32, hi: i32| (lo - v).max(v - hi).max(0);
    let mut order: Vec<(i32, usize)> = a
        .iter()
        .enumerate()
        .map(|(i, p)| (gap(p.x, x0, x1).max(gap(p.y, y0, y1)), i))
        .collect();
    order.sort_unstable();
    let mut best: Option<(i32, usize, usize)> = None;
    for (bound, i) in order {
        if best.is_some_and(|(d, _, _)| bound > d) {
            break;
        }
        let p = a[i];
        for (j, &q) in b.iter().enumerate() {
            let d = incursion_dist(p, q);
            if best.is_none_or(|key| (d, i, j) < key) {
                best = Some((d, i, j));
            }
        }
    }
    best.map(|(_, i, j)| (a[i], b[j]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const P: fn(i32, i32) -> Point = Point::new;

    #[test]
    fn closest_matches_a_plain_search() {
        let a = [P(1, 1), P(5, 5), P(9, 2)];
        let b = [P(20, 2), P(12, 6), P(12, 2)];
        assert_eq!(closest(&a, &b), Some((P(9, 2), P(12, 2))));
        assert_eq!(closest(&a, &[]), None);
        assert_eq!(closest(&[], &b), None);
    }

    proptest! {
        #[test]
        fn pruned_search_finds_the_first_minimal_pair(
            a in prop::collection::vec((0i32..60, 0i32..60), 1..40),
            b in prop::collection::vec((0i32..60, 0i32..60), 1..40),
        ) {
            let a: Vec<Point> = a.into_iter().map(|(x, y)| P(x, y)).collect();
            let b: Vec<Point> = b.into_iter().map(|(x, y)| P(x, y)).collect();
            let mut want = None;
            for (i, &p) in a.iter().enumerate() {
                for (j, &q) in b.iter().enumerate() {
                    let key = (incursion_dist(p, q), i, j);
                    if want.is_none_or(|w| key < w) {
                        want = Some(key);
                    }
                }
            }
            let want = want.map(|(_, i, j)| (a[i], b[j]));
            prop_assert_eq!(closest(&a, &b), want);
        }
    }
}
