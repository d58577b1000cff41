//! warren's cache directory: work a start would otherwise redo, kept between runs by the very
//! binary that did it. Two kinds of file live there ([`Kind`]): the registry the region files
//! make ([`crate::region::cache`]) and recipes compiled to Lua bytecode (`warren-lua`'s `compiled`
//! module). Each kind chooses what its files hold; this module says where they are, names them,
//! writes them whole or not at all, and keeps their number and size in bounds.
//!
//! Where: `WARREN_CACHE_DIR`, else `$XDG_CACHE_HOME/warren`, else `$HOME/.cache/warren`;
//! `WARREN_CACHE_DIR=` (set, empty) turns the cache off. The directory and files are made
//! readable by their owner only. A cache file is named by its kind and a hash of what it was
//! made from (the binary and the texts), so directories with the same files share one; the
//! least recently written files, of every kind together, are removed once there are more than
//! [`KEEP`] or they take more than [`KEEP_BYTES`] (a cache file larger than that is not
//! written). Reading or writing the cache never fails anything: a cache that cannot be read is
//! worked past, one that cannot be written is left out.
//!
//! What a cache file holds is trusted: a compiled chunk is loaded as Lua bytecode, which Lua
//! does not check. So every cache file starts with a tag, a keyed hash (SipHash-1-3, 128 bits)
//! of this binary's identity and the rest, made with a key that only this user can read (the directory's `key` file, 16
//! random bytes, made on first use, the effective user's and readable or writable by no one
//! else), and is read only when its tag is right: no one without the key can make a file that
//! is read, whoever can write to the directory, and a damaged file is seen too. A key file that
//! is a link, is someone else's or others may read or write is not used, and then neither is
//! the cache. A file another binary wrote (whose layout may differ) has another tag.

pub mod build_id;

use siphasher::sip128::{Hasher128, SipHasher13};
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache files kept in the cache's directory: writing one more removes the least recently
/// written.
pub const KEEP: usize = 64;

/// The bytes the cache's files may take together: past them, the least recently written are
/// removed.
pub const KEEP_BYTES: u64 = 64 << 20;

/// The file in the cache's directory that holds the key of its files' tags.
const KEY_FILE: &str = "key";

/// The bytes of the key, and of the tag each cache file starts with.
const KEY_BYTES: usize = 16;

/// A tag: the keyed hash a cache file starts with.
type Tag = [u8; KEY_BYTES];

/// A cache file being written ends with this; one left by a writer that stopped halfway is
/// removed once it is [`STALE_PART`] old.
const PART: &str = ".part";

/// How old a file being written must be for [`CacheDir::trim`] to take it for abandoned.
const STALE_PART: std::time::Duration = std::time::Duration::from_secs(3600);

/// What a cache file holds, which names it: `<prefix><16 hexadecimal digits>`. Only files so
/// named are ever removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The registry a regions directory's files make (`regions-…`).
    Regions,
    /// A recipe's chunk compiled to Lua bytecode (`chunk-…`).
    Chunk,
}

impl Kind {
    /// Every kind, for [`CacheDir::trim`].
    const ALL: [Kind; 2] = [Kind::Regions, Kind::Chunk];

    /// What the names of this kind's files start with.
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Regions => "regions-",
            Kind::Chunk => "chunk-",
        }
    }
}

/// The cache directory this process uses, for this binary.
#[derive(Clone, Debug)]
pub struct CacheDir {
    /// Where its files are.
    dir: PathBuf,
    /// What tells this binary from any other: warren's version and its build ID (see
    /// [`build_id`]), or, where it has none, the executable file's path, size,
    /// modification time and inode. A rebuilt or replaced binary has another, and the layout
    /// of what it caches may have changed with it.
    binary: String,
}

impl CacheDir {
    /// The cache this process uses (see the module's documentation), or `None` when it is
    /// turned off or there is nowhere to put it.
    pub fn from_env() -> Option<CacheDir> {
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
        Some(CacheDir::new(dir, binary))
    }

    /// A cache in `dir` for the binary `binary` (any text that tells it from other binaries).
    pub fn new(dir: PathBuf, binary: String) -> CacheDir {
        CacheDir { dir, binary }
    }

    /// The file of kind `kind` made from `texts` (by this binary), whether or not it was
    /// written.
    pub fn path(&self, kind: Kind, texts: &[&str]) -> PathBuf {
        let mut hash = rustc_hash::FxHasher::default();
        hash.write(self.binary.as_bytes());
        for text in texts {
            hash.write_usize(text.len());
            hash.write(text.as_bytes());
        }
        self.dir
            .join(format!("{}{:016x}", kind.prefix(), hash.finish()))
    }

    /// What the cache file at `path` holds after its tag, if it is a regular file of at most
    /// [`KEEP_BYTES`] (not a link, a FIFO, a device or anything larger) whose tag is right
    /// (see the module's documentation): never anything someone without the key has made.
    pub fn read(&self, path: &Path) -> Option<Vec<u8>> {
        let key = self.key(false)?;
        let mut bytes = read_file(path)?;
        let tag: Tag = bytes.get(..KEY_BYTES)?.try_into().ok()?;
        if !same_tag(&tag, &self.tag_of(&key, &bytes[KEY_BYTES..])) {
            return None;
        }
        bytes.drain(..KEY_BYTES);
        Some(bytes)
    }

