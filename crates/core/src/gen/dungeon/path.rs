//! The fix-up's last resort: the shortest way through anything a corridor floor may replace,
//! bridging hazards where the level allows it.

use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{priority, Adjacency, Brush, Dir, Map, Point};
use std::collections::VecDeque;

/// What [`carve_path`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathBrushes {
    /// Written on the solid cells of the path (its priority limits which cells it may replace).
    pub floor: Brush,
    /// Written on the solid neighbours of floored cells.
    pub walls: Brush,
    /// Written on the hazard cells of the path (chasms, magma) of priority at most
    /// RIVER_STREAMER; `None` never crosses a hazard.
    pub bridge: Option<Brush>,
}

/// How the path treats a cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Passable: walked through as it is.
    Walk,
    /// Solid, and the floor may replace it.
    Dig,
    /// A hazard the bridge may cover.
    Bridge,
}

/// Carves the shortest path from `from` to `to` and returns the cells it floored or bridged, in
/// order.
///
/// The path moves orthogonally into passable cells, into solid cells `floor` can overwrite
/// (priority at most `floor`'s, never the map's edge) and into hazards `bridge` can cover; with
/// 8-neighbour `adjacency` it also moves diagonally into passable cells. So every cell of the
/// path touches the one before it in `adjacency`, and the path joins its ends in that mode.
/// Solid cells on the path get `floor` and their solid neighbours `walls`; hazards get the
/// bridge. When no such path exists, the area of `to` is sealed and nothing is written. The
/// search's work (each cell it visits looks at its neighbours in `adjacency`) and the path's
/// cells are reported to `meter` as they happen.
pub fn carve_path(
    map: &mut Map,
    (from, to): (Point, Point),
    brushes: &PathBrushes,
    adjacency: Adjacency,
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, DungeonError> {
    let start = map.index(from)?;
    let goal = map.index(to)?;
    let limit = brushes.floor.priority.unwrap_or(u8::MAX);
    let (w, h) = (map.width(), map.height());
    let step = |map: &Map, p: Point| -> Option<Step> {
        let i = map.index(p).ok()?;
        if map.is_passable(p).ok()? {
            return Some(Step::Walk);
        }
        let inside = p.x > 0 && p.y > 0 && p.x < w - 1 && p.y < h - 1;
        let prio = map.priority_cells()[i];
        if map.is_solid(p).ok()? {
            (inside && prio <= limit).then_some(Step::Dig)
        } else {
            let bridged = brushes.bridge.is_some() && prio <= priority::RIVER_STREAMER;
            (inside && bridged).then_some(Step::Bridge)
        }
    };
    let mut parent = vec![u32::MAX; map.len()];
    parent[start] = start as u32;
    let mut queue = VecDeque::from([start]);
    let looks = adjacency.dirs().len() as u64;
    let mut visited = 0u64;
    while let Some(i) = queue.pop_front() {
        if i == goal {
            break;
        }
        visited += 1;
        if visited % 512 == 0 {
            meter.work(512 * looks)?;
        }
        let p = map.point(i);
        for &d in adjacency.dirs() {
            let n = p.step(d);
            let diagonal = !Dir::CARDINAL.contains(&d);
            match step(map, n) {
                Some(Step::Walk) => {}
                Some(_) if !diagonal => {}
                _ => continue,
            }
            let j = n.x as usize + n.y as usize * w as usize;
            if parent[j] == u32::MAX {
                parent[j] = i as u32;
                queue.push_back(j);
            }
        }
    }
    meter.work(visited % 512 * looks)?;
    if parent[goal] == u32::MAX {
        return Err(DungeonError::Sealed { at: to });
    }
    let mut path = vec![goal];
    let mut i = goal;
    while i != start {
        i = parent[i] as usize;
        path.push(i);
    }
    path.reverse();
    meter.work(path.len() as u64)?;
    let mut carved = Vec::new();
    for i in path {
        let p = map.point(i);
        match step(map, p) {
            Some(Step::Dig) if map.write_index(i, &brushes.floor) => {
                carved.push(p);
                for d in Dir::ALL {
                    let n = p.step(d);
                    if map.is_solid(n).unwrap_or(false) && !map.is_door(n).unwrap_or(true) {
                        let _ = map.write(n, &brushes.walls);
                    }
                }
            }
            Some(Step::Bridge) => {
                if let Some(bridge) = &brushes.bridge {
                    if map.write_index(i, bridge) {
                        carved.push(p);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(carved)
}
