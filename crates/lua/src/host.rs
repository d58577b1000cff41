//! The host: a sandboxed Lua state with one recipe loaded ([`Host`]), the generation request
//! ([`Run`]) and what the API bindings need to know about the run in progress.

use crate::api::map::LuaMap;
use crate::api::rng::LuaRng;
use crate::error::{Error, Result};
use crate::ffi::{
    luaL_warren_boxmetatable, lua_warren_dirty, lua_warren_markpristine, lua_warren_reset,
    lua_warren_takedeepestccall, lua_warren_takeresetmetas,
};
use crate::phases::PhaseClock;
use crate::short_text::same_text;
use crate::state::{self, RunData};
use crate::{api, located, params, recipe, recipe::Recipe, sandbox, traceback};
use crate::{Limits, ParamValue, ParamValues, Usage};
use mlua::ffi;
use mlua::{AnyUserData, Function, Lua, Table, Value};
use std::cell::{Ref, RefCell};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use warren_core::map::{Map, MapError};
use warren_core::region::Registry;
use warren_core::rng::Rng;

/// One generation request.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// The seed.
    pub seed: u64,
    /// Parameter values (from [`params::resolve`]).
    pub params: &'a ParamValues,
    /// 1-based depth of the level.
    pub depth: u32,
    /// The level above, for multi-level runs.
    pub above: Option<&'a Map>,
}

/// The id the first object a generation creates gets (see `lua_warren_setidbase`): far above
/// what loading a recipe uses, so every run numbers its objects the same way.
const RUN_ID_BASE: u64 = 1 << 40;

/// The error of a run whose map is not in the spare slot, which [`Host::ready_spare`] fills
/// before every run (a bug in warren, reported as an internal error).
const NO_MAP: &str = "the generation's map is missing from the host's spare slot";

/// Where the error objects the host puts back into mlua's pool after loading are numbered:
/// apart from what loading, the fast calls (`api::fast`, from 2^39) and runs number.
const LOAD_WARM_ID_BASE: u64 = (1 << 39) + (1 << 32);

/// Where the boxes' metatable the host makes after loading is numbered (`Env::make_box_metatable`):
/// after the error objects numbered from [`LOAD_WARM_ID_BASE`] (a hundred at most).
const LOAD_BOX_ID_BASE: u64 = LOAD_WARM_ID_BASE + (1 << 20);

/// Where the error objects the host puts back into mlua's pool between runs are numbered (from
/// here on, over the host's life).
const RUN_WARM_ID_BASE: u64 = (1 << 39) + (1 << 33);

/// Rust objects owned by the Lua state (towns, status lists) holding more than this after a run
/// make the host collect garbage before the next (see `Host::generate`).
const COLLECT_AFTER_RESERVED: usize = 1 << 20;

/// A sandboxed Lua state with one recipe loaded, ready to generate maps. Reuse it: generating
/// does not reload the recipe.
///
/// Every map starts from the same state: after loading, every object in the state is marked
/// pristine. The first write of a run to one of them (a module-level counter, a replaced
/// global, an extended `string` table, a class variable) saves what it held, and the run's end
/// puts it back (a reset: its cost grows with what the run wrote, not with what was loaded);
/// what the run made is left to the collector. A write that cannot be put back (a resumed
/// coroutine made while loading, a Rust object made while loading and changed by a run) leaves
/// the state dirty, and the host then loads the recipe again into a fresh state before the
/// next run (a reload), exactly as a fresh process would; so does a run that nests calls
/// deeper than mlua's pool of error objects holds (see `Env::nested_past_pool`). Runs that
/// write no pristine object and nest no deeper cost nothing extra.
pub struct Host {
    env: RefCell<Env>,
    recipe: Recipe,
    registry: Arc<Registry>,
    limits: Limits,
    clock: std::rc::Rc<RefCell<PhaseClock>>,
    spare: RefCell<Option<Map>>,
    /// Instructions and peak memory of the last generation (its time is the phase clock's).
    spent: std::cell::Cell<(u64, usize)>,
    /// Whether `map:snapshot` calls are kept (survives reloads).
    snapshots: std::cell::Cell<bool>,
    /// Where snapshots go instead of being kept, while they are streamed (survives reloads;
    /// see [`Host::stream_snapshots`]).
    sink: RefCell<Option<crate::api::map::debug::SharedSink>>,
    /// How many times a dirty state was loaded again.
    reloads: std::cell::Cell<u64>,
    /// The last run left garbage the next one must not inherit: collected before the next run's
    /// clock starts (see [`Host::generate`]).
    garbage: std::cell::Cell<bool>,
    /// How many runs ended putting back pristine objects they wrote, and how many objects.
    resets: std::cell::Cell<(u64, u64)>,
    /// The last run left the state dirty: the next one loads it again first (after the caller
    /// took the run's snapshots).
    stale: std::cell::Cell<bool>,
    /// The id the next error object put back into mlua's pool gets (see
    /// `Env::refill_error_pool`).
    warm_ids: std::cell::Cell<u64>,
    /// Bytes the caller keeps from earlier generations of the same run (the levels above, their
    /// snapshots): each generation's memory account starts with them. See [`Host::keep`].
    kept: std::cell::Cell<usize>,
    /// Set by another thread to stop the generation in progress (see [`Host::set_cancel`]).
    cancel: RefCell<Option<Arc<std::sync::atomic::AtomicBool>>>,
    /// The memory limit this host's generations share with other hosts' (see
    /// [`Host::set_shared_limit`]).
    shared_limit: RefCell<Option<Arc<crate::shared_limit::SharedLimit>>>,
    /// The budget the last generation ran out of, if any ([`Host::crowded`],
    /// [`Host::out_of_memory`]).
    exceeded: std::cell::Cell<Option<crate::budget::Exceeded>>,
}

