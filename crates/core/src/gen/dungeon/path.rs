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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::dungeon::test_support::{
        blank, reach, render, CHASM, CORRIDOR, FLOOR, VAULT_WALL, WALL,
    };
    use crate::gen::meter::Unmetered;
    use crate::map::{priority, Rect};

    fn brushes() -> PathBrushes {
        PathBrushes {
            floor: Brush::new(CORRIDOR).priority(priority::ROOM_FLOOR),
            walls: Brush::new(WALL).priority(priority::CORRIDOR_WALL),
            bridge: None,
        }
    }

    fn room(map: &mut Map, r: Rect) {
        map.fill_rect(&r, &Brush::new(FLOOR).priority(priority::ROOM_FLOOR))
            .unwrap();
    }

    #[test]
    fn joins_two_rooms_around_a_vault() {
        let mut map = blank(30, 20);
        room(&mut map, Rect::new(2, 8, 3, 3));
        room(&mut map, Rect::new(25, 8, 3, 3));
        let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
        map.fill_rect(&Rect::new(10, 1, 5, 17), &vault).unwrap();
        let carved = carve_path(
            &mut map,
            (Point::new(4, 9), Point::new(25, 9)),
            &brushes(),
            Adjacency::Eight,
            &mut Unmetered,
        )
        .unwrap();
        assert!(!carved.is_empty());
        assert_eq!(
            reach(&map, Point::new(3, 9)),
            9 + 9 + carved.len(),
            "{}",
            render(&map)
        );
        for p in Rect::new(10, 1, 5, 17).cells() {
            assert_eq!(map.terrain_at(p).unwrap(), VAULT_WALL);
        }
        assert!(carved.iter().all(|p| !map.is_edge(*p)));
    }

    #[test]
    fn a_sealed_area_is_an_error_and_nothing_is_written() {
        let mut map = blank(20, 20);
        room(&mut map, Rect::new(2, 2, 2, 2));
        let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
        map.outline_rect(&Rect::new(10, 10, 5, 5), &vault).unwrap();
        room(&mut map, Rect::new(11, 11, 3, 3));
        let before = map.terrain_cells().to_vec();
        let e = carve_path(
            &mut map,
            (Point::new(2, 2), Point::new(12, 12)),
            &brushes(),
            Adjacency::Eight,
            &mut Unmetered,
        )
        .unwrap_err();
        assert_eq!(
            e,
            DungeonError::Sealed {
                at: Point::new(12, 12)
            }
        );
        assert_eq!(map.terrain_cells(), &before[..]);
    }

    #[test]
    fn a_diagonal_gap_between_open_cells_is_used_without_carving() {
        let mut map = blank(10, 10);
        let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
        map.fill_rect(&Rect::new(1, 1, 8, 8), &vault).unwrap();
        let vault_floor = Brush::new(FLOOR).priority(priority::VAULT);
        map.fill_rect(&Rect::new(2, 2, 2, 2), &vault_floor).unwrap();
        map.fill_rect(&Rect::new(4, 4, 2, 2), &vault_floor).unwrap();
        let ends = (Point::new(2, 2), Point::new(5, 5));
        let carved =
            carve_path(&mut map, ends, &brushes(), Adjacency::Eight, &mut Unmetered).unwrap();
        assert!(carved.is_empty());
        // Walking orthogonally, the corner between the two rooms is vault wall: sealed.
        let e =
            carve_path(&mut map, ends, &brushes(), Adjacency::Four, &mut Unmetered).unwrap_err();
        assert_eq!(e, DungeonError::Sealed { at: ends.1 });
    }

    #[test]
    fn hazards_are_bridged_only_with_a_bridge() {
        let mut map = blank(30, 12);
        room(&mut map, Rect::new(2, 4, 3, 3));
        room(&mut map, Rect::new(25, 4, 3, 3));
        let chasm = Brush::new(CHASM).priority(priority::RIVER_STREAMER);
        map.fill_rect(&Rect::new(12, 1, 4, 10), &chasm).unwrap();
        let ends = (Point::new(4, 5), Point::new(25, 5));
        let mut brushes = brushes();
        for adjacency in [Adjacency::Four, Adjacency::Eight] {
            let e = carve_path(&mut map.clone(), ends, &brushes, adjacency, &mut Unmetered)
                .unwrap_err();
            assert_eq!(e, DungeonError::Sealed { at: ends.1 });
        }
        brushes.bridge = Some(Brush::new(FLOOR).priority(priority::RIVER_STREAMER));
        for adjacency in [Adjacency::Four, Adjacency::Eight] {
            let mut m = map.clone();
            let carved = carve_path(&mut m, ends, &brushes, adjacency, &mut Unmetered).unwrap();
            let bridged = carved.iter().filter(|p| (12..16).contains(&p.x)).count();
            assert_eq!(bridged, 4, "{}", render(&m));
            let reached = crate::gen::connectivity::mark_connected(&mut m, ends.0, adjacency);
            assert!(
                m.is_connected(ends.1).unwrap(),
                "{reached:?}\n{}",
                render(&m)
            );
        }
    }

    #[test]
    fn a_four_neighbour_path_has_no_diagonal_steps() {
        for seed in 0..50u64 {
            let mut map = blank(40, 30);
            let mut rng = crate::rng::Rng::new(seed);
            let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
            for _ in 0..8 {
                let (x, y) = (rng.range(3, 34) as i32, rng.range(3, 24) as i32);
                map.fill_rect(&Rect::new(x, y, 3, 3), &vault).unwrap();
            }
            let ends = (Point::new(1, 1), Point::new(38, 28));
            map.write(
                ends.0,
                &Brush::new(FLOOR).priority(priority::ROOM_FLOOR).forced(),
            )
            .unwrap();
            map.write(
                ends.1,
                &Brush::new(FLOOR).priority(priority::ROOM_FLOOR).forced(),
            )
            .unwrap();
            carve_path(&mut map, ends, &brushes(), Adjacency::Four, &mut Unmetered).unwrap();
            crate::gen::connectivity::mark_connected(&mut map, ends.0, Adjacency::Four).unwrap();
            assert!(
                map.is_connected(ends.1).unwrap(),
                "seed {seed}\n{}",
                render(&map)
            );
        }
    }
}
