//! `warren stats merge`, and the statistics outputs it shares with `warren batch`.

use crate::output::write_atomic;
use crate::stats::{plot, records, table, Collector, Dataset, Header};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use warren_lua::error::{Error, Result};

/// Where statistics go besides the table on stdout.
#[derive(Debug, Args, Clone)]
pub struct OutputArgs {
    /// Write every map's measurements to FILE: CSV when it ends in .csv, else JSON Lines
    /// (the shard summary `warren stats merge` reads).
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
pub struct StatsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: StatsAction,
}

/// `warren stats` subcommands.
#[derive(Debug, Subcommand)]
pub enum StatsAction {
    /// Combine the JSON Lines records of shards into the statistics one run would give.
    Merge(MergeArgs),
}

/// `warren stats merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Records written by `warren batch --records FILE.jsonl`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Statistics outputs.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Executes `warren stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    match args.action {
        StatsAction::Merge(m) => {
            let data = merge(&m.files)?;
            print!("{}", table(&data));
            write_outputs(&data, &m.output)
        }
    }
}

/// Reads and combines shard records. Shards must share recipe and parameters and must not
/// overlap.
pub fn merge(files: &[PathBuf]) -> Result<Dataset> {
    let mut all = Collector::new();
    let mut first: Option<(Header, &Path)> = None;
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Error::Io(format!("{}: cannot read: {e}", file.display())))?;
        let header = records::read_jsonl(&text, &file.display().to_string(), &mut all)
            .map_err(Error::Param)?;
        match &first {
            None => first = Some((header, file)),
            Some((h, f)) if *h != header => {
                return Err(Error::Param(format!(
                    "{}: made with recipe '{}' and params {:?}, but {} with recipe '{}' and params {:?}; only runs of the same recipe and parameters merge",
                    file.display(),
                    header.recipe,
                    header.params,
                    f.display(),
                    h.recipe,
                    h.params
                )))
            }
            Some(_) => {}
        }
    }
    let Some((header, _)) = first else {
        return Err(Error::Param("stats merge: no files given".into()));
    };
    all.finish(header).map_err(Error::Param)
}

/// Writes `--records` and `--plot`.
pub fn write_outputs(data: &Dataset, out: &OutputArgs) -> Result<()> {
    if let Some(path) = &out.records {
        let text = if path.extension().is_some_and(|e| e == "csv") {
            records::to_csv(data)
        } else {
            records::to_jsonl(data)
        };
        write_file(path, text.as_bytes())?;
    }
    if let Some(path) = &out.plot {
        let png = plot::histograms(data, &out.metrics).map_err(Error::Param)?;
        write_file(path, &png)?;
    }
    Ok(())
}

/// Writes a whole file atomically.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes)
        .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))
}
