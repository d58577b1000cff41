//! The toolbox's paths: the cheapest path between two cells, the farthest reachable cell (a
//! "distant exit") and culling what a walker cannot reach, under the move rules distance maps
//! use.

use super::area::{self, AREA_WRITE_OPTIONS, MOVE_OPTIONS};
use super::grid::LuaField;
use crate::api::call::{Call, Extra, This};
use crate::api::classes::{CELL, CONNECTIVITY_OPTIONS};
use crate::api::decl::{
    arg, key, key_or, opt, Class, Decl, Default, Owner, Owner::Toolbox as T, Ty,
};
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::shapes::{self, brush};
use crate::state::charge;
use mlua::{Lua, Table, Value};
use warren_core::gen::field::Field;
use warren_core::gen::path;
use warren_core::map::{Adjacency, Point};

/// What `warren.toolbox.cull` takes.
pub const CULL_OPTIONS: Class = Class {
    name: "warren.CullOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.cull`.",
    fields: &[
        key(
            "terrain",
            Ty::Terrain,
            "What unreachable open cells become (a wall).",
        ),
        key_or(
            "connectivity",
            Ty::Choice(&Adjacency::NAMES),
            Default::Str("8"),
            "How a walker moves: what is left is one area stepping 8 or 4 ways.",
        ),
    ],
};

const MAP: crate::api::decl::Arg = arg("map", Ty::Map);

const PATH: Decl = Decl::function(
    T,
    "path",
    "The cheapest path (A*) from one cell to another inside the area under the move rules, both ends included, or nil when no walk reaches `to`.",
)
.args(&[
    MAP,
    arg("from", Ty::Table(&CELL)),
    arg("to", Ty::Table(&CELL)),
    opt("opts", Ty::Table(&MOVE_OPTIONS)),
])
.returns(&["warren.Cell[]?"]);
const FARTHEST: Decl = Decl::function(
    T,
    "farthest",
    "The distant exit: the cell of the area farthest (by walking cost) from `from`, the first in row order among equals; `from` itself when nothing else is reached.",
)
.args(&[
    MAP,
    arg("from", Ty::Table(&CELL)),
    opt("opts", Ty::Table(&MOVE_OPTIONS)),
])
.returns(&["integer", "integer"]);
const DESCEND: Decl = Decl::function(
    T,
    "descend",
    "Walks down a distance map from a cell to its nearest source, each step to the neighbour with the smallest value (the first in direction order among equals): a river running downhill, a monster closing in. Returns the cells, both ends included, or nil when the cell is unreachable.",
)
.args(&[
    arg("field", Ty::Object(Owner::Field)),
    arg("from", Ty::Table(&CELL)),
    opt("opts", Ty::Table(&CONNECTIVITY_OPTIONS)),
])
.returns(&["warren.Cell[]?"]);
const CULL: Decl = Decl::function(
    T,
    "cull",
    "Writes `opts.terrain` on every open cell of the area that no walk from the `from` cells reaches, leaving one area; returns the cells written.",
)
.args(&[
    MAP,
    arg("from", Ty::Cells),
    arg("opts", Ty::Table(&CULL_OPTIONS)),
])
.returns(&["integer"]);

functions! {
    /// The path calls.
    pub DECLS, register {
        PATH => shortest,
        FARTHEST => farthest,
        DESCEND => descend,
        CULL => cull,
    }
}

/// The option classes of these calls.
pub const CLASSES: &[&Class] = &[&MOVE_OPTIONS, &CULL_OPTIONS];

