//! Test helpers: maps built from ASCII rows, and plain reference algorithms to check the fast
//! ones against.

use std::collections::VecDeque;
use std::sync::Arc;
use warren_core::gen::connectivity::Component;
use warren_core::map::{
    passable, Adjacency, AsciiCell, AsciiLegend, Brush, Door, DoorState, Map, Point,
};
use warren_core::map::{TerrainId, TerrainTable};

/// `#`: solid rock.
pub const ROCK: TerrainId = 0;
/// `.`: open floor.
pub const FLOOR: TerrainId = 1;
/// `+`: a closed door (solid terrain, but a door stands there).
pub const DOOR: TerrainId = 2;
/// `~`: a chasm (open, but a hazard).
pub const CHASM: TerrainId = 3;

/// Rock, floor, door and chasm.
pub fn terrains() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::flagged(&[
        ("rock", '#', true, false),
        ("floor", '.', false, false),
        ("door", '+', true, false),
        ("chasm", '~', false, true),
    ]))
}

/// Puts a closed door at cell `i`.
pub fn put_door(map: &mut Map, i: usize) {
    map.write_index(i, &Brush::new(DOOR).forced());
    map.add_door(Door::new(map.point(i), DoorState::Closed))
        .unwrap();
}

/// A map from rows like `"#..+~#"` (`#` rock, `.` floor, `+` door, `~` chasm).
pub fn ascii_map(rows: &[&str]) -> Map {
    let legend =
        AsciiLegend::new(terrains()).with('+', AsciiCell::terrain(DOOR).door(DoorState::Closed));
    Map::from_ascii_with(rows, &legend).unwrap_or_else(|e| panic!("test map: {e}"))
}

/// A `width × height` map whose cell `i` is rock when `solid[i]`, floor otherwise.
pub fn grid_map(width: usize, height: usize, solid: &[bool]) -> Map {
    let mut map = Map::new(width as i64, height as i64, FLOOR, terrains()).unwrap();
    for (i, _) in solid.iter().enumerate().filter(|(_, &s)| s) {
        map.write_index(i, &Brush::new(ROCK).forced());
    }
    map
}

/// The passable neighbours of cell `i` in `adjacency`.
fn open_neighbours(map: &Map, i: usize, adjacency: Adjacency) -> impl Iterator<Item = usize> + '_ {
    let p = map.point(i);
    (-1..=1)
        .flat_map(move |dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(move |&(dx, dy)| adjacency == Adjacency::Eight || dx == 0 || dy == 0)
        .map(move |(dx, dy)| Point::new(p.x + dx, p.y + dy))
        .filter(move |&q| q != p && map.is_passable(q) == Ok(true))
        .map(move |q| q.x as usize + q.y as usize * map.width() as usize)
}

/// Cells reached from `start` by a plain breadth-first search over passable cells.
pub fn reference_flood(map: &Map, start: Point, adjacency: Adjacency) -> Vec<bool> {
    let mut seen = vec![false; map.len()];
    let first = start.x as usize + start.y as usize * map.width() as usize;
    seen[first] = true;
    let mut queue = VecDeque::from([first]);
    while let Some(i) = queue.pop_front() {
        for j in open_neighbours(map, i, adjacency) {
            if !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    seen
}

/// Components by breadth-first labelling from each unlabelled passable cell in row-major order.
pub fn reference_components(
    map: &Map,
    adjacency: Adjacency,
) -> (Vec<Option<usize>>, Vec<Component>) {
    let mut labels = vec![None; map.len()];
    let mut list = Vec::new();
    for first in 0..map.len() {
        if labels[first].is_some() || !passable(map.flag_cells()[first]) {
            continue;
        }
        let k = list.len();
        labels[first] = Some(k);
        let mut size = 0;
        let mut queue = VecDeque::from([first]);
        while let Some(i) = queue.pop_front() {
            size += 1;
            for j in open_neighbours(map, i, adjacency) {
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
