//! What each subcommand does. `main.rs` only parses arguments and maps results to exit codes.

mod check;
mod run;
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
    }
}

/// The budgets chosen on the command line.
pub fn limits(gen: &GenArgs) -> Result<Limits> {
    if !(gen.max_seconds.is_finite() && gen.max_seconds > 0.0 && gen.max_seconds <= 86_400.0) {
        return Err(Error::Param(format!(
            "--max-seconds {} must be a number of seconds in (0, 86400]",
            gen.max_seconds
        )));
    }
    Ok(Limits {
        instructions: gen.max_instructions,
        memory: (gen.max_memory as usize) << 20,
        time: Duration::from_secs_f64(gen.max_seconds),
    })
}

/// The `--set` assignments, split.
pub fn assignments(gen: &GenArgs) -> Result<Vec<(String, String)>> {
    gen.sets
        .iter()
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
