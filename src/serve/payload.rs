//! What the page receives: a generation as JSON, with every cell array packed as little-endian
//! integers in base64 (a 128×128 level is a few dozen KiB), and one layer at a time drawn by
//! the same code as `warren run --layer` (a palette of glyph and colour, one index per cell).

use super::worker::{Generation, LevelResult};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::Serialize;
use std::collections::BTreeMap;
use warren_core::map::{Corridor, Door, Map, Room, Spawn, Stairs, Tags};
use warren_core::render::layers::{label_style, priority_style};
use warren_core::render::{LayerChoice, Painter};
use warren_lua::run::params_json;

/// Integers packed one per cell: `bytes` (1, 2 or 4) per value, little-endian, in base64.
#[derive(Debug, Serialize)]
pub struct Cells {
    /// Bytes per value.
    pub bytes: u8,
    /// The packed values.
    pub data: String,
}

impl Cells {
    /// Packs values no larger than `largest` in as few bytes as hold it.
    pub fn pack(values: impl Iterator<Item = u32>, largest: u32) -> Cells {
        let bytes: u8 = match largest {
            0..=0xff => 1,
            0x100..=0xffff => 2,
            _ => 4,
        };
        let mut raw = Vec::new();
        for v in values {
            raw.extend_from_slice(&v.to_le_bytes()[..bytes as usize]);
        }
        Cells {
            bytes,
            data: STANDARD.encode(raw),
        }
    }
}

/// One terrain of the map's table.
#[derive(Debug, Serialize)]
struct TerrainInfo<'a> {
    name: &'a str,
    glyph: String,
    color: String,
    solid: bool,
}

/// One map: the finished level or one of its steps.
#[derive(Debug, Serialize)]
struct Frame<'a> {
    label: &'a str,
    width: i32,
    height: i32,
    terrains: Vec<TerrainInfo<'a>>,
    /// Terrain id per cell (an index into `terrains`).
    terrain: Cells,
    /// Priority per cell.
    priority: Cells,
    /// Region names by id (id 0 is no region).
    regions: &'a [String],
    /// Region id per cell.
    region: Cells,
    /// How the `region` layer draws each region id: glyph and `#rrggbb` (empty for id 0, no
    /// region), for the legend.
    region_styles: Vec<(String, String)>,
    /// Every priority the map holds with how the `priority` layer draws it (value, glyph,
    /// `#rrggbb`; 0, never written with a priority, has no colour of its own), for the legend.
    priority_styles: Vec<(u8, String, String)>,
    /// The layers this map can be drawn as.
    layers: Vec<&'a str>,
    rooms: &'a [Room],
    corridors: &'a [Corridor],
    doors: &'a [Door],
    stairs: &'a Stairs,
    spawns: &'a [Spawn],
    tags: &'a Tags,
}

/// One level.
#[derive(Debug, Serialize)]
struct LevelPage<'a> {
    /// Its seed, as text (64-bit).
    seed: String,
    depth: u32,
    /// Generation time in milliseconds.
    time_ms: f64,
    /// `ctx.phase` marks: name and milliseconds.
    phases: Vec<(&'a str, f64)>,
    /// What `warren batch` measures, then the recipe's metrics.
    metrics: &'a [(String, f64)],
    /// The steps, oldest first, then the finished map.
    frames: Vec<Frame<'a>>,
    /// Steps left out (the page's cell limit).
    steps_dropped: usize,
}

/// The page's copy of a generation.
#[derive(Debug, Serialize)]
struct Page<'a> {
    version: u64,
    recipe: &'a str,
    seed: String,
    params: BTreeMap<String, serde_json::Value>,
    /// The named priorities (`ROOM_FLOOR` = 70, …), for the inspector.
    priorities: &'static [(&'static str, u8)],
    levels: Vec<LevelPage<'a>>,
}

/// The JSON the page draws a generation from.
pub fn page(g: &Generation) -> Vec<u8> {
    let page = Page {
        version: g.version,
        recipe: &g.recipe,
        seed: g.request.seed.to_string(),
        params: params_json(&g.params),
        priorities: &warren_core::map::priority::NAMED,
        levels: g.levels.iter().map(level).collect(),
    };
    serde_json::to_vec(&page).unwrap_or_default()
}

