//! warren-lua's tests, one binary (`cargo test --test lua`): the Lua host, the
//! API recipes call, the sandbox and the shipped recipes, driven from Rust (no `warren`
//! binary). Tests that run the binary live in the root `tests/cli/`, tests of the core alone
//! in `crates/core/tests/core/`; `tests/README.md` says where a new test goes.

mod common;

/// The API's machinery from outside: declarations and bindings in step, calls, gates, the fast
/// calls' readers and cells, pools, charges.
mod api;
/// Every declared binding refuses bad arguments with one located message.
mod api_contract;
/// The pure-Lua tools the toolbox bench times are the primitives' algorithms.
mod bench_tools;
/// The budgets (instructions, memory, time, cancellation, output), the memory account, shared
/// limits and the limits region files set.
mod budget;
/// `map:blit` and `map:set_row` with lists of names: every cell, skips, errors past a run.
mod bulk;
/// `warren check`'s static analysis, rule by rule, and its parts.
mod check;
/// Libraries written for stock Lua 5.4 run unchanged.
mod compat;
/// Every recipe's one-area promise for 8- and 4-way walkers, over 1,000 seeds.
mod connectivity_modes;
/// Error places and tracebacks: located messages, values written readably.
mod errors;
/// The per-cell fast calls answer exactly as their declared bindings.
mod fast_calls;
/// The fast rooms phases do exactly what their declared bindings do.
mod fast_phases;
/// Golden maps: fixed seeds keep producing exactly these maps (`tests/golden/`).
mod golden;
/// Hostile recipes are stopped, and the host works right afterwards.
mod hostile;
/// The `[limits]` of region files become the host's budgets, clamped to what the user allows.
mod limits;
/// Loading a recipe: the lexer, refused chunks, `require`'s names, parameters and their
/// declarations.
mod loading;
/// `warren.tunnel`, `warren.dungeon` and connectivity as recipes use them.
mod lua_dungeon;
/// The patched Lua (`crates/lua-src`) through its raw `lua_warren_*` API.
mod lua_runtime;
/// `map.width`/`map.height` and `ctx` kept up to date in a reused state.
mod map_fields;
/// A Rust panic in a primitive is an internal error no script can catch.
mod panics;
/// The phase clock: marks per name, reset between generations.
mod phases;
/// Streams and rectangle lists handed out again by the next run.
mod pooled;
/// Every primitive with random arguments never panics nor writes off the map.
mod primitive_props;
/// `scripts/cave.lua` over 1,000 seeds per direction and complexity.
mod recipe_cave;
/// `scripts/dungeon.lua` over thousands of seeds: connected levels, doors, stairs.
mod recipe_dungeon;
/// `scripts/rooms.lua` over 1,000 seeds per strategy.
mod recipe_rooms;
/// The toolbox recipes (`cellular`, `bsp`, `maze`, `drunkard`, `overworld`, `dla`, `hive`,
/// `vaults`, `wfc_town`) over 1,000 seeds.
mod recipe_toolbox;
/// Every map starts from the same state (reset, or reload when dirty).
mod reset;
/// The sandbox baseline: safe libraries, confined `require`, budgets that hold.
mod sandbox;
/// Parameter and terrain names compared without `memcmp`, as slice equality.
mod short_text;
/// The Lua state's parts: the prelude, frozen and read-only tables, `ctx.regions` built on the
/// stack, the FFI's constants.
mod state;
/// The built-in statistics against a cell-by-cell reference.
mod stats_reference;
/// The LuaLS stubs and the API reference's table are up to date and valid.
mod stubs;
/// Exactly the documented globals and library members.
mod surface;
/// `warren.toolbox` through Lua: areas kept, same maps in a fresh host, budgets, bad options.
mod toolbox_lua;
/// `warren.town` and `warren.status_lists`.
mod town_api;
/// Hot reload: file change batches, the hot registry, live recipes.
mod watch;
