//! What a sandboxed state knows while it runs — its budget, the modules it has loaded, the
//! generation in progress — and the few things every binding needs from it: errors located at
//! the calling line, the run's data, and charging work to the budget.
//!
//! It depends on nothing in the crate but the budget's accounting, so the
//! sandbox that builds a state, the host that runs it and the API bindings all reach it
//! without reaching each other.

use crate::budget::{caller_location, Budget, Reservation};
use crate::ffi::{
    lua_warren_getidbase, lua_warren_id, lua_warren_markdirty, lua_warren_sethost,
    lua_warren_setidbase,
};
use mlua::{ffi, AnyUserData, Lua};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::c_int;
use std::path::PathBuf;
use std::rc::Rc;
use warren_core::map::TerrainId;

/// The stable id a table was given when it was made (WARREN.md, change 2): ids rise in the
/// order objects are made, so they tell which of two tables a script built first. `None` when
/// the Lua stack has no room to look.
pub fn creation_id(lua: &Lua, table: &mlua::Table) -> Option<u64> {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: one slot is checked for, pushed and popped; reading an id cannot raise.
        unsafe {
            if ffi::lua_checkstack(l, 1) == 0 || raw.push(table).is_err() {
                return None;
            }
            let id = lua_warren_id(l, -1);
            ffi::lua_pop(l, 1);
            Some(id)
        }
    })
}

/// Makes the next object the state creates take id `base` (see `lua_warren_setidbase`).
///
/// # Safety
/// `l` is a thread of a live warren state.
pub unsafe fn set_id_base(l: *mut ffi::lua_State, base: u64) {
    // SAFETY: see the function's contract; the id base is plain global state.
    unsafe { lua_warren_setidbase(l, base) }
}

/// Makes the state's next `n` ids go unused, as if it had made `n` objects.
///
/// # Safety
/// `l` is a thread of a live warren state.
pub unsafe fn skip_ids(l: *mut ffi::lua_State, n: u64) {
    // SAFETY: see the function's contract; the id base is plain global state.
    unsafe { lua_warren_setidbase(l, lua_warren_getidbase(l) + n) }
}

/// Runs `make` with the objects it creates numbered from `first_id`, then puts the numbering
/// back where it was: for objects the host makes beside a recipe's (fast calls, mlua's error
/// objects), so that no object of the recipe's own changes its id. Returns what `make`
/// returned and the id after the last one it used.
///
/// # Safety
/// `l` is a thread of a live warren state.
pub unsafe fn numbered_from<R>(
    l: *mut ffi::lua_State,
    first_id: u64,
    make: impl FnOnce() -> R,
) -> (R, u64) {
    // SAFETY: see the function's contract.
    unsafe {
        let before = lua_warren_getidbase(l);
        lua_warren_setidbase(l, first_id);
        let made = make();
        let next = lua_warren_getidbase(l);
        lua_warren_setidbase(l, before);
        (made, next)
    }
}

/// Runs `write` as the host's own bookkeeping in objects a run sees (`ctx`, a map's field
/// table): nothing it writes is saved for the reset at the run's end, and nothing marks the
/// state dirty (see `lua_warren_sethost`).
///
/// # Safety
/// `state` is a live warren state (its patched Lua has the host flag).
pub unsafe fn keeping_clean<R>(state: *mut ffi::lua_State, write: impl FnOnce() -> R) -> R {
    /// Puts the flag back as it was, also when `write` unwinds.
    struct Restore(*mut ffi::lua_State, c_int);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: the state is live for the whole of `keeping_clean`.
            unsafe { lua_warren_sethost(self.0, self.1) };
        }
    }
    // SAFETY: see the function's contract; the flag is plain global state.
    let _restore = Restore(state, unsafe { lua_warren_sethost(state, 1) });
    write()
}

/// The module files of one Lua state, and where they may come from.
pub struct Modules {
    /// The directories module files may come from.
    pub(crate) roots: Vec<PathBuf>,
    /// Files compiled for `require`, by module name.
    pub(crate) files: BTreeMap<String, PathBuf>,
}

impl Modules {
    /// A module set that resolves names inside `roots`.
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Modules {
            roots,
            files: BTreeMap::new(),
        }
    }

    /// Files of every module compiled so far (for watching).
    pub fn files(&self) -> Vec<PathBuf> {
        self.files.values().cloned().collect()
    }
}