fn shortest(
    lua: &Lua,
    (map, from, to, opts, extra): (This<LuaMap>, Value, Value, Value, Extra),
) -> mlua::Result<Option<Table>> {
    let c = Call::new(lua, &PATH, &extra)?;
    let m = c.arg_held(0, map)?;
    let from = shapes::cell_from(&c, &m, &from, "argument 2 (from)")?;
    let to = shapes::cell_from(&c, &m, &to, "argument 3 (to)")?;
    let o = c.options(3, &opts)?;
    let rules = area::move_rules(&o, &m)?;
    let at = area::read(&o)?;
    let _search = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let Some(cells) = path::shortest_path(&m, at.area(), from, to, &rules, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?
    else {
        return Ok(None);
    };
    cell_list(lua, &cells).map(Some)
}

/// `cells` as a Lua list of `{x=, y=}` tables (charged a unit a cell).
pub(super) fn cell_list(lua: &Lua, cells: &[Point]) -> mlua::Result<Table> {
    charge(lua, cells.len() as u64)?;
    let out = lua.create_table_with_capacity(cells.len(), 0)?;
    for (i, p) in cells.iter().enumerate() {
        let cell = lua.create_table_with_capacity(0, 2)?;
        cell.raw_set("x", p.x)?;
        cell.raw_set("y", p.y)?;
        out.raw_set(i + 1, cell)?;
    }
    Ok(out)
}

fn descend(
    lua: &Lua,
    (field, from, opts, extra): (Value, Value, Value, Extra),
) -> mlua::Result<Option<Table>> {
    let c = Call::new(lua, &DESCEND, &extra)?;
    let field = c.data::<LuaField>(0, &field)?;
    let f = LuaField::read_ud(&field).map_err(|_| c.busy())?;
    let from = cell_on(&c, &f.field, &from)?;
    let o = c.options(2, &opts)?;
    let adjacency = Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
        .expect("declared choices are adjacency names");
    // Each step strictly lowers the value, so the walk ends; it looks at up to eight
    // neighbours a step.
    match path::descend(&f.field, from, adjacency) {
        Some(cells) => {
            charge(lua, crate::api::cost::cell_work(8 * cells.len() as u64))?;
            cell_list(lua, &cells).map(Some)
        }
        None => Ok(None),
    }
}

/// Argument 2 of `descend` as a cell `{x=, y=}` on `field`.
fn cell_on(c: &Call, field: &Field, v: &Value) -> mlua::Result<Point> {
    let coord = |t: &Table, k: &str| crate::api::call::as_int(&t.raw_get::<Value>(k).ok()?);
    let at = match v {
        Value::Table(t) => coord(t, "x").zip(coord(t, "y")),
        _ => None,
    };
    let Some((x, y)) = at else {
        return Err(c.bad(1, v));
    };
    let (w, h) = (field.width() as i64, field.height() as i64);
    if !(0..w).contains(&x) || !(0..h).contains(&y) {
        return Err(c.fail(format!(
            "argument 2 (from) = ({x}, {y}) is off the field (0..{w} × 0..{h})"
        )));
    }
    Ok(Point::new(x as i32, y as i32))
}

fn farthest(
    lua: &Lua,
    (map, from, opts, extra): (This<LuaMap>, Value, Value, Extra),
) -> mlua::Result<(i32, i32)> {
    let c = Call::new(lua, &FARTHEST, &extra)?;
    let m = c.arg_held(0, map)?;
    let from = shapes::cell_from(&c, &m, &from, "argument 2 (from)")?;
    let o = c.options(2, &opts)?;
    let rules = area::move_rules(&o, &m)?;
    let at = area::read(&o)?;
    let _held = super::grid::reserve_for(&c, &m)?;
    let _search = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let p = path::farthest_from(&m, at.area(), from, &rules, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    Ok((p.x, p.y))
}

fn cull(
    lua: &Lua,
    (map, from, opts, extra): (This<LuaMap>, Value, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &CULL, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let from = shapes::cells(&c, &m, 1, &from)?;
    let o = c.options(2, &opts)?;
    let adjacency = Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
        .expect("declared choices are adjacency names");
    let terrain = o.terrain("terrain", &m)?;
    let b = brush(&o, &mut m, terrain)?;
    let at = area::read(&o)?;
    let _search = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    path::cull_unreachable(&mut m, at.area(), &from, adjacency, &b, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))
}
