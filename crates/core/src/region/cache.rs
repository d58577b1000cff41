//! The parse cache: what a regions directory's files read into ([`RegionFile`]s), kept between
//! runs, so that a start reads it back instead of parsing the TOML again. Parsing is most of
//! loading the shipped regions (about four fifths of the instructions) and, from a cold start,
//! about 0.2 ms of a 2.5 ms `warren run`.
//!
//! One cache file holds one set of texts and what each read into, one after another, in
//! postcard's binary form, with a hash of that parse. It is used only when it was written by
//! this very binary (its GNU build ID, a hash of its code and data, with warren's version;
//! where it has none, its file's path, size, modification time and inode), every
//! text read now equals the one it holds, byte for byte, and its parse matches its hash;
//! otherwise the files are parsed, and the cache written anew once every one of them has been
//! read. Errors are never cached (a set with a file that does not parse is not written), and
//! everything after parsing (the merge, every check, the resolved entries) runs either way, so a
//! cached parse makes the same registry, the same messages and the same maps.
//!
//! Where: `WARREN_CACHE_DIR`, else `$XDG_CACHE_HOME/warren`, else `$HOME/.cache/warren`;
//! `WARREN_CACHE_DIR=` (set, empty) turns the cache off. The directory and files are made
//! readable by their owner only. A cache file is named by a hash of what it was made from (the
//! binary and the texts), so directories with the same files share one; the least recently
//! written are removed once there are more than [`KEEP`] or they take more than [`KEEP_BYTES`]
//! (a cache file larger than that is not written). Reading or writing the cache never fails a
//! load: a cache that cannot be read is parsed past, one that cannot be written is left out.

use super::{RegionFile, Source};
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache files kept in the cache's directory: writing one more removes the least recently
/// written.
pub const KEEP: usize = 64;

/// The bytes the cache's files may take together: past them, the least recently written are
/// removed.
pub const KEEP_BYTES: u64 = 64 << 20;

/// What every cache file starts with: the format, changed whenever the layout below changes.
const FORMAT: &str = "warren region parse cache 2";

/// Cache files' names start with this (and only files so named are ever removed).
const PREFIX: &str = "regions-";

/// A cache file being written ends with this; one left by a writer that stopped halfway is
/// removed once it is [`STALE_PART`] old.
const PART: &str = ".part";

/// How old a file being written must be for [`ParseCache::trim`] to take it for abandoned.
const STALE_PART: std::time::Duration = std::time::Duration::from_secs(3600);

/// A cache file's head, read before the parsed files: whose it is, and the texts it was made
/// from.
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    /// [`FORMAT`].
    format: &'a str,
    /// The binary that wrote it ([`ParseCache::binary`]).
    binary: &'a str,
    /// Each file's text, in load order.
    #[serde(borrow)]
    texts: Vec<&'a str>,
    /// A hash of what follows (the parsed files): damage that would still decode is seen.
    body: u64,
}

/// A parse cache in a directory, for this binary.
#[derive(Clone, Debug)]
pub struct ParseCache {
    /// Where its files are.
    dir: PathBuf,
    /// What tells this binary from any other: warren's version and its build ID (see
    /// [`super::build_id`]), or, where it has none, the executable file's path, size,
    /// modification time and inode. A rebuilt or replaced binary has another, and the layout
    /// of what it caches may have changed with it.
    binary: String,
}

impl ParseCache {
    /// The cache this process uses (see the module's documentation), or `None` when it is
    /// turned off or there is nowhere to put it.
    pub fn from_env() -> Option<ParseCache> {
        let var = |name| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let dir = match std::env::var_os("WARREN_CACHE_DIR") {
            Some(dir) if dir.is_empty() => return None,
            Some(dir) => PathBuf::from(dir),
            // The XDG base directory rule: a relative `XDG_CACHE_HOME` is ignored.
            None => match var("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
                Some(xdg) => xdg.join("warren"),
                None => var("HOME")?.join(".cache").join("warren"),
            },
        };
        // Worked out once: a long-running `watch` or `serve` keeps the identity of the binary
        // it started from, even if a new build replaces its file.
        static BINARY: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        let binary = BINARY.get_or_init(binary_identity).clone()?;
        Some(ParseCache::new(dir, binary))
    }

    /// A cache in `dir` for the binary `binary` (any text that tells it from other binaries).
    pub fn new(dir: PathBuf, binary: String) -> ParseCache {
        ParseCache { dir, binary }
    }

    /// The file that holds the parse of `sources`, if any was written.
    pub fn path(&self, sources: &[Source]) -> PathBuf {
        let mut hash = rustc_hash::FxHasher::default();
        hash.write(self.binary.as_bytes());
        for src in sources {
            hash.write_usize(src.text.len());
            hash.write(src.text.as_bytes());
        }
        self.dir.join(format!("{PREFIX}{:016x}", hash.finish()))
    }

