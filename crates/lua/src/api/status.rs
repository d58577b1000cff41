//! `warren.status_lists{ cells =, statuses =, initial = }`: the status-list primitive for any
//! "grow until every cell is served" generator. Every cell carries one named status; the cells
//! of each status form a list with constant-time move, count and uniform random pick.
//!
//! Cells are 0-based indices (for a map, `x + y * map.width`); statuses are addressed by name.

use super::args::{self, int, known_keys};
use super::held::{charge, Charge};
use super::rng::LuaRng;
use crate::fail;
use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods, Value};
use warren_core::gen::town::StatusLists;
use warren_core::map::MAX_CELLS;

/// Status lists as a Lua userdata.
pub struct LuaStatusLists {
    lists: StatusLists,
    _charge: Charge,
    /// Made while the recipe loaded, outside any run (see [`crate::sandbox::touch`]).
    at_load: bool,
}

/// Bytes one cell costs: its status, its slot and its entry in a list.
const BYTES_PER_CELL: usize = 1 + 4 + 4;

/// `warren.status_lists{ cells = n, statuses = { "a", "b", … }, initial = "a" }`.
fn new(lua: &Lua, opts: Table) -> mlua::Result<LuaStatusLists> {
    let call = "warren.status_lists";
    known_keys(lua, &opts, call, &["cells", "statuses", "initial"])?;
    let cells = match opts.get::<Value>("cells")? {
        Value::Nil => return Err(fail(lua, format!("{call}: options need 'cells' (a count)"))),
        v => int(lua, &v, call, "cells")?,
    };
    if !(0..=MAX_CELLS as i64).contains(&cells) {
        return Err(fail(
            lua,
            format!("{call}: cells = {cells} is out of range (0..={MAX_CELLS})"),
        ));
    }
    let names = match opts.get::<Value>("statuses")? {
        Value::Table(t) => args::list(lua, &t, call)?
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.to_str()?.to_string()),
                other => Err(fail(
                    lua,
                    format!(
                        "{call}: statuses[{}] must be a string, got {}",
                        i + 1,
                        other.type_name()
                    ),
                )),
            })
            .collect::<mlua::Result<Vec<String>>>()?,
        other => {
            return Err(fail(
                lua,
                format!(
                    "{call}: statuses must be a list of names, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let initial = match opts.get::<Value>("initial")? {
        Value::Nil => 0,
        Value::String(name) => {
            let name = name.to_str()?;
            refs.iter()
                .position(|n| *n == &*name)
                .ok_or_else(|| fail(lua, unknown(call, &name, &refs)))?
        }
        other => {
            return Err(fail(
                lua,
                format!(
                    "{call}: initial must be a status name, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let charge = charge(lua, cells as usize * BYTES_PER_CELL, call)?;
    let lists = StatusLists::new(cells as usize, &refs, initial)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(LuaStatusLists {
        lists,
        _charge: charge,
        at_load: !crate::sandbox::in_run(lua),
    })
}

/// "unknown status" naming the valid ones.
fn unknown(call: &str, name: &str, valid: &[&str]) -> String {
    format!(
        "{call}: unknown status '{name}' (valid: {})",
        valid.join(", ")
    )
}

impl LuaStatusLists {
    /// A status argument: one of the names the lists were made with.
    fn status(&self, lua: &Lua, v: &Value, call: &str) -> mlua::Result<usize> {
        let names: Vec<&str> = (0..self.lists.status_count())
            .map(|s| self.name(s))
            .collect();
        let Value::String(name) = v else {
            return Err(fail(
                lua,
                format!(
                    "{call}: status must be a name ({}), got {}",
                    names.join(", "),
                    v.type_name()
                ),
            ));
        };
        let name = name.to_str()?;
        self.lists
            .status_named(&name)
            .ok_or_else(|| fail(lua, unknown(call, &name, &names)))
    }

    /// A cell index argument.
    fn cell(&self, lua: &Lua, v: &Value, call: &str) -> mlua::Result<usize> {
        let cell = int(lua, v, call, "cell")?;
        match usize::try_from(cell) {
            Ok(c) if c < self.lists.len() => Ok(c),
            _ => Err(fail(
                lua,
                format!(
                    "{call}: cell {cell} does not exist (valid: 0..={})",
                    self.lists.len() as i64 - 1
                ),
            )),
        }
    }

    /// The name of a status known to exist.
    fn name(&self, status: usize) -> &str {
        self.lists.name(status).unwrap_or("")
    }
}

impl UserData for LuaStatusLists {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Len, |_, l, ()| Ok(l.lists.len()));
        methods.add_method_mut("move", |lua, l, (cell, status): (Value, Value)| {
            let call = "lists:move";
            let cell = l.cell(lua, &cell, call)?;
            let status = l.status(lua, &status, call)?;
            crate::sandbox::touch(lua, l.at_load);
            l.lists
                .move_to(cell, status)
                .map_err(|e| fail(lua, format!("{call}: {e}")))
        });
        methods.add_method("status", |lua, l, cell: Value| {
            let cell = l.cell(lua, &cell, "lists:status")?;
            let status = l
                .lists
                .status_of(cell)
                .map_err(|e| fail(lua, format!("lists:status: {e}")))?;
            Ok(l.name(status).to_string())
        });
        methods.add_method("count", |lua, l, status: Value| {
            let status = l.status(lua, &status, "lists:count")?;
            l.lists
                .count(status)
                .map_err(|e| fail(lua, format!("lists:count: {e}")))
        });
        methods.add_method("pick", |lua, l, (status, rng): (Value, Value)| {
            let call = "lists:pick";
            let status = l.status(lua, &status, call)?;
            let Value::UserData(ud) = rng else {
                return Err(fail(lua, format!("{call}: expects an rng (ctx.rng)")));
            };
            let mut rng = ud
                .borrow_mut::<LuaRng>()
                .map_err(|_| fail(lua, format!("{call}: expects an rng (ctx.rng)")))?;
            l.lists
                .pick(status, &mut rng.0)
                .map_err(|e| fail(lua, format!("{call}: {e}")))
        });
        methods.add_method("cells", |lua, l, status: Value| {
            let call = "lists:cells";
            let status = l.status(lua, &status, call)?;
            let cells = l
                .lists
                .cells(status)
                .map_err(|e| fail(lua, format!("{call}: {e}")))?;
            let t = lua.create_table_with_capacity(cells.len(), 0)?;
            for (i, &c) in cells.iter().enumerate() {
                t.raw_set(i + 1, c)?;
            }
            Ok(t)
        });
        methods.add_method_mut("reset", |lua, l, status: Value| {
            let status = l.status(lua, &status, "lists:reset")?;
            crate::sandbox::touch(lua, l.at_load);
            l.lists
                .reset(status)
                .map_err(|e| fail(lua, format!("lists:reset: {e}")))
        });
        methods.add_method("statuses", |lua, l, ()| {
            let names: Vec<&str> = (0..l.lists.status_count()).map(|s| l.name(s)).collect();
            lua.create_sequence_from(names)
        });
    }
}

/// The `warren.status_lists` constructor.
pub fn constructor(lua: &Lua) -> mlua::Result<mlua::Function> {
    lua.create_function(new)
}
