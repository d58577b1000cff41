//! The API's machinery, from outside the crate: declarations, calls, gates, the fast calls'
//! readers and cells, pools and charges (formerly the unit tests of `crates/lua/src/api/`).

/// Options read by a binding (`api/call.rs`): strings kept alive, suggestions.
mod call;
/// The byte sizes bindings charge for what they make (`api/cost.rs`).
mod cost;
/// Every registered binding is declared and every declaration registered (`api/coverage.rs`).
mod coverage;
/// Declarations and option classes describe calls (`api/decl.rs`).
mod decl;
/// The fast methods' argument readers agree with their bindings' declarations (`api/fast/args.rs`).
mod fast_args;
/// The fast calls' machinery: telling a userdata's cell (`api/fast/closures.rs`).
mod fast_closures;
/// Types met on first use: numbered apart, gated before a script holds one (`api/first_use.rs`).
mod first_use;
/// The gates' id ranges per type (`api/gate.rs`).
mod gate;
/// Userdata a clean run hands to the next (`api/pool.rs`).
mod pool;
/// `ctx.regions`' classes are the region schema's sections (`api/regions.rs`).
mod regions;
/// The value cells' borrows, through mlua and the fast calls (`api/shared.rs`).
mod shared;
/// The recent terrain names' cache (`api/terrain_names.rs`).
mod terrain_names;