/// Per-state data the API functions reach through `Lua::app_data_ref`.
pub struct StateData {
    /// The state's number, which no other state of the process has had ([`next_id`]): with
    /// the state's count of strings freed, it tells a string by its address
    /// (`api::terrain_names::by_string`).
    pub id: u64,
    /// The generation budget.
    pub budget: Rc<Budget>,
    /// Modules loaded by `require`, and where they may come from.
    pub modules: RefCell<Modules>,
    /// What a generation of the loaded recipe needs (set when it is loaded, and when the
    /// registry changes); the API sees it only while [`StateData::running`].
    pub run: RefCell<Option<RunData>>,
    /// Whether a generation is in progress.
    pub running: std::cell::Cell<bool>,
    /// The recipe file, as budget errors name it.
    pub recipe: RefCell<String>,
    /// Whether `map:snapshot` keeps copies (`Host::record_snapshots`); off, a snapshot does
    /// nothing but check its label.
    pub snapshots: std::cell::Cell<bool>,
    /// The metatable of rngs (`lua_topointer`; null until the fast calls are installed): how a
    /// fast call tells an rng argument from anything else.
    pub rng_metatable: std::cell::Cell<*const std::ffi::c_void>,
    /// The metatable of rectangle lists, as [`StateData::rng_metatable`].
    pub rects_metatable: std::cell::Cell<*const std::ffi::c_void>,
    /// What `io.write` wrote of a line not yet ended (see `api::log`).
    pub output: RefCell<String>,
    /// The memory the state held once the recipe file had run (before the regions were
    /// loaded, so that it depends on the recipe alone): `collectgarbage("count")`.
    pub loaded_bytes: std::cell::Cell<usize>,
    /// The budget's instructions when the run's clocks started (see `clock`).
    pub clock_start: std::cell::Cell<u64>,
    /// The seed of the run (0 while the recipe loads), from which `os.time()` starts.
    pub seed: std::cell::Cell<u64>,
    /// The object types met on first use that this state has met, a bit each
    /// (`api::first_use`).
    pub types_met: std::cell::Cell<u8>,
    /// Where the pools of userdata runs made are (`api::pool::Pools`, in the state's app data,
    /// which never moves nor replaces them; null until the API is installed): found with one
    /// load instead of the keyed app-data lookup each stream and rectangle list paid. Reached
    /// past the app data's borrow count: nothing may replace, remove or borrow mutably the
    /// `Pools` in the app data.
    pub pools: std::cell::Cell<*const std::ffi::c_void>,
    /// mlua's own `Lua` of this state (the one `Lua::get_or_init_from_ptr` finds, which lives
    /// as long as the state; null until [`publish`]): found with two loads by [`lua_of`] where
    /// mlua's lookup searches the registry.
    pub lua: std::cell::Cell<*const Lua>,
}

/// What the API needs to know about the generation in progress.
pub struct RunData {
    /// The recipe's name (for log lines).
    pub recipe: std::rc::Rc<str>,
    /// The registry's edge terrain.
    pub edge: TerrainId,
    /// The registry's fill terrain (what a fresh map is made of).
    pub fill: TerrainId,
    /// `ctx.rng`, which `math.random` also draws from.
    pub rng: AnyUserData,
    /// The cell of `rng`'s generator (`api::shared::SharedCell<Rng>`), for the fast
    /// `math.random`; it lives as long as `rng`.
    pub rng_cell: *const std::ffi::c_void,
    /// The map being generated.
    pub map: AnyUserData,
    /// `ctx.depth` of the generation in progress (bindings with a `depth` option default to it).
    pub depth: std::cell::Cell<u32>,
}

/// Puts `lua`'s [`StateData`] (already in its app data, where it stays until the state is
/// dropped) in the main thread's extra space, so that [`state`] finds it with one load instead
/// of a keyed app-data lookup. Coroutines copy the main thread's extra space when they are
/// made, so every thread a script runs has it.
///
/// # Panics
/// If the state data was not set first (a bug in warren).
pub fn publish(lua: &Lua) {
    let data: *const StateData = &*lua
        .app_data_ref::<StateData>()
        .expect("warren Lua state without its state data");
    // SAFETY: called on the main thread of a live state before any script runs (the extra
    // space is `LUA_EXTRASPACE` bytes, a pointer's size, before the state); the pointer stays
    // valid as long as the state, whose app data owns the boxed `StateData` and never
    // replaces it.
    lua.exec_raw_lua(|raw| unsafe {
        *ffi::lua_getextraspace(raw.state()).cast::<*const StateData>() = data;
        // SAFETY: the main thread of a state mlua made; the `Lua` it gives is mlua's own for
        // the state, inside its extra data, which lives as long as the state.
        let own: *const Lua = Lua::get_or_init_from_ptr(raw.state());
        (*data).lua.set(own);
    });
}

