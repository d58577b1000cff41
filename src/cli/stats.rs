//! `warren stats`'s arguments, and the statistics outputs `warren batch` shares.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// Where statistics go besides the table on stdout.
#[derive(Debug, Args, Clone)]
pub struct OutputArgs {
    /// Write every map's measurements to FILE: CSV when it ends in .csv, Apache Parquet when it
    /// ends in .parquet (typed columns, for DuckDB, polars or pandas), else JSON Lines.
    /// `warren stats merge` reads JSON Lines and Parquet.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Draw histograms of the metrics into FILE.png.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Metrics to plot, comma-separated (default: every metric; times as time_us.NAME).
    #[arg(long, value_name = "NAMES", value_delimiter = ',', requires = "plot")]
    pub metrics: Vec<String>,
}

/// `warren stats`.
#[derive(Debug, Args)]
#[command(about = super::about::STATS)]
pub struct StatsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: StatsAction,
}

/// `warren stats` subcommands.
#[derive(Debug, Subcommand)]
pub enum StatsAction {
    /// Combine the records of shards (JSON Lines or Parquet) into the statistics one run would
    /// give.
    Merge(MergeArgs),
}

/// `warren stats merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Records written by `warren batch --records FILE.jsonl` or `--records FILE.parquet`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Merge even when seeds of the planned range are missing (a shard not run yet, an
    /// interrupted batch); overlapping files are still refused.
    #[arg(long)]
    pub allow_partial: bool,
    /// Statistics outputs.
    #[command(flatten)]
    pub output: OutputArgs,
}
