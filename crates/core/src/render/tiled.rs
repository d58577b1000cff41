//! Tiled export: a TMX map (Tiled's XML format, which Tiled and the engines with Tiled importers
//! open directly) with a tileset generated from the terrain table.
//!
//! - The tileset `terrains` has one tile per terrain of the registry (tile id = terrain id, so
//!   gid = id + 1). Each tile's properties: `terrain` (name), `glyph`, `solid` (bool),
//!   `hazard` (bool) and `color`. Its image, [`tileset_view`] drawn at one pixel per cell, is a PNG written beside
//!   the map: solid terrains are full squares of their colour, open ones a square of their
//!   colour on a dark ground.
//! - One group layer per level (`level 1`, `level 2`, …; levels after the first start hidden),
//!   with the level's `depth`, `seed`, statistics (`stat.NAME`) and tags (`tag.NAME`) as
//!   properties. In each, the tile layer `terrain`, then object layers, every object typed
//!   (`type`) and placed in pixels, with its cell in the properties `cell_x` and `cell_y`:
//!   - `rooms`: rectangles named by kind; `kind`, `region` (when the room has one), `cell_w`,
//!     `cell_h`;
//!   - `doors`: points named by state (`locked door`); `state`, `kind` (when made from region
//!     data);
//!   - `entrances`: a point for every cell a room is entered through (its doors and the
//!     openings corridors and other rooms make: [`Map::room_doors`]); `room`, an object
//!     property naming the room, and `door`, the door standing there, if any;
//!   - `corridors`: polylines through the centres of their cells, one point per cell in carving
//!     order; `region` (when drawn with one), `cells` (how many). A corridor that carved no cell
//!     is a hidden point at the origin;
//!   - `stairs` (`direction`: up or down), `spawns` (`what`) and `start` (the cell a player
//!     enters the level on, [`Map::entry`]): points.
//!
//!   No property repeats an object's own attribute (`x`, `y`, `width`, `height`, `name`,
//!   `type`), which loaders such as pytmx refuse, and none holds JSON text.
//! - The map's properties: `recipe`, `seed` and every parameter as `param.NAME`. Integers beyond
//!   32 bits, like seeds, are strings.
//! - The file is TMX [`TMX_VERSION`], without a `tiledversion` (no Tiled release wrote it).

use super::json::{comma_separated, level_stats, LevelInfo, RunInfo, MAX_CELL_DIGITS};
use super::View;
use crate::map::{Map, Point, Rgb, TerrainTable};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The TMX format version the map is written in (Tiled 1.8's; no `tiledversion`: no Tiled
/// release wrote the file).
pub const TMX_VERSION: &str = "1.8";
/// Tile width and height in pixels.
pub const TILE_PX: usize = 16;
/// Tiles per row of the tileset image.
pub const COLUMNS: usize = 8;

/// The tileset image file a map refers to, and its size in pixels.
#[derive(Clone, Debug)]
pub struct TilesetImage<'a> {
    /// Path relative to the map file (`map.tiles.png`).
    pub source: &'a str,
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
}

/// The tileset picture at one pixel per cell: [`COLUMNS`] tiles of [`TILE_PX`]² pixels per
/// row, tile `i` for terrain `i`.
pub fn tileset_view(table: &TerrainTable) -> View {
    let rows = table.len().div_ceil(COLUMNS).max(1);
    let (width, height) = (COLUMNS * TILE_PX, rows * TILE_PX);
    let mut colors = vec![Rgb(0, 0, 0); width * height];
    let inset = TILE_PX / 4;
    for (i, t) in table.iter().enumerate() {
        let (tx, ty) = ((i % COLUMNS) * TILE_PX, (i / COLUMNS) * TILE_PX);
        let c = t.color;
        let ground = Rgb(c.0 / 4, c.1 / 4, c.2 / 4);
        for y in 0..TILE_PX {
            for x in 0..TILE_PX {
                let inner =
                    (inset..TILE_PX - inset).contains(&x) && (inset..TILE_PX - inset).contains(&y);
                colors[tx + x + (ty + y) * width] = if t.solid || inner { c } else { ground };
            }
        }
    }
    View {
        width,
        height,
        glyphs: vec![' '; width * height],
        colors,
    }
}

