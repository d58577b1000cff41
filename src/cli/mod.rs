//! Command-line interface (clap derive). `main.rs` parses, `commands` executes.

pub mod batch;
pub mod help;
pub mod stats;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  warren run scripts/dungeon.lua --seed 1               a level in the terminal
  warren run scripts/rooms.lua --seed 7 --set corridors=bsp
  warren run scripts/cave.lua --format json --out cave.json
  warren run scripts/rooms.lua --format png --out rooms.png --scale 6
  warren run scripts/rooms.lua --list-params            what a recipe can be told
  warren run scripts/cave.lua --layer components        connected areas, one letter each
  warren run scripts/rooms.lua --frames frames/         one PNG per map:snapshot
  warren watch scripts/rooms.lua --seed 7               redraw on every save
  warren serve scripts/rooms.lua --open                 live preview in the browser
  warren check                                          every region file and recipe
  warren init my-maps                                   a project of your own to start from
  warren stubs --out scripts/types/warren.d.lua         editor autocompletion
  warren schema --out schemas/regions.schema.json       region files checked in the editor
  warren batch scripts/rooms.lua --count 10000          statistics of many seeds

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

/// Subcommands. Each one's arguments are made only when it is the one asked for (clap's
/// `defer`: making every subcommand's took 0.1–0.15 ms of every start). A deferred
/// subcommand's own arguments set its help last, so each says its [`about`] text too.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// `warren run`: [`about::RUN`].
    #[command(about = about::RUN, after_help = EXAMPLES)]
    Run(RunArgs),
    /// `warren watch`: [`about::WATCH`].
    #[command(about = about::WATCH, after_help = help::WATCH)]
    Watch(WatchArgs),
    /// `warren check`: [`about::CHECK`].
    #[command(about = about::CHECK)]
    Check(CheckArgs),
    /// `warren init`: [`about::INIT`].
    #[command(about = about::INIT, after_help = help::INIT)]
    Init(InitArgs),
    /// `warren stubs`: [`about::STUBS`].
    #[command(about = about::STUBS)]
    Stubs(StubsArgs),
    /// `warren schema`: [`about::SCHEMA`].
    #[command(about = about::SCHEMA)]
    Schema(SchemaArgs),
    /// `warren batch`: [`about::BATCH`].
    #[command(about = about::BATCH, after_help = batch::HELP)]
    Batch(batch::BatchArgs),
    /// `warren stats`: [`about::STATS`].
    #[command(about = about::STATS)]
    Stats(stats::StatsArgs),
    /// `warren serve`: [`about::SERVE`].
    #[command(about = about::SERVE, after_help = help::SERVE)]
    Serve(ServeArgs),
}

/// What each subcommand does: its line in `warren --help` and the first line of its own
/// `--help`.
pub mod about {
    /// `warren run`.
    pub const RUN: &str = "Generate a map with a recipe and print or save it";
    /// `warren watch`.
    pub const WATCH: &str = "\
        Generate, then regenerate the same seed whenever the recipe, a module it requires or a \
        region file changes. Takes the options of `run`";
    /// `warren check`.
    pub const CHECK: &str = "\
        Validate region files and recipes without generating; list every problem";
    /// `warren init`.
    pub const INIT: &str = "\
        Start a project in DIR: a minimal recipe, a copy of the default region files, the Lua \
        type stubs, the region files' JSON Schema and editor settings that point at them";
    /// `warren stubs`.
    pub const STUBS: &str = "\
        Write the LuaLS type stubs of the Lua API (scripts/types/warren.d.lua), or with \
        `--markdown` the API reference's table (docs/lua-api.md)";
    /// `warren schema`.
    pub const SCHEMA: &str = "\
        Write the JSON Schema of region files (schemas/regions.schema.json), which TOML editors \
        read to complete and check keys, or with `--markdown` the region-file reference \
        (docs/region-reference.md)";
    /// `warren batch`.
    pub const BATCH: &str = "Generate many seeds in parallel and print their statistics";
    /// `warren stats`.
    pub const STATS: &str = "Work with the statistics `warren batch --records` writes";
    /// `warren serve`.
    pub const SERVE: &str = "\
        A live preview in the browser: a local web server shows the map with its parameters, \
        layers, steps, statistics and a cell inspector, and follows every save";
}

/// `warren serve`.
#[derive(Debug, Args)]
#[command(about = about::SERVE)]
pub struct ServeArgs {
    /// What to generate first (the page can change the seed and parameters).
    #[command(flatten)]
    pub gen: GenArgs,
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 7878)]
    pub port: u16,
    /// Address to listen on. Anything but loopback (127.0.0.1, ::1) lets other machines use
    /// the page: warren warns when it does.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// `warren watch`: the options of `run`.
