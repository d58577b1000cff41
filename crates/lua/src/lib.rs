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
//!
//! ## As a dependency
//!
//! `warren-lua = { path = "…/crates/lua" }` (or `git = "…"`) is all a game's manifest needs:
//! the patched Lua comes with it (the `warren-lua-src` crate, linked through mlua-sys's
//! `external` feature). A crate that also asks mlua for its `vendored` Lua gets a build error
//! rather than a second, stock Lua.
//!
//! ## Threads
//!
//! A [`Host`] is not `Send`: it owns a Lua state (a `*mut lua_State` and `Rc`s into it), so it
//! lives and dies on the thread that made it. What it makes is `Send`: a
//! [`Map`](warren_core::map::Map), a [`run::GeneratedLevel`], an [`Error`], and so are the inputs it is
//! made from (an `Arc<`[`Registry`](warren_core::region::Registry)`>`, [`ParamValues`]). To
//! generate off a game's main thread, start a worker that loads its own host and answer
//! requests over channels, sending the maps back; for more throughput, one host per worker.
//! The maps are the same on every thread: a seed's map depends on nothing else.
//! `examples/background.rs` does this while a game loop keeps ticking.
//!
//! ```
//! fn send<T: Send + 'static>() {}
//! send::<warren_core::map::Map>();
//! send::<warren_lua::run::GeneratedLevel>();
//! send::<warren_lua::Error>();
//! send::<warren_lua::ParamValues>();
//! send::<std::sync::Arc<warren_core::region::Registry>>();
//! ```
//!
//! ```compile_fail
//! fn send<T: Send>() {}
//! send::<warren_lua::Host>(); // a Host stays on its thread
//! ```

#![warn(missing_docs)]

pub mod account;
mod alloc;
pub mod api;
pub mod budget;
pub mod check;
pub mod clock;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod compiled;
pub mod error;
pub mod ffi;
mod host;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod lex;
pub mod limits;
pub mod located;
pub mod params;
pub mod phases;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod readonly;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod recipe;
pub mod require;
pub mod run;
pub mod sandbox;
pub mod shared_limit;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod short_text;
mod snapshots;
pub mod source;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod stack_ser;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod state;
pub mod stubs;
pub mod surface;
pub mod traceback;
pub mod turns;
pub mod watch;

// mlua's Lua: mlua-sys only declares it (`external`); this crate's dependency on the patched
// Lua's crate puts the library in every program that uses warren-lua.
use warren_lua_src as _;

pub use api::map::debug::{SharedSink, SnapshotSink};
pub use budget::{Limits, Usage};
pub use error::{Error, Result};
pub use host::*;
pub use params::{ParamSpec, ParamValue, ParamValues};
pub use recipe::Recipe;
