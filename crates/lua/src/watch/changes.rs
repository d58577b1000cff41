//! Debounced file changes: directories are watched (editors that save atomically replace the
//! file, which a watch on the file itself would lose), and a burst of events is delivered as one
//! batch of changed paths once the files have been quiet for a moment.

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::collections::BTreeSet;
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
    watched: BTreeSet<PathBuf>,
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
            watched: BTreeSet::new(),
            quiet,
        })
    }

    /// Watches `dir` (and, if `recursive`, everything below it). Watching a directory twice
    /// does nothing. Paths in batches are under the canonical form of `dir`.
    pub fn watch_dir(&mut self, dir: &Path, recursive: bool) -> Result<(), String> {
        let dir = canonical_dir(dir);
        if self.watched.contains(&dir) {
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
        self.watched.insert(dir);
        Ok(())
    }

    /// Waits up to `timeout` for a change, then keeps collecting until the files have been
    /// quiet for the debounce time (but no longer than [`MAX_SETTLE`]), so a burst of saves
    /// becomes one batch. `None` if nothing changed in time (or the watcher stopped).
    pub fn next(&self, timeout: Duration) -> Option<Batch> {
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
                        batch.paths.extend(e.event.paths.iter().cloned());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_writes_is_one_batch_and_reads_are_no_change() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        std::fs::write(&file, "x = 0").unwrap();
        let mut changes = Changes::new(Duration::from_millis(100)).unwrap();
        changes.watch_dir(dir.path(), false).unwrap();
        for i in 0..20 {
            std::fs::write(&file, format!("x = {i}")).unwrap();
        }
        let batch = changes.next(Duration::from_secs(20)).expect("a batch");
        assert_eq!(
            batch.paths.into_iter().collect::<Vec<_>>(),
            vec![canonical_file(&file)]
        );
        assert_eq!(changes.next(Duration::from_millis(500)), None);
        std::fs::read_to_string(&file).unwrap();
        assert_eq!(changes.next(Duration::from_millis(500)), None);
    }

    #[test]
    fn files_that_never_go_quiet_still_deliver_a_batch_every_max_settle() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("log.txt");
        let quiet = Duration::from_millis(30);
        let mut changes = Changes::new(quiet).unwrap();
        changes.watch_dir(dir.path(), false).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (stop, file) = (stop.clone(), file.clone());
            std::thread::spawn(move || {
                let (mut i, began) = (0, Instant::now());
                // Bounded, so that a watcher without the cap fails the test instead of hanging.
                while !stop.load(std::sync::atomic::Ordering::Relaxed)
                    && began.elapsed() < Duration::from_secs(10)
                {
                    std::fs::write(&file, format!("{i}")).unwrap();
                    i += 1;
                    // Longer than the quiet time, shorter than twice it: every write is
                    // delivered, and each arrives before the batch would close.
                    std::thread::sleep(Duration::from_millis(45));
                }
            })
        };
        let started = Instant::now();
        let batch = changes.next(Duration::from_secs(20));
        let took = started.elapsed();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        writer.join().unwrap();
        assert!(batch.is_some());
        assert!(took < Duration::from_secs(5), "held for {took:?}");
    }

    #[test]
    fn canonical_file_keeps_missing_names() {
        let dir = tempfile::tempdir().unwrap();
        let f = canonical_file(&dir.path().join("gone.lua"));
        assert_eq!(f, canonical_dir(dir.path()).join("gone.lua"));
    }
}
