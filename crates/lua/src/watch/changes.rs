//! Debounced file changes: directories are watched (editors that save atomically replace the
//! file, which a watch on the file itself would lose), and a burst of events is delivered as one
//! batch of changed paths once the files have been quiet for a moment.
//!
//! A watched directory may itself be removed and created again (`rm -r regions && cp -r …`, a
//! branch switch, a directory renamed into place): a watch follows the directory it was put on,
//! not its name, so each watched directory's parent is watched too, and when the name comes
//! back the directory is watched afresh (and the batch names it, so what it holds is reloaded).

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long files must stay quiet before a batch is delivered.
pub const QUIET: Duration = Duration::from_millis(200);

/// The longest a batch keeps collecting once its first change came: files that never stay
/// quiet for long (a log rewritten every few tens of milliseconds beside the recipe) still
/// deliver a batch this often instead of holding the caller forever.
pub const MAX_SETTLE: Duration = Duration::from_secs(1);

/// Paths that changed together, and any errors the watcher reported meanwhile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// Every path named by an event (created, written, removed, renamed from or to).
    pub paths: BTreeSet<PathBuf>,
    /// Watcher errors (for example an inotify limit), as text.
    pub errors: Vec<String>,
}

/// A debounced watcher over a growing set of directories.
pub struct Changes {
    debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    rx: Receiver<DebounceEventResult>,
    /// The directories asked for, and whether below them too.
    watched: BTreeMap<PathBuf, RecursiveMode>,
    /// Their parents, watched (not recursively) to see a removed directory come back.
    anchors: BTreeSet<PathBuf>,
    quiet: Duration,
}

impl Changes {
    /// A watcher that delivers a batch once events have stopped for `quiet`.
    pub fn new(quiet: Duration) -> Result<Changes, String> {
        let (tx, rx) = channel();
        let debouncer = new_debouncer(quiet, None, tx)
            .map_err(|e| format!("cannot start the file watcher: {e}"))?;
        Ok(Changes {
            debouncer,
            rx,
            watched: BTreeMap::new(),
            anchors: BTreeSet::new(),
            quiet,
        })
    }

    /// Watches `dir` (and, if `recursive`, everything below it), also after it is removed and
    /// created again. Watching a directory twice does nothing. Paths in batches are under the
    /// canonical form of `dir`.
    pub fn watch_dir(&mut self, dir: &Path, recursive: bool) -> Result<(), String> {
        let dir = canonical_dir(dir);
        if self.watched.contains_key(&dir) {
            return Ok(());
        }
        let mode = if recursive {
            RecursiveMode::Recursive
        } else {
            RecursiveMode::NonRecursive
        };
        self.debouncer
            .watch(&dir, mode)
            .map_err(|e| format!("{}: cannot watch: {e}", dir.display()))?;
        self.watched.insert(dir.clone(), mode);
        // A parent watched as an anchor is now watched for itself: its files are no noise.
        self.anchors.remove(&dir);
        self.anchor(&dir);
        Ok(())
    }

    /// Watches the parent of `dir`, unless some watch already sees it. Best effort: without it
    /// (an unreadable parent, the root) only the removal of `dir` goes unfollowed.
    fn anchor(&mut self, dir: &Path) {
        let Some(parent) = dir.parent() else { return };
        let seen = self.anchors.contains(parent)
            || self.watched.iter().any(|(d, mode)| {
                d == parent || (*mode == RecursiveMode::Recursive && parent.starts_with(d))
            });
        if !seen
            && self
                .debouncer
                .watch(parent, RecursiveMode::NonRecursive)
                .is_ok()
        {
            self.anchors.insert(parent.to_path_buf());
        }
    }

    /// Whether `path` is only seen through a parent's watch and is not a watched directory:
    /// a sibling of one (the parent may be busy, `/tmp` say, and none of that is a change).
    fn is_anchor_noise(&self, path: &Path) -> bool {
        path.parent().is_some_and(|p| self.anchors.contains(p)) && !self.watched.contains_key(path)
    }

    /// Watches afresh every watched directory whose name (or an ancestor's) the batch
    /// mentions: one that is there again (created, or renamed into place) gets a new watch; one
    /// that is gone loses its old one (which would otherwise follow it under its new name).
    fn rewatch(&mut self, batch: &mut Batch) {
        // A directory created with the one named may hold watched ones the batch cannot name.
        let named: Vec<(PathBuf, RecursiveMode)> = self
            .watched
            .iter()
            .filter(|(d, _)| d.ancestors().any(|a| batch.paths.contains(a)))
            .map(|(d, m)| (d.clone(), *m))
            .collect();
        for (dir, mode) in named {
            let _ = self.debouncer.unwatch(&dir);
            if dir.is_dir() {
                if let Err(e) = self.debouncer.watch(&dir, mode) {
                    batch
                        .errors
                        .push(format!("{}: cannot watch again: {e}", dir.display()));
                }
            }
        }
    }

    /// Waits up to `timeout` for a change, then keeps collecting until the files have been
    /// quiet for the debounce time (but no longer than [`MAX_SETTLE`]), so a burst of saves
    /// becomes one batch. `None` if nothing changed in time (or the watcher stopped).
    pub fn next(&mut self, timeout: Duration) -> Option<Batch> {
        let mut batch = self.collect(timeout)?;
        self.rewatch(&mut batch);
        Some(batch)
    }

    /// The batch of [`Changes::next`], before any directory is watched afresh.
    fn collect(&self, timeout: Duration) -> Option<Batch> {
        let mut batch = Batch::default();
        let deadline = Instant::now() + timeout;
        let mut settled_by: Option<Instant> = None;
        loop {
            let empty = batch.paths.is_empty() && batch.errors.is_empty();
            let wait = match (empty, settled_by) {
                (true, _) => deadline.saturating_duration_since(Instant::now()),
                (false, None) => {
                    settled_by = Some(Instant::now() + MAX_SETTLE);
                    self.quiet * 2
                }
                (false, Some(by)) => {
                    let left = by.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Some(batch);
                    }
                    left.min(self.quiet * 2)
                }
            };
            match self.rx.recv_timeout(wait) {
                Ok(Ok(events)) => {
                    for e in events.iter().filter(|e| is_change(&e.event.kind)) {
                        let wanted = e.event.paths.iter().filter(|p| !self.is_anchor_noise(p));
                        batch.paths.extend(wanted.cloned());
                    }
                }
                Ok(Err(errors)) => batch.errors.extend(errors.iter().map(|e| e.to_string())),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    let empty = batch.paths.is_empty() && batch.errors.is_empty();
                    return (!empty).then_some(batch);
                }
            }
        }
    }
}

/// Whether an event kind can change what a file holds (opening or reading a file cannot).
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(m)) => {
            matches!(m, MetadataKind::WriteTime | MetadataKind::Any)
        }
        _ => true,
    }
}

/// The canonical form of a directory (as given when it cannot be resolved).
pub fn canonical_dir(dir: &Path) -> PathBuf {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// The canonical form of a file that may not exist right now: its directory canonicalised,
/// its name kept.
pub fn canonical_file(file: &Path) -> PathBuf {
    match (file.parent(), file.file_name()) {
        (Some(dir), Some(name)) => canonical_dir(dir).join(name),
        _ => file.to_path_buf(),
    }
}
