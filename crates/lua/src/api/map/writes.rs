//! Priority writes and shapes: a cell, the whole map, a rectangle or its outline, the edge, a
//! line or a dog-leg path, and the rooms of a rectangle list.

use super::reads::{TERRAIN, X, Y};
use crate::api::call::{Call, Opts, This};
use crate::api::classes::{
    CARVE_OPTIONS, DOGLEG_OPTIONS, PATH_OPTIONS, RECT_LIKE, ROOM_KIND, WRITE_OPTIONS,
};
use crate::api::cost;
use crate::api::decl::{arg, opt, Arg, Decl, Owner::Map as M, Ty};
use crate::api::meter::LuaMeter;
use crate::api::rects::{self, LuaRects};
use crate::api::shapes::{self, brush, cell};
use crate::api::shared::Shared;
use crate::state::{charge, charge_bytes};
use mlua::{Lua, Value};
use warren_core::gen::rooms::{self, RoomsError};
use warren_core::map::{bresenham, dogleg, Brush, Corridor, DogLeg, KindName, Map, Point, Rect};

const WRITE_OPTS: Arg = opt("opts", Ty::Table(&WRITE_OPTIONS));
const RECT: Arg = arg("rect", Ty::Table(&RECT_LIKE));

pub(super) const SET: Decl = Decl::method(
    M,
    "set",
    "Writes one cell; returns whether the priority rule let the write through.",
)
.args(&[X, Y, TERRAIN, WRITE_OPTS])
.returns(&["boolean"]);
pub(super) const FILL: Decl = Decl::method(
    M,
    "fill",
    "Writes every cell (the edge only with `force`); returns how many were written.",
)
.args(&[TERRAIN, WRITE_OPTS])
.returns(&["integer"]);
const FILL_RECT: Decl = Decl::method(
    M,
    "fill_rect",
    "Writes every cell of a rectangle; returns how many were written.",
)
.args(&[RECT, TERRAIN, WRITE_OPTS])
.returns(&["integer"]);
const OUTLINE_RECT: Decl = Decl::method(
    M,
    "outline_rect",
    "Writes the border cells of a rectangle; returns how many were written.",
)
.args(&[RECT, TERRAIN, WRITE_OPTS])
.returns(&["integer"]);
const WRITE_EDGE: Decl = Decl::method(
    M,
    "write_edge",
    "Writes the map's outer ring with force (default terrain: the regions' `[map] edge`).",
)
.args(&[opt("terrain", Ty::Terrain)]);
const PATH: &[Arg] = &[
    arg("x1", Ty::INT),
    arg("y1", Ty::INT),
    arg("x2", Ty::INT),
    arg("y2", Ty::INT),
    TERRAIN,
    opt("opts", Ty::Table(&PATH_OPTIONS)),
];
const LINE: Decl = Decl::method(
    M,
    "line",
    "Carves a Bresenham line from (x1, y1) to (x2, y2); returns how many cells changed.",
)
.args(PATH)
.returns(&["integer"]);
const DOGLEG: Decl = Decl::method(
    M,
    "dogleg",
    "Carves a one-bend path from (x1, y1) to (x2, y2); returns how many cells changed.",
)
.args(&[
    arg("x1", Ty::INT),
    arg("y1", Ty::INT),
    arg("x2", Ty::INT),
    arg("y2", Ty::INT),
    TERRAIN,
    opt("opts", Ty::Table(&DOGLEG_OPTIONS)),
])
.returns(&["integer"]);
pub(super) const CARVE_ROOMS: Decl = Decl::method(
    M,
    "carve_rooms",
    "Fills every room of a list and records each as a room of `opts.kind`; returns how many.",
)
.args(&[
    arg("rooms", Ty::Rects),
    TERRAIN,
    opt("opts", Ty::Table(&CARVE_OPTIONS)),
])
.returns(&["integer"]);

methods! {
    /// Priority writes and shapes.
    pub METHODS, register for Shared<Map> {
        SET => set,
        FILL => fill,
        FILL_RECT => fill_rect,
        OUTLINE_RECT => outline_rect,
        WRITE_EDGE => write_edge,
        LINE => line,
        DOGLEG => dogleg_path,
        CARVE_ROOMS => carve_rooms,
    }
}

/// The brush a write asks for: `terrain` with the options at argument `opts`.
fn write_brush(
    c: &Call,
    map: &mut Map,
    terrain: (usize, &Value),
    opts: (usize, &Value),
) -> mlua::Result<Brush> {
    let t = c.terrain(terrain.0, terrain.1, map)?;
    let o = c.options(opts.0, opts.1)?;
    brush(&o, map, t)
}

fn set(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, t, opts): (Value, Value, Value, Value),
) -> mlua::Result<bool> {
    let c = Call::gated(lua, &SET);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let b = write_brush(&c, &mut m, (2, &t), (3, &opts))?;
    m.write(p, &b).map_err(|e| c.fail(e))
}

fn fill(lua: &Lua, this: &Shared<Map>, (t, opts): (Value, Value)) -> mlua::Result<usize> {
    let c = Call::gated(lua, &FILL);
    let mut m = c.write(this)?;
    let b = write_brush(&c, &mut m, (0, &t), (1, &opts))?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.fill(&b))
}

