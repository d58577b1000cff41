//! Writing output files whole or not at all: a temporary file in the target directory, then a
//! rename over the target. A file being written and never committed (an error, an interrupted
//! batch) is removed. No output lands on an input ([`Inputs`]).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use warren_lua::error::Error;

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The temporary file beside `path` that an atomic write goes through: `.NAME.warren-PID.tmp`,
/// or with `tag`, `.NAME.warren-PID.TAG.tmp`.
pub fn temp_path(path: &Path, tag: &str) -> PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tag = if tag.is_empty() {
        String::new()
    } else {
        format!(".{tag}")
    };
    dir.join(format!(".{name}.warren-{}{tag}.tmp", std::process::id()))
}

/// Removes the temporary files in `dir` whose names start with `prefix` (`.NAME.warren-` for an
/// output `NAME`, `.rooms-` for the maps of `rooms.lua`) that processes now gone left behind
/// ([`temp_path`]'s `.NAME.warren-PID….tmp`, after `kill -9` or a crash). Files of running
/// processes stay.
pub fn remove_dead_temps(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(prefix) || !name.ends_with(".tmp") {
            continue;
        }
        let pid = name
            .rsplit_once(".warren-")
            .and_then(|(_, tail)| tail.split('.').next()?.parse::<u32>().ok());
        if pid.is_some_and(|pid| pid != std::process::id() && !alive(pid)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process `pid` exists (another user's counts).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

/// A file written as a stream and put in place only by [`AtomicFile::commit`]; dropped
/// uncommitted, it leaves nothing behind.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        Self::create_tagged(path, "")
    }

    /// [`AtomicFile::create`] through a temporary name carrying `tag`, so that two files on
    /// their way to the same target do not collide.
    pub fn create_tagged(path: &Path, tag: &str) -> std::io::Result<AtomicFile> {
        let temp = temp_path(path, tag);
        let file = File::create(&temp)?;
        Ok(AtomicFile {
            target: path.to_path_buf(),
            temp,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The temporary file's path (where the content is until the commit).
    pub fn temp(&self) -> &Path {
        &self.temp
    }

    /// Flushes the content to disk and renames it over the target.
    pub fn commit(self) -> std::io::Result<()> {
        self.finish()?.commit()
    }

    /// Flushes the content to disk and closes the file, still under its temporary name: a file
    /// finished among others, all renamed at the end ([`Finished::commit`]) once every one is
    /// written, holds no descriptor and no buffer meanwhile.
    pub fn finish(mut self) -> std::io::Result<Finished> {
        // Taken out, the temporary file is the `Finished`'s to remove from here on.
        let out = self
            .out
            .take()
            .ok_or_else(|| std::io::Error::other("committed twice"))?;
        let finished = Finished {
            target: std::mem::take(&mut self.target),
            temp: std::mem::take(&mut self.temp),
            committed: false,
        };
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(finished)
    }

    fn out(&mut self) -> std::io::Result<&mut BufWriter<File>> {
        self.out
            .as_mut()
            .ok_or_else(|| std::io::Error::other("file already committed"))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out()?.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// An [`AtomicFile`] written whole and closed, waiting under its temporary name to be renamed
/// over its target; dropped without [`Finished::commit`], it is removed.
#[derive(Debug)]
pub struct Finished {
    target: PathBuf,
    temp: PathBuf,
    committed: bool,
}

impl Finished {
    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the file over its target.
    pub fn commit(mut self) -> std::io::Result<()> {
        std::fs::rename(&self.temp, &self.target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Finished {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// The files a command reads (its recipe, the modules the recipe requires, its region files,
/// record files), so that no output lands on one of them: `--out rooms.lua` must not replace
/// the recipe it runs. Paths are compared after resolving symlinks.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Each input by its canonical path: the path as given, and what it is (`the recipe`, …).
    /// A map, so that ten thousand region files are added in linear time, not quadratic.
    files: BTreeMap<PathBuf, (PathBuf, &'static str)>,
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
        self.files
            .entry(resolved(path))
            .or_insert_with(|| (path.to_path_buf(), what));
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
        if let Some((given, what)) = self.files.get(&target) {
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