#[derive(Debug, Args)]
#[command(about = about::WATCH)]
pub struct WatchArgs {
    /// What to generate and how to show it.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `warren check`.
#[derive(Debug, Args)]
#[command(about = about::CHECK)]
pub struct CheckArgs {
    /// Region directory (default: the nearest `regions/` beside or above the first recipe, or
    /// above the current directory).
    #[arg(long, value_name = "DIR")]
    pub regions: Option<PathBuf>,
    /// Recipes to check (default: every *.lua in the scripts/ beside the regions directory).
    pub scripts: Vec<PathBuf>,
    /// Exit 1 on warnings too (globals assigned but never read, files the static checks could
    /// not analyse).
    #[arg(long)]
    pub deny_warnings: bool,
}

/// `warren init`.
#[derive(Debug, Args)]
#[command(about = about::INIT)]
pub struct InitArgs {
    /// The project directory: created if missing; an existing one may hold other files, but
    /// none of those warren would write.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// `warren schema`.
#[derive(Debug, Args)]
#[command(about = about::SCHEMA)]
pub struct SchemaArgs {
    /// Where to write it (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Do not write; exit 1 if this file differs from the generated one.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub check: Option<PathBuf>,
    /// The region-file reference (Markdown) instead of the JSON Schema.
    #[arg(long)]
    pub markdown: bool,
}

/// `warren stubs`.
#[derive(Debug, Args)]
#[command(about = about::STUBS)]
pub struct StubsArgs {
    /// Where to write the stubs (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Do not write; exit 1 if this file differs from the generated stubs.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub check: Option<PathBuf>,
    /// The API reference's table (Markdown) instead of the stubs. With `--out docs/lua-api.md`
    /// (or `--check docs/lua-api.md`) only the part between its `<!-- api:begin … -->` and
    /// `<!-- api:end -->` lines is replaced (or checked).
    #[arg(long)]
    pub markdown: bool,
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
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = assignment)]
    pub sets: Vec<String>,
    /// Region directory (default: the nearest `regions/` beside or above the script).
    #[arg(long, value_name = "DIR")]
    pub regions: Option<PathBuf>,
    /// Generate levels 1..=N, each seeing the one above (ctx.above, ctx.depth).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub levels: u32,
    /// Lua instructions one generation may run [default: 400000000]. Region files'
    /// `[limits] max_instructions` may lower it, never raise it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_instructions: Option<u64>,
    /// Memory one generation may use, in MiB [default: 512]; in `serve` the page's maps and
    /// the statistics sweeps share it. Region files' `[limits] max_memory_mib` may lower it,
    /// never raise it.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: Option<u64>,
    /// Wall-clock seconds one generation may take [default: 4]. Region files' `[limits]
    /// max_seconds` may lower it, never raise it.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub max_seconds: Option<f64>,
}

/// `warren run`.
#[derive(Debug, Args)]
#[command(about = about::RUN)]
pub struct RunArgs {
    /// What to generate and how.
    #[command(flatten)]
    pub gen: GenArgs,
    /// Output format: ascii, ansi, json, png, tiled (a Tiled .tmx map and its tileset image)
    /// or ldtk (an LDtk project). Default: with --out, from the extension (.txt/.map, .ans,
    /// .json, .png, .tmx, .ldtk);
    /// else ansi on a terminal unless NO_COLOR is set to a non-empty value, else ascii.
    #[arg(long, value_parser = crate::render::Format::NAMES)]
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
    /// What to draw: terrain, priority (heat map), region, components (connected areas), or a
    /// layer the recipe added with map:add_layer. JSON adds it beside the terrain rows.
    #[arg(long, value_name = "LAYER", default_value = "terrain")]
    pub layer: String,
    /// Also write one PNG per map:snapshot (numbered and labelled), the final map and an
    /// animated GIF of them all into this directory.
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
}

/// `--set KEY=VALUE`: refused at parse time (a usage error) unless it has a key and an `=`.
pub fn assignment(arg: &str) -> Result<String, String> {
    warren_lua::params::split_assignment(arg)
        .map(|_| arg.to_string())
        .map_err(|_| format!("expected KEY=VALUE (e.g. width=120), got {arg:?}"))
}

/// `--max-seconds S`: a number of seconds in (0, 86400].
pub fn seconds(arg: &str) -> Result<f64, String> {
    let secs: f64 = arg
        .trim()
        .parse()
        .map_err(|_| format!("{arg:?} is not a number of seconds"))?;
    if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 {
        Ok(secs)
    } else {
        Err(format!("{arg} is not in (0, 86400] seconds"))
    }
}
