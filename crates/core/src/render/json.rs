//! The JSON output contract, format 2, written as it is produced (nothing is built whole in
//! memory, so a 4096×4096 map streams out row by row):
//!
//! ```text
//! { "format": 2, "recipe": "dungeon", "seed": "1", "params": { … },
//!   "levels": [ { "depth": 1, "seed": "1", "width": 128, "height": 128,
//!                 "legend": { "#": { "terrain", "terrains", "solid", "hazard", "color" }, … },
//!                 "rows": [ "####…", … ],
//!                 "terrains": [ { "name", "glyph", "solid", "hazard", "color" }, … ],
//!                 "terrain_rows": [ [0, 0, 3, …], … ],
//!                 "regions": [ "", "winding corridor", … ],
//!                 "region_rows": [ [0, 1, 1, …], … ],
//!                 "rooms", "corridors", "doors", "start", "stairs", "spawns", "stats", "tags",
//!                 "layer"?: { "name", "rows", "legend"? } } ] }
//! ```
//!
//! One level or many, the shape is the same: a run header and a `levels` array. Every glyph of
//! `rows` appears in `legend`, `legend[g].solid` says whether such a cell blocks movement and
//! `legend[g].hazard` whether a walker must not cross it (a chasm, magma). Each of `doors` is
//! `{x, y, state, kind?}`, `state` one of closed, open, locked, secret, broken. A room is
//! `{x, y, w, h, kind, region, doors}`: `region` is the region most of its cells are in (or
//! `null`), `doors` every cell it is entered through (its doors, and the middle of each opening
//! a corridor or another room makes in the ring around it: [`Map::room_doors`]). `start` is
//! the cell a player enters the level on ([`Map::entry`]: the recipe's start, the up stairs, or
//! the first room), `null` only on a level with no standable cell.
//!
//! The schema is `crates/core/schema/warren-map-2.schema.json`; `docs/json-format.md` says
//! how the format is versioned.
//! `terrain_rows[y][x]` indexes `terrains` (the registry's whole table, so indices are the same
//! on every level of a run) and `region_rows[y][x]` indexes `regions` (0, the empty name, is "no
//! region"). Seeds are decimal strings: level seeds use all 64 bits, which a JavaScript number
//! would round. Statistics with whole values are written as integers.

use super::Painter;
use crate::map::{Map, Point};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The output format version.
pub const FORMAT: u32 = 2;

/// What the run was: the document's header.
#[derive(Clone, Debug)]
pub struct RunInfo<'a> {
    /// Recipe name.
    pub recipe: &'a str,
    /// The run's seed (level 1's seed).
    pub seed: u64,
    /// Parameter values, by name.
    pub params: &'a BTreeMap<String, serde_json::Value>,
}

/// What one level was.
#[derive(Clone, Debug)]
pub struct LevelInfo<'a> {
    /// Seed of this level.
    pub seed: u64,
    /// Depth (1-based).
    pub depth: u32,
    /// The debug layer chosen with `--layer`, written beside the terrain.
    pub layer: Option<LayerInfo<'a>>,
}

/// A debug layer in JSON: `"layer": { "name": "region", "rows": [...], "legend": {...} }`.
#[derive(Clone, Debug)]
pub struct LayerInfo<'a> {
    /// The layer's name.
    pub name: &'a str,
    /// The layer, drawn a row at a time.
    pub painter: &'a Painter<'a>,
    /// What its letters stand for (empty: no `legend` key).
    pub legend: &'a BTreeMap<char, Vec<String>>,
}

/// A JSON document being written: the header first, then each level as it comes, then
/// [`Writer::finish`]. Output that is cut short (an error midway) is not valid JSON.
pub struct Writer<W: Write> {
    /// Where the document goes.
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub out: W,
    levels: usize,
}

impl<W: Write> Writer<W> {
    /// Writes the header and opens the `levels` array.
    pub fn start(mut out: W, run: &RunInfo) -> io::Result<Self> {
        write!(out, "{{\n  \"format\": {FORMAT},\n  \"recipe\": ")?;
        compact(&mut out, run.recipe)?;
        write!(out, ",\n  \"seed\": \"{}\",\n  \"params\": ", run.seed)?;
        entries(&mut out, "  ", run.params.iter())?;
        out.write_all(b",\n  \"levels\": [")?;
        Ok(Writer { out, levels: 0 })
    }

    /// Writes one level.
    pub fn level(&mut self, map: &Map, info: &LevelInfo) -> io::Result<()> {
        let sep: &[u8] = if self.levels == 0 { b"\n" } else { b",\n" };
        self.out.write_all(sep)?;
        self.levels += 1;
        write_level(&mut self.out, map, info)
    }

