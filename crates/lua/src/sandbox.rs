//! The sandboxed Lua state: safe libraries only, text chunks only, confined `require`, and
//! budgets (instructions, time, memory) that scripts cannot escape.
//!
//! How the budgets hold (the Lua is warren's patched 5.4, see `crates/lua-src/WARREN.md`):
//! - Lua counts instructions itself, without a hook: backward jumps, calls and the C library's
//!   loops over caller-controlled sizes (patterns, `string.rep`, the `table` functions) charge a
//!   counter; when it runs out, [`super::budget::on_counter`] accounts, looks at the clock and
//!   refills it or trips;
//! - the allocator is wrapped (`alloc.rs`): memory over the limit, or any allocation once
//!   a budget has run out or the clock (checked every few hundred KiB) says the time is up,
//!   fails at once;
//! - a tripped budget (and a Rust panic in flight) puts the state in fatal mode: `pcall`,
//!   `xpcall`, coroutines and `<close>` handlers can neither catch nor replace the error, and
//!   every later budget point raises it again.

use super::alloc::AllocGuard;
pub use super::budget::{Budget, Limits};
use super::readonly;
use crate::ffi::{
    lua_warren_oldenall, lua_warren_setbudget, lua_warren_setfatal, lua_warren_setgcgate,
    lua_warren_takedeepestccall,
};
use crate::state::{state, Modules, StateData};
use mlua::{ffi, Lua, LuaOptions, StdLib, Table, Value};
use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::ops::Deref;
use std::path::PathBuf;
use std::rc::Rc;

thread_local! {
    /// The state running a recipe on this thread (null when none): a Rust panic puts it in fatal
    /// mode, so no script can catch the panic on its way out.
    static RUNNING: Cell<*mut ffi::lua_State> = const { Cell::new(std::ptr::null_mut()) };
}

/// Installs (once per process) the panic hook that puts the thread's running state in fatal
/// mode before the panic unwinds, then runs the hook that was there before.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let state = RUNNING.with(Cell::get);
            if !state.is_null() {
                // SAFETY: `state` is live while it is registered as running (see `Running`);
                // fatal mode only writes two fields of the global state.
                unsafe { lua_warren_setfatal(state, 1) };
            }
            previous(info);
        }));
    });
}

/// Marks a sandbox as the one running a recipe on this thread until dropped.
pub struct Running(*mut ffi::lua_State);

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.0));
    }
}

/// A sandboxed Lua state (use it as a [`Lua`] through `Deref`). Dropping it puts the original
/// allocator back before the state is closed.
pub struct Sandbox {
    lua: Lua,
    alloc: Option<AllocGuard>,
    budget: Rc<Budget>,
    state: *mut ffi::lua_State,
}

impl Sandbox {
    /// Registers this sandbox as the one running a recipe on this thread (see [`Running`]).
    pub fn running(&self) -> Running {
        Running(RUNNING.with(|r| r.replace(self.state)))
    }

    /// Stops the collector while the host builds objects that stay alive (the state's own
    /// tables, `ctx.regions`): marking them as the heap grows, in the minor and major
    /// collections a growing heap makes, would find them all alive. [`new_state`] holds it while
    /// it builds the sandbox and hands the state over settled. No script may run until
    /// [`Sandbox::settle_collector`].
    pub fn hold_collector(&self) {
        self.lua.gc_stop();
    }

    /// Restarts the collector [`Sandbox::hold_collector`] stopped, every object made old
    /// without being marked, as if a major collection had found it alive
    /// (`lua_warren_oldenall`): what little was garbage waits for the next major collection.
    /// About 0.05 ms of a small map's `warren run` (BENCHMARKS.md).
    pub fn settle_collector(&self) {
        // SAFETY: the state is live and no Lua code runs.
        unsafe { lua_warren_oldenall(self.state) };
    }

    /// The raw state, for the `lua_warren_*` API.
    pub fn raw_state(&self) -> *mut ffi::lua_State {
        self.state
    }
}

