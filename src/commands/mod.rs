//! What each subcommand does. `main.rs` only parses arguments and maps results to exit codes.

pub mod batch;
mod check;
mod run;
pub mod serve;
pub mod stats;
mod stubs;
pub mod watch;

use crate::cli::{Command, GenArgs};
use std::time::Duration;
use warren_core::region::LimitsDef;
use warren_lua::error::{Error, Result};
use warren_lua::run::relative;
use warren_lua::{params::split_assignment, Limits};

/// Runs a parsed command.
pub fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Run(mut args) => {
            relative_paths(&mut args.gen);
            run::run(args)
        }
        Command::Watch(mut args) => {
            relative_paths(&mut args.run.gen);
            watch::watch(args)
        }
        Command::Check(args) => check::run(args),
        Command::Stubs(args) => stubs::stubs(args),
        Command::Batch(mut args) => {
            args.script = relative(&args.script);
            args.regions = args.regions.as_deref().map(relative);
            batch::run(args)
        }
        Command::Stats(args) => stats::run(args),
        Command::Serve(args) => serve::run(args),
    }
}

/// Makes the recipe and region paths relative to the current directory, so every message
/// names files the same way whatever way they were given.
fn relative_paths(gen: &mut GenArgs) {
    gen.script = relative(&gen.script);
    gen.regions = gen.regions.as_deref().map(relative);
}

/// The budgets: the command-line flags, else the regions' `[limits]`, else the defaults.
pub fn limits(gen: &GenArgs, region: &LimitsDef) -> Result<Limits> {
    limits_from(
        region,
        gen.max_instructions,
        gen.max_memory,
        gen.max_seconds,
    )
}

/// The budgets from `--max-instructions`, `--max-memory` (MiB) and `--max-seconds` where given,
/// else from the regions' `[limits]`.
pub fn limits_from(
    region: &LimitsDef,
    instructions: Option<u64>,
    memory_mib: Option<u64>,
    seconds: Option<f64>,
) -> Result<Limits> {
    let mut limits = Limits::from_region(region);
    if let Some(n) = instructions {
        limits.instructions = n;
    }
    if let Some(mib) = memory_mib {
        limits.memory = (mib as usize) << 20;
    }
    // `cli::seconds` has checked the range (0, 86400].
    if let Some(secs) = seconds {
        limits.time = Duration::from_secs_f64(secs);
    }
    Ok(limits)
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
        let s = warren_core::rng::Rng::new(nanos ^ std::process::id() as u64).below(1_000_000_000);
        eprintln!("seed: {s} (repeat this run with --seed {s})");
        s
    })
}
