//! The sandboxed Lua state: safe libraries only, text chunks only, confined `require`, an
//! instruction/time budget and a memory limit that scripts cannot escape.

use super::api;
use super::require::Modules;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Table, VmState};
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Resource limits for one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lua VM instructions a generation may execute.
    pub instructions: u64,
    /// Bytes the Lua state may hold.
    pub memory: usize,
    /// Wall-clock time a generation may take.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: 1_000_000_000,
            memory: 512 << 20,
            time: Duration::from_secs(5),
        }
    }
}

/// How often (in VM instructions) the budget hook runs.
const HOOK_EVERY: u32 = 1000;

/// The live budget of the current generation, shared with the hook.
#[derive(Debug)]
pub struct Budget {
    limits: Cell<Limits>,
    used: Cell<u64>,
    started: Cell<Instant>,
    tripped: RefCell<Option<String>>,
}

impl Budget {
    fn new(limits: Limits) -> Self {
        Budget {
            limits: Cell::new(limits),
            used: Cell::new(0),
            started: Cell::new(Instant::now()),
            tripped: RefCell::new(None),
        }
    }

    /// Starts a fresh budget for a new generation.
    pub fn reset(&self, limits: Limits) {
        self.limits.set(limits);
        self.used.set(0);
        self.started.set(Instant::now());
        *self.tripped.borrow_mut() = None;
    }

    /// The message of the budget that tripped during this generation, if any.
    pub fn tripped(&self) -> Option<String> {
        self.tripped.borrow().clone()
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits.get()
    }

    /// Instructions counted so far (to the hook's granularity).
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// Called by the hook: counts instructions and checks the limits.
    fn tick(&self, where_: impl FnOnce() -> String) -> Option<String> {
        if let Some(msg) = self.tripped.borrow().as_ref() {
            return Some(msg.clone());
        }
        let used = self.used.get() + HOOK_EVERY as u64;
        self.used.set(used);
        let limits = self.limits.get();
        let msg = if used > limits.instructions {
            format!(
                "{}: instruction budget exceeded ({} instructions; raise it with --max-instructions)",
                where_(),
                limits.instructions
            )
        } else if self.started.get().elapsed() > limits.time {
            format!(
                "{}: time budget exceeded ({:.1} s; raise it with --max-seconds)",
                where_(),
                limits.time.as_secs_f64()
            )
        } else {
            return None;
        };
        *self.tripped.borrow_mut() = Some(msg.clone());
        Some(msg)
    }
}

/// Per-state data the API functions reach through `Lua::app_data_ref`.
pub struct StateData {
    /// The generation budget.
    pub budget: Rc<Budget>,
    /// Modules loaded by `require`, and where they may come from.
    pub modules: RefCell<Modules>,
    /// The generation in progress, if any.
    pub run: RefCell<Option<super::RunData>>,
}

/// A fresh sandboxed state whose `require` looks in `roots`.
pub fn new_state(roots: Vec<PathBuf>, limits: Limits) -> mlua::Result<(Lua, Table)> {
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    // Rust panics must not be catchable by a script's pcall.
    let lua = Lua::new_with(libs, LuaOptions::new().catch_rust_panics(false))?;
    let budget = Rc::new(Budget::new(limits));
    lua.set_app_data(StateData {
        budget: budget.clone(),
        modules: RefCell::new(Modules::new(roots)),
        run: RefCell::new(None),
    });

    lua.set_app_data(api::keys::Keys::new(&lua)?);

    let hook_budget = budget.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(HOOK_EVERY),
        move |_lua, debug| {
            let where_ = || {
                let src = debug.source();
                let file = src.short_src.as_deref().unwrap_or("?").to_string();
                match debug.current_line() {
                    Some(l) => format!("{file}:{l}"),
                    None => file,
                }
            };
            match hook_budget.tick(where_) {
                Some(msg) => Err(mlua::Error::RuntimeError(msg)),
                None => Ok(VmState::Continue),
            }
        },
    )?;

    let host = lua.create_table()?;
    host.set(
        "tripped",
        lua.create_function(|lua, ()| Ok(state(lua).budget.tripped().is_some()))?,
    )?;
    host.set("print", lua.create_function(api::log::print)?)?;
    host.set("random", lua.create_function(api::rng::math_random)?)?;
    host.set("require", lua.create_function(super::require::require)?)?;
    host.set("warren", api::module(&lua)?)?;
    let helpers: Table = lua
        .load(include_str!("prelude.lua"))
        .set_name("=warren prelude")
        .set_mode(mlua::ChunkMode::Text)
        .call(host)?;
    lua.set_memory_limit(limits.memory)?;
    Ok((lua, helpers))
}

/// The state data of a sandboxed state.
///
/// # Panics
/// If `lua` was not made by [`new_state`] (a bug in warren).
pub fn state(lua: &Lua) -> mlua::AppDataRef<'_, StateData> {
    lua.app_data_ref::<StateData>()
        .expect("warren Lua state without its state data")
}