impl Deref for Sandbox {
    type Target = Lua;

    fn deref(&self) -> &Lua {
        &self.lua
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // The budget callback goes first (its budget may go before the state); then the
        // uninstalling call may allocate whatever it needs.
        // SAFETY: the state is live; these only write fields of its global state.
        unsafe {
            lua_warren_setbudget(self.state, None, std::ptr::null_mut());
            lua_warren_setgcgate(self.state, None, std::ptr::null_mut());
            lua_warren_setfatal(self.state, 0);
        }
        self.budget.end();
        if let Some(guard) = self.alloc.take() {
            if guard.uninstall(&self.lua).is_err() {
                // Lua still calls the wrapper: it must outlive the state.
                std::mem::forget(guard);
            }
        }
    }
}

/// A fresh sandboxed state whose `require` looks in `roots`, with what the host provides added
/// by `install`. Also returns the prelude's helper table (`freeze`).
///
/// The sandbox makes a bare, safe state: the safe standard libraries, the budgets, the confined
/// `require`, read-only tables and tracebacks. Everything a script may call beyond that comes
/// from `install`, which gets the state and the table the prelude reads (`host`) before any
/// script runs, and must set there the output functions (`write`, `flush`, `print`), the
/// replacement for `math.random` (`random`) and the module scripts see as `warren` (`warren`,
/// frozen by the prelude). warren's host passes [`crate::api::install`].
pub fn new_state(
    roots: Vec<PathBuf>,
    limits: Limits,
    install: impl FnOnce(&Lua, &Table) -> mlua::Result<()>,
) -> mlua::Result<(Sandbox, Table)> {
    let search_path = super::require::search_path(&roots);
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    // Lua's own pcall and xpcall stay (mlua's replacements would not know fatal mode): a Rust
    // panic sets fatal mode before it unwinds, so no script can catch it.
    install_panic_hook();
    let lua = Lua::new_with(libs, LuaOptions::new())?;
    let budget = Rc::new(Budget::new(limits));
    lua.set_app_data(StateData {
        id: crate::state::next_id(),
        budget: budget.clone(),
        modules: RefCell::new(Modules::new(roots)),
        run: RefCell::new(None),
        running: std::cell::Cell::new(false),
        recipe: RefCell::new(String::new()),
        snapshots: std::cell::Cell::new(false),
        rng_metatable: std::cell::Cell::new(std::ptr::null()),
        rects_metatable: std::cell::Cell::new(std::ptr::null()),
        output: RefCell::new(String::new()),
        loaded_bytes: Cell::new(0),
        clock_start: Cell::new(0),
        seed: Cell::new(0),
        types_met: Cell::new(0),
        pools: Cell::new(std::ptr::null()),
        lua: Cell::new(std::ptr::null()),
    });
    crate::state::publish(&lua);
    let mut raw = std::ptr::null_mut();
    // SAFETY: only reads the state pointer.
    unsafe { lua.exec_raw::<()>((), |l| raw = l)? };
    // SAFETY: the budget lives in an `Rc` the sandbox holds; `Sandbox::drop` unregisters the
    // callback and the gate before it can go.
    unsafe {
        lua_warren_setbudget(
            raw,
            Some(super::budget::on_counter),
            Rc::as_ptr(&budget) as *mut c_void,
        );
        lua_warren_setgcgate(
            raw,
            Some(super::budget::on_collection),
            Rc::as_ptr(&budget) as *mut c_void,
        );
    };
    budget.attach(raw);
    let mut sandbox = Sandbox {
        lua,
        alloc: None,
        budget: budget.clone(),
        state: raw,
    };
    let lua = &sandbox.lua;
    // Generational collection: a state lives for many generations, each leaving a little
    // short-lived garbage beside a large, long-lived heap (the frozen region tables), which
    // incremental collection would mark over and over. Measured: rooms.lua batches ~7% faster.
    lua.gc_gen(0, 0);
    // Stopped until the sandbox is built (`Sandbox::hold_collector`).
    sandbox.hold_collector();

    let host = lua.create_table()?;
    // The host calls recipes under this handler, as Lua's own `xpcall` would (`traceback::call`).
    host.set("traceback", super::traceback::handler(lua)?)?;
    let error_value = lua.create_function(error_value)?;
    // The patched Lua hands a `__close` handler the error through it, as `pcall` does
    // (`LUA_WARREN_ERRORVALUE`, crates/lua-src/WARREN.md).
    lua.set_named_registry_value(ERROR_VALUE_KEY, &error_value)?;
    host.set("error_value", error_value)?;
    host.set("max_chunk", super::source::MAX_SOURCE_BYTES)?;
    host.set(
        "clock",
        lua.create_function(|lua, ()| Ok(super::clock::seconds(lua)))?,
    )?;
    host.set(
        "now",
        lua.create_function(|lua, ()| Ok(super::clock::now(lua)))?,
    )?;
    // SAFETY: C functions for this state's patched Lua (plain ones: making them takes no
    // object id).
    host.set("readonly", unsafe {
        lua.create_c_function(readonly::readonly)?
    })?;
    host.set("freeze", unsafe {
        lua.create_c_function(readonly::freeze)?
    })?;
    host.set(
        "find_module",
        lua.create_function(super::require::find_module)?,
    )?;
    host.set("search_path", search_path)?;
    // SAFETY: a C function for this state's Lua (a plain one: making it takes no object id).
    host.set("call_loader", unsafe {
        lua.create_c_function(super::require::call_loader)?
    })?;
    host.set(
        "read_chunk",
        lua.create_function(super::require::read_chunk)?,
    )?;
    host.set(
        "loaded_kb",
        lua.create_function(|lua, ()| Ok(state(lua).loaded_bytes.get() as f64 / 1024.0))?,
    )?;
    install(lua, &host)?;
    warm_error_pool(lua)?;
    let helpers: Table = prelude(lua, PRELUDE_BYTECODE)?.call(host)?;
    // The budget's allocator goes in last, before any script of the user's runs. Until then the
    // state has mlua's own allocator with no limit, from which mlua takes it that no allocation
    // will be refused (its usual assumption for a state without a memory limit): it then makes
    // each function, table and string without the protected call it otherwise wraps around
    // them (a thousand-odd at every start, 0.34 M of a small map's 7.52 M instructions). What
    // the state holds by then is counted from here on (`AllocGuard::install`), by the sizes Lua
    // asked for: the rounding of those blocks to the allocator's sizes (about 9 KiB) is not in
    // the account, as that of the base libraries' blocks was not before.
    sandbox.alloc = Some(AllocGuard::install(&sandbox.lua, budget)?);
    sandbox.settle_collector();
    Ok((sandbox, helpers))
}

