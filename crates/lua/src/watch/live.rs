//! A recipe that follows its files: the region directory, the recipe and every module it
//! requires. On a change only what changed is reloaded (regions → [`Host::set_registry`], a
//! script → a new [`Host`]); while any part is broken the last good part stays loaded and the
//! problems are reported, so the caller can keep showing its last good map.

use super::changes::{canonical_dir, canonical_file, Batch, Changes};
use super::registry::is_region_path;
use crate::error::{Error, Result};
use crate::run::{generate_levels, GeneratedLevel};
use crate::turns::Turns;
use crate::{Host, Limits, ParamValues};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_core::region::Registry;

/// What a batch of file changes means for a [`LiveRecipe`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Region files that changed (file names, for the status line); empty if none did.
    pub regions: Vec<String>,
    /// Script files that changed (file names); empty if none did.
    pub scripts: Vec<String>,
}

impl Changed {
    /// Whether anything relevant changed.
    pub fn is_empty(&self) -> bool {
        self.regions.is_empty() && self.scripts.is_empty()
    }

    /// A short description for the status line: `regions (a.toml), script (rooms.lua)`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.regions.is_empty() {
            parts.push(format!("regions ({})", self.regions.join(", ")));
        }
        if !self.scripts.is_empty() {
            parts.push(format!("script ({})", self.scripts.join(", ")));
        }
        parts.join(", ")
    }
}

/// A finished generation.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The levels.
    pub levels: Vec<GeneratedLevel>,
    /// The parameter values used.
    pub params: ParamValues,
    /// The recipe's name.
    pub recipe: String,
}

/// The recipe, its regions and what is currently broken.
pub struct LiveRecipe {
    script: PathBuf,
    regions: PathBuf,
    regions_given: PathBuf,
    sets: Vec<(String, String)>,
    limits: Limits,
    registry: Option<Arc<Registry>>,
    registry_error: Option<Error>,
    host: Option<Host>,
    host_error: Option<Error>,
    files: BTreeSet<PathBuf>,
    cancel: Option<Arc<std::sync::atomic::AtomicBool>>,
    turns: Option<Arc<Turns>>,
}

impl LiveRecipe {
    /// Loads the regions in `regions` and the recipe at `script`. Problems are kept (see
    /// [`LiveRecipe::problems`]), not returned: a live recipe waits for them to be fixed.
    pub fn load(
        script: &Path,
        regions: &Path,
        sets: Vec<(String, String)>,
        limits: Limits,
    ) -> LiveRecipe {
        let mut live = LiveRecipe {
            script: script.to_path_buf(),
            regions: canonical_dir(regions),
            regions_given: regions.to_path_buf(),
            sets,
            limits,
            registry: None,
            registry_error: None,
            host: None,
            host_error: None,
            files: BTreeSet::from([canonical_file(script)]),
            cancel: None,
            turns: None,
        };
        live.reload(true, true);
        live
    }

    /// Lets another thread stop generations, now and after reloads (see [`Host::set_cancel`]).
    pub fn set_cancel(&mut self, flag: Arc<std::sync::atomic::AtomicBool>) {
        if let Some(host) = &self.host {
            host.set_cancel(Some(flag.clone()));
        }
        self.cancel = Some(flag);
    }

    /// Makes this recipe's hosts, the one loaded and those later reloads build, share their
    /// memory limit with other generations through `turns` ([`Turns::join`]).
    pub fn share_memory(&mut self, turns: Arc<Turns>) {
        if let Some(host) = &self.host {
            turns.join(host);
        }
        self.turns = Some(turns);
    }

    /// The turns this recipe's hosts share their memory limit through, if any.
    pub fn turns(&self) -> Option<&Arc<Turns>> {
        self.turns.as_ref()
    }

    /// Watches the region directory (recursively) and the directory of every script file.
    pub fn watch(&self, changes: &mut Changes) -> std::result::Result<(), String> {
        changes.watch_dir(&self.regions, true)?;
        for f in &self.files {
            if let Some(dir) = f.parent() {
                changes.watch_dir(dir, false)?;
            }
        }
        Ok(())
    }

