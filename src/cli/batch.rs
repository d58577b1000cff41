//! `warren batch`'s arguments and help.

use super::stats::OutputArgs;
use crate::stats::Shard;
use clap::Args;
use std::path::PathBuf;

/// Examples shown under `warren batch --help`.
pub const HELP: &str = "\
Examples:
  warren batch scripts/rooms.lua --count 100000                 statistics of 100000 maps
  warren batch scripts/rooms.lua --count 1000 --records r.csv --plot r.png
  warren batch scripts/cave.lua --count 50 --out-dir maps --format png
  warren batch scripts/rooms.lua --count 100000 --jobs 1 --timing   µs per map, one state reused
  warren batch scripts/rooms.lua --count 1000000 --shard 3/8 --records shard-3.parquet
  warren stats merge shard-*.parquet                            the statistics of all shards

Seeds run from --seed-start to --seed-start + --count - 1. --shard I/N (0 <= I < N) keeps the
I-th of N contiguous blocks of that range, so a scheduler can run the N shards anywhere.

Memory does not grow with --count: statistics are folded in as maps finish and records stream to
their file. Ctrl-C (SIGINT) or SIGTERM stops after the maps in progress, prints the statistics of
the maps done and how to resume, and exits 130 (143 for SIGTERM); a second Ctrl-C quits at once.
A batch with --records or --out-dir, however it stopped (even kill -9), continues where it
stopped when the same command runs again.";

/// `warren batch`.
#[derive(Debug, Args)]
#[command(about = super::about::BATCH)]
pub struct BatchArgs {
    /// The recipe.
    pub script: PathBuf,
    /// How many seeds to generate (at least 1).
    #[arg(long, value_parser = parse_count)]
    pub count: u64,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    pub seed_start: u64,
    /// Worker threads, each with its own Lua state (default: one per core; more than the
    /// cores is reduced to the cores, with a warning; never more than the maps to make).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Run only shard I of N (0-based) of the seed range.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Set a recipe parameter (repeatable), e.g. --set width=120.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = super::assignment)]
    pub sets: Vec<String>,
    /// Region directory (default: the nearest `regions/` beside or above the script).
    #[arg(long, value_name = "DIR")]
    pub regions: Option<PathBuf>,
    /// Save every map into DIR as SCRIPT-SEED.EXT (the seed zero-padded to the width of the
    /// largest seed, so files sort in seed order).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Format of the saved maps (needs --out-dir).
    #[arg(long, value_parser = ["ascii", "ansi", "json", "png"], requires = "out_dir")]
    pub format: Option<String>,
    /// PNG pixels per cell of saved maps.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,
    /// Print maps per second and µs per map after the table, and how the Lua states were
    /// brought back between maps (resets, objects put back, reloads).
    #[arg(long)]
    pub timing: bool,
    /// Statistics outputs.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Lua instructions one generation may run [default: 400000000]. Region files'
    /// `[limits] max_instructions` may lower it, never raise it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_instructions: Option<u64>,
    /// Memory one generation may use, in MiB [default: 512]; the jobs share it, so the
    /// process holds about this much however many run. Region files' `[limits]
    /// max_memory_mib` may lower it, never raise it.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: Option<u64>,
    /// Wall-clock seconds one generation may take [default: 4]. Region files' `[limits]
    /// max_seconds` may lower it, never raise it.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds)]
    pub max_seconds: Option<f64>,
}

/// `--count`: a number of maps, at least 1.
fn parse_count(text: &str) -> std::result::Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("a batch needs at least 1 map".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of maps, at least 1".into()),
    }
}