/// The prelude's chunk name, as tracebacks show it (`build.rs` compiles it under this name).
pub const PRELUDE_NAME: &str = "=warren prelude";

/// The prelude as `build.rs` compiled it (`string.dump`'s form, debug information kept):
/// loading it instead of parsing the source saves about a tenth of a process's start.
pub static PRELUDE_BYTECODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prelude.luac"));

/// The prelude as a function of `lua` (a warren state), loaded from `bytecode` as a recipe's
/// compiled chunk is ([`crate::compiled::function`]: numbering what follows as a parsed one
/// would); parsed from its source when `lua` cannot load that (a cross build for another byte
/// order).
pub fn prelude(lua: &Lua, bytecode: &[u8]) -> mlua::Result<mlua::Function> {
    crate::compiled::function(
        lua,
        PRELUDE_NAME,
        include_str!("prelude.lua"),
        Some(bytecode),
    )
}

/// mlua keeps a preallocated error object per nesting level of Rust callbacks (Rust calling Lua
/// calling Rust…) and makes one the first time a level is reached. Made during a run, it takes
/// an object id, and a later run in the same state, finding it made, would number its objects
/// differently from the same run in a fresh state: so reach [`WARM_DEPTH`] levels now (and again
/// with [`refill_error_pool`] once the recipe is loaded, deeper if its loading nested deeper, and
/// after a run that raised errors from Rust). A run that nests deeper than the pool leaves its
/// state to be loaded again (the host's `Env::nested_past_pool`).
fn warm_error_pool(lua: &Lua) -> mlua::Result<()> {
    // `warm(n)` (Lua) calls `descend(n)` (Rust), which calls `warm(n - 1)`: one level of
    // Rust callbacks per step.
    let warm = std::rc::Rc::new(std::cell::OnceCell::<mlua::Function>::new());
    let next = warm.clone();
    let descend = lua.create_function(move |_, n: i64| match next.get() {
        Some(warm) => warm.call::<()>(n - 1),
        None => Ok(()),
    })?;
    let made: mlua::Function = lua
        .load("local descend = ... return function(n) if n > 0 then descend(n) end end")
        .set_name("=warren prelude")
        .call(descend)?;
    let _ = warm.set(made.clone());
    lua.set_named_registry_value(WARM_KEY, made.clone())?;
    made.call::<()>(WARM_DEPTH)?;
    // The warming's calls nest one deeper than the pool (its innermost Lua call): forgotten,
    // so that the host's count of how deep making the state and loading the recipe nested
    // (`Env::pool_levels`) is theirs.
    // SAFETY: the state is live and no Lua code runs.
    lua.exec_raw_lua(|raw| unsafe { lua_warren_takedeepestccall(raw.state()) });
    Ok(())
}