/// The `Lua` of `l`, a thread of a live state mlua made: from its state data when it has some
/// (two loads), else mlua's own lookup.
///
/// # Safety
/// `l` is a thread of a live state mlua made, and the reference is used only while it lives.
pub unsafe fn lua_of<'a>(l: *mut ffi::lua_State) -> &'a Lua {
    // SAFETY: the extra space holds null or what `publish` stored (copied into every thread),
    // and the pointers in it live as long as the state (the caller's promise).
    unsafe {
        let data = *ffi::lua_getextraspace(l).cast::<*const StateData>();
        match data.as_ref().and_then(|d| d.lua.get().as_ref()) {
            Some(lua) => lua,
            None => Lua::get_or_init_from_ptr(l),
        }
    }
}

/// The state data of a sandboxed state.
///
/// # Panics
/// If `lua` was not made by the sandbox (a bug in warren).
pub fn state(lua: &Lua) -> &StateData {
    // SAFETY: the extra space holds null or the pointer [`publish`] stored, to state data that
    // lives as long as `lua`.
    let data = lua.exec_raw_lua(|raw| unsafe {
        *ffi::lua_getextraspace(raw.state()).cast::<*const StateData>()
    });
    assert!(!data.is_null(), "warren Lua state without its state data");
    // SAFETY: see above: non-null, and valid for as long as `lua` is borrowed.
    unsafe { &*data }
}

/// [`RunData::rng_cell`] while a generation runs in `l`'s state, read without a [`Lua`] (for a
/// fast call); `None` outside a run, or while the run data is being replaced.
///
/// # Safety
/// `l` is a thread of a live sandboxed state.
pub unsafe fn running_rng_cell(l: *mut ffi::lua_State) -> Option<*const std::ffi::c_void> {
    // SAFETY: the caller's contract; the data is not kept past this call.
    let data = unsafe { data_of(l)? };
    if !data.running.get() {
        return None;
    }
    let run = data.run.try_borrow().ok()?;
    run.as_ref().map(|r| r.rng_cell)
}

/// The warren data of the state whose thread is `l`; `None` for a state without it.
///
/// # Safety
/// `l` is a thread of a live sandboxed state; the data must not outlive it.
pub unsafe fn data_of<'l>(l: *mut ffi::lua_State) -> Option<&'l StateData> {
    // SAFETY: as in `state`: null, or state data that lives as long as the state.
    unsafe { (*ffi::lua_getextraspace(l).cast::<*const StateData>()).as_ref() }
}

/// Whether a generation is running (userdata made outside one belong to the loaded recipe).
pub fn in_run(lua: &Lua) -> bool {
    state(lua).running.get()
}

/// `ctx.depth` of the generation in progress; 1 when none is running.
pub fn run_depth(lua: &Lua) -> u32 {
    with_run(lua, |r| r.depth.get()).unwrap_or(1)
}

/// Runs `f` on the generation in progress; `None` when no generation is running.
pub fn with_run<R>(lua: &Lua, f: impl FnOnce(&RunData) -> R) -> Option<R> {
    let data = state(lua);
    if !data.running.get() {
        return None;
    }
    let run = data.run.borrow();
    run.as_ref().map(f)
}

/// Marks the state dirty when `made_at_load` (for Rust userdata a recipe made while loading,
/// outside any run, whose contents a run then changes: the next run must not inherit them).
pub fn touch(lua: &Lua, made_at_load: bool) {
    if made_at_load {
        // SAFETY: only sets the dirty flag of the live state.
        let _ = unsafe { lua.exec_raw::<()>((), |l| lua_warren_markdirty(l)) };
    }
}

/// A Lua runtime error located at the Lua code that called the failing API function:
/// `file:line: message` (like `luaL_error`).
pub fn fail(lua: &Lua, msg: impl Into<String>) -> mlua::Error {
    let msg = msg.into();
    // Past the closures between the binding and the recipe (a fast call's, then a gate's).
    let mut level: usize = 1;
    while level < 4 && passes_calls_on(lua, level as c_int) {
        level += 1;
    }
    let loc = lua
        .inspect_stack(level, |d| {
            let src = d.source();
            let file = src.short_src.as_deref().unwrap_or("?").to_string();
            (file, d.current_line())
        })
        .and_then(|(file, line)| line.map(|l| format!("{file}:{l}")));
    match loc {
        Some(loc) => mlua::Error::RuntimeError(format!("{loc}: {msg}")),
        None => mlua::Error::RuntimeError(msg),
    }
}

