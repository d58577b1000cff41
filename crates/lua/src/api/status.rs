//! `warren.status_lists{ cells =, statuses =, initial = }`: the status-list primitive for any
//! "grow until every cell is served" generator. Every cell carries one named status; the cells
//! of each status form a list with constant-time move, count and uniform random pick.
//!
//! Cells are 0-based numbers (for a map, `x + y * map.width`, like every coordinate); statuses
//! are addressed by name.

use super::call::{did_you_mean, shown, Call, Extra};
use super::decl::quoted;
use super::decl::{arg, key, key_opt, Class, Decl, Owner, Ty};
use super::first_use::{self, Fresh, MetOnFirstUse};
use super::gate;
use super::rng::LuaRng;
use super::shapes;
use super::shared::Shared;
use crate::budget::Reservation;
use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::town::StatusLists;
use warren_core::map::MAX_CELLS;

/// Status lists and what they cost.
pub struct Lists {
    lists: StatusLists,
    _charge: Reservation,
    /// Made while the recipe loaded, outside any run (see [`crate::state::touch`]).
    at_load: bool,
}

/// Status lists as a Lua userdata: [`Lists`] in a cell of warren's own.
pub type LuaStatusLists = Shared<Lists>;

/// Bytes one cell costs: its status, its slot and its entry in a list.
const BYTES_PER_CELL: usize = 1 + 4 + 4;

/// What `warren.status_lists` takes.
pub const STATUS_LISTS_OPTIONS: Class = Class {
    name: "warren.StatusListsOptions",
    parent: None,
    doc: "Options of `warren.status_lists`.",
    fields: &[
        key(
            "cells",
            Ty::int(0, MAX_CELLS as i64),
            "How many cells (numbered 0..cells-1).",
        ),
        key("statuses", Ty::Strings, "The status names."),
        key_opt(
            "initial",
            Ty::Str,
            "The status every cell starts with (default the first).",
        ),
    ],
};

/// `warren.status_lists`.
pub const STATUS_LISTS: Decl = Decl::function(
    Owner::Warren,
    "status_lists",
    "Status lists for any \"grow until every cell is served\" generator.",
)
.args(&[arg("opts", Ty::Table(&STATUS_LISTS_OPTIONS))])
.returns(&["warren.StatusLists"]);

const L: Owner = Owner::StatusLists;
const CELL: super::decl::Arg = arg("cell", Ty::int(0, i64::MAX));
const STATUS: super::decl::Arg = arg("status", Ty::Str);

const MOVE: Decl = Decl::method(L, "move", "Moves a cell to a list.").args(&[CELL, STATUS]);
const STATUS_OF: Decl = Decl::method(L, "status", "A cell's status.")
    .args(&[CELL])
    .returns(&["string"]);
const COUNT: Decl = Decl::method(L, "count", "How many cells are on a list.")
    .args(&[STATUS])
    .returns(&["integer"]);
const PICK: Decl = Decl::method(
    L,
    "pick",
    "A uniform random cell of a list, or nil when it is empty. (The old order `pick(status, rng)` is still read, but deprecated.)",
)
.args(&[arg("rng", Ty::Rng), STATUS])
.returns(&["integer?"]);
const CELLS: Decl = Decl::method(L, "cells", "A snapshot of a list's cells.")
    .args(&[STATUS])
    .returns(&["integer[]"]);
const RESET: Decl = Decl::method(L, "reset", "Puts every cell on one list.").args(&[STATUS]);
const STATUSES: Decl =
    Decl::method(L, "statuses", "The status names, in order.").returns(&["string[]"]);

methods! {
    /// The lists' methods.
    pub METHODS, register for LuaStatusLists {
        MOVE => move_cell,
        STATUS_OF => status_of,
        COUNT => count,
        PICK => pick,
        CELLS => cells,
        RESET => reset,
        STATUSES => statuses,
    }
}

/// `warren.status_lists{ cells = n, statuses = { "a", "b", … }, initial = "a" }`.
fn new(lua: &Lua, (opts, extra): (Value, Extra)) -> mlua::Result<Fresh<Lists>> {
    let c = Call::new(lua, &STATUS_LISTS, &extra)?;
    let o = c.options(0, &opts)?;
    let cells = o.int("cells")?;
    let names = shapes::list(&c, &o.table("statuses")?, "opts.statuses")?
        .into_iter()
        .enumerate()
        .map(|(i, v)| match v? {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(c.fail(format!(
                "opts.statuses[{}] must be a string, got {}",
                i + 1,
                shown(&other)
            ))),
        })
        .collect::<mlua::Result<Vec<String>>>()?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let initial = match o.opt_str("initial")? {
        None => 0,
        Some(name) => refs
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| c.fail(unknown("opts.initial", &name, &refs)))?,
    };
    let charge = crate::state::reserve(
        lua,
        cells as usize * BYTES_PER_CELL,
        &STATUS_LISTS.call_name(),
    )?;
    let lists = StatusLists::new(cells as usize, &refs, initial).map_err(|e| c.fail(e))?;
    Ok(Fresh::new(Lists {
        lists,
        _charge: charge,
        at_load: !crate::state::in_run(lua),
    }))
}

/// "unknown status" naming the valid ones.
fn unknown(what: &str, name: &str, valid: &[&str]) -> String {
    format!(
        "{what} = '{name}' is not a status{} (valid: {})",
        did_you_mean(name, valid),
        quoted(valid)
    )
}

