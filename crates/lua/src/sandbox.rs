//! The sandboxed Lua state: safe libraries only, text chunks only, confined `require`, and
//! budgets (instructions, time, memory) that scripts cannot escape.
//!
//! How the budgets hold:
//! - a count hook runs every [`HOOK_EVERY`] VM instructions, in every coroutine, and charges
//!   the instruction budget; it keeps failing once any budget has run out;
//! - the allocator is wrapped (`alloc.rs`): memory over the limit, or any allocation once
//!   a budget has run out or the clock (checked every few hundred KiB) says the time is up,
//!   fails at once — this stops C functions that do large amounts of work;
//! - the C functions that can loop without allocating are replaced: patterns and `string.rep`
//!   by Rust ports that charge every step (`strlib.rs`, `pattern.rs`), the `table` functions by Lua
//!   versions the hook counts (`tables.lua`);
//! - `pcall`, `xpcall`, `coroutine.resume` and `coroutine.close` rethrow a budget error (and a
//!   Rust panic) instead of returning it, and `<close>` handlers, which could replace an error
//!   in flight, are refused at compile time ([`super::source`]).

use super::alloc::AllocGuard;
use super::api;
use super::budget::{exceeded_error, script_location};
pub use super::budget::{Budget, Limits};
use super::require::Modules;
use super::strlib;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::cell::RefCell;
use std::ops::Deref;
use std::path::PathBuf;
use std::rc::Rc;

/// How often (in VM instructions) the budget hook runs. Installing a count hook at all slows
/// the VM down; running it this often instead of every 1000 instructions costs little more, and
/// bounds how far expensive instructions (scanning a long string) can outrun the clock.
pub const HOOK_EVERY: u32 = 100;
/// Every this many hook runs (and at each of the first ones of a run), the hook notes the
/// script line reached, for errors found where no line is known (memory).
const NOTE_EVERY: u32 = 10;

/// Per-state data the API functions reach through `Lua::app_data_ref`.
pub struct StateData {
    /// The generation budget.
    pub budget: Rc<Budget>,
    /// Modules loaded by `require`, and where they may come from.
    pub modules: RefCell<Modules>,
    /// The generation in progress, if any.
    pub run: RefCell<Option<super::RunData>>,
    /// The recipe file, as budget errors name it.
    pub recipe: RefCell<String>,
}

/// A sandboxed Lua state (use it as a [`Lua`] through `Deref`). Dropping it puts the original
/// allocator back before the state is closed.
pub struct Sandbox {
    lua: Lua,
    alloc: Option<AllocGuard>,
    budget: Rc<Budget>,
}

impl Deref for Sandbox {
    type Target = Lua;

    fn deref(&self) -> &Lua {
        &self.lua
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // Let the uninstalling call allocate whatever it needs.
        self.budget.end();
        if let Some(guard) = self.alloc.take() {
            if guard.uninstall(&self.lua).is_err() {
                // Lua still calls the wrapper: it must outlive the state.
                std::mem::forget(guard);
            }
        }
    }
}

/// A fresh sandboxed state whose `require` looks in `roots`. Also returns the prelude's helper
/// table (`freeze`).
pub fn new_state(roots: Vec<PathBuf>, limits: Limits) -> mlua::Result<(Sandbox, Table)> {
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    // Rust panics must not be catchable by a script's pcall.
    let lua = Lua::new_with(libs, LuaOptions::new().catch_rust_panics(false))?;
    let budget = Rc::new(Budget::new(limits));
    lua.set_app_data(StateData {
        budget: budget.clone(),
        modules: RefCell::new(Modules::new(roots)),
        run: RefCell::new(None),
        recipe: RefCell::new(String::new()),
    });
    let alloc = AllocGuard::install(&lua, budget.clone())?;
    let sandbox = Sandbox {
        lua,
        alloc: Some(alloc),
        budget: budget.clone(),
    };
    let lua = &sandbox.lua;
    // Generational collection: a state lives for many generations, each leaving a little
    // short-lived garbage beside a large, long-lived heap (the frozen region tables), which
    // incremental collection would mark over and over. Measured: rooms.lua batches ~7% faster.
    lua.gc_gen(0, 0);

    lua.set_app_data(api::keys::Keys::new(lua)?);

    let hook_budget = budget.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(HOOK_EVERY),
        move |lua, _| {
            let tick = hook_budget.used() / HOOK_EVERY as u64;
            if tick < NOTE_EVERY as u64 || tick % NOTE_EVERY as u64 == 0 {
                if let Some(at) = script_location(lua, 0) {
                    hook_budget.note_location(&at);
                }
            }
            match hook_budget.charge_instructions(HOOK_EVERY as u64, || script_location(lua, 0)) {
                Ok(()) => Ok(VmState::Continue),
                Err(_) => Err(exceeded_error(lua)),
            }
        },
    )?;

    let globals = lua.globals();
    // Before the prelude wraps `xpcall`: the host calls recipes under Lua's own.
    super::traceback::install(lua)?;
    strlib::install(lua, &globals.raw_get("string")?)?;
    let table_lib: Table = globals.raw_get("table")?;
    let originals = lua.create_table()?;
    originals.raw_set("concat", table_lib.raw_get::<Value>("concat")?)?;
    originals.raw_set("unpack", table_lib.raw_get::<Value>("unpack")?)?;
    originals.raw_set(
        "less",
        lua.load("return function(a, b) return a < b end")
            .set_name("=table.sort")
            .call::<Value>(())?,
    )?;
    let tables: Table = lua
        .load(include_str!("tables.lua"))
        .set_name("=table")
        .set_mode(mlua::ChunkMode::Text)
        .call(originals)?;

    let host = lua.create_table()?;
    host.set(
        "tripped",
        lua.create_function(|lua, ()| Ok(state(lua).budget.exceeded().is_some()))?,
    )?;
    host.set("error_value", lua.create_function(error_value)?)?;
    host.set(
        "check_chunk",
        lua.create_function(|_, (text, name): (mlua::String, Option<String>)| {
            let name = name.unwrap_or_else(|| "[string]".into());
            let name = name.strip_prefix(['=', '@']).unwrap_or(&name);
            Ok(super::source::check(&text.as_bytes())
                .err()
                .map(|p| p.located(name)))
        })?,
    )?;
    host.set("max_chunk", super::source::MAX_SOURCE_BYTES)?;
    host.set("tables", tables)?;
    host.set("print", lua.create_function(api::log::print)?)?;
    host.set("random", lua.create_function(api::rng::math_random)?)?;
    host.set("require", lua.create_function(super::require::require)?)?;
    host.set("warren", api::module(lua)?)?;
    api::install_indexes(lua)?;
    let helpers: Table = lua
        .load(include_str!("prelude.lua"))
        .set_name("=warren prelude")
        .set_mode(mlua::ChunkMode::Text)
        .call(host)?;
    Ok((sandbox, helpers))
}

/// What `pcall` and friends hand to scripts as the error: the message of an error raised in
/// Rust (instead of mlua's wrapper object), any other value unchanged. A Rust panic never gets
/// here as a value: converting it resumes the panic.
fn error_value(lua: &Lua, v: Value) -> mlua::Result<Value> {
    match v {
        Value::Error(e) => Ok(Value::String(lua.create_string(super::lua_message(&e))?)),
        other => Ok(other),
    }
}

/// The state data of a sandboxed state.
///
/// # Panics
/// If `lua` was not made by [`new_state`] (a bug in warren).
pub fn state(lua: &Lua) -> mlua::AppDataRef<'_, StateData> {
    lua.app_data_ref::<StateData>()
        .expect("warren Lua state without its state data")
}
