//! What the benches share: loading a shipped recipe as `warren batch` would, and the median
//! of a bench's rounds. (Each bench includes this module and uses part of it, in the root
//! package and in `warren-benches`, whose manifest is `benches/Cargo.toml`.)
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use warren_core::region::Registry;
use warren_lua::{Host, Limits};

/// A host for `script` (a path from the repository's root) with the shipped regions and the
/// default limits. Panics with the reason if they do not load: a bench has nothing to measure
/// then.
pub fn host(script: &str) -> Host {
    host_with(script, Limits::default())
}

/// [`host`] with other limits (a pure-Lua workload at 256×256 needs more than the default
/// instructions and time).
pub fn host_with(script: &str, limits: Limits) -> Host {
    let root = root();
    let registry = match Registry::load_dir(&root.join("regions")) {
        Ok(r) => Arc::new(r),
        Err(e) => panic!("the shipped regions load: {e}"),
    };
    match Host::load(&root.join(script), registry, limits) {
        Ok(h) => h,
        Err(e) => panic!("{script} loads: {e}"),
    }
}

/// The repository's root: the root package's directory, or the parent of `benches/` when
/// this module is compiled into a bench of `warren-benches`.
pub fn root() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match manifest.file_name() {
        Some(name) if name == "benches" => manifest.parent().unwrap_or(manifest),
        _ => manifest,
    }
}

/// The median of a bench's rounds.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