/// Bytes a caller keeps from a generation (a finished level, its snapshots) while it makes more:
/// counted in every later generation's memory account until dropped.
#[must_use = "the bytes are counted only while this is kept"]
pub struct Kept<'h> {
    host: &'h Host,
    bytes: usize,
}

impl Drop for Kept<'_> {
    fn drop(&mut self) {
        let kept = &self.host.kept;
        kept.set(kept.get().saturating_sub(self.bytes));
    }
}

/// Parameter values as a flat list, in the map's order: comparing a run's values with it walks
/// one map, not two.
type ParamList = Vec<(String, ParamValue)>;

/// `ctx.params` as a state holds it: the values it was made from, the table, and the map size
/// they give (`params.width`, `params.height`, read once).
struct ParamsCache {
    values: ParamList,
    table: Table,
    size: (i64, i64),
}

/// What a run found of its parameters before it began.
#[derive(Clone, Copy)]
struct ParamsRead {
    /// `params.width` and `params.height`.
    size: (i64, i64),
    /// They are the values the state's cached `ctx.params` was made from, unless the state was
    /// loaded again since (then it has no `ctx.params` yet).
    cached: bool,
}

/// Everything tied to one Lua state: loaded again whole when a run leaves the state dirty.
struct Env {
    lua: sandbox::Sandbox,
    generate: Function,
    /// `file:line` where `generate` is defined: the place a budget names when it runs out
    /// before any line of the run was seen (an allocation in a C function, say).
    generate_at: String,
    freeze: Function,
    /// The message handler `generate` runs under (`traceback::handler`).
    traceback: Function,
    /// The `ctx` tables, refilled for every run.
    ctx: api::ctx::CtxTables,
    recipe_name: std::rc::Rc<str>,
    /// The map handed to `generate`: one userdata for every run, holding the run's map while it
    /// lasts and a 1×1 placeholder between runs.
    map_ud: AnyUserData,
    /// The size `map_ud`'s field table holds (`map.width`, `map.height`): written only when a
    /// run's map has another size.
    published: std::cell::Cell<(i32, i32)>,
    /// `ctx.rng`: one userdata for every run, reseeded for each.
    rng_ud: AnyUserData,
    /// The values inside `map_ud` and `rng_ud`, reached without mlua's borrow (and its type
    /// check) twice a run.
    held: (LuaMap, LuaRng),
    /// `ctx.params`, and the values it was made from.
    params_cache: RefCell<Option<ParamsCache>>,
    regions: Table,
    /// The levels of Rust callbacks mlua's error pool is warmed to: [`sandbox::WARM_DEPTH`], or
    /// as many C calls as were nested while the state was made and the recipe loaded, if more
    /// (up to [`sandbox::MAX_WARM_DEPTH`]): the pool may have grown that deep then, in every
    /// fresh state alike, and each run must start from a pool that deep. A run whose C calls
    /// nest deeper may have grown it further ([`Env::nested_past_pool`]).
    pool_levels: i64,
    /// Loading nested C calls deeper than [`sandbox::MAX_WARM_DEPTH`]: the pool may hold more
    /// than the host can warm it back to, so a run that takes an object from it leaves the
    /// state to be loaded again ([`Env::refill_error_pool`]).
    pool_past_warming: bool,
}

