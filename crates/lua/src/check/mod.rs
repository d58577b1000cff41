//! `warren check`: validates every region file and loads every recipe without generating, and
//! reports every problem found, each located `file:line` (and column where known).
//!
//! Checked: region files (TOML syntax and the whole schema, as when loading; files that do not
//! parse are reported and the others are still validated without them; `[limits]` keys above
//! warren's defaults, which only the user can raise); recipes (Lua syntax,
//! the recipe table and its declared parameters, every `require`d module at load time); and
//! the static analysis of each recipe together with every module it loads or requires by name
//! ([`program`], rules in [`walk`]): free names against the sandbox, calls against the API
//! declarations, method calls against their receivers' types, and the run's data.

pub mod calls;
pub mod data;
pub mod declared;
pub mod finding;
pub mod known;
pub mod names;
pub mod program;
pub mod stock;
pub mod syntax;
pub mod value;
pub mod walk;

use crate::error::Error;
use crate::require::{module_file, read_script, NotFound};
use crate::{Host, Limits};
use declared::Declared;
use finding::Severity;
use full_moon::tokenizer::TokenType;
pub use known::Known;
use program::{Outcome, Source};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use syntax::Pos;
use warren_core::message::cap;
use warren_core::region::{read_source, Registry, Source as RegionSource};

/// What `warren check` found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every problem, one line each, starting with `file:line`, each capped in length (see
    /// [`warren_core::message::cap`]).
    pub problems: Vec<String>,
    /// Every warning (code that runs, but likely not as meant), one line each.
    pub warnings: Vec<String>,
    /// What could not be checked because of those problems, and uses the checks cannot prove
    /// wrong (on a value of unknown type, guarded, or never called): not problems.
    pub notes: Vec<String>,
    /// Region files read.
    pub region_files: usize,
    /// Recipes loaded (or tried).
    pub recipes: usize,
}

impl Report {
    fn problem(&mut self, line: String) {
        if !self.problems.contains(&line) {
            self.problems.push(line);
        }
    }

    fn note(&mut self, line: String) {
        if !self.notes.contains(&line) {
            self.notes.push(line);
        }
    }

    fn warning(&mut self, line: String) {
        if !self.warnings.contains(&line) {
            self.warnings.push(line);
        }
    }
}

/// Checks the regions in `regions` and the recipes `scripts`.
pub fn check(regions: &Path, scripts: &[PathBuf]) -> Report {
    let mut report = Report::default();
    let registry = check_regions(regions, &mut report);
    // A `[limits]` key above warren's default has no effect (data cannot raise a limit).
    if let Some(r) = &registry {
        report
            .problems
            .extend(Limits::default().lowered_by(r).warnings);
    }
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
    let declared = Declared::new();
    let modules = required_scripts(scripts);
    for script in scripts {
        if let Some(by) = modules.get(script) {
            report.note(format!(
                "{}: checked as a module ({} requires it), not as a recipe",
                script.display(),
                by.display()
            ));
            continue;
        }
        report.recipes += 1;
        check_recipe(script, registry.as_ref(), &known, &declared, &mut report);
    }
    // A problem may quote megabytes of a file; each line is capped.
    for p in &mut report.problems {
        if let Cow::Owned(capped) = cap(p) {
            *p = capped;
        }
    }
    report
}

