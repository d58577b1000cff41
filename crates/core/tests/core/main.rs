//! warren-core's tests, one binary (`cargo test --test core`): what a game that
//! depends on the core alone sees, with no Lua and no `warren` binary. Tests of the Lua host
//! live in `crates/lua/tests/lua/`, of the binary in the root `tests/cli/`; `tests/README.md`
//! says where a new test goes. The tests of the crate's internals are here too: the library
//! keeps no unit tests, so `cargo test` compiles it once.

mod common;

/// The cache directory: only this user's files, in only this user's directories.
mod cache;
/// Flood fill, components, closest pairs, joins and the connectivity fix-up.
mod connectivity;
/// The dungeon's steps: panels, streamers, vaults, rooms, connections, fix-up, stairs.
mod dungeon;
/// Input files: devices and directories refused, files capped.
mod input;
/// The map model and its parts (what were unit tests in `src/map/`).
mod map;
/// Messages: long ones keep both ends.
mod message;
/// Vault templates: every bad input located, placement's invariants over many seeds.
mod prefabs;
/// Region internals (what were unit tests in `src/region/`).
mod region;
/// Malformed region files generated from the schema, each refused at file:line:col.
mod region_corpus;
/// Region files: loading, and every validation error at file:line:col.
mod regions;
/// The dungeon's region keys: every knob used, every bad value located.
mod regions_dungeon;
/// Output formats (what were unit tests in `src/render/`).
mod render;
/// Seeded randomness: bounds, pinned values, independent streams, weights.
mod rng;
/// Per-map measurements (what were unit tests in `src/stats/`).
mod stats;
/// Generation tools outside tunnels, connectivity, towns, dungeons (were unit tests in `src/gen/`).
mod toolbox;
/// TownMaze: parameters, seeding, streets, finishing, drawing, and whole-town invariants.
mod town;
/// The tunnel primitive: doors, flags, forced turns, styles, termination, steering.
mod tunnel;