    /// Closes the document and hands the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        let close: &[u8] = if self.levels == 0 {
            b"]\n}\n"
        } else {
            b"\n  ]\n}\n"
        };
        self.out.write_all(close)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The whole document for `levels` as a string (for tests and small maps; the CLI streams).
pub fn to_string(run: &RunInfo, levels: &[(&Map, LevelInfo)]) -> String {
    let mut w = Writer::start(Vec::new(), run).expect("writing to memory");
    for (map, info) in levels {
        w.level(map, info).expect("writing to memory");
    }
    String::from_utf8(w.finish().expect("writing to memory")).expect("JSON is UTF-8")
}

/// One legend entry: every terrain drawn with a glyph on this level.
#[derive(Serialize)]
struct Legend {
    terrain: String,
    terrains: Vec<String>,
    solid: bool,
    hazard: bool,
    color: String,
}

/// One entry of the terrain table.
#[derive(Serialize)]
struct TerrainEntry<'a> {
    name: &'a str,
    glyph: char,
    solid: bool,
    hazard: bool,
    color: String,
}

/// A room as exported: its rectangle, kind, region ([`Map::room_region`], `null` for none) and
/// doors ([`Map::room_doors`]: its door features and the openings corridors and other rooms
/// make in its walls).
#[derive(Serialize)]
pub(crate) struct RoomEntry<'a> {
    #[serde(flatten)]
    rect: &'a crate::map::Rect,
    kind: &'a str,
    region: Option<&'a str>,
    doors: Vec<Point>,
}

impl<'a> RoomEntry<'a> {
    /// Room `room` of `map`.
    pub(crate) fn new(map: &'a Map, room: &'a crate::map::Room) -> Self {
        RoomEntry {
            rect: &room.rect,
            kind: &room.kind,
            region: map.room_region(room),
            doors: map.room_doors(room),
        }
    }
}

/// The level's statistics (the recipe's, then `open_cells` and `open_fraction`), whole values
/// as integers.
pub(crate) fn level_stats(map: &Map) -> BTreeMap<String, serde_json::Value> {
    let mut stats: BTreeMap<String, serde_json::Value> = map
        .notes
        .stats
        .iter()
        .map(|(k, &v)| (k.clone(), number(v)))
        .collect();
    let open = map.open_count();
    stats.insert("open_cells".into(), open.into());
    stats.insert(
        "open_fraction".into(),
        number(open as f64 / map.len() as f64),
    );
    stats
}

/// A JSON number: exactly representable whole values (|v| < 2^53) as integers.
fn number(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        (v as i64).into()
    } else {
        v.into()
    }
}

const IN: &str = "      ";

fn write_level(out: &mut impl Write, map: &Map, info: &LevelInfo) -> io::Result<()> {
    let (width, height) = (map.width() as usize, map.height() as usize);
    write!(
        out,
        "    {{\n{IN}\"depth\": {},\n{IN}\"seed\": \"{}\",\n{IN}\"width\": {width},\n{IN}\"height\": {height},\n",
        info.depth, info.seed
    )?;
    let table = map.terrains();

    key(out, "legend")?;
    entries(out, IN, legend(map).iter())?;
    out.write_all(b",\n")?;

    key(out, "rows")?;
    text_rows(
        out,
        width,
        map.terrain_cells().iter().map(|&t| table.get(t).glyph),
        "        ",
    )?;
    out.write_all(b",\n")?;

    key(out, "terrains")?;
    list(
        out,
        table.iter().map(|t| TerrainEntry {
            name: &t.name,
            glyph: t.glyph,
            solid: t.solid,
            hazard: t.hazard,
            color: t.color.to_hex(),
        }),
    )?;
    out.write_all(b",\n")?;
    key(out, "terrain_rows")?;
    index_rows(out, width, map.terrain_cells())?;
    out.write_all(b",\n")?;

    key(out, "regions")?;
    compact(out, map.region_names())?;
    out.write_all(b",\n")?;
    key(out, "region_rows")?;
    index_rows(out, width, map.region_cells())?;
    out.write_all(b",\n")?;

    let notes = &map.notes;
    key(out, "rooms")?;
    list(out, notes.rooms.iter().map(|r| RoomEntry::new(map, r)))?;
    out.write_all(b",\n")?;
    key(out, "corridors")?;
    list(out, notes.corridors.iter())?;
    out.write_all(b",\n")?;
    key(out, "doors")?;
    list(out, notes.doors.iter())?;
    out.write_all(b",\n")?;
    key(out, "start")?;
    compact(out, &map.entry())?;
    out.write_all(b",\n")?;
    key(out, "stairs")?;
    compact(out, &notes.stairs)?;
    out.write_all(b",\n")?;
    key(out, "spawns")?;
    list(out, notes.spawns.iter())?;
    out.write_all(b",\n")?;

    key(out, "stats")?;
    entries(out, IN, level_stats(map).iter())?;
    out.write_all(b",\n")?;
    key(out, "tags")?;
    entries(out, IN, notes.tags.iter())?;

    if let Some(layer) = &info.layer {
        out.write_all(b",\n")?;
        key(out, "layer")?;
        write!(out, "{{\n{IN}  \"name\": ")?;
        compact(out, layer.name)?;
        write!(out, ",\n{IN}  \"rows\": ")?;
        let painter = layer.painter;
        let mut cells = Vec::with_capacity(painter.width());
        let glyphs = (0..painter.height()).flat_map(|y| {
            painter.row(y, &mut cells);
            let row: Vec<char> = cells.iter().map(|&(glyph, _)| glyph).collect();
            row
        });
        text_rows(out, painter.width(), glyphs, "          ")?;
        if !layer.legend.is_empty() {
            write!(out, ",\n{IN}  \"legend\": ")?;
            entries(out, "        ", layer.legend.iter())?;
        }
        write!(out, "\n{IN}}}")?;
    }
    write!(out, "\n    }}")
}

