//! What each subcommand does. `main.rs` only parses arguments and maps results to exit codes.

pub mod batch;
mod check;
mod run;
pub mod stats;
mod stubs;
pub mod watch;

use crate::cli::{Command, GenArgs};
use crate::error::{Error, Result};
use crate::script::{params::split_assignment, Limits};
use std::time::Duration;

/// Runs a parsed command.
pub fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Run(args) => run::run(args),
        Command::Watch(args) => watch::watch(args),
        Command::Check(args) => check::run(args),
        Command::Stubs(args) => stubs::stubs(args),
        Command::Batch(args) => batch::run(args),
        Command::Stats(args) => stats::run(args),
    }
}

/// The budgets chosen on the command line.
pub fn limits(gen: &GenArgs) -> Result<Limits> {
    limits_from(gen.max_instructions, gen.max_memory, gen.max_seconds)
}

/// The budgets from `--max-instructions`, `--max-memory` (MiB) and `--max-seconds`.
pub fn limits_from(instructions: u64, memory_mib: u64, seconds: f64) -> Result<Limits> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
        return Err(Error::Param(format!(
            "--max-seconds {seconds} must be a number of seconds in (0, 86400]"
        )));
    }
    Ok(Limits {
        instructions,
        memory: (memory_mib as usize) << 20,
        time: Duration::from_secs_f64(seconds),
    })
}

/// The `--set` assignments, split.
pub fn assignments(gen: &GenArgs) -> Result<Vec<(String, String)>> {
    split_assignments(&gen.sets)
}

/// `KEY=VALUE` strings, split.
pub fn split_assignments(sets: &[String]) -> Result<Vec<(String, String)>> {
    sets.iter()
        .map(|s| split_assignment(s).map_err(Error::Param))
        .collect()
}

/// The seed to use: the one given, or a fresh one announced on stderr.
pub fn seed(gen: &GenArgs) -> u64 {
    gen.seed.unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        // Keep drawn seeds short enough to retype.
        let s = crate::rng::Rng::new(nanos ^ std::process::id() as u64).below(1_000_000_000);
        eprintln!("seed: {s} (repeat this run with --seed {s})");
        s
    })
}