impl Env {
    /// A fresh sandbox with the recipe at `script` loaded and the state marked pristine.
    fn load(
        script: &Path,
        registry: &Arc<Registry>,
        limits: Limits,
        clock: &std::rc::Rc<RefCell<PhaseClock>>,
    ) -> Result<(Env, Recipe)> {
        let dir = script
            .parent()
            .map(Path::to_path_buf)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("."));
        let (lua, helpers) =
            sandbox::new_state(vec![dir], limits, api::install).map_err(internal_lua)?;
        let _running = lua.running();
        let freeze: Function = helpers.get("freeze").map_err(internal_lua)?;
        let traceback: Function = helpers.get("traceback").map_err(internal_lua)?;
        let functions = api::ctx::CtxFunctions::new(&lua, clock.clone()).map_err(internal_lua)?;
        let data = state::state(&lua);
        *data.recipe.borrow_mut() = script.display().to_string();
        // Read and compiled before the budget begins (`recipe::prepare`).
        let prepared = recipe::prepare(script, limits.memory)?;
        let budget = data.budget.clone();
        budget.begin(limits);
        // Until the instruction hook sees a line, a budget that runs out (in an allocation of a
        // C function) names the start of the chunk.
        budget.note_location(&format!("{}:1", script.display()));
        let loaded = recipe::load_prepared(&lua, script, prepared);
        budget.check_memory_peak();
        api::log::finish(&lua);
        data.loaded_bytes.set(lua.used_memory());
        let exceeded = budget.message(&script.display().to_string());
        budget.end();
        let (recipe, generate) = loaded.map_err(|e| exceeded.map_or(e, Error::Budget))?;
        // What the host builds from here on stays alive (`Sandbox::hold_collector`).
        lua.hold_collector();
        let regions = regions_table(&lua, registry)?;
        let recipe_name = recipe.name.as_str().into();
        let info = generate.info();
        let generate_at = match (info.short_src, info.line_defined) {
            (Some(src), Some(line)) => format!("{src}:{line}"),
            _ => script.display().to_string(),
        };
        let placeholder = Map::new(1, 1, registry.map_fill, registry.terrains().clone())
            .map_err(|e| Error::Internal(e.to_string()))?;
        let map_ud = api::map::new_userdata(&lua, placeholder).map_err(internal_lua)?;
        api::map::install_fast(&lua, &map_ud).map_err(internal_lua)?;
        api::gen::install_fast(&lua, &map_ud).map_err(internal_lua)?;
        let rng_ud = lua
            .create_userdata(LuaRng::new(Rng::new(0)))
            .map_err(internal_lua)?;
        api::rng::install_fast(&lua, &rng_ud).map_err(internal_lua)?;
        let ctx = api::ctx::CtxTables::new(&lua, &rng_ud, &functions).map_err(internal_lua)?;
        let held = (
            map_ud.borrow::<LuaMap>().map_err(internal_lua)?.clone(),
            rng_ud.borrow::<LuaRng>().map_err(internal_lua)?.clone(),
        );
        // SAFETY: the state is live and no Lua code runs.
        let loaded_nesting = unsafe { lua_warren_takedeepestccall(lua.raw_state()) };
        let loaded_nesting = i64::from(loaded_nesting);
        let pool_levels = loaded_nesting.clamp(sandbox::WARM_DEPTH, sandbox::MAX_WARM_DEPTH);
        let env = Env {
            lua,
            generate,
            generate_at,
            freeze,
            traceback,
            ctx,
            recipe_name,
            map_ud,
            published: std::cell::Cell::new((1, 1)),
            rng_ud,
            held,
            params_cache: RefCell::new(None),
            regions,
            pool_levels,
            pool_past_warming: loaded_nesting > sandbox::MAX_WARM_DEPTH,
        };
        env.set_run_data(registry).map_err(internal_lua)?;
        // Every state starts with a full pool of mlua's error objects: warmed `pool_levels` deep
        // (a run nesting deeper is followed by a reload, `nested_past_pool`), and with what
        // errors the recipe caught while loading took put back.
        if !env.fill_error_pool(&std::cell::Cell::new(LOAD_WARM_ID_BASE)) {
            return Err(Error::Internal("filling mlua's error pool failed".into()));
        }
        if !env.make_box_metatable() {
            return Err(Error::Internal(
                "making the buffers' box metatable failed".into(),
            ));
        }
        env.lua.settle_collector();
        env.mark_pristine();
        Ok((env, recipe))
    }

    /// Gives the API what a generation of this recipe with `registry` needs.
    fn set_run_data(&self, registry: &Registry) -> mlua::Result<()> {
        let rng_cell = self.rng_ud.borrow::<LuaRng>()?.cell();
        *state::state(&self.lua).run.borrow_mut() = Some(RunData {
            recipe: self.recipe_name.clone(),
            edge: registry.map_edge,
            fill: registry.map_fill,
            rng: self.rng_ud.clone(),
            rng_cell: rng_cell.cast(),
            map: self.map_ud.clone(),
            depth: std::cell::Cell::new(1),
        });
        Ok(())
    }

    /// Marks every object of the state pristine (and the state clean).
    fn mark_pristine(&self) {
        // SAFETY: the state is live and no Lua code runs.
        unsafe { lua_warren_markpristine(self.lua.raw_state()) };
    }

    /// Refills mlua's pool of error objects after a run that raised errors from Rust (see
    /// [`sandbox::refill_error_pool`]), numbering the new objects from `ids` (advanced). False
    /// when that failed, or when the pool may hold more than warming gives back
    /// (`pool_past_warming`): the state must then be loaded again.
    fn refill_error_pool(&self, ids: &std::cell::Cell<u64>) -> bool {
        // SAFETY: the state is live and no Lua code runs.
        let raised = unsafe { lua_warren_takeresetmetas(self.lua.raw_state()) };
        raised == 0 || (!self.pool_past_warming && self.fill_error_pool(ids))
    }

    /// Warms mlua's pool of error objects `pool_levels` deep, numbering the new objects from
    /// `ids` (advanced). False when that failed.
    fn fill_error_pool(&self, ids: &std::cell::Cell<u64>) -> bool {
        let l = self.lua.raw_state();
        // SAFETY: the state is live and no Lua code runs.
        unsafe { lua_warren_takeresetmetas(l) };
        let warm = || sandbox::refill_error_pool(&self.lua, self.pool_levels);
        // SAFETY: as above.
        let (refilled, next) = unsafe { state::numbered_from(l, ids.get(), warm) };
        ids.set(next);
        // The warming's own calls nest one deeper than the pool (its innermost Lua call): they
        // are not a run's.
        // SAFETY: as above.
        unsafe { lua_warren_takedeepestccall(l) };
        refilled.is_ok()
    }

    /// Makes the metatable Lua's auxiliary library gives the boxes that hold a string buffer
    /// outgrowing the C stack (`table.concat`, `string.rep`, `string.format` … of more than a
    /// kilobyte), which it makes the first time it needs one and keeps in the registry. Made by
    /// a run, it would take one of the run's ids, and a later run in the same state would not
    /// make it: it would number its objects apart from the same run in a fresh state. Numbered
    /// apart from the recipe's objects (a loading that made it already leaves it). False when
    /// that failed (out of memory).
    fn make_box_metatable(&self) -> bool {
        let l = self.lua.raw_state();
        // SAFETY: the state is live and no Lua code runs; the C function is called protected,
        // with room for it on the stack checked, and the stack is put back as it was.
        unsafe {
            if ffi::lua_checkstack(l, 2) == 0 {
                return false;
            }
            let top = ffi::lua_gettop(l);
            let (status, _) = state::numbered_from(l, LOAD_BOX_ID_BASE, || {
                ffi::lua_pushcfunction(l, luaL_warren_boxmetatable);
                ffi::lua_pcall(l, 0, 0, 0)
            });
            ffi::lua_settop(l, top);
            status == ffi::LUA_OK
        }
    }

    /// Whether Lua code run since the last call (or the pool's filling) nested C calls deeper
    /// than the pool has levels. The pool holds one error object a level of Rust callbacks
    /// nested, and mlua makes one the first time a level is reached: after such a run the pool
    /// may hold more than a fresh state's, and the next run would number its objects
    /// differently from the same run in a fresh state (it no longer makes that object). A run's
    /// k-th nested callback is entered k C calls deep at least (`generate` is called from C,
    /// and each level calls back into Lua from C), so a run whose C calls nested no deeper than
    /// the pool's levels grew no pool.
    fn nested_past_pool(&self) -> bool {
        // SAFETY: the state is live and no Lua code runs.
        let deepest = unsafe { lua_warren_takedeepestccall(self.lua.raw_state()) };
        i64::from(deepest) > self.pool_levels
    }

    /// Whether a run wrote to an object that existed before it.
    fn dirty(&self) -> bool {
        // SAFETY: as in `mark_pristine`.
        unsafe { lua_warren_dirty(self.lua.raw_state()) != 0 }
    }
}

