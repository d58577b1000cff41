//! The `map` object recipes receive: reads, priority writes and shapes. Annotations are in
//! [`super::notes`], bulk reads and writes in [`super::bulk`], connectivity in
//! [`super::connectivity`], snapshots and layers in [`super::debug`].

use super::call::{Call, This};
use super::classes::{CARVE_OPTIONS, DOGLEG_OPTIONS, PATH_OPTIONS, RECT_LIKE, WRITE_OPTIONS};
use super::cost;
use super::decl::{arg, opt, Decl, Owner::Map as M, Ty};
use super::meter::LuaMeter;
use super::rects::LuaRects;
use super::shapes::{self, brush, cell};
use crate::state::{charge, charge_bytes};
use mlua::{AnyUserData, Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};
use std::sync::Arc;
use warren_core::gen::rooms::{self, RoomsError};
use warren_core::map::{bresenham, dogleg, Brush, Corridor, DogLeg, Map, Rect};

/// The map as a Lua userdata's payload.
pub type LuaMap = super::shared::Shared<Map>;

/// The map's fields, kept in each map userdata's field table (see [`new_userdata`]) rather than
/// registered with mlua.
pub const FIELDS: &[&Decl] = &[&WIDTH, &HEIGHT];

const WIDTH: Decl = Decl::field(M, "width", &["integer"], "Map width in cells.");
const HEIGHT: Decl = Decl::field(M, "height", &["integer"], "Map height in cells.");

extern "C" {
    fn lua_warren_setfields(
        l: *mut mlua::ffi::lua_State,
        idx: std::os::raw::c_int,
    ) -> std::os::raw::c_int;
}

/// A map userdata, the only way one is made: its field table (`lua_warren_setfields`, see
/// `crates/lua-src/WARREN.md`) answers `map.width` and `map.height` inside the VM, at the speed
/// of a table's field, while its methods stay mlua's plain methods table.
pub fn new_userdata(lua: &Lua, map: Map) -> mlua::Result<AnyUserData> {
    let fields = lua.create_table_with_capacity(0, 2)?;
    fields.raw_set("width", map.width())?;
    fields.raw_set("height", map.height())?;
    let ud = lua.create_userdata(LuaMap::new(map))?;
    // SAFETY: `exec_raw` pushes the userdata and the table (slots 1 and 2) and runs the
    // closure protected; `lua_warren_setfields` pops the table and cannot raise (slot 1 of an
    // mlua userdata exists: mlua makes every userdata with one user value).
    unsafe {
        lua.exec_raw::<()>((&ud, fields), |state| {
            lua_warren_setfields(state, 1);
            mlua::ffi::lua_settop(state, 0);
        })?;
    }
    Ok(ud)
}

/// Brings `ud`'s field table up to its map's size. Whoever changes the size of a map in a
/// userdata calls this (the host when a run's map goes in, `warren.dungeon.init_level`). This
/// is the host's bookkeeping, like the map's cells: it leaves the state's dirty flag as it was.
pub fn publish_size(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    let size = {
        let m = LuaMap::read_ud(ud)?;
        (m.width(), m.height())
    };
    publish(lua, ud, size)
}

/// [`publish_size`] for a caller that knows the size of `ud`'s map (the host, which has just
/// put it there).
pub fn publish(lua: &Lua, ud: &AnyUserData, (width, height): (i32, i32)) -> mlua::Result<()> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: room for four slots is checked and everything pushed is popped. Nothing here
        // can raise: both keys are already in the field table (set by `new_userdata`; their
        // strings are interned, so pushing them allocates nothing), so each raw write replaces
        // a value in place.
        unsafe {
            if mlua::ffi::lua_checkstack(state, 4) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(ud)?;
            if mlua::ffi::lua_getiuservalue(state, -1, 1) != mlua::ffi::LUA_TTABLE {
                mlua::ffi::lua_pop(state, 2);
                return Err(mlua::Error::RuntimeError(
                    "a map userdata without its field table (made outside new_userdata)".into(),
                ));
            }
            crate::state::keeping_clean(state, || {
                for (key, value) in [("width", width), ("height", height)] {
                    mlua::ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                    mlua::ffi::lua_pushinteger(state, value.into());
                    mlua::ffi::lua_rawset(state, -3);
                }
            });
            mlua::ffi::lua_pop(state, 2);
        }
        Ok(())
    })
}