/// Region problems go into the report; the registry is returned when there are none.
fn check_regions(dir: &Path, report: &mut Report) -> Option<Registry> {
    let mut paths = Vec::new();
    if let Err(e) = warren_core::region::collect_toml(dir, &mut paths) {
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
    let mut parsed: Vec<RegionSource> = Vec::new();
    let mut clean = true;
    for path in &paths {
        match read_source(path) {
            Err(e) => {
                report.problems.push(e.to_string());
                clean = false;
            }
            Ok(src) => parsed.push(src),
        }
    }
    // Files that do not parse are reported once; what follows only from them is not.
    match Registry::from_sources(parsed) {
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
    Registry::from_sources(vec![RegionSource {
        path: "placeholder.toml".into(),
        text: text.into(),
    }])
    .ok()
}

fn check_recipe(
    script: &Path,
    registry: Option<&Arc<Registry>>,
    known: &Known,
    declared: &Declared,
    report: &mut Report,
) {
    let host = registry.map(|r| Host::load(script, r.clone(), Limits::default()));
    let mut loaded = vec![script.to_path_buf()];
    let mut params = None;
    let mut load_failed = false;
    match host {
        Some(Ok(h)) => {
            params = Some(h.recipe().params.iter().map(|p| p.name.clone()).collect());
            loaded.extend(h.script_files().into_iter().skip(1));
        }
        Some(Err(e)) => {
            report.problem(load_problem(script, e));
            load_failed = true;
        }
        None => load_failed = true,
    }
    let dir = script_dir(script);
    let mut sources = Vec::new();
    let mut seen = BTreeSet::new();
    let mut queue: VecDeque<PathBuf> = loaded.iter().cloned().collect();
    while let Some(file) = queue.pop_front() {
        if !seen.insert(file.canonicalize().unwrap_or_else(|_| file.clone())) {
            continue;
        }
        let Ok(text) = read_script(&file) else {
            // Lua reports an unreadable recipe or module when it loads it.
            continue;
        };
        // Modules required by name but not loaded (only inside functions) are checked too.
        for (name, at) in literal_requires(&text) {
            match resolve(&dir, &name) {
                Ok(path) => queue.extend(path),
                // A module Lua loaded was found; one it did not is missing only if loading
                // got as far as the require.
                Err(looked) if !load_failed => report.problem(format!(
                    "{}:{}:{}: require: module '{name}' not found (looked for {looked})",
                    file.display(),
                    at.line,
                    at.col
                )),
                Err(_) => {}
            }
        }
        let params = if sources.is_empty() {
            params.clone()
        } else {
            None
        };
        sources.push(Source {
            path: file,
            text,
            known: Known {
                params,
                ..known.clone()
            },
        });
    }
    let outcomes = program::analyse(&sources, declared);
    for (i, (source, outcome)) in sources.iter().zip(outcomes).enumerate() {
        let path = source.path.display();
        match outcome {
            Outcome::Checked(findings) => {
                for f in findings {
                    let (l, c) = (f.at.line, f.at.col);
                    match f.severity {
                        Severity::Error => {
                            report.problem(format!("{path}:{l}:{c}: {}", f.message))
                        }
                        Severity::Warning => {
                            report.warning(format!("{path}:{l}:{c}: warning: {}", f.message))
                        }
                        Severity::Note => report.note(format!("{path}:{l}:{c}: {}", f.message)),
                    }
                }
            }
            Outcome::Unparsed(at, message) => match lua_syntax_error(source) {
                // The recipe's own syntax error is already reported by loading it.
                Some(_) if i == 0 && load_failed => {}
                Some(lua) => report.problem(lua),
                None => report.warning(format!(
                    "{path}:{}:{}: warning: not checked: the static checks cannot parse this (Lua can): {message}",
                    at.line, at.col
                )),
            },
            Outcome::Skipped(why) => {
                report.warning(format!("{path}: warning: not checked: {why}"));
            }
        }
    }
}

/// The directory `require` searches for `script`'s modules.
fn script_dir(script: &Path) -> PathBuf {
    script
        .parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The scripts among `scripts` that another of them requires by a literal name, directly or
/// through the modules it requires (a library beside the recipes, such as `scripts/json.lua`),
/// each with a script that requires it: they are checked as modules, with the recipes that
/// require them, not as recipes.
fn required_scripts(scripts: &[PathBuf]) -> BTreeMap<PathBuf, PathBuf> {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let mut required = BTreeMap::new();
    for script in scripts {
        let dir = script_dir(script);
        let mut seen = BTreeSet::from([canonical(script)]);
        let mut queue = VecDeque::from([script.clone()]);
        while let Some(file) = queue.pop_front() {
            let Ok(text) = read_script(&file) else {
                continue;
            };
            for (name, _) in literal_requires(&text) {
                if let Ok(Some(path)) = resolve(&dir, &name) {
                    if seen.insert(canonical(&path)) {
                        required
                            .entry(canonical(&path))
                            .or_insert_with(|| script.clone());
                        queue.push_back(path);
                    }
                }
            }
        }
    }
    scripts
        .iter()
        .filter_map(|s| Some((s.clone(), required.get(&canonical(s))?.clone())))
        .collect()
}

/// Lua's own verdict on a file's syntax: its error message, if it does not compile.
fn lua_syntax_error(source: &Source) -> Option<String> {
    let lua = mlua::Lua::new();
    lua.load(source.text.as_str())
        .set_name(format!("@{}", source.path.display()))
        .set_mode(mlua::ChunkMode::Text)
        .into_function()
        .err()
        .map(|e| match e {
            mlua::Error::SyntaxError { message, .. } => message,
            other => other.to_string(),
        })
}

/// Every `require "name"` (or `require("name")`, `require 'name'`) with a literal name, and
/// where the name is.
fn literal_requires(text: &str) -> Vec<(String, Pos)> {
    let Some(tokens) = syntax::tokens(text) else {
        return Vec::new();
    };
    let significant: Vec<_> = tokens
        .iter()
        .filter(|t| !t.token_type().is_trivia())
        .collect();
    let mut out = Vec::new();
    for (i, t) in significant.iter().enumerate() {
        let TokenType::Identifier { identifier } = t.token_type() else {
            continue;
        };
        if identifier.as_str() != "require" {
            continue;
        }
        let mut j = i + 1;
        if significant.get(j).is_some_and(|t| t.to_string() == "(") {
            j += 1;
        }
        let Some(name_tok) = significant.get(j) else {
            continue;
        };
        if let TokenType::StringLiteral { literal, .. } = name_tok.token_type() {
            let name = literal.to_string();
            let p = name_tok.start_position();
            if name != "warren" {
                out.push((
                    name,
                    Pos {
                        line: p.line(),
                        col: p.character(),
                    },
                ));
            }
        }
    }
    out
}

/// The file of module `name` in `dir`, as `require` finds it: `Ok(None)` for what `require`
/// would refuse when it runs (no module name, a file outside `dir`), `Err` with the paths looked
/// for when there is no such file.
fn resolve(dir: &Path, name: &str) -> Result<Option<PathBuf>, String> {
    match module_file(&[dir.to_path_buf()], name) {
        Ok(path) => Ok(Some(path)),
        Err(NotFound::Missing(looked)) => Err(looked),
        Err(NotFound::NotAName | NotFound::Refused(_)) => Ok(None),
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
