//! A registry that follows its region files: games hold one, ask it for the current
//! `Arc<Registry>` and get the new version after a modder saves. A broken edit is reported and
//! the last good registry stays in force until the files are fixed.

use super::changes::{canonical_dir, Batch, Changes, QUIET};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use warren_core::region::{RegionErrors, Registry};

/// What a check for changes found.
#[derive(Clone, Debug)]
pub enum RegistryUpdate {
    /// The region files changed and loaded; this is the new registry (also [`HotRegistry::current`]).
    Reloaded(Arc<Registry>),
    /// The region files changed but do not load; the last good registry stays in force.
    Failed(RegionErrors),
}

/// A registry that reloads its directory's `*.toml` files when they change.
///
/// ```no_run
/// use std::time::Duration;
/// use warren_lua::watch::{HotRegistry, RegistryUpdate};
/// let mut regions = HotRegistry::open("regions".as_ref())?;
/// loop {
///     match regions.wait(Duration::from_secs(1)) {
///         Some(RegistryUpdate::Reloaded(r)) => println!("{} terrains", r.terrains().len()),
///         Some(RegistryUpdate::Failed(e)) => eprintln!("{e}"),
///         None => {}
///     }
///     # break;
/// }
/// # Ok::<(), warren_lua::Error>(())
/// ```
pub struct HotRegistry {
    dir: PathBuf,
    current: Arc<Registry>,
    changes: Changes,
}

impl HotRegistry {
    /// Loads `dir` and starts watching it. The first load must succeed: there is no last good
    /// registry to fall back on yet.
    pub fn open(dir: &Path) -> Result<HotRegistry> {
        let mut changes = Changes::new(QUIET).map_err(Error::Io)?;
        changes.watch_dir(dir, true).map_err(Error::Io)?;
        let current = Arc::new(Registry::load_dir(dir)?);
        Ok(HotRegistry {
            dir: canonical_dir(dir),
            current,
            changes,
        })
    }

    /// The registry in force: the last one that loaded.
    pub fn current(&self) -> Arc<Registry> {
        self.current.clone()
    }

    /// The watched directory (canonical).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Applies pending changes without waiting. `None` when no region file changed.
    pub fn poll(&mut self) -> Option<RegistryUpdate> {
        self.wait(Duration::ZERO)
    }

    /// Waits up to `timeout` for region files to change, then reloads them. `None` when no
    /// region file changed in time.
    pub fn wait(&mut self, timeout: Duration) -> Option<RegistryUpdate> {
        let batch = self.changes.next(timeout)?;
        if !touches_regions(&self.dir, &batch) {
            return None;
        }
        Some(self.reload())
    }

    /// Reloads now, whether or not anything changed.
    pub fn reload(&mut self) -> RegistryUpdate {
        match Registry::load_dir(&self.dir) {
            Ok(r) => {
                self.current = Arc::new(r);
                RegistryUpdate::Reloaded(self.current.clone())
            }
            Err(e) => RegistryUpdate::Failed(e),
        }
    }
}

/// Whether a batch concerns the region files under `dir`.
pub fn touches_regions(dir: &Path, batch: &Batch) -> bool {
    batch.paths.iter().any(|p| is_region_path(dir, p))
}

/// Whether a changed path concerns the region files under `dir`: `dir` itself (removed, or
/// replaced by a file), a `*.toml` below it, or a directory below it (removing or renaming one
/// takes its files along).
pub fn is_region_path(dir: &Path, p: &Path) -> bool {
    p == dir
        || p.starts_with(dir)
            && (p.extension().is_some_and(|e| e == "toml") || p.is_dir() || !p.exists())
            && !is_hidden_temp(p)
}

/// Editor and warren temporaries (`.name.swp`, `.x.warren-1.tmp`, `name~`) never hold regions.
fn is_hidden_temp(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    (name.starts_with('.') && !name.ends_with(".toml")) || name.ends_with('~')
}
