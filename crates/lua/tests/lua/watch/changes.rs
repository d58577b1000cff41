//! File change batches: bursts, removed and re-created directories, files that never go quiet
//! (`watch/changes.rs`).

use std::time::{Duration, Instant};
use warren_lua::watch::changes::{canonical_dir, canonical_file, Changes};

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
fn a_directory_removed_and_created_again_is_watched_again() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("regions");
    std::fs::create_dir(&dir).unwrap();
    let mut changes = Changes::new(Duration::from_millis(100)).unwrap();
    changes.watch_dir(&dir, true).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let gone = changes.next(Duration::from_secs(20)).expect("the removal");
    assert!(gone.paths.contains(&canonical_file(&dir)), "{gone:?}");
    std::fs::create_dir(&dir).unwrap();
    let back = changes.next(Duration::from_secs(20)).expect("the creation");
    assert!(back.paths.contains(&canonical_file(&dir)), "{back:?}");
    // Siblings seen only through the parent's watch are not changes.
    std::fs::write(root.path().join("notes.txt"), "x").unwrap();
    std::fs::write(dir.join("a.toml"), "x = 1").unwrap();
    let edit = changes
        .next(Duration::from_secs(20))
        .expect("an edit in the new directory");
    assert_eq!(
        edit.paths.into_iter().collect::<Vec<_>>(),
        vec![canonical_file(&dir.join("a.toml"))]
    );
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