/// The last upvalue of a C closure that passes its calls on to a binding (the fast calls,
/// `api::fast`): a light userdata pointing at [`PASSES_ON`]. Such a closure sits between the
/// binding and the recipe that called it, so [`fail`] looks past it for the recipe's line.
pub const PASS_ON_UPVALUE: c_int = 5;

/// What a closure's [`PASS_ON_UPVALUE`] points at.
pub static PASSES_ON: u8 = 0;

/// Whether the function running at stack `level` passes its calls on (see [`PASS_ON_UPVALUE`]).
fn passes_calls_on(lua: &Lua, level: c_int) -> bool {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: `lua_Debug` is plain data that getstack/getinfo fill; room for the function
        // and its upvalue is checked, and both are popped.
        unsafe {
            let mut ar: ffi::lua_Debug = std::mem::zeroed();
            if ffi::lua_getstack(l, level, &mut ar) == 0 || ffi::lua_checkstack(l, 2) == 0 {
                return false;
            }
            ffi::lua_getinfo(l, c"f".as_ptr(), &mut ar);
            let top = ffi::lua_gettop(l) - 1;
            // Only the host makes a light userdata pointing at `PASSES_ON`.
            let marked = ffi::lua_iscfunction(l, -1) != 0
                && !ffi::lua_getupvalue(l, -1, PASS_ON_UPVALUE).is_null()
                && ffi::lua_touserdata(l, -1).cast_const() == std::ptr::from_ref(&PASSES_ON).cast();
            ffi::lua_settop(l, top);
            marked
        }
    })
}

/// The Lua error raised when a budget ran out inside a Rust function.
pub fn exceeded_error(lua: &Lua) -> mlua::Error {
    let data = state(lua);
    let msg = data
        .budget
        .message(&data.recipe.borrow())
        .unwrap_or_else(|| "budget exceeded".into());
    mlua::Error::RuntimeError(msg)
}

/// Charges `cost` instruction-equivalents of Rust work done for the calling script; fails
/// (located at the calling Lua line) once a budget has run out.
pub fn charge(lua: &Lua, cost: u64) -> mlua::Result<()> {
    charge_to(lua, &state(lua).budget, cost)
}

/// [`charge`], to `budget` (the state's, looked up once by a caller that charges often).
pub fn charge_to(lua: &Lua, budget: &Budget, cost: u64) -> mlua::Result<()> {
    budget
        .charge(cost, || caller_location(lua))
        .map_err(|_| exceeded_error(lua))
}

/// Counts `bytes` of Rust-side data kept for the script (annotations) against the memory limit.
pub fn charge_bytes(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    charge_bytes_for(lua, bytes, "")
}

/// Counts `bytes` that `what` (a binding's name) is about to allocate against the memory
/// limit, before allocating: running out names `what` and the size.
pub fn charge_bytes_for(lua: &Lua, bytes: usize, what: &str) -> mlua::Result<()> {
    state(lua)
        .budget
        .charge_bytes_for(bytes, what, || caller_location(lua))
        .map_err(|_| exceeded_error(lua))
}

/// Gives back `bytes` of Rust-side data counted with [`charge_bytes`] (a replaced layer).
pub fn release_bytes(lua: &Lua, bytes: usize) {
    state(lua).budget.release_bytes(bytes);
}

/// Reserves `bytes` of the memory account for a Rust object `what` makes that the state will
/// own (a town, status lists), until the object is collected. When they do not fit, garbage is
/// collected first (dropped objects give their share back); if that is not enough the memory
/// limit trips, located at the calling script line. Bytes too many to put to use in the time
/// left are over time ([`Budget::check_first_use`]).
pub fn reserve(lua: &Lua, bytes: usize, what: &str) -> mlua::Result<Reservation> {
    let budget = state(lua).budget.clone();
    if budget
        .check_first_use(bytes, || caller_location(lua))
        .is_err()
    {
        return Err(exceeded_error(lua));
    }
    if let Some(r) = Reservation::try_new(&budget, bytes) {
        return Ok(r);
    }
    // Two full cycles: the first runs finalizers, the second frees what they released.
    lua.gc_collect()?;
    lua.gc_collect()?;
    Reservation::try_new(&budget, bytes).ok_or_else(|| {
        budget.refuse(bytes, what, || caller_location(lua));
        exceeded_error(lua)
    })
}

/// A number no other state of this process has had, for [`StateData::id`] (counted from 1: a
/// process would have to make 2^64 states to see one again).
pub fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
