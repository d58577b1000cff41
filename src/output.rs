//! Writing output files whole or not at all (a temporary file in the target directory, then a
//! rename over the target), and never onto an input ([`Inputs`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use warren_lua::error::Error;

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.warren-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The files a command reads (its recipe, the modules the recipe requires, its region files,
/// record files), so that no output lands on one of them: `--out rooms.lua` must not replace
/// the recipe it runs. Paths are compared after resolving symlinks.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Each input's canonical path, the path as given, and what it is (`the recipe`, …).
    files: Vec<(PathBuf, PathBuf, &'static str)>,
    /// The canonical regions directory: a new `*.toml` file in it would become a region file.
    regions: Option<PathBuf>,
}

impl Inputs {
    /// No inputs yet.
    pub fn new() -> Inputs {
        Inputs::default()
    }

    /// Adds the file at `path`, described as `what` (`"the recipe"`, `"a region file"`, …).
    pub fn add(&mut self, path: &Path, what: &'static str) {
        let canonical = resolved(path);
        if !self.files.iter().any(|(c, _, _)| *c == canonical) {
            self.files.push((canonical, path.to_path_buf(), what));
        }
    }

    /// Adds every file of `paths` as `what`.
    pub fn add_all<'a>(
        &mut self,
        paths: impl IntoIterator<Item = &'a PathBuf>,
        what: &'static str,
    ) {
        for p in paths {
            self.add(p, what);
        }
    }

    /// Sets the regions directory: every `*.toml` below it is loaded as a region file.
    pub fn set_regions_dir(&mut self, dir: &Path) {
        self.regions = Some(resolved(dir));
    }

    /// Refuses to write the output `path` (given with `flag`, e.g. `--out`) when it is one of
    /// the inputs, or a new `*.toml` file the next run would load as a region file.
    pub fn check(&self, flag: &str, path: &Path) -> Result<(), Error> {
        let target = resolved(path);
        if let Some((_, given, what)) = self.files.iter().find(|(c, _, _)| *c == target) {
            return Err(Error::Param(format!(
                "{flag} {}: refusing to write onto {what} {} (an input of this run); choose \
                 another file",
                path.display(),
                given.display()
            )));
        }
        if let Some(dir) = &self.regions {
            if target.starts_with(dir) && target.extension().is_some_and(|e| e == "toml") {
                return Err(Error::Param(format!(
                    "{flag} {}: refusing to write a .toml file into the regions directory {} \
                     (it would be loaded as a region file); choose another place",
                    path.display(),
                    dir.display()
                )));
            }
        }
        Ok(())
    }
}

/// `path` with symlinks resolved as far as it exists: its nearest existing ancestor in
/// canonical form, joined with the rest of the path.
fn resolved(path: &Path) -> PathBuf {
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        Path::new(".").join(path)
    };
    let mut rest = Vec::new();
    let mut at = path.as_path();
    loop {
        if let Ok(c) = at.canonicalize() {
            return rest.iter().rev().fold(c, |p, name| p.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path,
        }
    }
}