impl Host {
    /// Loads the recipe at `script` into a fresh sandbox, with `require` confined to the
    /// script's directory.
    pub fn load(script: &Path, registry: Arc<Registry>, limits: Limits) -> Result<Host> {
        let clock = std::rc::Rc::new(RefCell::new(PhaseClock::default()));
        let (env, recipe) = Env::load(script, &registry, limits, &clock)?;
        Ok(Host {
            env: RefCell::new(env),
            recipe,
            registry,
            limits,
            clock,
            spare: RefCell::new(None),
            spent: Default::default(),
            snapshots: std::cell::Cell::new(false),
            sink: RefCell::new(None),
            reloads: std::cell::Cell::new(0),
            garbage: std::cell::Cell::new(false),
            resets: std::cell::Cell::new((0, 0)),
            stale: std::cell::Cell::new(false),
            warm_ids: std::cell::Cell::new(RUN_WARM_ID_BASE),
            kept: std::cell::Cell::new(0),
            cancel: RefCell::new(None),
            shared_limit: RefCell::new(None),
            exceeded: std::cell::Cell::new(None),
        })
    }

    /// The loaded recipe's name, description and parameters.
    pub fn recipe(&self) -> &Recipe {
        &self.recipe
    }

    /// The registry maps are generated with.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Replaces the registry (after region files changed); the recipe stays loaded.
    pub fn set_registry(&mut self, registry: Arc<Registry>) -> Result<()> {
        let env = self.env.get_mut();
        // Built with the collector on, unlike at load: made old without marking here, the
        // previous `ctx.regions` would join the base of the next major collection at every
        // edit, and no major collection would come.
        env.regions = regions_table(&env.lua, &registry)?;
        env.set_run_data(&registry).map_err(internal_lua)?;
        env.mark_pristine();
        self.registry = registry;
        Ok(())
    }

    /// What the last generation used of its budgets (to tune `[limits]`); its time is the
    /// generation's whole time, [`Self::phases`]' total.
    pub fn last_usage(&self) -> Usage {
        let (instructions, peak_memory) = self.spent.get();
        Usage {
            instructions,
            peak_memory,
            time: self.clock.borrow().total(),
        }
    }

    /// How many times a run left the state dirty and the recipe was loaded again (the reset's
    /// fallback, see [`Host`]).
    pub fn reloads(&self) -> u64 {
        self.reloads.get()
    }

    /// How many runs wrote to objects that existed before them and had them put back at their
    /// end (see [`Host`]), and how many objects that put back in all.
    pub fn resets(&self) -> (u64, u64) {
        self.resets.get()
    }

    /// How many streams and rectangle lists runs were handed from the userdata an earlier run
    /// of this state made, instead of made anew (see `api::pool`; a state loaded again starts
    /// from 0).
    pub fn handed_out_again(&self) -> u64 {
        api::pool::handed_out_again(&self.env.borrow().lua)
    }

    /// Lets another thread stop generations (a user quitting `warren watch`): once `flag` is
    /// set, the generation in progress ends at its next budget checkpoint with the error
    /// "generation cancelled", and later ones end at once until it is cleared.
    pub fn set_cancel(&self, flag: Option<Arc<std::sync::atomic::AtomicBool>>) {
        *self.cancel.borrow_mut() = flag;
    }

    /// Shares the memory limit of this host's generations with other hosts' generations running
    /// at once on other threads (`warren batch`'s jobs, `warren serve`'s page and sweeps; see
    /// [`crate::turns::Turns`]): each generation must then fit both its
    /// own limit, as alone, and `limit` beside what the others hold. One stopped only by the
    /// latter fails with [`Host::crowded`] set; run it again with `None` here (and no other
    /// generation beside it) to get the outcome it has alone.
    pub fn set_shared_limit(&self, limit: Option<Arc<crate::shared_limit::SharedLimit>>) {
        self.env_budget().set_shared_limit(limit.as_ref());
        *self.shared_limit.borrow_mut() = limit;
    }

