//! Bulk map access from Lua: a generator that computes its grid in Lua hands it over in one call
//! (`map:set_row`, `map:blit`) and reads a region back the same way (`map:get_rect`), instead of
//! one binding call per cell. The loops read the Lua tables a run of cells at a time
//! (`lua_warren_items`), a few nanoseconds per cell.
//!
//! ```lua
//! map:blit(0, 0, grid)                                    -- grid[row][col] = terrain name
//! map:blit(10, 4, { "#####", "#...#", "#####" }, { legend = { ["#"] = "rock wall", ["."] = "floor" } })
//! local rows = map:get_rect { x = 0, y = 0, w = map.width, h = map.height }
//! ```

use crate::api::call::{Call, Opts};
use crate::api::classes::{BLIT_OPTIONS, RECT_LIKE};
use crate::api::cost;
use crate::api::decl::{arg, opt, Decl, Owner::Map as M, Ty};
use crate::api::shapes::{brush, rect};
use crate::api::shared::Shared;
use crate::ffi::{lua_warren_items, WarrenValue};
use crate::state::charge;
use mlua::{ffi, Lua, Table, Value};
use std::collections::BTreeMap;
use std::os::raw::c_int;
use warren_core::map::{Brush, Map, TerrainId};

const SET_ROW: Decl = Decl::method(
    M,
    "set_row",
    "Writes consecutive cells of row `y` from column `x`: `cells[i]` goes to (x + i - 1, y). `cells` is a list of terrain names (nil or false leaves a cell alone), or a string read through `opts.legend`. Returns how many cells were written.",
)
.args(&[
    arg("x", Ty::INT),
    arg("y", Ty::INT),
    arg("cells", Ty::Any),
    opt("opts", Ty::Table(&BLIT_OPTIONS)),
])
.returns(&["integer"]);
const BLIT: Decl = Decl::method(
    M,
    "blit",
    "Writes a grid with its top-left cell at (x, y): `rows[r][c]` goes to (x + c - 1, y + r - 1). Each row is a list of terrain names (nil or false leaves a cell alone) or a string read through `opts.legend`. Returns how many cells were written.",
)
.args(&[
    arg("x", Ty::INT),
    arg("y", Ty::INT),
    arg("rows", Ty::List),
    opt("opts", Ty::Table(&BLIT_OPTIONS)),
])
.returns(&["integer"]);
const GET_RECT: Decl = Decl::method(
    M,
    "get_rect",
    "The terrain names of a rectangle as rows: `rows[r][c]` is the terrain at (rect.x + c - 1, rect.y + r - 1).",
)
.args(&[arg("rect", Ty::Table(&RECT_LIKE))])
.returns(&["string[][]"]);

methods! {
    /// Bulk reads and writes.
    pub METHODS, register for Shared<Map> {
        SET_ROW => set_row,
        BLIT => blit,
        GET_RECT => get_rect,
    }
}

/// How one row's cells are given.
enum RowSource<'t> {
    /// A Lua list of terrain names.
    Names(&'t Table),
    /// A string, one character per cell, through the legend.
    Text(Vec<char>),
}

/// What a bulk write writes with: the brush (its terrain replaced per cell) and the legend.
struct Writer<'a> {
    brush: Brush,
    legend: BTreeMap<char, TerrainId>,
    map: &'a mut Map,
    written: usize,
}

