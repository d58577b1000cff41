//! `warren.gen`: whole generation phases implemented in Rust ([`warren_core::gen`]), one call
//! each. The bindings only convert arguments; the phases report the work they do to the budget
//! through a [`LuaMeter`].

use super::call::{Call, Extra, This};
use super::classes::{CONNECT_OPTIONS, SCATTER_OPTIONS, STAIRS_OPTIONS, WRITE_OPTIONS};
use super::cost;
use super::decl::{arg, key, key_or, opt, Class, Decl, Default, Owner::Gen as G, Ty};
use super::fast::options::{Options, PlainOptions};
use super::fast::{args::TheMap, fast_method, install_closures, FastMethod, FAST_ID_BASE};
use super::map::phases::connect_rooms as fast_connect_rooms;
use super::map::phases::scatter_rooms as fast_scatter_rooms;
use super::map::phases::start_and_stairs as fast_start_and_stairs;
use super::map::phases::{ConnectKeys, NoKeys, ScatterKeys};
use super::map::{map_call, LuaMap};
use super::meter::LuaMeter;
use super::rects::{self, LuaRects};
use super::rng::LuaRng;
use super::shapes::{self, brush};
use super::shared::SharedCell;
use crate::state::charge_bytes;
use mlua::{ffi, AnyUserData, Lua, Table, Value};
use warren_core::gen::connectivity::{self, JoinError, JoinStyle};
use warren_core::gen::rooms::{self, RoomsError, ScatterOptions, SpawnEntry, Strategy};
use warren_core::map::{Adjacency, Brush, Map, Rect};
use warren_core::rng::Rng;

const SPAWN_OPTIONS: Class = Class {
    name: "warren.SpawnOptions",
    parent: None,
    doc: "Options of `warren.gen.spawn_in_corridors`.",
    fields: &[
        key(
            "table",
            Ty::List,
            "What may spawn, by weight: a list of `{name=, weight=}` (e.g. `ctx.regions.spawn`).",
        ),
        key_or(
            "max_per_area",
            Ty::int(0, 1000),
            Default::Int(4),
            "The spawner's MAX_MONSTERS.",
        ),
        key_or("depth", Ty::int(1, 1000), Default::Int(1), "Level depth."),
    ],
};

const JOIN_OPTIONS: Class = Class {
    name: "warren.JoinOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Options of `warren.gen.join_areas`.",
    fields: &[
        key("terrain", Ty::Terrain, "Tunnel floor terrain."),
        key_or(
            "trials",
            Ty::int(1, 100_000),
            Default::Int(64),
            "Fix-up rounds before giving up.",
        ),
        key_or(
            "style",
            Ty::Choice(&JoinStyle::NAMES),
            Default::Str("dogleg"),
            "One-bend, one-wide tunnels, or natural passages that wind and vary in width (for caves).",
        ),
        key_or(
            "connectivity",
            Ty::Choice(&Adjacency::NAMES),
            Default::Str("8"),
            "How a walker moves: every passable cell ends up reachable stepping 8 or 4 ways.",
        ),
    ],
};

/// What `warren.gen.join_areas` returns.
pub const JOIN_REPORT: Class = Class {
    name: "warren.JoinReport",
    parent: None,
    doc: "What `warren.gen.join_areas` did.",
    fields: &[
        key(
            "areas_before",
            Ty::INT,
            "Separate open areas before joining.",
        ),
        key("tunnels", Ty::INT, "Tunnels dug."),
    ],
};

/// The option classes of `warren.gen` (for the stubs).
pub const CLASSES: &[&Class] = &[
    &SCATTER_OPTIONS,
    &CONNECT_OPTIONS,
    &SPAWN_OPTIONS,
    &STAIRS_OPTIONS,
    &JOIN_OPTIONS,
    &JOIN_REPORT,
];

const MAP: super::decl::Arg = arg("map", Ty::Map);
const RNG: super::decl::Arg = arg("rng", Ty::Rng);

