//! The parse cache: what a regions directory's files read into ([`RegionFile`]s), kept between
//! runs, so that a start reads it back instead of parsing the TOML again. Parsing is most of
//! loading the shipped regions (about four fifths of the instructions) and, from a cold start,
//! about 0.2 ms of a 2.5 ms `warren run`.
//!
//! One cache file holds one set of texts and what each read into, one after another, in
//! postcard's binary form. It is used only when it was written by this very binary (its path, size, modification time
//! and inode, with warren's version) and every text read now equals the one it holds, byte for
//! byte; otherwise the files are parsed, and the cache written anew once every one of them has
//! been read. Errors are never cached (a set with a file that does not parse is not written),
//! and everything after parsing (the merge, every check, the resolved entries) runs either way,
//! so a cached parse makes the same registry, the same messages and the same maps.
//!
//! Where: `WARREN_CACHE_DIR`, else `$XDG_CACHE_HOME/warren`, else `$HOME/.cache/warren`;
//! `WARREN_CACHE_DIR=` (set, empty) turns the cache off. A cache file is named by a hash of
//! what it was made from, so directories with the same files share one; the oldest files are
//! removed once there are more than [`KEEP`] or they take more than [`KEEP_BYTES`] (a set of
//! files larger than that is not cached). Reading or writing the cache never fails a load: a
//! cache that cannot be read is parsed past, one that cannot be written is left unwritten.

use super::{RegionFile, Source};
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache files kept in the cache's directory: writing one more removes the oldest.
pub const KEEP: usize = 64;

/// The bytes the cache's files may take together: past them, the oldest are removed.
pub const KEEP_BYTES: u64 = 64 << 20;

/// What every cache file starts with: the format, changed whenever the layout below changes.
const FORMAT: &str = "warren region parse cache 1";

/// Cache files' names start with this (and only files so named are ever removed).
const PREFIX: &str = "regions-";

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
}

/// A parse cache in a directory, for this binary.
#[derive(Clone, Debug)]
pub struct ParseCache {
    /// Where its files are.
    dir: PathBuf,
    /// What tells this binary from any other: warren's version and the executable file's
    /// path, size, modification time and inode. A rebuilt or replaced binary has another, and
    /// the layout of what it caches may have changed with it.
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
        Some(ParseCache::new(dir, binary_identity()?))
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
        let bytes = std::fs::read(self.path(sources)).ok()?;
        let (head, rest) = postcard::take_from_bytes::<Head>(&bytes).ok()?;
        let same = head.format == FORMAT
            && head.binary == self.binary
            && head.texts.len() == sources.len()
            && head.texts.iter().zip(sources).all(|(t, s)| *t == s.text);
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
        let head = Head {
            format: FORMAT,
            binary: &self.binary,
            texts: sources.iter().map(|s| s.text.as_str()).collect(),
        };
        let Ok(mut bytes) = postcard::to_stdvec(&head) else {
            return;
        };
        for file in files {
            match postcard::to_extend(file, bytes) {
                Ok(more) => bytes = more,
                Err(_) => return,
            }
        }
        if bytes.len() as u64 > KEEP_BYTES || std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let path = self.path(sources);
        // Written aside and renamed into place: a reader never sees half a file, and two
        // writers of the same parse leave one whole copy.
        let aside = path.with_extension(format!("{}.part", std::process::id()));
        let written = std::fs::File::create(&aside).and_then(|mut f| f.write_all(&bytes));
        if written
            .and_then(|()| std::fs::rename(&aside, &path))
            .is_err()
        {
            let _ = std::fs::remove_file(&aside);
            return;
        }
        self.trim();
    }

    /// Removes the oldest cache files while there are more than [`KEEP`] or they take more
    /// than [`KEEP_BYTES`].
    fn trim(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf, u64)> = entries
            .flatten()
            .filter(|e| is_cache_file(&e.path()))
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                Some((meta.modified().ok()?, e.path(), meta.len()))
            })
            .collect();
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

/// Whether `path` names a cache file (not a file being written, nor anything else).
fn is_cache_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(PREFIX))
        .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// This binary's identity ([`ParseCache::binary`]), or `None` when its file cannot be found.
fn binary_identity() -> Option<String> {
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
        "warren {} {} {} {modified} {inode:?}",
        env!("CARGO_PKG_VERSION"),
        exe.display(),
        meta.len(),
    ))
}