/// Writes the TMX map of `levels` (the first level's size, or the largest of them, is the
/// map's), its tileset referring to `image`.
pub fn write(
    out: &mut impl Write,
    run: &RunInfo,
    levels: &[(&Map, LevelInfo)],
    image: &TilesetImage,
) -> io::Result<()> {
    let Some((first, _)) = levels.first() else {
        return Err(io::Error::other("a Tiled map needs at least one level"));
    };
    let table = first.terrains();
    let width = levels.iter().map(|(m, _)| m.width()).max().unwrap_or(1);
    let height = levels.iter().map(|(m, _)| m.height()).max().unwrap_or(1);
    let objects: usize = levels.iter().map(|(m, _)| object_count(m)).sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<map version="{TMX_VERSION}" orientation="orthogonal" renderorder="right-down" width="{width}" height="{height}" tilewidth="{TILE_PX}" tileheight="{TILE_PX}" infinite="0" nextlayerid="{}" nextobjectid="{}">"#,
        levels.len() * (2 + OBJECT_LAYERS) + 1,
        objects + 1
    )?;
    let mut props = vec![
        ("recipe".to_string(), Value::from(run.recipe)),
        ("seed".to_string(), Value::from(run.seed.to_string())),
    ];
    props.extend(
        run.params
            .iter()
            .map(|(k, v)| (format!("param.{k}"), v.clone())),
    );
    properties(out, " ", &props)?;
    tileset(out, table, image)?;
    let mut ids = Ids {
        layer: 0,
        object: 0,
    };
    for (i, (map, info)) in levels.iter().enumerate() {
        level(out, map, info, i == 0, &mut ids)?;
    }
    writeln!(out, "</map>")
}

/// The next layer and object ids.
struct Ids {
    layer: usize,
    object: usize,
}

impl Ids {
    fn layer(&mut self) -> usize {
        self.layer += 1;
        self.layer
    }
    fn object(&mut self) -> usize {
        self.object += 1;
        self.object
    }
}