    /// The files `sources` read into, from the cache, if it holds their parse.
    pub fn read(&self, sources: &[Source]) -> Option<Vec<RegionFile>> {
        // A regular file of at most the bytes kept (not a FIFO, a device or anything larger).
        let bytes = crate::input::read_regular(&self.path(sources), KEEP_BYTES).ok()?;
        let (head, rest) = postcard::take_from_bytes::<Head>(&bytes).ok()?;
        let same = head.format == FORMAT
            && head.binary == self.binary
            && head.texts.len() == sources.len()
            && head.texts.iter().zip(sources).all(|(t, s)| *t == s.text)
            && head.body == checksum(rest);
        if !same {
            return None;
        }
        // One file after another, into a list made to size (a list read as a whole grows by
        // doubling: for 10,000 small files, 16 MB more memory at its peak).
        let mut files = Vec::with_capacity(sources.len());
        let mut rest = rest;
        for _ in sources {
            let (file, after) = postcard::take_from_bytes::<RegionFile>(rest).ok()?;
            files.push(file);
            rest = after;
        }
        rest.is_empty().then_some(files)
    }

    /// Keeps `files`, what `sources` read into (one each, in order), for the next load. Best
    /// effort: a directory that cannot be made or written leaves nothing behind.
    pub fn write(&self, sources: &[Source], files: &[&RegionFile]) {
        let mut body = Vec::new();
        for file in files {
            match postcard::to_extend(file, body) {
                Ok(more) => body = more,
                Err(_) => return,
            }
        }
        let head = Head {
            format: FORMAT,
            binary: &self.binary,
            texts: sources.iter().map(|s| s.text.as_str()).collect(),
            body: checksum(&body),
        };
        let Ok(mut bytes) = postcard::to_stdvec(&head) else {
            return;
        };
        bytes.extend_from_slice(&body);
        if bytes.len() as u64 > KEEP_BYTES || make_private_dir(&self.dir).is_err() {
            return;
        }
        let path = self.path(sources);
        // Written aside, under a name no other writer uses, and renamed into place: a reader
        // never sees half a file, and two writers of the same parse leave one whole copy.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let aside = path.with_extension(format!("{}-{write}{PART}", std::process::id()));
        let written = private_file(&aside).and_then(|mut f| f.write_all(&bytes));
        if written
            .and_then(|()| std::fs::rename(&aside, &path))
            .is_err()
        {
            let _ = std::fs::remove_file(&aside);
            return;
        }
        self.trim();
    }

    /// Removes the least recently written cache files while there are more than [`KEEP`] or
    /// they take more than [`KEEP_BYTES`], and files a writer abandoned halfway.
    fn trim(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let now = std::time::SystemTime::now();
        let mut files: Vec<(std::time::SystemTime, PathBuf, u64)> = Vec::new();
        for entry in entries.flatten() {
            let (path, Ok(meta)) = (entry.path(), entry.metadata()) else {
                continue;
            };
            let Ok(modified) = meta.modified() else {
                continue;
            };
            if is_cache_file(&path) {
                files.push((modified, path, meta.len()));
            } else if is_stale_part(&path, modified, now) {
                let _ = std::fs::remove_file(path);
            }
        }
        // Newest first: each is kept while the ones before it leave room.
        files.sort_by(|a, b| b.cmp(a));
        let mut bytes = 0;
        for (kept, (_, path, len)) in files.into_iter().enumerate() {
            bytes += len;
            if kept >= KEEP || bytes > KEEP_BYTES {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// Makes `dir` and any directory above it that is missing, readable by their owner only (on
/// Unix): the cache holds the region files' texts, which may not be everyone's to read.
fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// A new file at `path`, readable by its owner only (on Unix), for the reason
/// [`make_private_dir`] gives.
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    // A new file only: never through a link or over a file someone else put there.
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Whether `path` names a cache file (not a file being written, nor anything else).
fn is_cache_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(PREFIX))
        .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `path` is a cache file being written (`regions-….part`) that was last written at
/// `modified`, over [`STALE_PART`] before `now`.
fn is_stale_part(path: &Path, modified: std::time::SystemTime, now: std::time::SystemTime) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with(PREFIX)
        && name.ends_with(PART)
        && now
            .duration_since(modified)
            .is_ok_and(|age| age > STALE_PART)
}

/// A hash of a cache file's body, kept in its head.
fn checksum(body: &[u8]) -> u64 {
    let mut hash = rustc_hash::FxHasher::default();
    hash.write(body);
    hash.finish()
}

/// This binary's identity ([`ParseCache::binary`]): its build ID, or where it has none its
/// file's, or `None` when that file cannot be found either.
fn binary_identity() -> Option<String> {
    let version = env!("CARGO_PKG_VERSION");
    if let Some(id) = super::build_id::own() {
        return Some(format!("warren {version} build {id}"));
    }
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let inode = (0, 0);
    Some(format!(
        "warren {version} {} {} {modified} {inode:?}",
        exe.display(),
        meta.len(),
    ))
}