pub(in crate::api) const SCATTER_ROOMS: Decl = Decl::function(
    G,
    "scatter_rooms",
    "Random room floors that neither overlap nor touch (nothing is written), as a rectangle list held in Rust.",
)
.args(&[MAP, RNG, opt("opts", Ty::Table(&SCATTER_OPTIONS))])
.returns(&["warren.RectList"]);
pub(in crate::api) const CONNECT_ROOMS: Decl = Decl::function(
    G,
    "connect_rooms",
    "Joins rooms with corridors by a strategy and records each corridor; returns how many were drawn.",
)
.args(&[MAP, RNG, arg("rooms", Ty::Rects), arg("opts", Ty::Table(&CONNECT_OPTIONS))])
.returns(&["integer"]);
const SPAWN_IN_CORRIDORS: Decl = Decl::function(
    G,
    "spawn_in_corridors",
    "Places spawns on recorded corridors' cells (the tutorial's spawner); returns how many.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&SPAWN_OPTIONS))])
.returns(&["integer"]);
pub(in crate::api) const START_AND_STAIRS: Decl = Decl::function(
    G,
    "start_and_stairs",
    "The tutorial's room-based start and stairs: tags `start_x`/`start_y` at the centre of room `start` and writes and records the stairs down at the centre of room `down`; returns the start and the stairs (`x, y, x, y`).",
)
.args(&[MAP, arg("rooms", Ty::Rects), opt("opts", Ty::Table(&STAIRS_OPTIONS))])
.returns(&["integer", "integer", "integer", "integer"]);
const JOIN_AREAS: Decl = Decl::function(
    G,
    "join_areas",
    "Joins every separate passable area to the first (Incursion's fix-up loop) with one-bend tunnels or natural passages, so that every passable cell is reachable in `opts.connectivity`; tags the map's `connectivity`.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&JOIN_OPTIONS))])
.returns(&["warren.JoinReport"]);

/// `warren.gen`'s functions with a fast path on the run's map, their first argument (the
/// bodies are in `map/phases.rs`).
static FAST: [FastMethod<Map>; 3] = [
    fast_method!(CONNECT_ROOMS => fast_connect_rooms(
        TheMap,
        &SharedCell<Rng>,
        &SharedCell<Vec<Rect>>,
        Options<PlainOptions<ConnectKeys>>,
    ) on Map),
    fast_method!(START_AND_STAIRS => fast_start_and_stairs(
        TheMap,
        &SharedCell<Vec<Rect>>,
        Options<PlainOptions<NoKeys>>,
    ) on Map),
    fast_method!(SCATTER_ROOMS => fast_scatter_rooms(
        TheMap,
        &SharedCell<Rng>,
        Options<PlainOptions<ScatterKeys>>,
    ) on Map),
];

/// Where the `warren.gen` closures are numbered: after the map methods', before the rngs'.
const GEN_ID_BASE: u64 = FAST_ID_BASE + 32;

/// Puts the fast `warren.gen` functions into `warren.gen`'s table (read-only, unsealed for
/// it): they answer calls on `ud`, the run's map; installed right after the map's own
/// (`map::install_fast`), so their closures are numbered as before.
pub fn install_fast(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    let cell = ud.borrow::<LuaMap>()?.cell();
    let locate = |l| {
        // SAFETY: `l` runs protected with the map in slot 1; every type relied on is checked
        // first.
        unsafe {
            ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS);
            let found = table_field(l, c"warren") && table_field(l, c"gen");
            ffi::lua_pushlightuserdata(l, cell.cast_mut().cast());
            // Stack: 1 the map, 2 the globals, 3 the `warren` table, 4 the `warren.gen` table
            // (both read-only), 5 the map's cell.
            found.then_some((4, 4, 1, 5))
        }
    };
    install_closures(
        lua,
        ud,
        &FAST,
        locate,
        (map_call, GEN_ID_BASE),
        "no warren.gen table in the warren module",
    )
}

/// Pushes `t[name]` (raw), `t` the value on top of the stack; whether both are tables.
///
/// # Safety
/// `l` runs protected with room for two more slots.
unsafe fn table_field(l: *mut ffi::lua_State, name: &std::ffi::CStr) -> bool {
    unsafe {
        if ffi::lua_type(l, -1) != ffi::LUA_TTABLE {
            ffi::lua_pushnil(l);
            return false;
        }
        ffi::lua_pushstring(l, name.as_ptr());
        ffi::lua_rawget(l, -2) == ffi::LUA_TTABLE
    }
}

/// The declarations and argument readers of `warren.gen`'s fast functions, for the test that
/// keeps them in step (`tests/lua/api/fast_args.rs`).
pub fn fast_readers() -> Vec<(&'static Decl, &'static [super::fast::args::Read])> {
    FAST.iter().map(|m| (m.decl, m.reads)).collect()
}

functions! {
    /// Whole phases.
    pub DECLS, register {
        SCATTER_ROOMS => scatter_rooms,
        CONNECT_ROOMS => connect_rooms,
        SPAWN_IN_CORRIDORS => spawn_in_corridors,
        START_AND_STAIRS => start_and_stairs,
        JOIN_AREAS => join_areas,
    }
}

/// The `warren.gen` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    register(lua, &t)?;
    Ok(t)
}