fn tileset(out: &mut impl Write, table: &TerrainTable, image: &TilesetImage) -> io::Result<()> {
    writeln!(
        out,
        r#" <tileset firstgid="1" name="terrains" tilewidth="{TILE_PX}" tileheight="{TILE_PX}" tilecount="{}" columns="{COLUMNS}">"#,
        table.len()
    )?;
    writeln!(
        out,
        r#"  <image source="{}" width="{}" height="{}"/>"#,
        escape(image.source),
        image.width,
        image.height
    )?;
    for (id, t) in table.iter().enumerate() {
        writeln!(out, r#"  <tile id="{id}">"#)?;
        writeln!(out, "   <properties>")?;
        property(out, "    ", "terrain", &Value::from(t.name.as_str()))?;
        property(out, "    ", "glyph", &Value::from(t.glyph.to_string()))?;
        property(out, "    ", "solid", &Value::from(t.solid))?;
        property(out, "    ", "hazard", &Value::from(t.hazard))?;
        let c = t.color;
        writeln!(
            out,
            r##"    <property name="color" type="color" value="#ff{:02x}{:02x}{:02x}"/>"##,
            c.0, c.1, c.2
        )?;
        writeln!(out, "   </properties>")?;
        writeln!(out, "  </tile>")?;
    }
    writeln!(out, " </tileset>")
}

fn level(
    out: &mut impl Write,
    map: &Map,
    info: &LevelInfo,
    visible: bool,
    ids: &mut Ids,
) -> io::Result<()> {
    let hidden = if visible { "" } else { r#" visible="0""# };
    writeln!(
        out,
        r#" <group id="{}" name="level {}"{hidden}>"#,
        ids.layer(),
        info.depth
    )?;
    let mut props = vec![
        ("depth".to_string(), Value::from(info.depth)),
        ("seed".to_string(), Value::from(info.seed.to_string())),
    ];
    let notes = &map.notes;
    props.extend(
        level_stats(map)
            .into_iter()
            .map(|(k, v)| (format!("stat.{k}"), v)),
    );
    props.extend(notes.tags.iter().map(|(k, v)| {
        (
            format!("tag.{k}"),
            serde_json::to_value(v).unwrap_or(Value::Null),
        )
    }));
    properties(out, "  ", &props)?;
    terrain_layer(out, map, ids.layer())?;
    for (name, objects) in level_objects(map, ids.object) {
        object_layer(out, ids, name, objects)?;
    }
    writeln!(out, " </group>")
}

/// How many objects a level makes (see [`level_objects`]).
fn object_count(map: &Map) -> usize {
    level_objects(map, 0).iter().map(|(_, o)| o.len()).sum()
}

/// A level's object layers, in order, their objects numbered from `last_id + 1` in that order:
/// rooms, doors, entrances (each room's [`Map::room_doors`], referring to the room and, where
/// one stands there, the door), corridors, stairs, spawns and the start.
fn level_objects(map: &Map, last_id: usize) -> Vec<(&'static str, Vec<Object>)> {
    let notes = &map.notes;
    let px = TILE_PX as i64;
    let centre = |p: Point| (p.x as i64 * px + px / 2, p.y as i64 * px + px / 2);
    let cell = |p: Point| {
        vec![
            ("cell_x".to_string(), val(p.x)),
            ("cell_y".to_string(), val(p.y)),
        ]
    };
    let point = |p: Point, name: String, kind: &'static str, mut props: Vec<(String, Prop)>| {
        let (x, y) = centre(p);
        props.extend(cell(p));
        Object {
            name,
            kind,
            x,
            y,
            shape: Shape::Point,
            props,
        }
    };

    let room_id = |i: usize| last_id + 1 + i;
    let rooms: Vec<Object> = notes
        .rooms
        .iter()
        .map(|r| {
            let mut props = vec![("kind".to_string(), val(&*r.kind))];
            if let Some(region) = map.room_region(r) {
                props.push(("region".into(), val(region)));
            }
            props.extend([
                ("cell_x".to_string(), val(r.rect.x)),
                ("cell_y".to_string(), val(r.rect.y)),
                ("cell_w".to_string(), val(r.rect.w)),
                ("cell_h".to_string(), val(r.rect.h)),
            ]);
            Object {
                name: r.kind.to_string(),
                kind: "room",
                x: r.rect.x as i64 * px,
                y: r.rect.y as i64 * px,
                shape: Shape::Rect(r.rect.w as i64 * px, r.rect.h as i64 * px),
                props,
            }
        })
        .collect();
    let door_id = |i: usize| last_id + 1 + rooms.len() + i;
    let doors: Vec<Object> = notes
        .doors
        .iter()
        .map(|d| {
            let mut props = vec![("state".to_string(), val(d.state.name()))];
            if let Some(kind) = &d.kind {
                props.push(("kind".into(), val(&**kind)));
            }
            point(d.at(), format!("{} door", d.state.name()), "door", props)
        })
        .collect();
    let door_at: BTreeMap<Point, usize> = notes
        .doors
        .iter()
        .enumerate()
        .map(|(i, d)| (d.at(), i))
        .collect();
    let entrances: Vec<Object> = notes
        .rooms
        .iter()
        .enumerate()
        .flat_map(|(i, r)| map.room_doors(r).into_iter().map(move |p| (i, p)))
        .map(|(i, p)| {
            let mut props = vec![("room".to_string(), Prop::Object(room_id(i)))];
            if let Some(&d) = door_at.get(&p) {
                props.push(("door".into(), Prop::Object(door_id(d))));
            }
            point(p, "entrance".into(), "entrance", props)
        })
        .collect();
    let corridors: Vec<Object> = notes
        .corridors
        .iter()
        .map(|c| {
            let name = c.region.clone().unwrap_or_else(|| "corridor".into());
            let mut props = Vec::new();
            if let Some(region) = &c.region {
                props.push(("region".to_string(), val(region.as_str())));
            }
            props.push(("cells".into(), val(c.cells.len())));
            let Some(&first) = c.cells.first() else {
                // Nowhere to draw it: a hidden point at the origin keeps its fields and place.
                return Object {
                    name,
                    kind: "corridor",
                    x: 0,
                    y: 0,
                    shape: Shape::Hidden,
                    props,
                };
            };
            props.extend(cell(first));
            let (x0, y0) = centre(first);
            let points = c
                .cells
                .iter()
                .map(|&p| {
                    let (x, y) = centre(p);
                    (x - x0, y - y0)
                })
                .collect();
            Object {
                name,
                kind: "corridor",
                x: x0,
                y: y0,
                shape: Shape::Polyline(points),
                props,
            }
        })
        .collect();
    let stairs = [("up", &notes.stairs.up), ("down", &notes.stairs.down)]
        .into_iter()
        .flat_map(|(dir, list)| list.iter().map(move |&s| (dir, s)))
        .map(|(dir, s)| {
            let props = vec![("direction".to_string(), val(dir))];
            point(s, format!("stairs {dir}"), "stairs", props)
        })
        .collect();
    let spawns = notes
        .spawns
        .iter()
        .map(|s| {
            let p = Point::new(s.x, s.y);
            let props = vec![("what".to_string(), val(s.what.as_str()))];
            point(p, s.what.clone(), "spawn", props)
        })
        .collect();
    let start = map
        .entry()
        .map(|p| point(p, "start".into(), "start", Vec::new()))
        .into_iter()
        .collect();
    vec![
        ("rooms", rooms),
        ("doors", doors),
        ("entrances", entrances),
        ("corridors", corridors),
        ("stairs", stairs),
        ("spawns", spawns),
        ("start", start),
    ]
}

/// The object layers of a level: see [`level_objects`].
const OBJECT_LAYERS: usize = 7;

/// The terrain tile layer, gid = terrain id + 1, as CSV.
fn terrain_layer(out: &mut impl Write, map: &Map, id: usize) -> io::Result<()> {
    let (w, h) = (map.width(), map.height());
    writeln!(
        out,
        r#"  <layer id="{id}" name="terrain" width="{w}" height="{h}">"#
    )?;
    writeln!(out, r#"   <data encoding="csv">"#)?;
    let rows = map.terrain_cells().chunks(w as usize);
    let last = h as usize - 1;
    // Sized once for the longest row; each row overwrites what it writes.
    let mut digits = vec![0; w as usize * MAX_CELL_DIGITS];
    for (y, row) in rows.enumerate() {
        let len = comma_separated(&mut digits, row.iter().map(|&t| u32::from(t) + 1));
        out.write_all(&digits[..len])?;
        out.write_all(if y == last { b"\n" } else { b",\n" })?;
    }
    writeln!(out, "</data>")?;
    writeln!(out, "  </layer>")
}

/// An object's geometry in pixels, relative to its position.
enum Shape {
    Rect(i64, i64),
    Polyline(Vec<(i64, i64)>),
    Point,
    /// A hidden point: an annotation with no cells.
    Hidden,
}

/// One map object: where it is, what it is and its properties.
struct Object {
    name: String,
    kind: &'static str,
    x: i64,
    y: i64,
    shape: Shape,
    props: Vec<(String, Prop)>,
}

/// An object property: a plain value, or a reference to another object by id.
enum Prop {
    Value(Value),
    Object(usize),
}

/// A plain property value.
fn val(v: impl Into<Value>) -> Prop {
    Prop::Value(v.into())
}

fn object_layer(
    out: &mut impl Write,
    ids: &mut Ids,
    name: &str,
    items: Vec<Object>,
) -> io::Result<()> {
    writeln!(out, r#"  <objectgroup id="{}" name="{name}">"#, ids.layer())?;
    for o in items {
        let size = match o.shape {
            Shape::Rect(w, h) => format!(r#" width="{w}" height="{h}""#),
            Shape::Hidden => r#" visible="0""#.to_string(),
            _ => String::new(),
        };
        writeln!(
            out,
            r#"   <object id="{}" name="{}" type="{}" x="{}" y="{}"{size}>"#,
            ids.object(),
            escape(&o.name),
            o.kind,
            o.x,
            o.y
        )?;
        if !o.props.is_empty() {
            writeln!(out, "    <properties>")?;
            for (name, value) in &o.props {
                match value {
                    Prop::Value(v) => property(out, "     ", name, v)?,
                    Prop::Object(id) => writeln!(
                        out,
                        r#"     <property name="{}" type="object" value="{id}"/>"#,
                        escape(name)
                    )?,
                }
            }
            writeln!(out, "    </properties>")?;
        }
        match &o.shape {
            Shape::Point | Shape::Hidden => writeln!(out, "    <point/>")?,
            Shape::Polyline(points) => {
                let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                writeln!(out, r#"    <polyline points="{}"/>"#, pts.join(" "))?;
            }
            Shape::Rect(..) => {}
        }
        writeln!(out, "   </object>")?;
    }
    writeln!(out, "  </objectgroup>")
}

/// A `<properties>` block (nothing when there are none).
fn properties(out: &mut impl Write, indent: &str, props: &[(String, Value)]) -> io::Result<()> {
    if props.is_empty() {
        return Ok(());
    }
    writeln!(out, "{indent}<properties>")?;
    for (name, value) in props {
        property(out, &format!("{indent} "), name, value)?;
    }
    writeln!(out, "{indent}</properties>")
}

/// One property, typed: booleans, integers that fit 32 bits, other numbers as floats, anything
/// else as a string (lists and objects as compact JSON).
pub fn property(out: &mut impl Write, indent: &str, name: &str, value: &Value) -> io::Result<()> {
    let (kind, text) = match value {
        Value::Bool(b) => ("bool", b.to_string()),
        Value::Number(n) => match n.as_i64().filter(|i| i32::try_from(*i).is_ok()) {
            Some(i) => ("int", i.to_string()),
            None if n.is_f64() => ("float", n.to_string()),
            None => ("string", n.to_string()),
        },
        Value::String(s) => ("string", s.clone()),
        Value::Null => ("string", String::new()),
        other => ("string", other.to_string()),
    };
    let kind = if kind == "string" {
        String::new()
    } else {
        format!(r#" type="{kind}""#)
    };
    writeln!(
        out,
        r#"{indent}<property name="{}"{kind} value="{}"/>"#,
        escape(name),
        escape(&text)
    )
}

/// Text escaped for an XML attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}
