//! What each subcommand does. `main.rs` only parses arguments and maps results to exit codes.

pub mod batch;
mod check;
mod init;
mod run;
mod schema;
pub mod serve;
pub mod stats;
mod stubs;
pub mod watch;

use crate::cli::{Command, GenArgs};
use crate::output::Inputs;
use std::path::Path;
use warren_core::region::Registry;
use warren_lua::error::{Error, Result};
use warren_lua::limits::Requested;
use warren_lua::run::{find_regions, relative};
use warren_lua::{params::split_assignment, Host, Limits};

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
        Command::Init(args) => init::run(args),
        Command::Stubs(args) => stubs::stubs(args),
        Command::Schema(args) => schema::run(args),
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

/// The budgets: the command-line flags (else warren's defaults), lowered where the regions'
/// `[limits]` ask for less. A region key asking for more is clamped, with a warning on stderr.
pub fn limits(gen: &GenArgs, registry: Option<&Registry>) -> Result<Limits> {
    limits_from(
        registry,
        Requested {
            instructions: gen.max_instructions,
            memory_mib: gen.max_memory,
            seconds: gen.max_seconds,
        },
    )
}

/// The budgets `requested` allows, lowered by `registry`'s `[limits]` (warnings on stderr).
pub fn limits_from(registry: Option<&Registry>, requested: Requested) -> Result<Limits> {
    let allowed = requested.limits().map_err(Error::Param)?;
    let Some(registry) = registry else {
        return Ok(allowed);
    };
    let resolved = allowed.lowered_by(registry);
    for w in &resolved.warnings {
        eprintln!("warning: {w}");
    }
    Ok(resolved.limits)
}

/// What a generation reads: the recipe, the modules it has required so far, the region files
/// and their directory (`regions`, else the one found beside the recipe). No output may land on
/// any of them.
pub fn inputs(host: &Host, registry: &Registry, regions: Option<&Path>) -> Inputs {
    let mut inputs = Inputs::new();
    let files = host.script_files();
    if let Some((recipe, modules)) = files.split_first() {
        inputs.add(recipe, "the recipe");
        inputs.add_all(modules, "a module the recipe requires");
    }
    inputs.add_all(&registry.files, "a region file");
    if let Some(dir) = regions
        .map(Path::to_path_buf)
        .or_else(|| find_regions(&host.recipe().path))
    {
        inputs.set_regions_dir(&dir);
    }
    inputs
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