fn scatter_rooms(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<AnyUserData> {
    let c = Call::new(lua, &SCATTER_ROOMS, &extra)?;
    let map = c.arg_held(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let attempts = o.int("attempts")?;
    let (min_size, max_size) = (o.int("min_size")?, o.int("max_size")?);
    if min_size > max_size {
        return Err(c.fail(format!(
            "opts.min_size = {min_size} exceeds opts.max_size = {max_size}"
        )));
    }
    let (w, h) = (map.width(), map.height());
    let mut meter = LuaMeter::new(lua);
    let opts = ScatterOptions {
        attempts: attempts as u32,
        min_size: min_size as i32,
        max_size: max_size as i32,
    };
    let mut rooms = super::pool::spare_rects(lua);
    rooms::scatter_rooms_into(w, h, &mut r, &opts, &mut meter, &mut rooms)
        .map_err(|_| meter.stopped())?;
    super::fast::new_pointing(lua, rooms)
}

/// The declared `connectivity` choice of an options table.
fn adjacency(o: &super::call::Opts) -> mlua::Result<Adjacency> {
    let name = Adjacency::NAMES[o.choice("connectivity")?];
    Ok(Adjacency::from_name(name).expect("declared choices are adjacency names"))
}

/// Turns a rooms phase's error into the binding's.
fn rooms_error(c: &Call, meter: &mut LuaMeter, e: RoomsError) -> mlua::Error {
    match e {
        RoomsError::Stopped(_) => meter.stopped(),
        RoomsError::Map(e) => c.fail(format!("room {e}")),
        e => c.fail(e),
    }
}

fn connect_rooms(
    lua: &Lua,
    (map, rng, list, opts, extra): (This<LuaMap>, This<LuaRng>, This<LuaRects>, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &CONNECT_ROOMS, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let rects = rects::read_arg(&c, 2, list)?;
    let o = c.options(3, &opts)?;
    let strategy = Strategy::from_name(Strategy::NAMES[o.choice("strategy")?])
        .expect("declared choices are strategy names");
    let adjacency = adjacency(&o)?;
    let terrain = o.terrain("terrain", &m)?;
    let b = brush(&o, &mut m, terrain)?;
    let corridors = m.notes.corridors.len();
    let mut meter = LuaMeter::new(lua);
    let drawn = rooms::connect_rooms(
        &mut m,
        &mut r,
        &rects,
        strategy,
        (&b, adjacency),
        &mut meter,
    )
    .map_err(|e| rooms_error(&c, &mut meter, e))?;
    let added: usize = m.notes.corridors[corridors..]
        .iter()
        .map(cost::corridor)
        .sum();
    charge_bytes(lua, added)?;
    Ok(drawn)
}

fn spawn_in_corridors(
    lua: &Lua,
    (map, rng, opts, extra): (Value, Value, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &SPAWN_IN_CORRIDORS, &extra)?;
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let o = c.options(2, &opts)?;
    let mut table = Vec::new();
    for (i, e) in shapes::list(&c, &o.table("table")?, "opts.table")?
        .into_iter()
        .enumerate()
    {
        let e = e?;
        let Value::Table(e) = e else {
            return Err(c.fail(format!(
                "opts.table[{}] must be a table {{name=, weight=}}, got {}",
                i + 1,
                super::call::shown(&e)
            )));
        };
        let name: String = e
            .get::<Option<String>>("name")?
            .ok_or_else(|| c.fail(format!("opts.table[{}] has no name", i + 1)))?;
        let weight: f64 = e.get::<Option<f64>>("weight")?.unwrap_or(1.0);
        if !warren_core::rng::valid_weight(weight) {
            return Err(c.fail(format!(
                "opts.table entry '{name}' has weight {weight}; weights must be finite and ≥ 0"
            )));
        }
        table.push(SpawnEntry { name, weight });
    }
    let weights: Vec<f64> = table.iter().map(|e| e.weight).collect();
    if let Some(m) = super::rng::weight_problem(&weights, |i| {
        format!("opts.table entry '{}'", table[i].name)
    }) {
        return Err(c.fail(m));
    }
    let max = o.int("max_per_area")?;
    let depth = o.int("depth")?;
    let mut m = LuaMap::write_ud(&map)?;
    let spawns = m.notes.spawns.len();
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(lua);
    let n = rooms::spawn_in_corridors(&mut m, &mut r, &table, max, depth, &mut meter)
        .map_err(|_| meter.stopped())?;
    let added: usize = m.notes.spawns[spawns..].iter().map(cost::spawn).sum();
    charge_bytes(lua, added)?;
    Ok(n)
}

fn start_and_stairs(
    lua: &Lua,
    (map, list, opts, extra): (This<LuaMap>, This<LuaRects>, Value, Extra),
) -> mlua::Result<(i32, i32, i32, i32)> {
    let c = Call::new(lua, &START_AND_STAIRS, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let rects = rects::read_arg(&c, 1, list)?;
    let o = c.options(2, &opts)?;
    let n = rects.len();
    let start = o.opt_int("start")?.unwrap_or(1) as usize;
    let down = o.opt_int("down")?.map_or(n, |d| d as usize);
    let stairs = o.terrain("terrain", &m)?;
    charge_bytes(lua, cost::start_and_stairs())?;
    let mut meter = LuaMeter::new(lua);
    let placed =
        rooms::start_and_stairs(&mut m, &rects, start, down, stairs, &mut meter).map_err(|e| {
            match e {
                RoomsError::NoRoom { index, len } => {
                    let key = if index == start { "start" } else { "down" };
                    c.fail(format!(
                        "opts.{key} = {index} is not a room of the list (1..={len})"
                    ))
                }
                e => rooms_error(&c, &mut meter, e),
            }
        })?;
    let (s, d) = (placed.start, placed.stairs);
    Ok((s.x, s.y, d.x, d.y))
}

fn join_areas(
    lua: &Lua,
    (map, rng, opts, extra): (Value, Value, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &JOIN_AREAS, &extra)?;
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let o = c.options(2, &opts)?;
    let trials = o.int("trials")? as u32;
    let style = JoinStyle::from_name(JoinStyle::NAMES[o.choice("style")?])
        .expect("declared choices are style names");
    let adjacency = adjacency(&o)?;
    let mut m = LuaMap::write_ud(&map)?;
    let terrain = o.terrain("terrain", &m)?;
    let b: Brush = brush(&o, &mut m, terrain)?;
    let corridors = m.notes.corridors.len();
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(lua);
    let how = (&b, style, adjacency);
    let report =
        connectivity::join_areas(&mut m, &mut r, how, trials, &mut meter).map_err(|e| match e {
            JoinError::Stopped(_) => meter.stopped(),
            e => c.fail(e),
        })?;
    let added: usize = m.notes.corridors[corridors..]
        .iter()
        .map(cost::corridor)
        .sum();
    charge_bytes(lua, added)?;
    let out = lua.create_table()?;
    out.raw_set("areas_before", report.areas_before)?;
    out.raw_set("tunnels", report.tunnels)?;
    Ok(out)
}