/// `fill_rect` and `outline_rect`: a rectangle on the map, a brush, and the cells written.
fn rect_write(
    c: &Call,
    this: &Shared<Map>,
    (r, t, opts): (&Value, &Value, &Value),
    cells: impl Fn(&Rect) -> u64,
    write: impl Fn(&mut Map, &Rect, &Brush) -> Result<usize, warren_core::map::MapError>,
) -> mlua::Result<usize> {
    let mut m = c.write(this)?;
    let r = shapes::rect(c, 0, r)?;
    let b = write_brush(c, &mut m, (1, t), (2, opts))?;
    m.check_rect(&r).map_err(|e| c.fail(e))?;
    charge(c.lua(), cost::cell_work(cells(&r)))?;
    write(&mut m, &r, &b).map_err(|e| c.fail(e))
}

fn fill_rect(
    lua: &Lua,
    this: &Shared<Map>,
    (r, t, opts): (Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &FILL_RECT);
    rect_write(
        &c,
        this,
        (&r, &t, &opts),
        |r| r.w as u64 * r.h as u64,
        Map::fill_rect,
    )
}

fn outline_rect(
    lua: &Lua,
    this: &Shared<Map>,
    (r, t, opts): (Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &OUTLINE_RECT);
    rect_write(
        &c,
        this,
        (&r, &t, &opts),
        |r| 2 * (r.w as u64 + r.h as u64),
        Map::outline_rect,
    )
}

fn write_edge(lua: &Lua, this: &Shared<Map>, t: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &WRITE_EDGE);
    let mut m = c.write(this)?;
    let terrain = match &t {
        Value::Nil => crate::state::with_run(lua, |r| r.edge)
            .ok_or_else(|| c.fail("no generation is running"))?,
        t => c.terrain(0, t, &m)?,
    };
    let (w, h) = (m.width(), m.height());
    charge(lua, cost::cell_work(2 * (w as u64 + h as u64)))?;
    let r = Rect::new(0, 0, w, h);
    m.outline_rect(&r, &Brush::new(terrain).forced())
        .map_err(|e| c.fail(e))?;
    Ok(())
}

/// The arguments of `line` and `dogleg`.
type PathArgs = (Value, Value, Value, Value, Value, Value);

/// Carves `path` with the brush of a `line`/`dogleg` call and records it as a corridor when
/// `opts.corridor` asks.
fn carve_path(c: &Call, m: &mut Map, path: &[Point], b: &Brush, o: &Opts) -> mlua::Result<usize> {
    charge(c.lua(), cost::cell_work(path.len() as u64))?;
    let carved = m.carve_path(path, b).map_err(|e| c.fail(e))?;
    let n = carved.len();
    if o.bool("corridor")? {
        let corridor = Corridor {
            cells: carved,
            region: o.opt_str("region")?,
        };
        charge_bytes(c.lua(), cost::corridor(&corridor))?;
        m.notes.corridors.push(corridor);
    }
    Ok(n)
}

fn line(lua: &Lua, this: &Shared<Map>, (x1, y1, x2, y2, t, opts): PathArgs) -> mlua::Result<usize> {
    let c = Call::gated(lua, &LINE);
    let mut m = c.write(this)?;
    let a = cell(&c, &m, 0, &x1, &y1)?;
    let b = cell(&c, &m, 2, &x2, &y2)?;
    let terrain = c.terrain(4, &t, &m)?;
    let o = c.options(5, &opts)?;
    let br = brush(&o, &mut m, terrain)?;
    carve_path(&c, &mut m, &bresenham(a, b), &br, &o)
}

fn dogleg_path(
    lua: &Lua,
    this: &Shared<Map>,
    (x1, y1, x2, y2, t, opts): PathArgs,
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &DOGLEG);
    let mut m = c.write(this)?;
    let a = cell(&c, &m, 0, &x1, &y1)?;
    let b = cell(&c, &m, 2, &x2, &y2)?;
    let terrain = c.terrain(4, &t, &m)?;
    let o = c.options(5, &opts)?;
    let br = brush(&o, &mut m, terrain)?;
    let order = match o.choice("first")? {
        0 => DogLeg::HorizontalFirst,
        _ => DogLeg::VerticalFirst,
    };
    carve_path(&c, &mut m, &dogleg(a, b, order), &br, &o)
}

fn carve_rooms(
    lua: &Lua,
    this: &Shared<Map>,
    (list, t, opts): (This<LuaRects>, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &CARVE_ROOMS);
    let mut m = c.write(this)?;
    let rects = rects::read_arg(&c, 0, list)?;
    let terrain = c.terrain(1, &t, &m)?;
    let o = c.options(2, &opts)?;
    let b = brush(&o, &mut m, terrain)?;
    let kind = KindName::named(&o.text("kind")?, ROOM_KIND);
    charge_bytes(lua, cost::rooms(rects.len(), &kind))?;
    let mut meter = LuaMeter::new(lua);
    rooms::carve_rooms(&mut m, &rects, &b, &kind, &mut meter).map_err(|e| match e {
        RoomsError::Stopped(_) => meter.stopped(),
        e => c.fail(e),
    })
}
