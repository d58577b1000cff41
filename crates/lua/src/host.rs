//! The host: a sandboxed Lua state with one recipe loaded ([`Host`]), the generation request
//! ([`Run`]) and what the API bindings need to know about the run in progress.

use crate::api::map::LuaMap;
use crate::api::rng::LuaRng;
use crate::error::{Error, Result};
use crate::phases::PhaseClock;
use crate::{api, params, recipe, recipe::Recipe, sandbox};
use crate::{Limits, ParamValue, ParamValues, Usage};
use mlua::{AnyUserData, Function, Lua, LuaSerdeExt, Table, Value};
use std::cell::{Ref, RefCell};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use warren_core::map::{Map, MapError, TerrainId};
use warren_core::region::Registry;
use warren_core::rng::Rng;

/// A Lua runtime error located at the Lua code that called the failing API function:
/// `file:line: message` (like `luaL_error`).
pub fn fail(lua: &Lua, msg: impl Into<String>) -> mlua::Error {
    let msg = msg.into();
    let loc = lua
        .inspect_stack(1, |d| {
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
    /// The map being generated.
    pub map: AnyUserData,
}

/// Runs `f` on the generation in progress; `None` when no generation is running.
pub fn with_run<R>(lua: &Lua, f: impl FnOnce(&RunData) -> R) -> Option<R> {
    let data = sandbox::state(lua);
    let run = data.run.borrow();
    run.as_ref().map(f)
}

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

/// A sandboxed Lua state with one recipe loaded, ready to generate maps. Reuse it: generating
/// does not reload the recipe.
pub struct Host {
    pub(crate) lua: sandbox::Sandbox,
    recipe: Recipe,
    generate: Function,
    freeze: Function,
    make_ctx: Function,
    log: Function,
    metric: Function,
    phase: Function,
    recipe_name: std::rc::Rc<str>,
    clock: std::rc::Rc<RefCell<PhaseClock>>,
    spare: RefCell<Option<Map>>,
    /// The map handed to `generate`: one userdata for every run, holding the run's map while it
    /// lasts and a 1×1 placeholder between runs.
    map_ud: AnyUserData,
    /// `ctx.rng`: one userdata for every run, reseeded for each.
    rng_ud: AnyUserData,
    params_cache: RefCell<Option<(ParamValues, Table)>>,
    regions: Table,
    registry: Arc<Registry>,
    limits: Limits,
    usage: std::cell::Cell<Usage>,
}

impl Host {
    /// Loads the recipe at `script` into a fresh sandbox, with `require` confined to the
    /// script's directory.
    pub fn load(script: &Path, registry: Arc<Registry>, limits: Limits) -> Result<Host> {
        let dir = script
            .parent()
            .map(Path::to_path_buf)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("."));
        let (lua, helpers) = sandbox::new_state(vec![dir], limits).map_err(internal_lua)?;
        let freeze: Function = helpers.get("freeze").map_err(internal_lua)?;
        let make_ctx: Function = helpers.get("make_ctx").map_err(internal_lua)?;
        let clock = std::rc::Rc::new(RefCell::new(PhaseClock::default()));
        let api::ctx::CtxFunctions { log, metric, phase } =
            api::ctx::CtxFunctions::new(&lua, clock.clone()).map_err(internal_lua)?;
        let data = sandbox::state(&lua);
        *data.recipe.borrow_mut() = script.display().to_string();
        let budget = data.budget.clone();
        drop(data);
        budget.begin(limits);
        let loaded = recipe::load(&lua, script);
        let exceeded = budget.message(&script.display().to_string());
        budget.end();
        let (recipe, generate) = loaded.map_err(|e| exceeded.map_or(e, Error::Budget))?;
        let regions = regions_table(&lua, &freeze, &registry)?;
        let recipe_name = recipe.name.as_str().into();
        let placeholder = Map::new(1, 1, registry.map_fill, registry.terrains().clone())
            .map_err(|e| Error::Internal(e.to_string()))?;
        let map_ud = lua
            .create_userdata(LuaMap(placeholder))
            .map_err(internal_lua)?;
        let rng_ud = lua
            .create_userdata(LuaRng(Rng::new(0)))
            .map_err(internal_lua)?;
        Ok(Host {
            lua,
            recipe,
            generate,
            freeze,
            make_ctx,
            log,
            metric,
            phase,
            recipe_name,
            clock,
            spare: RefCell::new(None),
            map_ud,
            rng_ud,
            params_cache: RefCell::new(None),
            regions,
            registry,
            limits,
            usage: Default::default(),
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
        self.regions = regions_table(&self.lua, &self.freeze, &registry)?;
        self.registry = registry;
        Ok(())
    }

    /// What the last generation used of its budgets (to tune `[limits]`).
    pub fn last_usage(&self) -> Usage {
        self.usage.get()
    }

    /// Changes the budgets for later generations.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Script files loaded so far: the recipe and every module it required.
    pub fn script_files(&self) -> Vec<PathBuf> {
        let mut files = vec![self.recipe.path.clone()];
        files.extend(sandbox::state(&self.lua).modules.borrow().files());
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
        let started = self.clock.borrow_mut().start();
        let map = self.generate_timed(run, started);
        self.clock.borrow_mut().stop();
        map
    }

    /// [`Self::generate`] after its clock started at `started`.
    fn generate_timed(&self, run: &Run, started: Instant) -> Result<Map> {
        let mut width = int_param(run.params, "width");
        let mut height = int_param(run.params, "height");
        // A width or height of 0 means the recipe sizes the map itself (from region data, as
        // `warren.dungeon.init` does); it starts as one cell.
        if width == 0 || height == 0 {
            (width, height) = (1, 1);
        }
        warren_core::map::check_size(width, height)
            .map_err(|e| Error::Param(format!("{}: {e}", self.recipe.path.display())))?;
        let map = self
            .fresh_map(width, height)
            .map_err(|e| Error::Param(e.to_string()))?;

        let budget = sandbox::state(&self.lua).budget.clone();
        budget.begin_at(self.limits, started);
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| self.call_generate(run, map)));
        sandbox::state(&self.lua).run.borrow_mut().take();
        let exceeded = budget.message(&sandbox::state(&self.lua).recipe.borrow());
        self.usage.set(budget.usage());
        budget.end();
        // A failed run (a memory bomb, say) or a heavy one leaves garbage the next run must not
        // inherit: collect it. Light successful runs skip the full collection (it costs more than
        // a small map).
        let failed = !matches!(outcome, Ok(Ok(_))) || exceeded.is_some();
        if failed || self.lua.used_memory() > self.limits.memory / 4 {
            let _ = self.lua.gc_collect();
        }
        match outcome {
            Err(panic) => Err(Error::Internal(panic_message(&panic))),
            Ok(_) if exceeded.is_some() => Err(Error::Budget(exceeded.unwrap_or_default())),
            Ok(Err(e)) => Err(self.script_error(e)),
            Ok(Ok(map)) => Ok(map),
        }
    }

    /// Hands a map back so the next generation reuses its buffers instead of allocating (maps
    /// come out the same either way).
    pub fn recycle(&self, map: Map) {
        *self.spare.borrow_mut() = Some(map);
    }

    /// The latest generation's wall-clock time, and the phases it marked with
    /// `ctx.phase(name)` with theirs. Timing varies between runs and is never part of the map.
    pub fn phases(&self) -> Ref<'_, PhaseClock> {
        self.clock.borrow()
    }

    /// A map for a new generation: the recycled one when it uses this registry's terrains.
    fn fresh_map(&self, width: i64, height: i64) -> std::result::Result<Map, MapError> {
        let fill = self.registry.map_fill;
        match self.spare.borrow_mut().take() {
            Some(mut map) if Arc::ptr_eq(map.terrains(), self.registry.terrains()) => {
                map.reset(width, height, fill)?;
                Ok(map)
            }
            _ => Map::new(width, height, fill, self.registry.terrains().clone()),
        }
    }

    fn call_generate(&self, run: &Run, map: Map) -> mlua::Result<Map> {
        // The run's map goes into the shared userdata, the placeholder comes out until the run
        // ends (a reference a script kept from an earlier run sees the current map).
        let mut idle = map;
        std::mem::swap(&mut self.map_ud.borrow_mut::<LuaMap>()?.0, &mut idle);
        let outcome = self.call_recipe(run);
        std::mem::swap(&mut self.map_ud.borrow_mut::<LuaMap>()?.0, &mut idle);
        outcome.map(|()| idle)
    }

    /// Calls the recipe's `generate` with the shared map and a fresh `ctx`.
    fn call_recipe(&self, run: &Run) -> mlua::Result<()> {
        let lua = &self.lua;
        self.rng_ud.borrow_mut::<LuaRng>()?.0 = Rng::new(run.seed);
        *sandbox::state(lua).run.borrow_mut() = Some(RunData {
            recipe: self.recipe_name.clone(),
            edge: self.registry.map_edge,
            fill: self.registry.map_fill,
            rng: self.rng_ud.clone(),
            map: self.map_ud.clone(),
        });
        let above = match run.above {
            Some(m) => Value::UserData(lua.create_userdata(LuaMap(m.clone()))?),
            None => Value::Nil,
        };
        let ctx: Table = self.make_ctx.call((
            &self.rng_ud,
            run.seed as i64,
            run.depth,
            &self.regions,
            self.params_table(run.params)?,
            above,
            &self.log,
            &self.metric,
            &self.phase,
        ))?;
        self.generate.call::<()>((&self.map_ud, ctx))
    }

    /// `ctx.params` as a read-only table, rebuilt only when the values change.
    fn params_table(&self, params: &ParamValues) -> mlua::Result<Table> {
        let mut cache = self.params_cache.borrow_mut();
        if let Some((values, table)) = cache.as_ref() {
            if values == params {
                return Ok(table.clone());
            }
        }
        let lua = &self.lua;
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
        let frozen: Table = self.freeze.call((t, "ctx.params"))?;
        *cache = Some((params.clone(), frozen.clone()));
        Ok(frozen)
    }

    /// Turns a Lua error into a one-line script error starting with `file:line:`.
    fn script_error(&self, e: mlua::Error) -> Error {
        let msg = lua_message(&e);
        if msg.starts_with(&self.recipe.path.display().to_string()) || msg.contains(".lua:") {
            Error::Script(msg)
        } else {
            Error::Script(format!("{}: {msg}", self.recipe.path.display()))
        }
    }
}

/// The value of an integer parameter (width/height are checked at load to exist and be ints).
fn int_param(params: &ParamValues, name: &str) -> i64 {
    match params.get(name) {
        Some(ParamValue::Int(v)) => *v,
        _ => 0,
    }
}

/// The innermost cause of an mlua error.
fn root_cause(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => root_cause(cause),
        mlua::Error::WithContext { cause, .. } => root_cause(cause),
        other => other,
    }
}

/// The message of a Lua error without mlua's wrapping and tracebacks.
pub(crate) fn lua_message(e: &mlua::Error) -> String {
    match root_cause(e) {
        mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => {
            m.lines().next().unwrap_or("").to_string()
        }
        mlua::Error::ExternalError(x) => x.to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
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
fn regions_table(lua: &Lua, freeze: &Function, registry: &Arc<Registry>) -> Result<Table> {
    let options = mlua::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false);
    let value = lua
        .to_value_with(&registry.data, options)
        .map_err(internal_lua)?;
    let regions = freeze
        .call::<Table>((value, "ctx.regions"))
        .map_err(internal_lua)?;
    api::regions::install(lua, &regions, registry).map_err(internal_lua)?;
    Ok(regions)
}
