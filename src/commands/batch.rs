//! `warren batch`: many seeds in parallel, measured, summarised, optionally saved.

use super::stats::{write_outputs, OutputArgs};
use crate::batch::{self, Batch, MapFiles, Shard};
use crate::render::Format;
use crate::stats::table;
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use warren_lua::error::{Error, Result};
use warren_lua::run::load_registry;

/// Examples shown under `warren batch --help`.
pub const HELP: &str = "\
Examples:
  warren batch scripts/rooms.lua --count 100000                 statistics of 100000 maps
  warren batch scripts/rooms.lua --count 1000 --records r.csv --plot r.png
  warren batch scripts/cave.lua --count 50 --out-dir maps --format png
  warren batch scripts/rooms.lua --count 100000 --jobs 1 --timing   µs per map, one state reused
  warren batch scripts/rooms.lua --count 1000000 --shard 3/8 --records shard-3.jsonl
  warren stats merge shard-*.jsonl                              the statistics of all shards

Seeds run from --seed-start to --seed-start + --count - 1. --shard I/N (0 <= I < N) keeps the
I-th of N contiguous blocks of that range, so a scheduler can run the N shards anywhere.";

/// `warren batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// The recipe.
    pub script: PathBuf,
    /// How many seeds to generate.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    pub seed_start: u64,
    /// Worker threads, each with its own Lua state (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Run only shard I of N (0-based) of the seed range.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Set a recipe parameter (repeatable), e.g. --set width=120.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = crate::cli::assignment)]
    pub sets: Vec<String>,
    /// Region directory (default: the nearest `regions/` beside or above the script).
    #[arg(long, value_name = "DIR")]
    pub regions: Option<PathBuf>,
    /// Save every map into DIR as SCRIPT-SEED.EXT.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Format of the saved maps (needs --out-dir).
    #[arg(long, value_parser = ["ascii", "ansi", "json", "png"], requires = "out_dir")]
    pub format: Option<String>,
    /// PNG pixels per cell of saved maps.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,
    /// Print maps per second and µs per map after the table.
    #[arg(long)]
    pub timing: bool,
    /// Statistics outputs.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Lua instructions one generation may run [default: `[limits] max_instructions`, else the
    /// built-in default].
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Memory one generation may use, in MiB [default: `[limits] max_memory_mib`, else 512].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: Option<u64>,
    /// Wall-clock seconds one generation may take [default: `[limits] max_seconds`].
    #[arg(long, value_name = "SECONDS", value_parser = crate::cli::seconds)]
    pub max_seconds: Option<f64>,
}

/// Executes `warren batch`.
pub fn run(args: BatchArgs) -> Result<()> {
    let end = args.seed_start.checked_add(args.count).ok_or_else(|| {
        Error::Param(format!(
            "--seed-start {} + --count {} is past the largest seed {}",
            args.seed_start,
            args.count,
            u64::MAX
        ))
    })?;
    let seeds = match args.shard {
        Some(shard) => shard.seeds(args.seed_start, args.count),
        None => args.seed_start..end,
    };
    let files = args.out_dir.clone().map(|dir| MapFiles {
        dir,
        format: args
            .format
            .as_deref()
            .and_then(Format::from_name)
            .unwrap_or(Format::Json),
        scale: args.scale,
    });
    let jobs = match args.jobs {
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let registry = Arc::new(load_registry(args.regions.as_deref(), &args.script)?);
    let limits = super::limits_from(
        &registry.limits,
        args.max_instructions,
        args.max_memory,
        args.max_seconds,
    )?;
    let batch = Batch {
        registry,
        script: args.script,
        limits,
        sets: super::split_assignments(&args.sets)?,
        seeds,
        jobs,
        files,
        progress: std::io::stderr().is_terminal(),
    };
    let report = batch::run(&batch)?;
    let data = &report.data;
    print!("{}", table(data));
    if args.timing {
        let maps = data.maps().max(1) as f64;
        let secs = report.elapsed.as_secs_f64();
        println!(
            "\ntiming: {} maps in {secs:.3} s with {jobs} job(s), one Lua state per job: {:.0} maps/s, {:.2} µs/map",
            data.maps(),
            maps / secs.max(1e-9),
            secs * 1e6 / maps,
        );
    }
    write_outputs(data, &args.output)?;
    match data.failures.first() {
        None => Ok(()),
        Some((seed, msg)) => Err(Error::Script(format!(
            "{} of {} maps failed; the first, seed {seed}: {msg}",
            data.failures.len(),
            data.maps()
        ))),
    }
}