impl Writer<'_> {
    /// Writes one row starting at (x, y); the caller checked the row lies on the map.
    fn row(
        &mut self,
        c: &Call,
        x: i64,
        y: i64,
        source: &RowSource,
        what: &str,
    ) -> mlua::Result<()> {
        match source {
            RowSource::Text(chars) => {
                if chars.is_empty() {
                    return Ok(());
                }
                let n = chars.len() as i64;
                let start = (self.map.locate(x, y))
                    .and_then(|p| self.map.index(p))
                    .map_err(|e| c.fail(e))?;
                self.map
                    .locate(x + n - 1, y)
                    .map_err(|e| c.fail(format!("{what} has {n} cells from ({x}, {y}): {e}")))?;
                for (i, ch) in chars.iter().enumerate() {
                    if let Some(&t) = self.legend.get(ch) {
                        self.brush.terrain = t;
                        self.written += usize::from(self.map.write_index(start + i, &self.brush));
                    }
                }
                Ok(())
            }
            RowSource::Names(t) => {
                let n = t.raw_len() as i64;
                if n == 0 {
                    return Ok(());
                }
                let start = (self.map.locate(x, y))
                    .and_then(|p| self.map.index(p))
                    .map_err(|e| c.fail(e))?;
                self.map
                    .locate(x + n - 1, y)
                    .map_err(|e| c.fail(format!("{what} has {n} cells from ({x}, {y}): {e}")))?;
                let map = &mut *self.map;
                let names = map.terrains().clone();
                let brush = &mut self.brush;
                let mut written = 0usize;
                let mut bad: Option<(i64, BadCell)> = None;
                // SAFETY: the closure reads the table at stack slot 1 with raw reads (which never
                // raise errors or run metamethods), pushes nothing, and owns nothing that needs
                // dropping; a string's bytes live while the table holds it, and no Lua code runs.
                unsafe {
                    c.lua().exec_raw::<()>(*t, |state| {
                        let mut cache = NameCache::default();
                        let mut items = [WarrenValue::NONE; ITEMS_AT_ONCE];
                        let mut first = 1;
                        while first <= n {
                            let count = (n - first + 1).min(ITEMS_AT_ONCE as i64) as usize;
                            lua_warren_items(state, 1, first, count as c_int, items.as_mut_ptr());
                            for (i, item) in (first..).zip(&items[..count]) {
                                let id = match item.type_ {
                                    ffi::LUA_TSTRING => cache.lookup(item.u.s, item.len, &names),
                                    ffi::LUA_TNIL => Some(None),
                                    ffi::LUA_TBOOLEAN if item.u.i == 0 => Some(None),
                                    _ => None,
                                };
                                match id {
                                    Some(Some(t)) => {
                                        brush.terrain = t;
                                        written += usize::from(
                                            map.write_index(start + (i - 1) as usize, brush),
                                        );
                                    }
                                    Some(None) => {}
                                    None => {
                                        bad = Some((i, bad_cell(item.type_)));
                                        return;
                                    }
                                }
                            }
                            first += count as i64;
                        }
                    })?;
                }
                self.written += written;
                match bad {
                    None => Ok(()),
                    Some((i, BadCell::Type(ty))) => Err(c.fail(format!(
                        "{what}[{i}] must be a terrain name, nil or false, got {ty}"
                    ))),
                    Some((i, BadCell::Name)) => {
                        let name: String = t.raw_get(i)?;
                        Err(c.fail(format!(
                            "{what}[{i}]: {}",
                            warren_core::region::unknown_terrain(&name, map.terrains())
                        )))
                    }
                }
            }
        }
    }
}

/// How many cells of a row a bulk write reads from its table at a time.
const ITEMS_AT_ONCE: usize = 64;

/// Why a cell of a bulk write was refused.
enum BadCell {
    /// Not a string, nil or false (the Lua type's name).
    Type(&'static str),
    /// A string that is no terrain name.
    Name,
}

fn bad_cell(ty: c_int) -> BadCell {
    match ty {
        ffi::LUA_TSTRING => BadCell::Name,
        ffi::LUA_TNUMBER => BadCell::Type("a number"),
        ffi::LUA_TBOOLEAN => BadCell::Type("true"),
        ffi::LUA_TTABLE => BadCell::Type("a table"),
        ffi::LUA_TFUNCTION => BadCell::Type("a function"),
        _ => BadCell::Type("a value of another type"),
    }
}

/// Terrain ids of the few distinct name strings a grid uses, found by the string's address
/// (Lua interns short strings, so equal names share one) without hashing every cell.
#[derive(Default)]
struct NameCache {
    seen: [(usize, TerrainId); 16],
    len: usize,
}

impl NameCache {
    /// The id of the string at `p` (`len` bytes): `Some(Some(id))`, or `None` for no terrain.
    ///
    /// # Safety
    /// `p` must point to `len` readable bytes.
    unsafe fn lookup(
        &mut self,
        p: *const std::os::raw::c_char,
        len: usize,
        names: &warren_core::map::TerrainTable,
    ) -> Option<Option<TerrainId>> {
        let key = p as usize;
        if let Some((_, id)) = self.seen[..self.len].iter().find(|(k, _)| *k == key) {
            return Some(Some(*id));
        }
        // SAFETY: the caller's promise.
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
        let id = names.id(std::str::from_utf8(bytes).ok()?)?;
        if self.len < self.seen.len() {
            self.seen[self.len] = (key, id);
            self.len += 1;
        }
        Some(Some(id))
    }
}

/// The legend of a bulk write's options: glyph → terrain.
fn legend(c: &Call, o: &Opts, map: &Map) -> mlua::Result<BTreeMap<char, TerrainId>> {
    let mut out = BTreeMap::new();
    let Some(t) = o.opt_table("legend")? else {
        return Ok(out);
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let (Value::String(k), Value::String(v)) = (&k, &v) else {
            return Err(c.fail(
                "opts.legend must map single characters to terrain names: { [\"#\"] = \"rock wall\" }",
            ));
        };
        let key = k.to_string_lossy();
        let mut chars = key.chars();
        let (Some(g), None) = (chars.next(), chars.next()) else {
            return Err(c.fail(format!(
                "opts.legend key '{key}' must be a single character"
            )));
        };
        out.insert(
            g,
            crate::api::call::terrain_id(c, map, &v.to_string_lossy())?,
        );
    }
    Ok(out)
}

/// One row's source: a list of names, or a string (which needs a legend).
fn row_source<'t>(
    c: &Call,
    v: &'t Value,
    has_legend: bool,
    what: &str,
) -> mlua::Result<RowSource<'t>> {
    match v {
        Value::Table(t) => Ok(RowSource::Names(t)),
        Value::String(s) if has_legend => Ok(RowSource::Text(s.to_string_lossy().chars().collect())),
        Value::String(_) => Err(c.fail(format!(
            "{what} is a string, which needs opts.legend to say which terrain each character stands for"
        ))),
        other => Err(c.fail(format!(
            "{what} must be a list of terrain names or a string, got {}",
            crate::api::call::shown(other)
        ))),
    }
}

