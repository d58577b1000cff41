//! `warren check`: every region file and recipe, validated without generating.

use crate::cli::CheckArgs;
use std::path::Path;
use warren_lua::check::{check, default_scripts};
use warren_lua::error::{Error, Result};
use warren_lua::run::{find_regions, regions_above, relative};

/// Executes `warren check`: problems go to stdout, one per line; exit 1 if there are any.
///
/// The regions are found as `run` finds them: the nearest `regions/` beside or above the first
/// recipe, or above the current directory when no recipe is named; the default recipes are the
/// `scripts/*.lua` beside that `regions/`.
pub fn run(args: CheckArgs) -> Result<()> {
    let scripts: Vec<_> = args.scripts.iter().map(|s| relative(s)).collect();
    let regions = match &args.regions {
        Some(dir) => relative(dir),
        None => match scripts.first() {
            Some(script) => find_regions(script),
            None => regions_above(Path::new(".")),
        }
        .ok_or_else(|| {
            Error::Io(
                "no regions/ directory here or in a directory above; pass --regions DIR".into(),
            )
        })?,
    };
    let scripts = if scripts.is_empty() {
        let root = regions.parent().unwrap_or(Path::new(""));
        default_scripts(&root.join("scripts"))
    } else {
        scripts
    };
    let report = check(&regions, &scripts);
    for p in report.problems.iter().chain(&report.warnings) {
        println!("{p}");
    }
    for n in &report.notes {
        eprintln!("note: {n}");
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