impl UserData for super::shared::Shared<Map> {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(map)` shows (mlua would name the Rust type, `Shared<Map>`).
        fields.add_meta_field(MetaMethod::Type, "LuaMap");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        register_reads(methods);
        register_writes(methods);
        super::bulk::register(methods);
        super::notes::register(methods);
        super::connectivity::register(methods);
        super::debug::register(methods);
    }
}

/// The map's methods, as the modules that implement them list them.
pub const METHOD_LISTS: [&[&Decl]; 6] = [
    READS,
    WRITES,
    super::bulk::METHODS,
    super::notes::METHODS,
    super::connectivity::METHODS,
    super::debug::METHODS,
];

/// Every declaration of the map object.
pub fn decls() -> Vec<&'static Decl> {
    [&[FIELDS][..], &METHOD_LISTS].concat().concat()
}

const X: super::decl::Arg = arg("x", Ty::INT);
const Y: super::decl::Arg = arg("y", Ty::INT);
const XY: &[super::decl::Arg] = &[X, Y];
const TERRAIN: super::decl::Arg = arg("terrain", Ty::Terrain);

/// A method taking a cell, `(x, y)`, and returning `ret`.
const fn cell_query(name: &'static str, ret: &'static [&'static str], doc: &'static str) -> Decl {
    Decl::method(M, name, doc).args(XY).returns(ret)
}

const IN_BOUNDS: Decl = cell_query("in_bounds", &["boolean"], "Whether (x, y) is on the map.");
const IS_EDGE: Decl = cell_query(
    "is_edge",
    &["boolean"],
    "Whether (x, y) is on the map's outer ring.",
);
const GET: Decl = cell_query("get", &["string"], "The terrain name at (x, y).");
const PRIORITY: Decl = cell_query(
    "priority",
    &["integer"],
    "The priority (0..=255) of the last successful write at (x, y).",
);
const REGION: Decl = cell_query(
    "region",
    &["string?"],
    "The region stamped at (x, y), or nil.",
);
const IS_SOLID: Decl = cell_query(
    "is_solid",
    &["boolean"],
    "Whether the terrain at (x, y) blocks movement.",
);
const COUNT: Decl = Decl::method(M, "count", "How many cells hold this terrain.")
    .args(&[TERRAIN])
    .returns(&["integer"]);
const OPEN_COUNT: Decl =
    Decl::method(M, "open_count", "How many cells do not block movement.").returns(&["integer"]);

methods! {
    /// Reading cells.
    pub READS, register_reads for LuaMap {
        IN_BOUNDS => in_bounds,
        IS_EDGE => is_edge,
        GET => get,
        PRIORITY => priority,
        REGION => region,
        IS_SOLID => is_solid,
        COUNT => count,
        OPEN_COUNT => open_count,
    }
}

type CellArgs = (Value, Value);

fn in_bounds(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IN_BOUNDS);
    let m = c.read(this)?;
    Ok(m.in_bounds(c.int(0, &x)?, c.int(1, &y)?))
}

fn is_edge(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IS_EDGE);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    Ok(m.is_edge(p.x, p.y))
}

fn get(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<String> {
    let c = Call::gated(lua, &GET);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let t = m.terrain_at(p).map_err(|e| c.fail(e))?;
    Ok(m.terrains().get(t).name.clone())
}

fn priority(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<u8> {
    let c = Call::gated(lua, &PRIORITY);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    m.priority_at(p).map_err(|e| c.fail(e))
}

fn region(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<Option<String>> {
    let c = Call::gated(lua, &REGION);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let r = m.region_at(p).map_err(|e| c.fail(e))?;
    Ok((r != 0).then(|| m.region_name(r).to_string()))
}

fn is_solid(lua: &Lua, this: &LuaMap, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IS_SOLID);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    m.is_solid(p).map_err(|e| c.fail(e))
}

fn count(lua: &Lua, this: &LuaMap, terrain: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &COUNT);
    let m = c.read(this)?;
    let id = c.terrain(0, &terrain, &m)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.terrain_cells().iter().filter(|&&t| t == id).count())
}

fn open_count(lua: &Lua, this: &LuaMap, (): ()) -> mlua::Result<usize> {
    let c = Call::gated(lua, &OPEN_COUNT);
    let m = c.read(this)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.open_count())
}

const WRITE_OPTS: super::decl::Arg = opt("opts", Ty::Table(&WRITE_OPTIONS));
const RECT: super::decl::Arg = arg("rect", Ty::Table(&RECT_LIKE));

const SET: Decl = Decl::method(
    M,
    "set",
    "Writes one cell; returns whether the priority rule let the write through.",
)
.args(&[X, Y, TERRAIN, WRITE_OPTS])
.returns(&["boolean"]);
const FILL: Decl = Decl::method(
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
const PATH: &[super::decl::Arg] = &[
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
const CARVE_ROOMS: Decl = Decl::method(
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
    pub WRITES, register_writes for LuaMap {
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
    this: &LuaMap,
    (x, y, t, opts): (Value, Value, Value, Value),
) -> mlua::Result<bool> {
    let c = Call::gated(lua, &SET);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let b = write_brush(&c, &mut m, (2, &t), (3, &opts))?;
    m.write(p, &b).map_err(|e| c.fail(e))
}

fn fill(lua: &Lua, this: &LuaMap, (t, opts): (Value, Value)) -> mlua::Result<usize> {
    let c = Call::gated(lua, &FILL);
    let mut m = c.write(this)?;
    let b = write_brush(&c, &mut m, (0, &t), (1, &opts))?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.fill(&b))
}

/// `fill_rect` and `outline_rect`: a rectangle on the map, a brush, and the cells written.
fn rect_write(
    c: &Call,
    this: &LuaMap,
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

fn fill_rect(lua: &Lua, this: &LuaMap, (r, t, opts): (Value, Value, Value)) -> mlua::Result<usize> {
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
    this: &LuaMap,
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

fn write_edge(lua: &Lua, this: &LuaMap, t: Value) -> mlua::Result<()> {
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
fn carve_path(
    c: &Call,
    m: &mut Map,
    path: &[warren_core::map::Point],
    b: &Brush,
    o: &super::call::Opts,
) -> mlua::Result<usize> {
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

fn line(lua: &Lua, this: &LuaMap, (x1, y1, x2, y2, t, opts): PathArgs) -> mlua::Result<usize> {
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
    this: &LuaMap,
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
    this: &LuaMap,
    (list, t, opts): (This<LuaRects>, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &CARVE_ROOMS);
    let mut m = c.write(this)?;
    let rects = shapes::rects(&c, 0, list)?;
    let terrain = c.terrain(1, &t, &m)?;
    let o = c.options(2, &opts)?;
    let b = brush(&o, &mut m, terrain)?;
    let kind: Arc<str> = Arc::from(&*o.text("kind")?);
    charge_bytes(lua, cost::rooms(rects.len(), &kind))?;
    let mut meter = LuaMeter::new(lua);
    rooms::carve_rooms(&mut m, &rects, &b, &kind, &mut meter).map_err(|e| match e {
        RoomsError::Stopped(_) => meter.stopped(),
        e => c.fail(e),
    })
}
