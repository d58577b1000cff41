//! Connectivity methods of the `map` object: open areas and the connected flag.
//!
//! ```lua
//! for i, area in ipairs(map:components()) do print(i, area.x, area.y, area.size) end
//! local reached = map:mark_connected(x, y)   -- flood from an open cell
//! if map:is_connected(x2, y2) then … end
//! ```

use crate::api::call::Call;
use crate::api::classes::CONNECTIVITY_OPTIONS;
use crate::api::cost;
use crate::api::decl::{arg, opt, Decl, Owner::Map as M, Ty};
use crate::api::shapes::cell;
use crate::api::shared::Shared;
use crate::state::charge;
use mlua::{Lua, Table, Value};
use warren_core::gen::connectivity::{components as areas, Connectivity};
use warren_core::map::{Adjacency, Map};

const COMPONENTS: Decl = Decl::method(
    M,
    "components",
    "Every separate passable area (terrain neither solid nor a hazard, or a door), stepping 8 ways unless `opts.connectivity` is \"4\": its first cell in row-major order and its size, in that order.",
)
.args(&[opt("opts", Ty::Table(&CONNECTIVITY_OPTIONS))])
.returns(&["warren.Component[]"]);
const MARK_CONNECTED: Decl = Decl::method(
    M,
    "mark_connected",
    "Flood-fills from a passable cell (stepping 8 ways unless `opts.connectivity` is \"4\") and marks exactly the cells reached as connected; returns how many.",
)
.args(&[arg("x", Ty::INT), arg("y", Ty::INT), opt("opts", Ty::Table(&CONNECTIVITY_OPTIONS))])
.returns(&["integer"]);
pub(super) const IS_CONNECTED: Decl = Decl::method(
    M,
    "is_connected",
    "Whether the cell carries the connected flag.",
)
.args(&[arg("x", Ty::INT), arg("y", Ty::INT)])
.returns(&["boolean"]);

methods! {
    /// Connectivity.
    pub METHODS, register for Shared<Map> {
        COMPONENTS => components,
        MARK_CONNECTED => mark_connected,
        IS_CONNECTED => is_connected,
    }
}

/// The `connectivity` of the options argument `i`.
fn adjacency(c: &Call, i: usize, opts: &Value) -> mlua::Result<Adjacency> {
    let o = c.options(i, opts)?;
    let name = Adjacency::NAMES[o.choice("connectivity")?];
    Ok(Adjacency::from_name(name).expect("declared choices are adjacency names"))
}

fn components(lua: &Lua, this: &Shared<Map>, opts: Value) -> mlua::Result<Table> {
    let c = Call::gated(lua, &COMPONENTS);
    let m = c.read(this)?;
    let adjacency = adjacency(&c, 0, &opts)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    let comps = areas(&m, adjacency);
    let out = lua.create_table_with_capacity(comps.len(), 0)?;
    for (i, a) in comps.list().iter().enumerate() {
        let t = lua.create_table_with_capacity(0, 3)?;
        t.raw_set("x", a.representative.x)?;
        t.raw_set("y", a.representative.y)?;
        t.raw_set("size", a.size)?;
        out.raw_set(i + 1, t)?;
    }
    Ok(out)
}

fn mark_connected(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, opts): (Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &MARK_CONNECTED);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let adjacency = adjacency(&c, 2, &opts)?;
    charge(lua, cost::cell_work(m.len() as u64))?;
    Connectivity::new()
        .mark_connected(&mut m, p, adjacency)
        .map_err(|e| c.fail(e))
}

fn is_connected(lua: &Lua, this: &Shared<Map>, (x, y): (Value, Value)) -> mlua::Result<bool> {
    let c = Call::gated(lua, &IS_CONNECTED);
    let m = c.read(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    m.is_connected(p).map_err(|e| c.fail(e))
}