/// The terrain legend of `map`: every glyph drawn on it and the terrains drawn with it.
fn legend(map: &Map) -> BTreeMap<String, Legend> {
    let table = map.terrains();
    let mut used = vec![false; table.len()];
    for &t in map.terrain_cells() {
        used[t as usize] = true;
    }
    let mut legend: BTreeMap<String, Legend> = BTreeMap::new();
    for (t, _) in table.iter().zip(&used).filter(|(_, &u)| u) {
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
    legend
}

/// `      "name": ` at the level's indentation.
fn key(out: &mut impl Write, name: &str) -> io::Result<()> {
    write!(out, "{IN}\"{name}\": ")
}

/// A value on one line, without spaces.
fn compact(out: &mut impl Write, value: &(impl Serialize + ?Sized)) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
}

/// An array with one compact item per line (`[]` when empty).
fn list<T: Serialize>(out: &mut impl Write, items: impl Iterator<Item = T>) -> io::Result<()> {
    let mut first = true;
    for item in items {
        out.write_all(if first { b"[\n" } else { b",\n" })?;
        first = false;
        write!(out, "{IN}  ")?;
        compact(out, &item)?;
    }
    if first {
        out.write_all(b"[]")
    } else {
        write!(out, "\n{IN}]")
    }
}

/// An object with one compact entry per line (`{}` when empty), indented by `indent`.
fn entries<K: ToString, V: Serialize>(
    out: &mut impl Write,
    indent: &str,
    items: impl Iterator<Item = (K, V)>,
) -> io::Result<()> {
    let mut first = true;
    for (k, v) in items {
        out.write_all(if first { b"{\n" } else { b",\n" })?;
        first = false;
        write!(out, "{indent}  ")?;
        compact(out, &k.to_string())?;
        out.write_all(b": ")?;
        compact(out, &v)?;
    }
    if first {
        out.write_all(b"{}")
    } else {
        write!(out, "\n{indent}}}")
    }
}

/// Glyphs, `width` to a row, as an array of strings, one per line at `indent`. Each row is
/// written as `serde_json` writes a string (a glyph that needs escaping is escaped by it), its
/// glyphs written straight into a row of bytes sized for the longest it can be: through a
/// `String` and `serde_json`'s escaping of the whole row it took about 50 instructions a cell.
fn text_rows(
    out: &mut impl Write,
    width: usize,
    glyphs: impl Iterator<Item = char>,
    indent: &str,
) -> io::Result<()> {
    let width = width.max(1);
    let mut line: Vec<u8> = vec![0; width * MAX_ESCAPED + 2];
    // Rows written, the row's bytes so far, and the glyphs it still takes (counted down: a
    // remainder for every glyph was a division a cell).
    let (mut rows, mut at, mut left) = (0, 0, 0);
    out.write_all(b"[")?;
    for g in glyphs {
        if left == 0 {
            line[0] = b'"';
            (at, left) = (1, width);
        }
        at += write_json_char(&mut line[at..], g);
        left -= 1;
        if left == 0 {
            line[at] = b'"';
            out.write_all(if rows == 0 { b"\n" } else { b",\n" })?;
            out.write_all(indent.as_bytes())?;
            out.write_all(&line[..=at])?;
            rows += 1;
        }
    }
    write!(out, "\n{}]", &indent[2..])
}

