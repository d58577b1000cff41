//! The JSON output contract: `{format, recipe, seed, width, height, legend, rows, rooms,
//! corridors, doors, stairs, spawns, stats, tags}`; multi-level runs wrap levels in
//! `{format, levels}`. Every glyph of `rows` appears in `legend`, `legend[g].solid` says
//! whether such a cell blocks movement and `legend[g].hazard` whether a walker must not cross
//! it. Each door is `{x, y, state, kind}` with `state` one of closed, open, locked, secret,
//! broken.

use super::View;
use crate::map::{Corridor, Door, Map, Room, Spawn, Stairs, TagValue};
use serde::Serialize;
use std::collections::BTreeMap;

/// The output format version.
pub const FORMAT: u32 = 1;

/// What the run was, for the JSON header.
#[derive(Clone, Debug)]
pub struct Meta<'a> {
    /// Recipe name.
    pub recipe: &'a str,
    /// Seed of this level.
    pub seed: u64,
    /// Depth (1-based).
    pub depth: u32,
    /// Parameter values as text, by name.
    pub params: BTreeMap<String, serde_json::Value>,
    /// The debug layer chosen with `--layer`, drawn beside the terrain `rows`.
    pub layer: Option<LayerRows>,
}

/// A debug layer in JSON: `"layer": { "name": "priority", "rows": [...] }`.
#[derive(Clone, Debug, Serialize)]
pub struct LayerRows {
    /// The layer's name.
    pub name: String,
    /// One string per map row, like `rows`.
    pub rows: Vec<String>,
}

/// One legend entry.
#[derive(Serialize)]
struct Legend {
    terrain: String,
    terrains: Vec<String>,
    solid: bool,
    hazard: bool,
    color: String,
}

/// One map object.
#[derive(Serialize)]
struct Level<'a> {
    format: u32,
    recipe: &'a str,
    seed: u64,
    depth: u32,
    width: i32,
    height: i32,
    params: &'a BTreeMap<String, serde_json::Value>,
    legend: BTreeMap<String, Legend>,
    rows: Vec<String>,
    rooms: &'a [Room],
    corridors: &'a [Corridor],
    doors: &'a [Door],
    stairs: &'a Stairs,
    spawns: &'a [Spawn],
    stats: BTreeMap<String, f64>,
    tags: &'a BTreeMap<String, TagValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layer: Option<&'a LayerRows>,
}

fn level<'a>(map: &'a Map, meta: &'a Meta) -> Level<'a> {
    let view = View::terrain(map);
    let table = map.terrains();
    let mut used = vec![false; table.len()];
    for &t in map.terrain_cells() {
        used[t as usize] = true;
    }
    let mut legend: BTreeMap<String, Legend> = BTreeMap::new();
    for (id, t) in table.iter().enumerate() {
        if !used[id] {
            continue;
        }
        legend
            .entry(t.glyph.to_string())
            .and_modify(|l| l.terrains.push(t.name.clone()))
            .or_insert_with(|| Legend {
                terrain: t.name.clone(),
                terrains: vec![t.name.clone()],
                solid: t.solid,
                hazard: t.hazard,
                color: t.color.to_hex(),
            });
    }
    let mut stats = map.notes.stats.clone();
    let open = map.open_count() as f64;
    stats.insert("open_cells".into(), open);
    stats.insert("open_fraction".into(), open / map.len() as f64);
    Level {
        format: FORMAT,
        recipe: meta.recipe,
        seed: meta.seed,
        depth: meta.depth,
        width: map.width(),
        height: map.height(),
        params: &meta.params,
        legend,
        rows: view.rows(),
        rooms: &map.notes.rooms,
        corridors: &map.notes.corridors,
        doors: &map.notes.doors,
        stairs: &map.notes.stairs,
        spawns: &map.notes.spawns,
        stats,
        tags: &map.notes.tags,
        layer: meta.layer.as_ref(),
    }
}

/// The JSON text of one map.
pub fn single(map: &Map, meta: &Meta) -> String {
    let mut s = serde_json::to_string_pretty(&level(map, meta)).unwrap_or_default();
    s.push('\n');
    s
}

/// The JSON text of several levels: `{ "format": 1, "levels": [ … ] }`.
pub fn levels(maps: &[(Map, Meta)]) -> String {
    #[derive(Serialize)]
    struct Levels<'a> {
        format: u32,
        levels: Vec<Level<'a>>,
    }
    let doc = Levels {
        format: FORMAT,
        levels: maps.iter().map(|(m, meta)| level(m, meta)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
