//! A batch's resume journal: the records of its finished maps, appended and flushed in seed order
//! as chunks are committed, so that a batch stopped in any way (Ctrl-C, SIGTERM, `kill -9`, a
//! full disk) loses no finished map, and the same command run again continues where the
//! journal stops.
//!
//! A batch keeps a journal when it saves something (`--records` or `--out-dir`). The journal
//! sits beside that output as `.NAME.warren-resume-FINGERPRINT`, where `NAME` is the records
//! file's name (or `SCRIPT` inside the `--out-dir`), and `FINGERPRINT` is a hash of everything
//! that shapes the output: warren's version, the recipe, the modules it requires, the region
//! files (their contents), the parameters, the seeds, the limits and the outputs asked for. It
//! is JSON Lines, exactly what `--records FILE.jsonl` holds: the header line, then one line per
//! seed from the first. Read back, it ends at its last whole, well-formed line in seed order (a
//! line torn by `kill -9` is cut off). When the batch completes, the journal becomes the records
//! file (renamed, or converted to CSV or Parquet) or, without `--records`, is removed.
//!
//! A journal is locked (`flock`) while a batch uses it, so two copies of one command cannot
//! write it at once; the lock goes with the process, however it ends. Journals of the same
//! output with another fingerprint (a recipe edited since) are removed, as are temporary files
//! of that output left by processes that are gone.

use crate::output::remove_dead_temps;
use crate::stats::records::{convert, header_line, parse_record, Layout};
use crate::stats::{Aggregate, Header, Record, RecordNames};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Records read back per block when a batch resumes (memory stays constant).
const BLOCK: usize = 4096;

/// An open, locked journal.
pub struct Journal {
    path: PathBuf,
    out: BufWriter<File>,
    /// The records file it becomes (`--records`), if any.
    target: Option<PathBuf>,
}

/// What an earlier run of the same command left.
pub struct Resumed {
    /// The journal, positioned after its last whole record.
    pub journal: Journal,
    /// How many seeds, from the plan's first, it holds.
    pub done: u64,
    /// Their statistics.
    pub data: Aggregate,
}

/// A 64-bit FNV-1a hash, stable across builds and platforms (a journal must be found again by
/// the next process, possibly built anew).
#[derive(Clone, Copy, Debug)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// Adds `bytes`, then their length (so that two fields cannot run into each other).
    pub fn add(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes.iter().chain(&(bytes.len() as u64).to_le_bytes()) {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// Adds a file's path and contents (a file that cannot be read adds its error).
    pub fn add_file(&mut self, path: &Path) -> &mut Self {
        self.add(path.as_os_str().as_encoded_bytes());
        match std::fs::read(path) {
            Ok(bytes) => self.add(&bytes),
            Err(e) => self.add(e.to_string().as_bytes()),
        }
    }
}

impl Journal {
    /// The journal of the output `anchor` (the records file, or `DIR/SCRIPT` for maps only) for
    /// `fingerprint`: what an earlier run left of it (nothing, if none), ready to append to.
    /// `header` must match the journal's first line; `first_seed` is the plan's first seed.
    pub fn open(
        anchor: &Path,
        fingerprint: Fingerprint,
        header: &Header,
        first_seed: u64,
        target: Option<PathBuf>,
    ) -> Result<Resumed, String> {
        let (dir, name) = split(anchor);
        let prefix = format!(".{name}.warren-resume-");
        let path = anchor.with_file_name(format!("{prefix}{:016x}", fingerprint.0));
        let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", path.display());
        remove_stale(&dir, &prefix, &path);
        remove_dead_temps(&dir, &format!(".{name}.warren-"));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(cannot)?;
        if !lock(&file) {
            return Err(format!(
                "{}: another warren batch is running this same command (it holds {}); wait for it, or stop it",
                target.as_deref().unwrap_or(anchor).display(),
                path.display()
            ));
        }
        let mut data = Aggregate::new(header.clone());
        let (done, kept) =
            read_back(&file, &header_line(header), first_seed, &mut data).map_err(cannot)?;
        file.set_len(kept).map_err(cannot)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        out.seek(SeekFrom::Start(kept)).map_err(cannot)?;
        if kept == 0 {
            writeln!(out, "{}", header_line(header)).map_err(cannot)?;
            out.flush().map_err(cannot)?;
        }
        Ok(Resumed {
            journal: Journal { path, out, target },
            done,
            data,
        })
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends record lines and hands them to the system at once, so that a process killed
    /// right after keeps them.
    pub fn write(&mut self, lines: &[u8]) -> Result<(), String> {
        self.out
            .write_all(lines)
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.path.display()))
    }

    /// The batch is complete: the journal becomes the records file (as it is, or converted to
    /// CSV or Parquet with `data`'s columns when the name ends in `.csv` or `.parquet`), or is
    /// removed.
    pub fn finish(mut self, data: &Aggregate) -> Result<(), String> {
        let Some(target) = self.target.take() else {
            return std::fs::remove_file(&self.path)
                .map_err(|e| format!("{}: cannot remove: {e}", self.path.display()));
        };
        let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", target.display());
        let file = self.out.into_inner().map_err(|e| cannot(e.into_error()))?;
        file.sync_all().map_err(cannot)?;
        if Layout::of(&target) == Layout::Jsonl {
            return std::fs::rename(&self.path, &target).map_err(cannot);
        }
        convert(&self.path, &target, data)?;
        std::fs::remove_file(&self.path)
            .map_err(|e| format!("{}: cannot remove: {e}", self.path.display()))
    }
}

/// The directory and file name of `anchor`.
fn split(anchor: &Path) -> (PathBuf, String) {
    let dir = anchor
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = anchor
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    (dir.to_path_buf(), name)
}

/// Reads the journal back into `data`: how many seeds it holds in order from `first_seed`, and
/// the length of its sound part (0 when its header is not `header`: another layout, or empty).
fn read_back(
    file: &File,
    header: &str,
    first_seed: u64,
    data: &mut Aggregate,
) -> std::io::Result<(u64, u64)> {
    let mut input = BufReader::new(file);
    let mut line = Vec::new();
    input.read_until(b'\n', &mut line)?;
    if line.strip_suffix(b"\n") != Some(header.as_bytes()) {
        return Ok((0, 0));
    }
    let mut kept = line.len() as u64;
    let mut done = 0;
    let mut names = RecordNames::default();
    let mut block: Vec<Record> = Vec::with_capacity(BLOCK);
    loop {
        line.clear();
        input.read_until(b'\n', &mut line)?;
        let Some(whole) = line.strip_suffix(b"\n") else {
            break;
        };
        let record = std::str::from_utf8(whole)
            .ok()
            .and_then(|l| parse_record(l, &mut names).ok());
        match record {
            Some(r) if r.seed == first_seed + done => block.push(r),
            _ => break,
        }
        kept += line.len() as u64;
        done += 1;
        if block.len() == BLOCK {
            data.absorb(&block, &names);
            block.clear();
        }
    }
    data.absorb(&block, &names);
    Ok((done, kept))
}

/// Removes the journals beside `keep` whose names start with `prefix` (the same output, another
/// fingerprint) that no running batch holds.
fn remove_stale(dir: &Path, prefix: &str, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let stale = name.to_string_lossy().starts_with(prefix) && Some(&*name) != keep.file_name();
        if stale && File::open(&path).is_ok_and(|f| lock(&f)) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Takes `file`'s exclusive lock without waiting; false when another process holds it. The
/// lock is released when the file is closed (or the process ends).
#[cfg(unix)]
fn lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this process holds open.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(not(unix))]
fn lock(_file: &File) -> bool {
    true
}