fn level(l: &LevelResult) -> LevelPage<'_> {
    let frames = l
        .snapshots
        .iter()
        .map(|s| frame(&s.label, &s.map))
        .chain([frame("final", &l.level.map)])
        .collect();
    LevelPage {
        seed: l.level.seed.to_string(),
        depth: l.level.depth,
        time_ms: l.time.as_secs_f64() * 1e3,
        phases: l
            .phases
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_secs_f64() * 1e3))
            .collect(),
        metrics: &l.metrics,
        frames,
        steps_dropped: l.snapshots_dropped,
    }
}

fn frame<'a>(label: &'a str, map: &'a Map) -> Frame<'a> {
    let table = map.terrains();
    let terrains = table
        .iter()
        .map(|t| TerrainInfo {
            name: &t.name,
            glyph: t.glyph.to_string(),
            color: t.color.to_hex(),
            solid: t.solid,
        })
        .collect::<Vec<_>>();
    let regions = map.region_names();
    let region_styles = (0..regions.len() as u32)
        .map(|id| match label_style(id) {
            Some((g, c)) => (g.to_string(), c.to_hex()),
            None => (String::new(), String::new()),
        })
        .collect();
    let mut present = [false; 256];
    for &p in map.priority_cells() {
        present[p as usize] = true;
    }
    let priority_styles = (0..=255u8)
        .filter(|&p| present[p as usize])
        .map(|p| match priority_style(p) {
            Some((g, c)) => (p, g.to_string(), c.to_hex()),
            None => (p, String::new(), String::new()),
        })
        .collect();
    let mut layers: Vec<&str> = LayerChoice::BUILT_IN.to_vec();
    layers.extend(map.notes.layers.keys().map(String::as_str));
    Frame {
        label,
        width: map.width(),
        height: map.height(),
        terrain: Cells::pack(
            map.terrain_cells().iter().map(|&t| t as u32),
            terrains.len().saturating_sub(1) as u32,
        ),
        terrains,
        priority: Cells::pack(map.priority_cells().iter().map(|&p| p as u32), 0xff),
        region: Cells::pack(
            map.region_cells().iter().map(|&r| r as u32),
            regions.len().saturating_sub(1) as u32,
        ),
        regions,
        region_styles,
        priority_styles,
        layers,
        rooms: &map.notes.rooms,
        corridors: &map.notes.corridors,
        doors: &map.notes.doors,
        stairs: &map.notes.stairs,
        spawns: &map.notes.spawns,
        tags: &map.notes.tags,
    }
}

/// One layer of one map, as the page draws it.
#[derive(Debug, Serialize)]
struct LayerPage {
    name: String,
    width: usize,
    height: usize,
    /// Distinct (glyph, `#rrggbb`) pairs.
    palette: Vec<(String, String)>,
    /// Palette index per cell.
    cells: Cells,
}

/// The JSON of `layer` drawn over `map`, or why it cannot be drawn.
pub fn layer(map: &Map, layer: &str) -> Result<Vec<u8>, String> {
    let choice = LayerChoice::from_name(layer);
    let painter = choice.painter(map)?;
    Ok(serde_json::to_vec(&palette(&painter, choice.name())).unwrap_or_default())
}

/// The page's form of the layer `painter` draws, read a row at a time: its distinct cells
/// and each cell's index among them.
fn palette(painter: &Painter, name: &str) -> LayerPage {
    let mut index: std::collections::HashMap<(char, [u8; 3]), u32> = Default::default();
    let mut palette = Vec::new();
    let mut ids = Vec::with_capacity(painter.width() * painter.height());
    let mut row = Vec::with_capacity(painter.width());
    for y in 0..painter.height() {
        painter.row(y, &mut row);
        for &(g, c) in &row {
            let key = (g, [c.0, c.1, c.2]);
            let id = *index.entry(key).or_insert_with(|| {
                palette.push((g.to_string(), c.to_hex()));
                (palette.len() - 1) as u32
            });
            ids.push(id);
        }
    }
    let largest = palette.len().saturating_sub(1) as u32;
    LayerPage {
        name: name.to_string(),
        width: painter.width(),
        height: painter.height(),
        palette,
        cells: Cells::pack(ids.into_iter(), largest),
    }
}
