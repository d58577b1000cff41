//! Running a recipe end to end: find the regions, load the host, generate one or more levels.
//! The CLI and games embedding warren share this path.

use crate::error::{Error, Result};
use crate::{Host, Limits, ParamValue, ParamValues, Run};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::map::Map;
use warren_core::region::Registry;
use warren_core::rng::Rng;

/// The nearest `regions/` directory in the script's directory or one of its ancestors, as a
/// path relative to the current directory (see [`relative`]). `run`, `watch`, `batch` and
/// `check` all find the regions this way.
pub fn find_regions(script: &Path) -> Option<PathBuf> {
    let start = script.parent().unwrap_or(Path::new("."));
    regions_above(start)
}

/// The nearest `regions/` directory in `dir` or one of its ancestors, relative to the current
/// directory.
pub fn regions_above(dir: &Path) -> Option<PathBuf> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let abs = dir.canonicalize().ok()?;
    abs.ancestors()
        .map(|d| d.join("regions"))
        .find(|d| d.is_dir())
        .map(|d| relative(&d))
}

/// `path` relative to the current directory, as messages show paths: `regions/terrain.toml`,
/// `../regions` from `scripts/`. Paths that share nothing with the current directory but the
/// root stay absolute, and relative paths stay as they are.
pub fn relative(path: &Path) -> PathBuf {
    let Some(cwd) = canonical_current_dir() else {
        return path.to_path_buf();
    };
    if !path.is_absolute() {
        return path.to_path_buf();
    }
    let ours: Vec<_> = cwd.components().collect();
    let theirs: Vec<_> = path.components().collect();
    let common = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
    // Sharing only the root (`/`): `../../../tmp/x` would read worse than `/tmp/x`.
    if common <= 1 {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..ours.len() {
        out.push("..");
    }
    for c in &theirs[common..] {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The current directory with its symlinks resolved, resolved again only when the current
/// directory changes: [`relative`] names every region file of a run, and resolving it each time
/// took a system call per directory above it.
fn canonical_current_dir() -> Option<PathBuf> {
    static LAST: std::sync::Mutex<Option<(PathBuf, PathBuf)>> = std::sync::Mutex::new(None);
    let cwd = std::env::current_dir().ok()?;
    let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((seen, canonical)) = last.as_ref() {
        if *seen == cwd {
            return Some(canonical.clone());
        }
    }
    let canonical = cwd.canonicalize().ok()?;
    *last = Some((cwd, canonical.clone()));
    Some(canonical)
}

/// [`relative`] as text.
pub fn display_path(path: &Path) -> String {
    relative(path).display().to_string()
}

/// Loads the registry from `dir`, or from the directory [`find_regions`] picks.
pub fn load_registry(dir: Option<&Path>, script: &Path) -> Result<Registry> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => find_regions(script).ok_or_else(|| {
            Error::Io(format!(
                "{}: no regions/ directory beside or above the script; pass --regions DIR",
                script.display()
            ))
        })?,
    };
    Ok(Registry::load_dir(&dir)?)
}

/// The seed of level `depth` (1-based) of a run with `seed`. Level 1 uses the run's seed, so a
/// one-level run and the first level of a multi-level run are the same map.
pub fn level_seed(seed: u64, depth: u32) -> u64 {
    if depth <= 1 {
        seed
    } else {
        Rng::new(seed).stream(&format!("level {depth}")).seed()
    }
}

/// One generated level and what made it.
#[derive(Clone, Debug)]
pub struct GeneratedLevel {
    /// The map.
    pub map: Map,
    /// Its seed.
    pub seed: u64,
    /// Its depth (1-based).
    pub depth: u32,
}

/// Refuses, before any level is made, `--levels count` whose maps cannot all be held at once:
/// every level is kept until the last is made, and each sees a copy of the one above
/// (`ctx.above`). Only maps of a size the parameters give are checked ahead; a recipe that
/// sizes its map itself meets the same limit level by level.
pub fn check_levels(host: &Host, params: &ParamValues, count: u32) -> Result<()> {
    let side = |name| match params.get(name) {
        Some(ParamValue::Int(v)) if *v > 0 => Some(*v),
        _ => None,
    };
    let (Some(width), Some(height)) = (side("width"), side("height")) else {
        return Ok(());
    };
    if count <= 1 {
        return Ok(());
    }
    let maps = count as usize + 1;
    host.check_memory(
        Map::bytes_for(width, height).saturating_mul(maps),
        0,
        &format!(
            "--levels {count}: {count} levels of {width}×{height} kept together (and the copy of \
             the level above that each one sees)"
        ),
    )
}

/// Generates levels 1..=`count`, each seeing the one above. The levels already made count in
/// the memory account of each later one (see [`Host::keep`]); [`check_levels`] refuses a
/// `count` whose maps cannot all fit before the first is made.
pub fn generate_levels(
    host: &Host,
    seed: u64,
    params: &ParamValues,
    count: u32,
) -> Result<Vec<GeneratedLevel>> {
    generate_levels_with(host, seed, params, count, Host::generate)
}

/// [`generate_levels`], each level made by `generate` (which calls [`Host::generate`] with
/// what it needs around it: `warren run --frames` streams the level's snapshots, then writes
/// its final frame).
pub fn generate_levels_with(
    host: &Host,
    seed: u64,
    params: &ParamValues,
    count: u32,
    mut generate: impl FnMut(&Host, &Run) -> Result<Map>,
) -> Result<Vec<GeneratedLevel>> {
    check_levels(host, params, count)?;
    let mut levels: Vec<GeneratedLevel> = Vec::with_capacity(count as usize);
    // Every level made so far stays in the memory account of the ones below it.
    let mut kept = Vec::with_capacity(count as usize);
    for depth in 1..=count {
        let s = level_seed(seed, depth);
        let map = generate(
            host,
            &Run {
                seed: s,
                params,
                depth,
                above: levels.last().map(|l| &l.map),
            },
        )?;
        kept.push(host.keep(map.bytes()));
        levels.push(GeneratedLevel {
            map,
            seed: s,
            depth,
        });
    }
    Ok(levels)
}

/// Parameter values as JSON (for the output header).
pub fn params_json(params: &ParamValues) -> std::collections::BTreeMap<String, serde_json::Value> {
    params
        .iter()
        .map(|(k, v)| {
            let j = match v {
                ParamValue::Int(i) => serde_json::json!(i),
                ParamValue::Float(f) => serde_json::json!(f),
                ParamValue::Bool(b) => serde_json::json!(b),
                ParamValue::Text(s) => serde_json::json!(s),
            };
            (k.clone(), j)
        })
        .collect()
}

/// One call for games: load the regions and recipe, generate one map (with warren's default
/// budgets, lowered where the regions' `[limits]` ask for less).
pub fn generate(
    script: &Path,
    regions: Option<&Path>,
    seed: u64,
    sets: &[(String, String)],
) -> Result<Map> {
    let registry = Arc::new(load_registry(regions, script)?);
    let limits = Limits::from_region(&registry.limits);
    let host = Host::load(script, registry, limits)?;
    let params = host.resolve_params(sets)?;
    host.generate(&Run {
        seed,
        params: &params,
        depth: 1,
        above: None,
    })
}