    /// Writes `bytes`, after their tag, as the cache file at `path` (one of
    /// [`CacheDir::path`]'s), then trims the directory. Best effort: a directory that cannot be
    /// made or written, or whose key cannot be used, leaves nothing behind.
    pub fn write(&self, path: &Path, bytes: &[u8]) {
        if bytes.len() + KEY_BYTES > KEEP_BYTES as usize || make_private_dir(&self.dir).is_err() {
            return;
        }
        let Some(key) = self.key(true) else {
            return;
        };
        let tag = self.tag_of(&key, bytes);
        let written = write_aside(path, |file| {
            file.write_all(&tag)?;
            file.write_all(bytes)
        });
        if written
            .and_then(|aside| std::fs::rename(&aside, path))
            .is_ok()
        {
            self.trim();
        }
    }

    /// The tag of `bytes` under `key`, for this binary: a file another binary wrote (whose
    /// layout may differ) has another tag.
    fn tag_of(&self, key: &Tag, bytes: &[u8]) -> Tag {
        let mut hash = SipHasher13::new_with_key(key);
        hash.write_usize(self.binary.len());
        hash.write(self.binary.as_bytes());
        hash.write(bytes);
        hash.finish128().as_bytes()
    }

    /// The key of the directory's tags: read from its key file, made first when `make` and
    /// there is none. `None` when it cannot be read or made, or its file is not this user's
    /// alone. Kept for the rest of the process once read.
    fn key(&self, make: bool) -> Option<Tag> {
        static KEYS: std::sync::Mutex<Vec<(PathBuf, Tag)>> = std::sync::Mutex::new(Vec::new());
        let mut keys = KEYS.lock().ok()?;
        if let Some((_, key)) = keys.iter().find(|(dir, _)| *dir == self.dir) {
            return Some(*key);
        }
        let file = self.dir.join(KEY_FILE);
        let key = match read_key(&file) {
            Some(key) => key,
            None if make && !file.exists() => make_key(&file)?,
            None => return None,
        };
        keys.push((self.dir.clone(), key));
        Some(key)
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

/// Whether two tags are the same, looking at every byte whatever the first difference.
fn same_tag(a: &Tag, b: &Tag) -> bool {
    a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Writes a new file beside `path`, under a name no other writer uses, with `fill`, and
/// returns its path (for a rename into place: a reader never sees half a file, and two
/// writers of the same file leave one whole copy). A file that could not be written whole is
/// removed.
fn write_aside(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let aside = path.with_extension(format!("{}-{write}{PART}", std::process::id()));
    let written = private_file(&aside).and_then(|mut file| fill(&mut file));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&aside);
        return Err(e);
    }
    Ok(aside)
}

/// The key in the key file at `path`, if it holds [`KEY_BYTES`] and is a regular file (not a
/// link), the effective user's, that no group or other may read or write (on Unix): asked of
/// the file opened and read, so that no other file can be swapped in between.
fn read_key(path: &Path) -> Option<Tag> {
    let (bytes, meta) = read_file_and_meta(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != effective_user() || meta.mode() & 0o077 != 0 {
            return None;
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    bytes.try_into().ok()
}

/// Makes a new key and its file at `path` (a new file only: when another process made one
/// first, that one is read instead).
fn make_key(path: &Path) -> Option<Tag> {
    let mut key = [0; KEY_BYTES];
    getrandom::fill(&mut key).ok()?;
    let aside = write_aside(path, |file| file.write_all(&key)).ok()?;
    // A link to the new file under the key's name: made only if there is none yet.
    let linked = std::fs::hard_link(&aside, path);
    let _ = std::fs::remove_file(&aside);
    match linked {
        Ok(()) => Some(key),
        Err(_) => read_key(path),
    }
}

/// Makes `dir` and any directory above it that is missing, readable by their owner only (on
/// Unix): the cache holds the region files' and recipes' texts, which may not be everyone's
/// to read.
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

/// The bytes of the file at `path` if it is a regular file of at most [`KEEP_BYTES`], not a
/// link (asked of the file opened, so that nothing can be swapped in between).
fn read_file(path: &Path) -> Option<Vec<u8>> {
    read_file_and_meta(path).map(|(bytes, _)| bytes)
}

/// [`read_file`], with what the file opened says of itself.
fn read_file_and_meta(path: &Path) -> Option<(Vec<u8>, std::fs::Metadata)> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Not through a link; and a FIFO opens without waiting for a writer (then refused).
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut options,
            libc::O_NOFOLLOW | libc::O_NONBLOCK,
        );
    }
    let file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > KEEP_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(KEEP_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= KEEP_BYTES).then_some((bytes, meta))
}

/// The process's effective user id, asked once.
#[cfg(unix)]
fn effective_user() -> u32 {
    static ME: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    // SAFETY: `geteuid` only reads the process's credentials.
    *ME.get_or_init(|| unsafe { libc::geteuid() })
}

/// The name of the file at `path`, when it is text.
fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Whether `path` names a cache file of any kind (not a file being written, nor anything else).
fn is_cache_file(path: &Path) -> bool {
    let name = file_name(path);
    Kind::ALL.iter().any(|kind| {
        name.strip_prefix(kind.prefix())
            .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
    })
}

/// Whether `path` is a cache file or key being written (`regions-….part`, `chunk-….part`,
/// `key.….part`) that was last written at `modified`, over [`STALE_PART`] before `now`.
fn is_stale_part(path: &Path, modified: std::time::SystemTime, now: std::time::SystemTime) -> bool {
    let name = file_name(path);
    let ours = Kind::ALL.iter().any(|kind| name.starts_with(kind.prefix()))
        || name.starts_with(&format!("{KEY_FILE}."));
    ours && name.ends_with(PART)
        && now
            .duration_since(modified)
            .is_ok_and(|age| age > STALE_PART)
}

/// This binary's identity (`CacheDir::binary`, in every tag): its build ID, or where it has none its
/// file's, or `None` when that file cannot be found either.
fn binary_identity() -> Option<String> {
    let version = env!("CARGO_PKG_VERSION");
    if let Some(id) = build_id::own() {
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
