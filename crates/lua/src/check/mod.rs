//! `warren check`: validates every region file and loads every recipe without generating, and
//! reports every problem found, each located `file:line` (and column where known).
//!
//! Checked: region files (TOML syntax and the whole schema, as when loading; files that do not
//! parse are reported and the others are still validated without them); recipes (Lua syntax,
//! the recipe table and its declared parameters, every `require`d module at load time); and the
//! static name checks of [`scan`] over each recipe and the modules it loaded.

pub mod lex;
pub mod scan;

use crate::error::Error;
use crate::{Host, Limits};
use scan::Known;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::region::{read_source, Registry, Source};

/// What `warren check` found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every problem, one line each, starting with `file:line`.
    pub problems: Vec<String>,
    /// What could not be checked because of those problems (not problems themselves).
    pub notes: Vec<String>,
    /// Region files read.
    pub region_files: usize,
    /// Recipes loaded (or tried).
    pub recipes: usize,
}

/// Checks the regions in `regions` and the recipes `scripts`.
pub fn check(regions: &Path, scripts: &[PathBuf]) -> Report {
    let mut report = Report::default();
    let registry = check_regions(regions, &mut report);
    let known = Known {
        terrains: registry.as_ref().map(|r| {
            r.terrains()
                .names()
                .into_iter()
                .map(str::to_string)
                .collect()
        }),
        regions: registry
            .as_ref()
            .and_then(|r| serde_json::to_value(&r.data).ok()),
        params: None,
    };
    if registry.is_none() && !scripts.is_empty() {
        report.notes.push(format!(
            "{}: terrain and region names in recipes were not checked: the region files have problems",
            regions.display()
        ));
    }
    let registry = registry.or_else(placeholder_registry).map(Arc::new);
    let mut scanned = BTreeSet::new();
    for script in scripts {
        report.recipes += 1;
        check_recipe(script, registry.as_ref(), &known, &mut scanned, &mut report);
    }
    report
}

/// Region problems go into the report; the registry is returned when there are none.
fn check_regions(dir: &Path, report: &mut Report) -> Option<Registry> {
    let mut paths = Vec::new();
    if let Err(e) = collect_toml(dir, &mut paths) {
        report
            .problems
            .push(format!("{}: cannot read directory: {e}", dir.display()));
        return None;
    }
    paths.sort();
    report.region_files = paths.len();
    if paths.is_empty() {
        report.problems.push(format!(
            "{}: no *.toml region files in this directory",
            dir.display()
        ));
        return None;
    }
    let mut sources: Vec<Source> = Vec::new();
    let mut clean = true;
    for path in &paths {
        match read_source(path) {
            Err(e) => {
                report.problems.push(e.to_string());
                clean = false;
            }
            Ok(src) => sources.push(src),
        }
    }
    // Files that do not parse are reported once; what follows only from them is not.
    match Registry::from_sources(sources) {
        Ok(r) if clean => Some(r),
        Ok(_) => None,
        Err(e) => {
            report.problems.extend(e.0.iter().map(|e| e.to_string()));
            None
        }
    }
}

/// A registry good enough to load recipes when the real one has problems.
fn placeholder_registry() -> Option<Registry> {
    let text = "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n";
    Registry::from_sources(vec![Source {
        path: "placeholder.toml".into(),
        text: text.into(),
    }])
    .ok()
}

fn check_recipe(
    script: &Path,
    registry: Option<&Arc<Registry>>,
    known: &Known,
    scanned: &mut BTreeSet<PathBuf>,
    report: &mut Report,
) {
    let host = registry.map(|r| Host::load(script, r.clone(), Limits::default()));
    let mut files = vec![script.to_path_buf()];
    let mut params = None;
    match host {
        Some(Ok(h)) => {
            params = Some(h.recipe().params.iter().map(|p| p.name.clone()).collect());
            files.extend(h.script_files().into_iter().skip(1));
        }
        Some(Err(e)) => report.problems.push(load_problem(script, e)),
        None => {}
    }
    for (i, file) in files.iter().enumerate() {
        let key = file.canonicalize().unwrap_or_else(|_| file.clone());
        // The recipe is always scanned (its params differ); a shared module only once.
        if i > 0 && !scanned.insert(key) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let known = Known {
            params: if i == 0 { params.clone() } else { None },
            ..known.clone()
        };
        for f in scan::scan(&lex::tokens(&text), &known) {
            report.problems.push(format!(
                "{}:{}:{}: {}",
                file.display(),
                f.line,
                f.col,
                f.message
            ));
        }
    }
}

/// A load error as one problem line starting with the file.
fn load_problem(script: &Path, e: Error) -> String {
    let text = e.to_string();
    if text.starts_with(&script.display().to_string()) || text.contains(".lua:") {
        text
    } else {
        format!("{}: {text}", script.display())
    }
}

/// Every `*.toml` below `dir`.
fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_toml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// The recipes `warren check` looks at by default: every `*.lua` directly in `dir`, sorted.
pub fn default_scripts(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "lua"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}