    /// Whether the last generation ended only because the generations sharing its memory limit
    /// held the rest ([`Host::set_shared_limit`]): its error says nothing about the recipe.
    pub fn crowded(&self) -> bool {
        self.exceeded.get() == Some(crate::budget::Exceeded::Crowded)
    }

    /// Whether the last generation ended because it ran out of memory: its own limit, or the
    /// shared one ([`Host::crowded`]).
    pub fn out_of_memory(&self) -> bool {
        matches!(
            self.exceeded.get(),
            Some(crate::budget::Exceeded::Memory | crate::budget::Exceeded::Crowded)
        )
    }

    /// Collects the garbage the last generation left (or loads the recipe again, when the last
    /// generation left the state dirty) now rather than when the next generation starts, and
    /// tells the shared memory limit what is left: a host that waits for its turn then holds
    /// no more than it needs.
    pub fn tidy(&self) {
        if self.stale.get() {
            // A reload that fails is tried again, and reported, by the next generation.
            if self.reload().is_ok() {
                self.stale.set(false);
            }
        } else {
            self.collect_garbage_left();
        }
        self.env_budget().settle_shared();
    }

    /// The budget of the current Lua state.
    fn env_budget(&self) -> std::rc::Rc<crate::budget::Budget> {
        state::state(&self.env.borrow().lua).budget.clone()
    }

