//! `warren check`: every region file and recipe, validated without generating.

use crate::cli::CheckArgs;
use std::path::PathBuf;
use warren_lua::check::{check, default_scripts};
use warren_lua::error::{Error, Result};

/// Executes `warren check`: problems go to stdout, one per line; exit 1 if there are any.
pub fn run(args: CheckArgs) -> Result<()> {
    let regions = args.regions.unwrap_or_else(|| PathBuf::from("regions"));
    let scripts = if args.scripts.is_empty() {
        default_scripts(&PathBuf::from("scripts"))
    } else {
        args.scripts
    };
    let report = check(&regions, &scripts);
    for p in report.problems.iter().chain(&report.warnings) {
        println!("{p}");
    }
    let summary = format!(
        "{} region file(s) in {}, {} recipe(s)",
        report.region_files,
        regions.display(),
        report.recipes
    );
    let failing = report.problems.len()
        + if args.deny_warnings {
            report.warnings.len()
        } else {
            0
        };
    let warned = match report.warnings.len() {
        0 => String::new(),
        n => format!(", {n} warning(s)"),
    };
    if failing == 0 {
        eprintln!("check: {summary}: no problems{warned}");
        Ok(())
    } else {
        Err(Error::Param(format!(
            "check: {} problem(s){warned} in {summary}",
            report.problems.len()
        )))
    }
}
