//! Test helpers: maps built from ASCII rows, and plain reference algorithms to check the fast
//! ones against.

use super::Component;
use crate::map::{Brush, Map, Point, TerrainId, TerrainTable, FLAG_SOLID};
use std::collections::VecDeque;
use std::sync::Arc;

/// `#`: solid rock.
pub(crate) const ROCK: TerrainId = 0;
/// `.`: open floor.
pub(crate) const FLOOR: TerrainId = 1;
/// `+`: a door, open terrain.
pub(crate) const DOOR: TerrainId = 2;

/// Rock, floor and door.
pub(crate) fn terrains() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
        ("door", '+', false),
    ]))
}

/// A map from rows like `"#..+#"` (`#` rock, `.` floor, `+` door).
pub(crate) fn ascii_map(rows: &[&str]) -> Map {
    let width = rows[0].chars().count();
    let mut map = Map::new(width as i64, rows.len() as i64, ROCK, terrains()).unwrap();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.chars().count(), width, "ragged row {y}");
        for (x, c) in row.chars().enumerate() {
            let terrain = match c {
                '#' => ROCK,
                '.' => FLOOR,
                '+' => DOOR,
                _ => panic!("unknown glyph {c:?}"),
            };
            map.write(
                Point::new(x as i32, y as i32),
                &Brush::new(terrain).forced(),
            )
            .unwrap();
        }
    }
    map
}

/// A `width × height` map whose cell `i` is rock when `solid[i]`, floor otherwise.
pub(crate) fn grid_map(width: usize, height: usize, solid: &[bool]) -> Map {
    let mut map = Map::new(width as i64, height as i64, FLOOR, terrains()).unwrap();
    for (i, _) in solid.iter().enumerate().filter(|(_, &s)| s) {
        map.write_index(i, &Brush::new(ROCK).forced());
    }
    map
}

/// The open 8-neighbours of cell `i`.
fn open_neighbours(map: &Map, i: usize) -> impl Iterator<Item = usize> + '_ {
    let p = map.point(i);
    (-1..=1)
        .flat_map(move |dy| (-1..=1).map(move |dx| Point::new(p.x + dx, p.y + dy)))
        .filter(move |&q| q != p && map.is_solid(q) == Ok(false))
        .map(move |q| q.x as usize + q.y as usize * map.width() as usize)
}

/// Cells reached from `start` by a plain breadth-first search (8-neighbour, open cells).
pub(crate) fn reference_flood(map: &Map, start: Point) -> Vec<bool> {
    let mut seen = vec![false; map.len()];
    let first = start.x as usize + start.y as usize * map.width() as usize;
    seen[first] = true;
    let mut queue = VecDeque::from([first]);
    while let Some(i) = queue.pop_front() {
        for j in open_neighbours(map, i) {
            if !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    seen
}

/// Components by breadth-first labelling from each unlabelled open cell in row-major order.
pub(crate) fn reference_components(map: &Map) -> (Vec<Option<usize>>, Vec<Component>) {
    let mut labels = vec![None; map.len()];
    let mut list = Vec::new();
    for first in 0..map.len() {
        if labels[first].is_some() || map.flag_cells()[first] & FLAG_SOLID != 0 {
            continue;
        }
        let k = list.len();
        labels[first] = Some(k);
        let mut size = 0;
        let mut queue = VecDeque::from([first]);
        while let Some(i) = queue.pop_front() {
            size += 1;
            for j in open_neighbours(map, i) {
                if labels[j].is_none() {
                    labels[j] = Some(k);
                    queue.push_back(j);
                }
            }
        }
        list.push(Component {
            representative: map.point(first),
            size,
        });
    }
    (labels, list)
}