    /// Counts `bytes` the caller keeps from a generation (see [`Map::bytes`]) in the memory
    /// account of every later generation, until the returned guard is dropped.
    pub fn keep(&self, bytes: usize) -> Kept<'_> {
        self.kept.set(self.kept.get().saturating_add(bytes));
        Kept { host: self, bytes }
    }

    /// What the memory account holds between generations: the Lua state (the loaded recipe and
    /// what its objects reserved) and what the caller keeps ([`Host::keep`]).
    pub fn memory_held(&self) -> usize {
        self.collect_garbage_left();
        let env = self.env.borrow();
        let budget = state::state(&env.lua).budget.clone();
        budget.held().saturating_add(self.kept.get())
    }

    /// Checks that `bytes` more, for `what` (an output buffer, say), fit in the memory limit
    /// beside what the account holds ([`Host::memory_held`]) and `also` (levels the caller
    /// holds without [`Host::keep`]); the error says how much, and which limit.
    pub fn check_memory(&self, bytes: usize, also: usize, what: &str) -> Result<()> {
        self.check_memory_for(bytes, also, || what.to_string())
    }

    /// [`Host::check_memory`], naming what needs the memory only when it does not fit.
    fn check_memory_for(
        &self,
        bytes: usize,
        also: usize,
        what: impl FnOnce() -> String,
    ) -> Result<()> {
        let held = self.memory_held().saturating_add(also);
        let limit = self.limits.memory;
        if held.saturating_add(bytes) <= limit {
            return Ok(());
        }
        Err(Error::Budget(format!(
            "{} needs {} with {} already held: over the {} MiB memory limit (raise it with --max-memory)",
            what(),
            crate::budget::mib(bytes),
            crate::budget::mib(held),
            limit >> 20
        )))
    }

    /// Changes the budgets for later generations.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Script files loaded so far: the recipe and every module it required.
    pub fn script_files(&self) -> Vec<PathBuf> {
        let mut files = vec![self.recipe.path.clone()];
        files.extend(
            state::state(&self.env.borrow().lua)
                .modules
                .borrow()
                .files(),
        );
        files
    }

    /// Resolves `key=value` settings against the recipe's parameters.
    pub fn resolve_params(&self, sets: &[(String, String)]) -> Result<ParamValues> {
        params::resolve(&self.recipe.params, sets)
            .map_err(|e| Error::Param(format!("{}: {e}", self.recipe.path.display())))
    }

    /// Generates one map. Its wall-clock time, and the phases it marked, are then in
    /// [`Self::phases`].
    pub fn generate(&self, run: &Run) -> Result<Map> {
        self.collect_garbage_left();
        let started = self.clock.borrow_mut().start();
        let map = self.generate_timed(run, started);
        self.clock.borrow_mut().stop();
        map
    }

    /// [`Self::generate`] after its clock started at `started`.
    fn generate_timed(&self, run: &Run, started: Instant) -> Result<Map> {
        // The values of the last run again (every run of a batch): `ctx.params` and the size
        // they give are the state's already.
        let cached = self
            .env
            .borrow()
            .params_cache
            .borrow()
            .as_ref()
            .and_then(|cache| same_params(&cache.values, run.params).then_some(cache.size));
        let read = ParamsRead {
            size: cached.unwrap_or_else(|| size_params(run.params)),
            cached: cached.is_some(),
        };
        let (mut width, mut height) = read.size;
        // A width or height of 0 means the recipe sizes the map itself (from region data, as
        // `warren.dungeon.init_level` does); it starts as one cell.
        if width == 0 || height == 0 {
            (width, height) = (1, 1);
        }
        warren_core::map::check_size(width, height).map_err(|e| {
            // Located at the declaration of the side that is wrong (or of `width`).
            let side = if warren_core::map::check_size(width, 1).is_err() {
                "width"
            } else {
                "height"
            };
            let at = self.recipe.declared_at(side);
            let at = at.unwrap_or_else(|| self.recipe.path.display().to_string());
            Error::Param(format!("{at}: {e} (params.{side})"))
        })?;
        // The map is the first thing in the generation's memory account: checked before it is
        // allocated, beside the Lua state and the levels kept above.
        let map_bytes = Map::bytes_for(width, height);
        let what = || {
            let level = match run.depth {
                0 | 1 => String::new(),
                n => format!(" for level {n}"),
            };
            format!("params.width × params.height: a {width}×{height} map{level}")
        };
        self.check_memory_for(map_bytes, 0, what).map_err(|e| {
            let at = self.recipe.declared_at("width");
            let at = at.unwrap_or_else(|| self.recipe.path.display().to_string());
            Error::Budget(format!("{at}: {e}"))
        })?;
        self.ready_spare(width, height)
            .map_err(|e| Error::Param(e.to_string()))?;
        if self.stale.replace(false) {
            if let Err(e) = self.reload() {
                // The map readied for the run goes, as a failed run's does.
                self.spare.borrow_mut().take();
                return Err(e);
            }
        }

        let env = self.env.borrow();
        let _running = env.lua.running();
        let budget = state::state(&env.lua).budget.clone();
        budget.set_cancel(self.cancel.borrow().clone());
        budget.set_shared_limit(self.shared_limit.borrow().as_ref());
        budget.begin_at(self.limits, started);
        budget.note_location(&env.generate_at);
        // Checked above: this only puts the map and the kept levels in the account.
        budget.hold_bytes(map_bytes + self.kept.get());
        // The run's map stays in the spare slot, borrowed until the run ends (no script can
        // reach the host, and `recycle` comes after `generate` returns).
        let mut spare = self.spare.borrow_mut();
        let Some(map) = spare.as_mut() else {
            return Err(Error::Internal(NO_MAP.into()));
        };
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.call_generate(&env, run, read, map)
        }));
        drop(spare);
        budget.check_memory_peak();
        api::log::finish(&env.lua);
        state::state(&env.lua).running.set(false);
        let exceeded = budget.message(&state::state(&env.lua).recipe.borrow());
        self.exceeded.set(budget.exceeded());
        self.spent.set((budget.used(), budget.peak_bytes()));
        budget.end();
        // A failed run (a memory bomb, say) or a heavy one leaves garbage the next run must not
        // inherit: it is collected before the next run (or the next look at the memory held).
        // So does a run whose Rust objects (towns, status lists) hold more than a little: Lua's
        // collector does not see their size, so dead ones would pile up over many maps, each new
        // one taking fresh memory from the system (which zeroes it) instead of the memory the
        // last one freed. Light runs skip the full collection (it costs more than a small map).
        // Not now: collecting millions of objects a runaway run made takes longer than the
        // 100 ms a run may go past its clock budget, and a run that fails is over when its
        // budget says so.
        let failed = !matches!(outcome, Ok(Ok(_))) || exceeded.is_some();
        self.garbage.set(
            failed
                || env.lua.used_memory() > self.limits.memory / 4
                || budget.reserved() > COLLECT_AFTER_RESERVED,
        );
        // A run that panicked did not reach its reset (see `call_recipe`).
        let nested_past_pool = env.nested_past_pool();
        let refilled = env.refill_error_pool(&self.warm_ids);
        self.stale
            .set(env.dirty() || outcome.is_err() || !refilled || nested_past_pool);
        api::pool::end_run(&env.lua, !self.stale.get());
        drop(env);
        // The generated map is in the spare slot; a failed run's goes (its records may have
        // grown far past what the next map needs), and the next run makes a new one.
        let map = self.spare.borrow_mut().take();
        match outcome {
            Err(panic) => Err(Error::Internal(panic_message(&panic))),
            Ok(result) if exceeded.is_some() => Err(Error::Budget(
                self.place_budget(exceeded.unwrap_or_default(), result.as_ref().err()),
            )),
            Ok(Err(e)) => Err(self.script_error(e)),
            Ok(Ok(())) => map.ok_or_else(|| Error::Internal(NO_MAP.into())),
        }
    }

    /// Collects the garbage the last run left, when it left some worth collecting (see
    /// [`Host::generate`]); a state about to be loaded again is dropped whole instead.
    fn collect_garbage_left(&self) {
        if self.garbage.replace(false) && !self.stale.get() {
            let env = self.env.borrow();
            // Fatal mode's unwinding leaves the call records of a deep recursion (see
            // crates/lua-src/WARREN.md): freed here, between runs, all at once.
            // SAFETY: the main thread of a live state, with no Lua code running on it.
            unsafe { crate::ffi::lua_warren_freeci(env.lua.raw_state()) };
            let _ = env.lua.gc_collect();
        }
    }

    /// Loads the recipe again into a fresh state (the last run left the old one dirty). Loading
    /// is what a fresh process does, so the next run starts from the same state as there.
    fn reload(&self) -> Result<()> {
        let (env, _) = Env::load(&self.recipe.path, &self.registry, self.limits, &self.clock)?;
        *self.env.borrow_mut() = env;
        self.reloads.set(self.reloads.get() + 1);
        if self.snapshots.get() {
            self.install_snapshots(true);
        }
        Ok(())
    }

    /// The Lua state, for the API's host-side helpers.
    pub(crate) fn lua(&self) -> Ref<'_, Lua> {
        Ref::map(self.env.borrow(), |e| &*e.lua)
    }

    /// Remembers whether snapshots are on, so that a rebuilt state keeps the setting.
    pub(crate) fn note_snapshots(&self, on: bool) {
        self.snapshots.set(on);
    }

    /// The sink snapshots are streamed to, if any (see [`Host::stream_snapshots`]).
    pub(crate) fn snapshot_sink(&self) -> Option<crate::api::map::debug::SharedSink> {
        self.sink.borrow().clone()
    }

    /// Sets the sink snapshots are streamed to (`None`: kept, or ignored, as
    /// [`Host::record_snapshots`] says).
    pub(crate) fn set_snapshot_sink(&self, sink: Option<crate::api::map::debug::SharedSink>) {
        *self.sink.borrow_mut() = sink;
    }

    /// Hands a map back so the next generation reuses its buffers instead of allocating (maps
    /// come out the same either way).
    pub fn recycle(&self, map: Map) {
        *self.spare.borrow_mut() = Some(map);
    }

    /// Ends the host without closing its Lua state, for a process that exits next: the exit
    /// takes the memory back at once, where closing the state frees its objects one by one
    /// (0.2–0.6 ms for a loaded recipe, on the way out of every CLI run). Nothing else
    /// is skipped: recipes cannot set finalizers (`__gc`), and what the state holds on the Rust
    /// side is memory.
    pub fn leave_to_exit(self) {
        std::mem::forget(self);
    }

    /// The latest generation's wall-clock time, and the phases it marked with
    /// `ctx.phase(name)` with theirs. Timing varies between runs and is never part of the map.
    pub fn phases(&self) -> Ref<'_, PhaseClock> {
        self.clock.borrow()
    }

    /// Readies the spare slot with the map for a new generation: the recycled one, reset where
    /// it lies, when it uses this registry's terrains, else a new one. The map stays in the
    /// slot until the run ends: each move is a copy, and the run's moves through results took
    /// a tenth of an empty recipe's time.
    fn ready_spare(&self, width: i64, height: i64) -> std::result::Result<(), MapError> {
        let fill = self.registry.map_fill;
        let mut spare = self.spare.borrow_mut();
        if let Some(map) = spare.as_mut() {
            if Arc::ptr_eq(map.terrains(), self.registry.terrains()) {
                let reset = map.reset(width, height, fill);
                if reset.is_err() {
                    *spare = None;
                }
                return reset;
            }
        }
        // The old map goes first: its memory may be what the new one needs.
        *spare = None;
        *spare = Some(Map::new(
            width,
            height,
            fill,
            self.registry.terrains().clone(),
        )?);
        Ok(())
    }

    /// Runs the recipe on `map` (the spare slot's), which holds the generated map afterwards
    /// (it is swapped in and out of the shared userdata in place).
    /// `read`: what was found of `run`'s parameters before the run began.
    fn call_generate(
        &self,
        env: &Env,
        run: &Run,
        read: ParamsRead,
        map: &mut Map,
    ) -> mlua::Result<()> {
        // The run's map goes into the shared userdata, the placeholder comes out until the run
        // ends (a reference a script kept from an earlier run sees the current map).
        let size = (map.width(), map.height());
        std::mem::swap(&mut *env.held.0.write_or_busy()?, map);
        let outcome = Self::publish(env, size).and_then(|()| self.call_recipe(env, run, read));
        std::mem::swap(&mut *env.held.0.write_or_busy()?, map);
        // A run may have resized its map (`warren.dungeon.init_level` publishes the new size as
        // it goes); the field table then holds the size the map ended with.
        Self::publish(env, (map.width(), map.height()))?;
        outcome
    }

    /// Makes `map_ud`'s field table hold `size`, unless it does already.
    fn publish(env: &Env, size: (i32, i32)) -> mlua::Result<()> {
        if env.published.get() != size {
            api::map::publish(&env.lua, &env.map_ud, size)?;
            env.published.set(size);
        }
        Ok(())
    }

    /// Calls the recipe's `generate` with the shared map and its `ctx`.
    /// `read` as for [`Self::call_generate`].
    fn call_recipe(&self, env: &Env, run: &Run, read: ParamsRead) -> mlua::Result<()> {
        let lua = &env.lua;
        *env.held.1.write_or_busy()? = Rng::new(run.seed);
        state::state(lua).running.set(true);
        state::with_run(lua, |r| r.depth.set(run.depth));
        // The run's objects are numbered from the same id in every run, from the call into
        // `generate` on (the cached `ctx.params` is rebuilt only when the values change).
        let params = Self::params_table(env, run.params, read)?;
        let above = match run.above {
            Some(m) => {
                crate::state::charge_bytes_for(lua, m.bytes(), "ctx.above (the level above)")?;
                Some(api::map::new_userdata(lua, m.clone())?)
            }
            None => None,
        };
        let ctx = env.ctx.fill(
            lua,
            &api::ctx::RunFields {
                seed: run.seed as i64,
                depth: run.depth.into(),
                regions: &env.regions,
                params: &params,
                above: above.as_ref(),
            },
        )?;
        drop(params);
        // The run's objects are numbered from here: calling `generate` makes none.
        // SAFETY: the state is live and no Lua code runs; this sets the id the next object gets.
        unsafe { state::set_id_base(lua.raw_state(), RUN_ID_BASE) };
        // So are its clocks: whatever the host ran before (a new `ctx.params`) is not counted.
        crate::clock::start(lua, run.seed);
        let entered = traceback::call(lua, &env.traceback, &env.generate, (&env.map_ud, ctx));
        // Before the host's own writes after the run (`release`): they must stay.
        self.reset(env);
        if let Some(above) = above {
            env.ctx.release(lua)?;
            // Its copy goes now, not when the collector gets to it: Lua sees a small userdata
            // and may never collect it, and each level of a `--levels` run left one behind (64
            // levels of 1024² took 580 MiB for 390 in the account). Nothing made during the run
            // outlives it (`reset` above puts back everything that existed before).
            above.destroy()?;
        }
        traceback::outcome(lua, entered?)
    }

    /// Puts back every object that existed before the run and that the run wrote to, as it was
    /// before (see [`Host`]), and counts it.
    fn reset(&self, env: &Env) {
        // SAFETY: the state is live and no Lua code runs.
        let restored = unsafe { lua_warren_reset(env.lua.raw_state()) };
        if restored > 0 {
            let (runs, objects) = self.resets.get();
            self.resets.set((runs + 1, objects + restored));
        }
    }

    /// `ctx.params` as a read-only table, rebuilt only when the values change (`read`: what
    /// was found of them before the run).
    fn params_table<'e>(
        env: &'e Env,
        params: &ParamValues,
        read: ParamsRead,
    ) -> mlua::Result<Ref<'e, Table>> {
        if !(read.cached && env.params_cache.borrow().is_some()) {
            let lua = &env.lua;
            let t = lua.create_table()?;
            for (k, v) in params {
                let v = match v {
                    ParamValue::Int(i) => Value::Integer(*i),
                    ParamValue::Float(f) => Value::Number(*f),
                    ParamValue::Bool(b) => Value::Boolean(*b),
                    ParamValue::Text(s) => Value::String(lua.create_string(s)?),
                };
                t.raw_set(k.as_str(), v)?;
            }
            let frozen: Table = env.freeze.call((t, "ctx.params"))?;
            let values = params.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            *env.params_cache.borrow_mut() = Some(ParamsCache {
                values,
                table: frozen,
                size: read.size,
            });
        }
        Ok(Ref::map(env.params_cache.borrow(), |cache| match cache {
            Some(cache) => &cache.table,
            None => unreachable!("ctx.params was cached just above"),
        }))
    }

    /// Turns a Lua error into a one-line script error starting with `file:line:` (from the
    /// traceback when the message has no place; the recipe's file if nothing better is known).
    fn script_error(&self, e: mlua::Error) -> Error {
        let msg = located::located_message(&e);
        if located::starts_located(&msg) {
            Error::Script(msg)
        } else {
            Error::Script(format!("{}: {msg}", self.recipe.path.display()))
        }
    }

    /// A budget message without a line of its own (the budget ran out before the instruction
    /// hook saw one, so it names the generate function or nothing) takes the place from the
    /// traceback of the error it raised, when there is one.
    fn place_budget(&self, msg: String, raised: Option<&mlua::Error>) -> String {
        let Some(at) = raised.and_then(located::traceback_location) else {
            return msg;
        };
        let generate_at = self.env.borrow().generate_at.clone();
        let fallbacks = [generate_at, self.recipe.path.display().to_string()];
        for unplaced in fallbacks {
            if let Some(detail) = msg.strip_prefix(&format!("{unplaced}: ")) {
                return format!("{at}: {detail}");
            }
        }
        msg
    }
}

