//! Command-line interface (clap derive). `main.rs` parses, `commands` executes.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  warren run scripts/dungeon.lua --seed 1               a level in the terminal
  warren run scripts/rooms.lua --seed 7 --set corridors=bsp
  warren run scripts/cave.lua --format json --out cave.json
  warren run scripts/rooms.lua --format png --out rooms.png --scale 6
  warren run scripts/rooms.lua --list-params            what a recipe can be told

Exit codes: 0 success, 1 bad input (recipe, region file, parameter) or generation error,
2 usage error, 3 internal error (a bug in warren).";

/// warren: procedural maps from Lua recipes and TOML region files.
#[derive(Debug, Parser)]
#[command(name = "warren", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate a map with a recipe and print or save it.
    #[command(after_help = EXAMPLES)]
    Run(RunArgs),
}

/// Options shared by every command that generates maps.
#[derive(Debug, Args, Clone)]
pub struct GenArgs {
    /// The recipe (a Lua file that returns { name, params, generate }).
    pub script: PathBuf,
    /// Seed; without it one is drawn and printed to stderr so the run can be repeated.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Set a recipe parameter (repeatable), e.g. --set width=120.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Region directory (default: the nearest `regions/` beside or above the script).
    #[arg(long, value_name = "DIR")]
    pub regions: Option<PathBuf>,
    /// Generate levels 1..=N, each seeing the one above (ctx.above, ctx.depth).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub levels: u32,
    /// Lua instructions one generation may run [default: `[limits] max_instructions` in the
    /// region files, else 200000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_instructions: Option<u64>,
    /// Memory one generation may use, in MiB [default: `[limits] max_memory_mib`, else 512].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: Option<u64>,
    /// Wall-clock seconds one generation may take [default: `[limits] max_seconds`, else 4].
    #[arg(long, value_name = "SECONDS")]
    pub max_seconds: Option<f64>,
}

/// `warren run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// What to generate and how.
    #[command(flatten)]
    pub gen: GenArgs,
    /// Output format: ascii, ansi, json or png (default: ansi on a terminal unless NO_COLOR is
    /// set, else ascii; with --out, guessed from the extension).
    #[arg(long, value_parser = ["ascii", "ansi", "json", "png"])]
    pub format: Option<String>,
    /// Write the output to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// PNG pixels per cell.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,
    /// List the recipe's parameters (default, range, description) and exit.
    #[arg(long)]
    pub list_params: bool,
}