/// Where the registry keeps the function that warms the pool.
const WARM_KEY: &str = "warren.warm_error_pool";

/// Brings mlua's pool of preallocated error objects back to `levels` levels (the host's: at
/// least [`WARM_DEPTH`]). An error raised from Rust takes one object out of the pool (and sets
/// its metatable again, which `lua_warren_takeresetmetas` counts); the host refills the pool
/// after such a run, numbering the new objects apart, so that the next run finds the state as a
/// fresh one.
pub(crate) fn refill_error_pool(lua: &Lua, levels: i64) -> mlua::Result<()> {
    let warm: mlua::Function = lua.named_registry_value(WARM_KEY)?;
    warm.call::<()>(levels)
}

/// Nesting levels of Rust callbacks [`warm_error_pool`] prepares for as the state is made
/// (numbered among the state's own objects, as they always were): deeper than recipes nest
/// them (a binding calling a Lua function that calls a binding is two C calls deep, or three),
/// shallow enough that a process does not pay for warming what it never uses (warming 100
/// levels took about 0.12 ms of a `warren run`'s start: its C stack's pages, mostly). A recipe
/// whose loading nested deeper gets a deeper pool (the host's `Env::pool_levels`).
pub(crate) const WARM_DEPTH: i64 = 16;

/// The deepest pool the host warms, whatever a recipe's loading nested: 100 levels, as deep as
/// it always warmed it, short of Lua's limit of 200 nested C calls (the warming's k-th level is
/// one C call deeper than the last). Lua lets an error's message handler nest up to 20 calls
/// past that limit, so a contrived loading can leave a deeper pool: the host then loads the
/// state again after any run that took an object from it (`Env::pool_past_warming`).
pub(crate) const MAX_WARM_DEPTH: i64 = 100;

/// Where the registry keeps [`error_value`] for the patched Lua (`LUA_WARREN_ERRORVALUE` in
/// `lwarren.h`).
const ERROR_VALUE_KEY: &str = "warren.error_value";

/// What `pcall` and friends (and `__close` handlers) hand to scripts as the error: the message
/// of an error raised in Rust (instead of mlua's wrapper object), any other value unchanged. A Rust panic never gets
/// here as a value: converting it resumes the panic.
fn error_value(lua: &Lua, v: Value) -> mlua::Result<Value> {
    match v {
        Value::Error(e) => Ok(Value::String(
            lua.create_string(super::located::located_message(&e))?,
        )),
        other => Ok(other),
    }
}