impl Lists {
    /// Argument `i` as a status: one of the names the lists were made with.
    fn status(&self, c: &Call, i: usize, v: &Value) -> mlua::Result<usize> {
        let names: Vec<&str> = (0..self.lists.status_count())
            .map(|s| self.name(s))
            .collect();
        let Value::String(name) = v else {
            return Err(c.fail(format!(
                "argument {} (status) must be a status name ({}), got {}",
                i + 1,
                quoted(&names),
                shown(v)
            )));
        };
        let name = name.to_string_lossy();
        self.lists.status_named(&name).ok_or_else(|| {
            c.fail(unknown(
                &format!("argument {} (status)", i + 1),
                &name,
                &names,
            ))
        })
    }

    /// Argument `i` as a cell number.
    fn cell(&self, c: &Call, i: usize, v: &Value) -> mlua::Result<usize> {
        let cell = c.int(i, v)?;
        match usize::try_from(cell) {
            Ok(n) if n < self.lists.len() => Ok(n),
            _ => Err(c.fail(format!(
                "cell {cell} does not exist (valid: 0..={})",
                self.lists.len() as i64 - 1
            ))),
        }
    }

    /// The name of a status known to exist.
    fn name(&self, status: usize) -> &str {
        self.lists.name(status).unwrap_or("")
    }
}

impl UserData for LuaStatusLists {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(lists)` shows (mlua would name the Rust type, `Shared<Lists>`).
        fields.add_meta_field(MetaMethod::Type, Owner::StatusLists.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        debug_assert!(
            first_use::meeting::<Lists>(),
            "status lists made without `first_use::Fresh`"
        );
        methods.add_meta_method(MetaMethod::Len, |_, l, ()| {
            Ok(l.read_or_busy()?.lists.len())
        });
        register(methods);
    }
}

/// Status lists are met on first use (`warren.status_lists`).
impl MetOnFirstUse for Lists {
    const SLOT: u32 = 3;
    const METHODS: &'static [&'static [&'static Decl]] = &[METHODS];
    const GATES: u64 = gate::LISTS_GATES;
}

fn move_cell(lua: &Lua, this: &LuaStatusLists, (cell, status): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &MOVE);
    let mut l = c.write(this)?;
    let cell = l.cell(&c, 0, &cell)?;
    let status = l.status(&c, 1, &status)?;
    crate::state::touch(lua, l.at_load);
    l.lists.move_to(cell, status).map_err(|e| c.fail(e))
}

fn status_of(lua: &Lua, this: &LuaStatusLists, cell: Value) -> mlua::Result<String> {
    let c = Call::gated(lua, &STATUS_OF);
    let l = c.read(this)?;
    let cell = l.cell(&c, 0, &cell)?;
    let status = l.lists.status_of(cell).map_err(|e| c.fail(e))?;
    Ok(l.name(status).to_string())
}

fn count(lua: &Lua, this: &LuaStatusLists, status: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &COUNT);
    let l = c.read(this)?;
    let status = l.status(&c, 0, &status)?;
    l.lists.count(status).map_err(|e| c.fail(e))
}

fn pick(
    lua: &Lua,
    this: &LuaStatusLists,
    (rng, status): (Value, Value),
) -> mlua::Result<Option<usize>> {
    let c = Call::gated(lua, &PICK);
    // The old argument order `(status, rng)` is still read for one release.
    let (rng, status) = match (&rng, &status) {
        (Value::String(_), Value::UserData(_)) => (status, rng),
        _ => (rng, status),
    };
    let rng = c.data::<LuaRng>(0, &rng)?;
    let l = c.read(this)?;
    let status = l.status(&c, 1, &status)?;
    let mut r = LuaRng::write_ud(&rng)?;
    l.lists.pick(status, &mut r).map_err(|e| c.fail(e))
}

fn cells(lua: &Lua, this: &LuaStatusLists, status: Value) -> mlua::Result<Table> {
    let c = Call::gated(lua, &CELLS);
    let l = c.read(this)?;
    let status = l.status(&c, 0, &status)?;
    let cells = l.lists.cells(status).map_err(|e| c.fail(e))?;
    crate::state::charge(lua, cells.len() as u64)?;
    let t = lua.create_table_with_capacity(cells.len(), 0)?;
    for (i, &cell) in cells.iter().enumerate() {
        t.raw_set(i + 1, cell)?;
    }
    Ok(t)
}

fn reset(lua: &Lua, this: &LuaStatusLists, status: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &RESET);
    let mut l = c.write(this)?;
    let status = l.status(&c, 0, &status)?;
    crate::state::charge(lua, l.lists.len() as u64 / 4)?;
    crate::state::touch(lua, l.at_load);
    l.lists.reset(status).map_err(|e| c.fail(e))
}

fn statuses(lua: &Lua, this: &LuaStatusLists, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &STATUSES);
    let l = c.read(this)?;
    let names: Vec<&str> = (0..l.lists.status_count()).map(|s| l.name(s)).collect();
    lua.create_sequence_from(names)
}

/// The `warren.status_lists` constructor.
pub fn constructor(lua: &Lua) -> mlua::Result<mlua::Function> {
    lua.create_function(new)
}
