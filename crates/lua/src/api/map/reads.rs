//! Reading the map's cells: bounds, terrain, priority, region, solidity and counts.

use crate::api::call::Call;
use crate::api::cost;
use crate::api::decl::{arg, Arg, Decl, Owner::Map as M, Ty};
use crate::api::shapes::cell;
use crate::api::shared::Shared;
use crate::state::charge;
use mlua::{Lua, Value};
use warren_core::map::Map;

/// A cell's column, as the methods that take a cell name it.
pub const X: Arg = arg("x", Ty::INT);
/// A cell's row.
pub const Y: Arg = arg("y", Ty::INT);
const XY: &[Arg] = &[X, Y];
/// A terrain argument.
pub const TERRAIN: Arg = arg("terrain", Ty::Terrain);

/// A method taking a cell, `(x, y)`, and returning `ret`.
const fn cell_query(name: &'static str, ret: &'static [&'static str], doc: &'static str) -> Decl {
    Decl::method(M, name, doc).args(XY).returns(ret)
}

pub(super) const IN_BOUNDS: Decl =
    cell_query("in_bounds", &["boolean"], "Whether (x, y) is on the map.");
pub(super) const IS_EDGE: Decl = cell_query(
    "is_edge",
    &["boolean"],
    "Whether (x, y) is on the map's outer ring.",
);
pub(super) const GET: Decl = cell_query("get", &["string"], "The terrain name at (x, y).");
pub(super) const PRIORITY: Decl = cell_query(
    "priority",
    &["integer"],
    "The priority (0..=255) of the last successful write at (x, y).",
);
pub(super) const REGION: Decl = cell_query(
    "region",
    &["string?"],
    "The region stamped at (x, y), or nil.",
);
pub(super) const IS_SOLID: Decl = cell_query(
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
    pub METHODS, register for Shared<Map> {
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

fn in_bounds(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IN_BOUNDS);
    let m = c.read(this)?;
    Ok(m.locate(c.int(0, &x)?, c.int(1, &y)?).is_ok())
}

fn is_edge(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IS_EDGE);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    Ok(m.is_edge(p))
}

fn get(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<String> {
    let c = Call::gated(lua, &GET);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let t = m.terrain_at(p).map_err(|e| c.fail(e))?;
    Ok(m.terrains().get(t).name.clone())
}

fn priority(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<u8> {
    let c = Call::gated(lua, &PRIORITY);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    m.priority_at(p).map_err(|e| c.fail(e))
}

fn region(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<Option<String>> {
    let c = Call::gated(lua, &REGION);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let r = m.region_at(p).map_err(|e| c.fail(e))?;
    Ok((r != 0).then(|| m.region_name(r).to_string()))
}

fn is_solid(lua: &Lua, this: &Shared<Map>, (x, y): CellArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IS_SOLID);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    m.is_solid(p).map_err(|e| c.fail(e))
}

fn count(lua: &Lua, this: &Shared<Map>, terrain: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &COUNT);
    let m = c.read(this)?;
    let id = c.terrain(0, &terrain, &m)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.terrain_cells().iter().filter(|&&t| t == id).count())
}

fn open_count(lua: &Lua, this: &Shared<Map>, (): ()) -> mlua::Result<usize> {
    let c = Call::gated(lua, &OPEN_COUNT);
    let m = c.read(this)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Ok(m.open_count())
}
