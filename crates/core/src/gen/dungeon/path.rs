//! The fix-up's last resort: the shortest way through anything a corridor floor may replace.

use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{Brush, Dir, Map, Point};
use std::collections::VecDeque;

/// Carves the shortest path from `from` to `to` and returns the cells it floored, in order.
///
/// The path moves orthogonally into open cells and into solid cells `floor` can overwrite
/// (priority at most `floor`'s, never the map's edge), and diagonally into open cells only, so
/// every floored cell touches the one before it and the result is 8-connected. Solid cells on
/// the path get `floor`; their solid neighbours get `walls`. When no such path exists, the
/// area of `to` is sealed and nothing is written. The search's work (each cell it visits looks
/// at its eight neighbours) and the path's cells are reported to `meter` as they happen.
pub fn carve_path(
    map: &mut Map,
    from: Point,
    to: Point,
    floor: &Brush,
    walls: &Brush,
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, DungeonError> {
    let start = map.index(from.x as i64, from.y as i64)?;
    let goal = map.index(to.x as i64, to.y as i64)?;
    let limit = floor.priority.unwrap_or(u8::MAX);
    let (w, h) = (map.width(), map.height());
    let carvable = |map: &Map, p: Point| -> Option<bool> {
        let i = map.index(p.x as i64, p.y as i64).ok()?;
        if !map.is_solid(p).ok()? {
            return Some(true);
        }
        let inside = p.x > 0 && p.y > 0 && p.x < w - 1 && p.y < h - 1;
        (inside && map.priority_cells()[i] <= limit).then_some(false)
    };
    let mut parent = vec![u32::MAX; map.len()];
    parent[start] = start as u32;
    let mut queue = VecDeque::from([start]);
    let mut visited = 0u64;
    while let Some(i) = queue.pop_front() {
        if i == goal {
            break;
        }
        visited += 1;
        if visited % 512 == 0 {
            meter.work(512 * 8)?;
        }
        let p = map.point(i);
        for d in Dir::ALL {
            let n = p.step(d);
            let diagonal = !Dir::CARDINAL.contains(&d);
            match carvable(map, n) {
                Some(open) if open || !diagonal => {}
                _ => continue,
            }
            let j = n.x as usize + n.y as usize * w as usize;
            if parent[j] == u32::MAX {
                parent[j] = i as u32;
                queue.push_back(j);
            }
        }
    }
    meter.work(visited % 512 * 8)?;
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
        if map.is_solid(p)? && map.write_index(i, floor) {
            carved.push(p);
            for d in Dir::ALL {
                let n = p.step(d);
                if map.is_solid(n).unwrap_or(false) {
                    let _ = map.write(n, walls);
                }
            }
        }
    }
    Ok(carved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::dungeon::test_support::{
        blank, reach, render, CORRIDOR, FLOOR, VAULT_WALL, WALL,
    };
    use crate::gen::meter::Unmetered;
    use crate::map::{priority, Rect};

    fn brushes() -> (Brush, Brush) {
        (
            Brush::new(CORRIDOR).priority(priority::ROOM_FLOOR),
            Brush::new(WALL).priority(priority::CORRIDOR_WALL),
        )
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
        let (floor, walls) = brushes();
        let carved = carve_path(
            &mut map,
            Point::new(4, 9),
            Point::new(25, 9),
            &floor,
            &walls,
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
        assert!(carved.iter().all(|p| !map.is_edge(p.x, p.y)));
    }

    #[test]
    fn a_sealed_area_is_an_error_and_nothing_is_written() {
        let mut map = blank(20, 20);
        room(&mut map, Rect::new(2, 2, 2, 2));
        let vault = Brush::new(VAULT_WALL).priority(priority::VAULT);
        map.outline_rect(&Rect::new(10, 10, 5, 5), &vault).unwrap();
        room(&mut map, Rect::new(11, 11, 3, 3));
        let before = map.terrain_cells().to_vec();
        let (floor, walls) = brushes();
        let e = carve_path(
            &mut map,
            Point::new(2, 2),
            Point::new(12, 12),
            &floor,
            &walls,
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
        let (floor, walls) = brushes();
        let carved = carve_path(
            &mut map,
            Point::new(2, 2),
            Point::new(5, 5),
            &floor,
            &walls,
            &mut Unmetered,
        )
        .unwrap();
        assert!(carved.is_empty());
    }
}
