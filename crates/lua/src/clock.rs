//! The clocks a recipe reads, both deterministic: `os.clock()` counts the run's instructions
//! (virtual CPU seconds), and `os.time()` starts from an instant derived from the map's seed.
//!
//! - `os.clock()` is the instructions the run has used since `generate` was entered, at
//!   [`VIRTUAL_HZ`] per second: the same at the start of `generate` in `run`, `batch`, `watch`
//!   and `serve` (whatever the host did before entering it), and a time-limited loop ends after
//!   the same work on every machine. The rate is calibrated so that such a loop does about as
//!   much work as it does in stock Lua (see [`VIRTUAL_HZ`]).
//! - `os.time()` is [`EPOCH`] plus the map's seed in seconds (modulo [`SPAN`]), plus the
//!   whole seconds `os.clock()` has counted: a library that seeds its own generator from the
//!   clock makes a different map for every seed, and the same map for the same seed. Outside a
//!   run (while the recipe loads) the seed is 0.

use crate::state::state;
use mlua::Lua;

/// Instruction-equivalents per second of `os.clock()`: about what stock Lua 5.4.8 gets through
/// in a second of CPU time, measured as the instructions warren counts for a workload over
/// stock Lua's CPU time for the same workload (`benches/pure_lua`, `benches/rotlike`): 0.26–0.49
/// G/s for the table- and call-heavy generators a time limit guards (rot-style digger 0.28,
/// uniform 0.33, rogue 0.26, mazes 0.32–0.49), more for tight arithmetic loops (a cellular
/// automaton 0.9–1.2). Before, 1e8 made a time-limited loop stop after a third of stock Lua's
/// work.
pub const VIRTUAL_HZ: f64 = 3e8;

/// `os.time()` for seed 0 at the start of a run: 2000-01-01 00:00:00 UTC.
pub const EPOCH: i64 = 946_684_800;

/// The seeds' instants repeat after this many seconds (thirty 365-day years).
pub const SPAN: u64 = 30 * 365 * 86_400;

/// Starts the clocks of a run of `seed`, `generate` about to be entered.
pub fn start(lua: &Lua, seed: u64) {
    let data = state(lua);
    data.clock_start.set(data.budget.used());
    data.seed.set(seed);
}

/// `os.clock()`: virtual seconds since the run's start.
pub fn seconds(lua: &Lua) -> f64 {
    let data = state(lua);
    data.budget.used().saturating_sub(data.clock_start.get()) as f64 / VIRTUAL_HZ
}

/// `os.time()` without a table: the run's instant (see the module's description).
pub fn now(lua: &Lua) -> i64 {
    let seed = state(lua).seed.get() % SPAN;
    EPOCH + seed as i64 + seconds(lua) as i64
}
