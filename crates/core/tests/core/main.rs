//! warren-core's tests, one binary (`cargo test --test core`): what a game that
//! depends on the core alone sees, with no Lua and no `warren` binary. Tests of the Lua host
//! live in `crates/lua/tests/lua/`, of the binary in the root `tests/cli/`; `tests/README.md`
//! says where a new test goes. (Unit tests of private code stay beside it in `src/`.)

mod common;

/// Flood fill, components, closest pairs, joins and the connectivity fix-up.
mod connectivity;
/// The dungeon's steps: panels, streamers, vaults, rooms, connections, fix-up, stairs.
mod dungeon;
/// Vault templates: every bad input located, placement's invariants over many seeds.
mod prefabs;
/// Malformed region files generated from the schema, each refused at file:line:col.
mod region_corpus;
/// Region files: loading, and every validation error at file:line:col.
mod regions;
/// The dungeon's region keys: every knob used, every bad value located.
mod regions_dungeon;
/// TownMaze: parameters, seeding, streets, finishing, drawing, and whole-town invariants.
mod town;
/// The tunnel primitive: doors, flags, forced turns, styles, termination, steering.
mod tunnel;
