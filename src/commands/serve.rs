//! `warren serve`: check the command line, then hand over to [`crate::serve`].

use crate::cli::ServeArgs;
use crate::serve::catalog::Catalog;
use crate::serve::query::Defaults;
use crate::serve::status::Session;
use crate::serve::worker::Setup;
use crate::serve::{serve, Options};
use std::path::PathBuf;
use std::sync::Arc;
use warren_lua::error::{Error, Result};
use warren_lua::run::find_regions;
use warren_lua::Host;

/// Executes `warren serve`.
pub fn run(mut args: ServeArgs) -> Result<()> {
    if args.gen.script.is_absolute() {
        args.gen.script = relative_to_current_dir(args.gen.script);
    }
    let gen = &args.gen;
    if !gen.script.is_file() {
        return Err(Error::Io(format!(
            "{}: no such recipe file",
            gen.script.display()
        )));
    }
    let regions = match &gen.regions {
        Some(d) if d.is_dir() => d.clone(),
        Some(d) => {
            return Err(Error::Io(format!(
                "{}: --regions is not a directory",
                d.display()
            )))
        }
        None => find_regions(&gen.script).ok_or_else(|| {
            Error::Io(format!(
                "{}: no regions/ directory beside or above the script; pass --regions DIR",
                gen.script.display()
            ))
        })?,
    };
    let regions = relative_to_current_dir(regions);
    let sets = super::assignments(gen)?;
    // Budgets come from the flags (else the defaults), lowered by the regions' `[limits]` as
    // they are at start-up (a broken regions directory at start-up lowers nothing), as in
    // `watch`.
    let registry = warren_core::region::Registry::load_dir(&regions).ok();
    let limits = super::limits(gen, registry.as_ref())?;
    // A bad --set is a mistake on the command line: refuse it now when the recipe loads (a
    // broken recipe is shown on the page instead, until it is fixed).
    if let Some(registry) = registry {
        if let Ok(host) = Host::load(&gen.script, Arc::new(registry), limits) {
            host.resolve_params(&sets)?;
        }
    }
    let seed = super::seed(gen);
    let session = Session {
        script: gen.script.display().to_string(),
        regions: gen.regions.as_ref().map(|_| regions.display().to_string()),
        seed: seed.to_string(),
        levels: gen.levels,
        sets,
        flags: budget_flags(&args),
    };
    serve(Options {
        setup: Setup {
            catalog: Catalog::beside(&gen.script),
            regions,
            limits,
            session,
        },
        defaults: Defaults {
            recipe: gen.script.display().to_string(),
            seed,
            levels: gen.levels,
        },
        bind: args.bind,
        port: args.port,
        open: args.open,
    })
}

/// `path` as the page's messages name it, never absolutely: below the current directory, the
/// rest (`regions/terrain.toml:8:11`); an absolute path elsewhere, through `..` from the
/// common ancestor, so that no client learns where the server's tree lies. A relative path
/// outside the current directory stays as given.
fn relative_to_current_dir(path: PathBuf) -> PathBuf {
    let here = std::env::current_dir().and_then(|d| d.canonicalize());
    let (Ok(here), Ok(abs)) = (here, path.canonicalize()) else {
        return path;
    };
    match abs.strip_prefix(&here) {
        Ok(rel) if !rel.as_os_str().is_empty() => return rel.to_path_buf(),
        _ if path.is_relative() => return path,
        _ => {}
    }
    let common = here
        .components()
        .zip(abs.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in here.components().skip(common) {
        rel.push("..");
    }
    // Nothing in common (another drive on Windows): the path stays absolute, as there is no
    // relative way to name it.
    for part in abs.components().skip(common) {
        rel.push(part);
    }
    rel
}

/// The budget flags given, to repeat in the page's `warren run` command line.
fn budget_flags(args: &ServeArgs) -> Vec<String> {
    let gen = &args.gen;
    let mut flags = Vec::new();
    if let Some(n) = gen.max_instructions {
        flags.extend(["--max-instructions".to_string(), n.to_string()]);
    }
    if let Some(n) = gen.max_memory {
        flags.extend(["--max-memory".to_string(), n.to_string()]);
    }
    if let Some(s) = gen.max_seconds {
        flags.extend(["--max-seconds".to_string(), s.to_string()]);
    }
    flags
}
