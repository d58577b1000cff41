//! Step 5 (seed 003, "Connect Each Panel"): a tunnel between the closest edge cells of every
//! pair of neighbouring panels.

use super::panels::Panels;
use super::DungeonError;
use crate::gen::meter::Meter;
use crate::gen::tunnel::{
    incursion_dist, tunnel_prechecked, within_reach, TunnelConfig, TunnelFlags, TunnelLevel,
    TunnelOutcome, TunnelRequest,
};
use crate::map::{Map, Point, Rect, FLAG_SOLID};
use crate::rng::Rng;

/// Joins each panel to its left, upper and upper-left neighbour: all open "edge" cells of every
/// panel (open cells with fewer than four open orthogonal neighbours) are found first, then for
/// each pair the closest two by Incursion's `dist` (ties: the earliest cell of the panel, then of
/// its neighbour, in row order) are joined by a tunnel with `flags` (Incursion uses direct and
/// wander). The neighbour's cell, where the tunnel heads, is one a tunnel can stand on
/// ([`within_reach`]). Pairs where either panel has no such cell are skipped. Returns every
/// tunnel dug.
///
/// `config` is checked once ([`TunnelConfig::validate`]). The work — every cell scanned for
/// edges, every step and carved cell of each tunnel — is reported to `meter`, which may stop
/// the phase between tunnels.
// The original tests `px > 1 && py > 1` for the diagonal, skipping the first row and column of
// diagonals; every panel with an upper-left neighbour is joined to it here.
// The original also heads for cells no tunnel can stand on: a river or cave cell in the two
// columns or rows by the map's edge, where the walk's edge clamp always turns it back. Such a
// tunnel never arrives; it zigzags beside its destination for MAX_CORRIDOR_LENGTH steps, opening
// a wide field of corridor and making a door each time it meets a room wall on the way (seed 159,
// level 4: eighteen doors along a keep's south wall). Heading only for cells within reach keeps
// the evident intent, a tunnel between the two panels.
pub fn connect_panels(
    map: &mut Map,
    panels: &Panels,
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    rng: &mut Rng,
    flags: TunnelFlags,
    meter: &mut dyn Meter,
) -> Result<Vec<TunnelOutcome>, DungeonError> {
    config.validate(map)?;
    meter.work(map.len() as u64)?;
    let order = panels.all();
    let tiles: Vec<Vec<Point>> = order
        .iter()
        .map(|&p| edge_cells(map, panels.rect(p)))
        .collect();
    let (w, h) = (map.width(), map.height());
    let targets: Vec<Vec<Point>> = tiles
        .iter()
        .map(|t| {
            t.iter()
                .copied()
                .filter(|&q| within_reach(q, w, h))
                .collect()
        })
        .collect();
    let mut dug = Vec::new();
    for &p in &order {
        let here = &tiles[panels.index(p)];
        for (dx, dy) in [(-1, 0), (0, -1), (-1, -1)] {
            let n = Point::new(p.x + dx, p.y + dy);
            if n.x < 0 || n.y < 0 {
                continue;
            }
            let Some((from, to)) = closest(here, &targets[panels.index(n)]) else {
                continue;
            };
            let req = TunnelRequest::new(from, to, flags);
            let outcome = tunnel_prechecked(map, config, level, &req, rng)?;
            meter.work(u64::from(outcome.steps) + outcome.carved.len() as u64)?;
            dug.push(outcome);
        }
    }
    Ok(dug)
}

/// Open cells of `panel` with fewer than four open orthogonal neighbours, in row order. Cells
/// off the map count as solid.
pub fn edge_cells(map: &Map, panel: Rect) -> Vec<Point> {
    let (w, h) = (map.width(), map.height());
    let flags = map.flag_cells();
    let open = |x: i32, y: i32| {
        x >= 0 && y >= 0 && x < w && y < h && flags[(x + y * w) as usize] & FLAG_SOLID == 0
    };
    let mut out = Vec::new();
    for y in panel.y.max(0)..=panel.y2().min(h - 1) {
        for x in panel.x.max(0)..=panel.x2().min(w - 1) {
            if open(x, y) {
                let around = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)];
                if around.iter().filter(|&&(ax, ay)| open(ax, ay)).count() < 4 {
                    out.push(Point::new(x, y));
                }
            }
        }
    }
    out
}

/// The pair `(a, b)` minimising `(dist, index of a, index of b)`. The cell of `a` nearest
/// `b`'s bounding box and its closest cell of `b` give a first bound. Then the cells of `a`
/// within the bound of `b`'s box are tried nearest first, each against the cells of `b` whose
/// column is within the best distance so far, until the box distance alone exceeds it; so
/// neighbouring panels cost little more than their facing sides.
pub fn closest(a: &[Point], b: &[Point]) -> Option<(Point, Point)> {
    let (a_box, b_box) = (bounds(a)?, bounds(b)?);
    let first = (0..a.len()).min_by_key(|&i| (gap(a[i], b_box), i))?;
    let mut best = (0..b.len())
        .map(|j| (incursion_dist(a[first], b[j]), first, j))
        .min()?;
    let mut by_x: Vec<usize> = (0..b.len())
        .filter(|&j| gap(b[j], a_box) <= best.0)
        .collect();
    by_x.sort_unstable_by_key(|&j| (b[j].x, j));
    let mut near_first: Vec<(i32, usize)> = (0..a.len())
        .map(|i| (gap(a[i], b_box), i))
        .filter(|&(g, _)| g <= best.0)
        .collect();
    near_first.sort_unstable();
    for (g, i) in near_first {
        if g > best.0 {
            break;
        }
        let p = a[i];
        let lo = by_x.partition_point(|&j| b[j].x < p.x - best.0);
        for &j in &by_x[lo..] {
            if b[j].x > p.x + best.0 {
                break;
            }
            let key = (incursion_dist(p, b[j]), i, j);
            if key < best {
                best = key;
            }
        }
    }
    Some((a[best.1], b[best.2]))
}

/// The bounding box `(x0, y0, x1, y1)` of a non-empty set.
fn bounds(set: &[Point]) -> Option<(i32, i32, i32, i32)> {
    let first = *set.first()?;
    Some(set.iter().fold(
        (first.x, first.y, first.x, first.y),
        |(x0, y0, x1, y1), q| (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y)),
    ))
}

/// Chebyshev distance from `p` to a bounding box: a lower bound of Incursion's `dist` to any
/// cell inside it.
fn gap(p: Point, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> i32 {
    let along = |v: i32, lo: i32, hi: i32| (lo - v).max(v - hi).max(0);
    along(p.x, x0, x1).max(along(p.y, y0, y1))
}
