//! # warren-lua
//!
//! warren's Lua host: a sandboxed Lua 5.4 state ([`sandbox`]) with budgets that scripts cannot
//! escape, `require` confined to the script directories, the `warren` API bindings ([`api`]),
//! recipe loading and parameters, `warren check` ([`check`]), LuaLS stubs ([`stubs`]), the
//! run path shared by the CLI and games ([`run`]) and hot reload ([`watch`]).
//!
//! A game loads a recipe once into a [`Host`] and asks it for maps:
//!
//! ```no_run
//! use std::sync::Arc;
//! use warren_lua::{run, Host, Limits, Run};
//!
//! let script = std::path::Path::new("scripts/rooms.lua");
//! let registry = Arc::new(run::load_registry(None, script)?);
//! let host = Host::load(script, registry, Limits::default())?;
//! let params = host.resolve_params(&[])?;
//! let map = host.generate(&Run { seed: 7, params: &params, depth: 1, above: None })?;
//! println!("{}×{}", map.width(), map.height());
//! # Ok::<(), warren_lua::Error>(())
//! ```

#![warn(missing_docs)]

mod alloc;
pub mod api;
pub mod budget;
pub mod check;
pub mod error;
mod host;
mod lex;
pub mod limits;
pub mod located;
pub mod params;
pub mod phases;
mod readonly;
mod recipe;
pub mod require;
pub mod run;
pub mod sandbox;
mod snapshots;
pub mod source;
mod stack_ser;
mod state;
pub mod stubs;
pub mod surface;
pub mod traceback;
pub mod watch;

// mlua's Lua: mlua-sys only declares it (`external`); this crate's dependency on the patched
// Lua's crate puts the library in every program that uses warren-lua.
use warren_lua_src as _;

pub use budget::{Limits, Usage};
pub use error::{Error, Result};
pub use host::*;
pub use params::{ParamSpec, ParamValue, ParamValues};
pub use recipe::Recipe;
