//! The toolbox's Brogue passes over a finished level: loops (a door where two places are close
//! in space but far by path) and lakes (blobs of water, lava or chasm placed only where the
//! level stays in one piece).

use super::area::{self, AREA_WRITE_OPTIONS};
use super::paths::cell_list;
use crate::api::call::{Call, Extra, This};
use crate::api::decl::{arg, key, key_opt, key_or, Class, Decl, Default, Owner::Toolbox as T, Ty};
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::rng::LuaRng;
use crate::api::shapes::brush;
use crate::budget::Reservation;
use crate::state::reserve;
use mlua::{Lua, Table, Value};
use warren_core::gen::lakes::{self, LakeBrushes, Lakes};
use warren_core::gen::loops::{self, Loops};
use warren_core::map::{Adjacency, Map};

const CONNECTIVITY: crate::api::decl::Field = key_or(
    "connectivity",
    Ty::Choice(&Adjacency::NAMES),
    Default::Str("8"),
    "How a walker steps when distances and areas are measured: \"8\" or \"4\" ways.",
);

/// What `warren.toolbox.loops` takes.
pub const LOOPS_OPTIONS: Class = Class {
    name: "warren.LoopsOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.loops`.",
    fields: &[
        key(
            "door",
            Ty::Terrain,
            "What each opening becomes: a floor, or a door terrain (a solid one is recorded as a closed door, which walkers pass).",
        ),
        key_or(
            "min_distance",
            Ty::int(2, 100_000),
            Default::Int(20),
            "The shortest walk, in steps, between the two sides of a wall that earns it an opening (sides no walk joins are infinitely far).",
        ),
        key_or(
            "max_count",
            Ty::int(0, 100_000),
            Default::Int(1000),
            "The most openings made.",
        ),
        CONNECTIVITY,
    ],
};

/// What `warren.toolbox.lakes` takes.
pub const LAKES_OPTIONS: Class = Class {
    name: "warren.LakesOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.lakes`.",
    fields: &[
        key(
            "terrain",
            Ty::Terrain,
            "The lakes' terrain: water, magma, a chasm…",
        ),
        key_or("count", Ty::int(0, 1000), Default::Int(4), "Lakes wanted."),
        key_or(
            "min_size",
            Ty::int(1, 65_536),
            Default::Int(10),
            "The fewest cells of a lake.",
        ),
        key_or(
            "max_size",
            Ty::int(1, 65_536),
            Default::Int(60),
            "The most cells of a lake (at least `min_size`).",
        ),
        key_or(
            "tries",
            Ty::int(1, 1000),
            Default::Int(20),
            "Positions tried per lake before it is given up.",
        ),
        key_opt(
            "wreath",
            Ty::Terrain,
            "A passable terrain written on the open cells round each lake (Brogue's shallows).",
        ),
        key_or(
            "wreath_width",
            Ty::int(1, 10),
            Default::Int(1),
            "How far the wreath reaches from the lake (Chebyshev distance).",
        ),
        CONNECTIVITY,
    ],
};

/// What `warren.toolbox.lakes` returns.
pub const LAKES_PLACED: Class = Class {
    name: "warren.LakesPlaced",
    parent: None,
    doc: "What `warren.toolbox.lakes` placed.",
    fields: &[
        key("lakes", Ty::INT, "Lakes placed."),
        key("cells", Ty::INT, "Cells under the lakes."),
        key("wreath", Ty::INT, "Wreath cells written."),
    ],
};

const MAP: crate::api::decl::Arg = arg("map", Ty::Map);
const RNG: crate::api::decl::Arg = arg("rng", Ty::Rng);

const LOOPS: Decl = Decl::function(
    T,
    "loops",
    "Brogue's loops: tries the one-cell walls of the area with open cells on two opposite sides, in a random order, and opens (writes `door` on) each whose sides are at least `min_distance` steps apart by path, up to `max_count`; returns the openings in the order made.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&LOOPS_OPTIONS))])
.returns(&["warren.Cell[]"]);
const LAKES: Decl = Decl::function(
    T,
    "lakes",
    "Brogue's lakes: cellular blobs of `min_size..max_size` cells, each tried at up to `tries` random places in the area and dropped only where it covers open ground and splits no area of the level (a connected level stays connected); an optional `wreath` round each.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&LAKES_OPTIONS))])
.returns(&["warren.LakesPlaced"]);

functions! {
    /// Brogue's passes.
    pub DECLS, register {
        LOOPS => add_loops,
        LAKES => place_lakes,
    }
}

/// The option and report classes of these calls.
pub const CLASSES: &[&Class] = &[&LOOPS_OPTIONS, &LAKES_OPTIONS, &LAKES_PLACED];

/// The adjacency an options table names.
fn adjacency(o: &crate::api::call::Opts) -> mlua::Result<Adjacency> {
    Ok(
        Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
            .expect("declared choices are adjacency names"),
    )
}

/// Reserves the scratch a pass over `map` keeps, on grids one cell wider all round: for the
/// loops an open flag and a search mark a cell, and the search's frontiers; for the lakes two
/// labels a cell, and a lake's marks (two bytes a cell of the map).
fn reserve_scratch(c: &Call, map: &Map) -> mlua::Result<Reservation> {
    let padded = (map.width() as usize + 2) * (map.height() as usize + 2);
    let bytes = (map.len() * 12).max(padded * 8 + map.len() * 2);
    reserve(c.lua(), bytes, &c.decl().call_name())
}

fn add_loops(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &LOOPS, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let door = o.terrain("door", &m)?;
    let door = brush(&o, &mut m, door)?;
    let options = Loops {
        min_distance: o.int("min_distance")? as u32,
        max_count: o.int("max_count")? as u32,
        adjacency: adjacency(&o)?,
    };
    let at = area::read(&o)?;
    let _scratch = reserve_scratch(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let made = loops::add_loops(&mut m, at.area(), &options, &mut r, &door, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    cell_list(lua, &made)
}

fn place_lakes(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &LAKES, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let lake = o.terrain("terrain", &m)?;
    let lake = brush(&o, &mut m, lake)?;
    let wreath = match o.opt_terrain("wreath", &m)? {
        Some(t) => Some(brush(&o, &mut m, t)?),
        None => None,
    };
    let (min_size, max_size) = (o.int("min_size")?, o.int("max_size")?);
    c.check_order(("min_size", min_size), ("max_size", max_size))?;
    let (min_size, max_size) = (min_size as u32, max_size as u32);
    let options = Lakes {
        count: o.int("count")? as u32,
        min_size,
        max_size,
        tries: o.int("tries")? as u32,
        wreath: if wreath.is_some() {
            o.int("wreath_width")? as u32
        } else {
            0
        },
        adjacency: adjacency(&o)?,
    };
    let at = area::read(&o)?;
    let _scratch = reserve_scratch(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let brushes = LakeBrushes {
        lake: &lake,
        wreath: wreath.as_ref(),
    };
    let placed = lakes::lakes(&mut m, at.area(), &options, &mut r, brushes, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    let out = lua.create_table_with_capacity(0, 3)?;
    out.raw_set("lakes", placed.lakes.len())?;
    out.raw_set("cells", placed.lakes.iter().map(Vec::len).sum::<usize>())?;
    out.raw_set("wreath", placed.wreath)?;
    Ok(out)
}