fn set_row(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, cells, opts): (Value, Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &SET_ROW);
    let (x, y) = (c.int(0, &x)?, c.int(1, &y)?);
    let o = c.options(3, &opts)?;
    let mut m = c.write(this)?;
    let legend = legend(&c, &o, &m)?;
    let source = row_source(&c, &cells, !legend.is_empty(), "argument 3 (cells)")?;
    let len = match &source {
        RowSource::Names(t) => t.raw_len(),
        RowSource::Text(chars) => chars.len(),
    };
    charge(lua, cost::cell_work(len as u64))?;
    let b = brush(&o, &mut m, 0)?;
    let mut w = Writer {
        brush: b,
        legend,
        map: &mut m,
        written: 0,
    };
    w.row(&c, x, y, &source, "cells")?;
    Ok(w.written)
}

fn blit(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, rows, opts): (Value, Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &BLIT);
    let (x, y) = (c.int(0, &x)?, c.int(1, &y)?);
    let rows = c.table(2, &rows)?;
    let o = c.options(3, &opts)?;
    let mut m = c.write(this)?;
    let legend = legend(&c, &o, &m)?;
    let has_legend = !legend.is_empty();
    let b = brush(&o, &mut m, 0)?;
    let mut w = Writer {
        brush: b,
        legend,
        map: &mut m,
        written: 0,
    };
    let n = rows.raw_len();
    for r in 1..=n {
        let row: Value = rows.raw_get(r)?;
        let what = format!("rows[{r}]");
        let source = row_source(&c, &row, has_legend, &what)?;
        let len = match &source {
            RowSource::Names(t) => t.raw_len(),
            RowSource::Text(chars) => chars.len(),
        };
        charge(lua, cost::cell_work(len as u64))?;
        w.row(&c, x, y + r as i64 - 1, &source, &what)?;
    }
    Ok(w.written)
}

fn get_rect(lua: &Lua, this: &Shared<Map>, r: Value) -> mlua::Result<Table> {
    let c = Call::gated(lua, &GET_RECT);
    let m = c.read(this)?;
    let r = rect(&c, 0, &r)?;
    m.check_rect(&r).map_err(|e| c.fail(e))?;
    charge(lua, cost::cell_work(r.w as u64 * r.h as u64))?;
    let names = lua.create_table_with_capacity(m.terrains().len(), 0)?;
    for (id, t) in m.terrains().iter().enumerate() {
        names.raw_set(id + 1, t.name.as_str())?;
    }
    let map = &m;
    let width = map.width() as usize;
    // SAFETY: the closure works on the names table (slot 1) and the tables it creates, with
    // raw accesses only; it owns nothing that needs dropping, so a memory error raised by Lua
    // while it builds the rows unwinds cleanly through `exec_raw`'s protected call.
    unsafe {
        lua.exec_raw::<Table>(names, |state| {
            ffi::lua_createtable(state, r.h, 0);
            let cells = map.terrain_cells();
            for row in 0..r.h {
                ffi::lua_createtable(state, r.w, 0);
                let base = (r.y + row) as usize * width + r.x as usize;
                for col in 0..r.w as usize {
                    ffi::lua_rawgeti(state, 1, cells[base + col] as ffi::lua_Integer + 1);
                    ffi::lua_rawseti(state, -2, col as ffi::lua_Integer + 1);
                }
                ffi::lua_rawseti(state, -2, row as ffi::lua_Integer + 1);
            }
            ffi::lua_remove(state, 1);
        })
    }
}