/// `params.width` and `params.height`.
fn size_params(params: &ParamValues) -> (i64, i64) {
    (int_param(params, "width"), int_param(params, "height"))
}

/// The value of an integer parameter (width/height are checked at load to exist and be ints).
fn int_param(params: &ParamValues, name: &str) -> i64 {
    // A scan rather than the map's search: its comparisons call `memcmp` (see `short_text`).
    match params.iter().find(|(k, _)| same_text(k, name)) {
        Some((_, ParamValue::Int(v))) => *v,
        _ => 0,
    }
}

/// Whether `cached`, the parameters `ctx.params` was built from, are `params`, compared without
/// `memcmp` calls (see `short_text`).
fn same_params(cached: &[(String, ParamValue)], params: &ParamValues) -> bool {
    cached.len() == params.len()
        && cached.iter().zip(params).all(|((ck, cv), (k, v))| {
            same_text(ck, k)
                && match (cv, v) {
                    (ParamValue::Text(a), ParamValue::Text(b)) => same_text(a, b),
                    // By their bits: -0.0 is not 0.0 to a recipe (`1 / x`, `tostring`).
                    (ParamValue::Float(a), ParamValue::Float(b)) => a.to_bits() == b.to_bits(),
                    _ => cv == v,
                }
        })
}

/// Text of a caught panic.
fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

/// An mlua failure while setting the host up is a bug, not a recipe problem.
fn internal_lua(e: mlua::Error) -> Error {
    Error::Internal(format!("setting up Lua: {e}"))
}

/// `ctx.regions`: the registry's data as read-only Lua tables, each tagged with the resolved
/// entry it shows (see [`api::regions`]).
fn regions_table(lua: &Lua, registry: &Arc<Registry>) -> Result<Table> {
    let regions =
        crate::stack_ser::frozen(lua, &registry.data, "ctx.regions").map_err(internal_lua)?;
    api::regions::install(lua, &regions, registry).map_err(internal_lua)?;
    Ok(regions)
}