/// The most bytes a character takes inside a JSON string (`\u001f`).
const MAX_ESCAPED: usize = 6;

/// Writes `c` at the start of `to` as it stands inside a JSON string, and returns its length:
/// as itself, or, for the few characters JSON escapes (quotes, backslashes, control
/// characters), as `serde_json` escapes it. `to` has room for [`MAX_ESCAPED`] bytes.
#[inline(always)]
fn write_json_char(to: &mut [u8], c: char) -> usize {
    match c {
        ' '..='~' if c != '"' && c != '\\' => {
            to[0] = c as u8;
            1
        }
        '"' | '\\' | '\u{0}'..='\u{1f}' => escaped(to, c),
        _ => c.encode_utf8(to).len(),
    }
}

/// [`write_json_char`] for a character JSON escapes, escaped by `serde_json`.
#[cold]
fn escaped(to: &mut [u8], c: char) -> usize {
    let quoted = serde_json::to_vec(&*c.encode_utf8(&mut [0; 4])).expect("a string into a vector");
    let inner = &quoted[1..quoted.len() - 1];
    to[..inner.len()].copy_from_slice(inner);
    inner.len()
}

/// Cell indices as one array of integers per row, each row's numbers written straight into a
/// row of bytes sized for the longest it can be: through a `String`, a character at a time, it
/// took about 140 instructions a cell.
fn index_rows<T: Copy + Into<u32>>(
    out: &mut impl Write,
    width: usize,
    cells: &[T],
) -> io::Result<()> {
    let width = width.max(1);
    // Sized once for the longest row; each row overwrites what it writes.
    let mut digits: Vec<u8> = vec![0; width * MAX_CELL_DIGITS];
    out.write_all(b"[")?;
    for (y, row) in cells.chunks(width).enumerate() {
        let len = comma_separated(&mut digits, row.iter().map(|&c| c.into()));
        out.write_all(if y == 0 { b"\n" } else { b",\n" })?;
        out.write_all(IN.as_bytes())?;
        out.write_all(b"  [")?;
        out.write_all(&digits[..len])?;
        out.write_all(b"]")?;
    }
    write!(out, "\n{IN}]")
}

/// The most bytes a cell's number takes in a row of them: a comma and the ten digits of the
/// largest `u32`.
pub(crate) const MAX_CELL_DIGITS: usize = 11;

/// Writes `numbers` in decimal, separated by commas, at the start of `digits` (room for
/// [`MAX_CELL_DIGITS`] bytes a number), and returns how many bytes that took.
#[inline(always)]
pub(crate) fn comma_separated(digits: &mut [u8], numbers: impl Iterator<Item = u32>) -> usize {
    let mut at = 0;
    for (x, n) in numbers.enumerate() {
        if x > 0 {
            digits[at] = b',';
            at += 1;
        }
        at += write_int(&mut digits[at..], n);
    }
    at
}

/// The decimal digits of every number below 1,000 (the terrain ids and region numbers of
/// nearly every map), then their count: made at compile time.
const DECIMALS: [[u8; 4]; 1000] = {
    let mut table = [[0; 4]; 1000];
    let mut n = 0;
    while n < 1000 {
        let digits = [(n / 100) as u8, (n / 10 % 10) as u8, (n % 10) as u8];
        let len = if n < 10 {
            1
        } else if n < 100 {
            2
        } else {
            3
        };
        let mut i = 0;
        while i < len {
            table[n][i] = b'0' + digits[3 - len + i];
            i += 1;
        }
        table[n][3] = len as u8;
        n += 1;
    }
    table
};

/// Writes `n` in decimal at the start of `to` (room for ten digits), and returns its length.
#[inline(always)]
fn write_int(to: &mut [u8], n: u32) -> usize {
    if let Some(entry) = DECIMALS.get(n as usize) {
        // Four bytes at once: the digits, then their count, which the next number (or the
        // row's end) overwrites.
        to[..4].copy_from_slice(entry);
        return usize::from(entry[3]);
    }
    let len = n.ilog10() as usize + 1;
    let mut n = n;
    for digit in to[..len].iter_mut().rev() {
        *digit = b'0' + (n % 10) as u8;
        n /= 10;
    }
    len
}
