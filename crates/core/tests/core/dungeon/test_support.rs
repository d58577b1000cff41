//! Test helpers: a small terrain table and blank maps.

use std::sync::Arc;
use warren_core::map::{Map, Point, TerrainId, TerrainTable};

pub const ROCK: TerrainId = 0;
pub const WALL: TerrainId = 1;
pub const FLOOR: TerrainId = 2;
pub const DOOR: TerrainId = 3;
pub const PILLAR: TerrainId = 4;
pub const WATER: TerrainId = 5;
pub const STAIRS: TerrainId = 6;
pub const VAULT_WALL: TerrainId = 7;
pub const CORRIDOR: TerrainId = 8;
pub const CHASM: TerrainId = 9;

fn table() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::flagged(&[
        ("rock", '#', true, false),
        ("wall", 'W', true, false),
        ("floor", '.', false, false),
        ("door", '+', true, false),
        ("pillar", 'O', true, false),
        ("water", '~', false, false),
        ("stairs", '>', false, false),
        ("vault wall", 'V', true, false),
        ("corridor", ',', false, false),
        ("chasm", ':', false, true),
    ]))
}

/// A `w × h` map of fresh rock.
pub fn blank(w: i64, h: i64) -> Map {
    Map::new(w, h, ROCK, table()).expect("test map size")
}

/// The map as rows of glyphs (for failure messages).
pub fn render(map: &Map) -> String {
    let mut out = String::new();
    for y in 0..map.height() {
        for x in 0..map.width() {
            let t = map.terrain_at(Point::new(x, y)).unwrap_or(ROCK);
            out.push(map.terrains().get(t).glyph);
        }
        out.push('\n');
    }
    out
}

/// Number of passable cells reached from `start` (8-neighbour), for connectivity checks.
pub fn reach(map: &Map, start: Point) -> usize {
    let mut seen = vec![false; map.len()];
    let mut stack = vec![start];
    let mut n = 0;
    while let Some(p) = stack.pop() {
        let Ok(i) = map.index(p) else {
            continue;
        };
        if seen[i] || !map.is_passable(p).unwrap_or(false) {
            continue;
        }
        seen[i] = true;
        n += 1;
        for d in warren_core::map::Dir::ALL {
            stack.push(p.step(d));
        }
    }
    n
}
