//! Connectivity methods of the `map` object: passable areas and the connected flag, in 8- or
//! 4-neighbour adjacency.
//!
//! ```lua
//! for i, area in ipairs(map:components()) do print(i, area.x, area.y, area.size) end
//! local reached = map:mark_connected(x, y, { connectivity = "4" })   -- flood from a passable cell
//! if map:is_connected(x2, y2) then … end
//! ```

use super::args::{cell, connectivity, known_keys};
use super::map::LuaMap;
use crate::fail;
use mlua::{Table, UserDataMethods, Value};
use warren_core::gen::connectivity::{components, Connectivity};

/// Adds `components`, `mark_connected` and `is_connected` to the map object.
pub fn add_methods<M: UserDataMethods<LuaMap>>(methods: &mut M) {
    methods.add_method("components", |lua, m, opts: Option<Table>| {
        let call = "map:components";
        if let Some(o) = &opts {
            known_keys(lua, o, call, &["connectivity"])?;
        }
        let comps = components(&m.0, connectivity(lua, opts.as_ref(), call)?);
        let out = lua.create_table_with_capacity(comps.len(), 0)?;
        for (i, c) in comps.list().iter().enumerate() {
            let t = lua.create_table_with_capacity(0, 3)?;
            t.raw_set("x", c.representative.x)?;
            t.raw_set("y", c.representative.y)?;
            t.raw_set("size", c.size)?;
            out.raw_set(i + 1, t)?;
        }
        Ok(out)
    });
    methods.add_method_mut(
        "mark_connected",
        |lua, m, (x, y, opts): (Value, Value, Option<Table>)| {
            let call = "map:mark_connected";
            if let Some(o) = &opts {
                known_keys(lua, o, call, &["connectivity"])?;
            }
            let adjacency = connectivity(lua, opts.as_ref(), call)?;
            let p = cell(lua, &m.0, &x, &y, call)?;
            Connectivity::new()
                .mark_connected(&mut m.0, p, adjacency)
                .map_err(|e| fail(lua, format!("{call}: {e}")))
        },
    );
    methods.add_method("is_connected", |lua, m, (x, y): (Value, Value)| {
        let p = cell(lua, &m.0, &x, &y, "map:is_connected")?;
        m.0.is_connected(p).map_err(mlua::Error::external)
    });
}