    /// Which of this recipe's files a batch touches.
    pub fn changed(&self, batch: &Batch) -> Changed {
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let mut regions: Vec<String> = Vec::new();
        for p in &batch.paths {
            if is_region_path(&self.regions, p) && !regions.contains(&name(p)) {
                regions.push(name(p));
            }
        }
        // A script changed when its file did, or its directory was removed or created again
        // (the files in a re-created directory may have come before its new watch).
        let scripts = self
            .files
            .iter()
            .filter(|f| {
                batch.paths.contains(*f) || f.parent().is_some_and(|d| batch.paths.contains(d))
            })
            .map(|f| name(f))
            .collect();
        Changed { regions, scripts }
    }

    /// Reloads the regions and/or the scripts. A script reload builds a new host; a regions
    /// reload alone hands the new registry to the host that is loaded.
    pub fn reload(&mut self, regions: bool, scripts: bool) {
        let mut new_registry = false;
        if regions || self.registry.is_none() {
            match Registry::load_dir(&self.regions_given) {
                Ok(r) => {
                    self.registry = Some(Arc::new(r));
                    self.registry_error = None;
                    new_registry = true;
                }
                Err(e) => self.registry_error = Some(e.into()),
            }
        }
        let Some(registry) = self.registry.clone() else {
            return;
        };
        if scripts || self.host.is_none() {
            match Host::load(&self.script, registry, self.limits) {
                Ok(h) => {
                    h.set_cancel(self.cancel.clone());
                    if let Some(turns) = &self.turns {
                        turns.join(&h);
                    }
                    self.files
                        .extend(h.script_files().iter().map(|f| canonical_file(f)));
                    self.host = Some(h);
                    self.host_error = None;
                }
                Err(e) => self.host_error = Some(e),
            }
        } else if let (true, Some(host)) = (new_registry, self.host.as_mut()) {
            if let Err(e) = host.set_registry(registry) {
                self.host_error = Some(e);
            }
        }
    }

    /// Adds the modules the recipe has required since it loaded (a `require` inside `generate`
    /// runs only when a map is made) to the files this recipe follows. Returns whether any were
    /// new; [`LiveRecipe::watch`] then watches their directories.
    pub fn note_required(&mut self) -> bool {
        let Some(host) = &self.host else {
            return false;
        };
        let before = self.files.len();
        self.files
            .extend(host.script_files().iter().map(|f| canonical_file(f)));
        self.files.len() > before
    }

    /// What is broken now: region errors first, then the recipe's.
    pub fn problems(&self) -> Vec<&Error> {
        self.registry_error.iter().chain(&self.host_error).collect()
    }

    /// The registry in force (the last one that loaded), if any.
    pub fn registry(&self) -> Option<&Arc<Registry>> {
        self.registry.as_ref()
    }

    /// The loaded host (the last one that loaded), if any.
    pub fn host(&self) -> Option<&Host> {
        self.host.as_ref()
    }

    /// The first problem, if anything is broken.
    pub fn problem(&self) -> Option<Error> {
        self.problems().first().map(|e| clone_error(e))
    }

    /// The host and the parameter values to generate with, if nothing is broken.
    pub fn ready(&self) -> Result<(&Host, ParamValues)> {
        if let Some(e) = self.problem() {
            return Err(e);
        }
        let host = self
            .host
            .as_ref()
            .ok_or_else(|| Error::Internal("live recipe without a host".into()))?;
        Ok((host, host.resolve_params(&self.sets)?))
    }

    /// Generates `levels` levels with `seed`, if nothing is broken.
    pub fn generate(&self, seed: u64, levels: u32) -> Result<Generated> {
        let (host, params) = self.ready()?;
        let levels = generate_levels(host, seed, &params, levels)?;
        Ok(Generated {
            levels,
            params,
            recipe: host.recipe().name.clone(),
        })
    }
}

/// A copy of an error (errors hold only text).
fn clone_error(e: &Error) -> Error {
    match e {
        Error::Region(r) => Error::Region(r.clone()),
        Error::Script(m) => Error::Script(m.clone()),
        Error::Param(m) => Error::Param(m.clone()),
        Error::Budget(m) => Error::Budget(m.clone()),
        Error::Io(m) => Error::Io(m.clone()),
        Error::Usage(m) => Error::Usage(m.clone()),
        Error::Internal(m) => Error::Internal(m.clone()),
    }
}
