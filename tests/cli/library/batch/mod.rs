//! `warren::batch` (src/batch/): file names, a worker's panic, metric typos.

/// `chunks.rs`: the seeds claimed in chunks, each seed once.
mod chunks;
/// `journal.rs`: the journal an interrupted batch continues from.
mod journal;
/// `placement.rs`: workers moved to CPUs of their own (Linux).
#[cfg(target_os = "linux")]
mod placement;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use warren::batch::{file_name, prepare, Batch, StopOnPanic};
use warren::render::Format;
use warren::stats::SeedPlan;
use warren_core::region::explain::{nearest, Reach};
use warren_lua::error::Error;
use warren_lua::{Host, Limits};

#[test]
fn file_names_sort_in_seed_order() {
    let script = Path::new("scripts/rooms.lua");
    assert_eq!(file_name(script, 7, 3, Format::Json), "rooms-007.json");
    assert_eq!(file_name(script, 123, 3, Format::Png), "rooms-123.png");
}

#[test]
fn a_worker_that_panics_stops_the_batch() {
    let script = PathBuf::from("scripts/rooms.lua");
    let registry = warren_lua::run::load_registry(Some(Path::new("regions")), &script)
        .expect("the shipped regions load");
    let batch = Batch {
        script,
        registry: Arc::new(registry),
        limits: Limits::default(),
        sets: Vec::new(),
        plan: SeedPlan {
            start: 0,
            count: 1000,
            shard: None,
        },
        jobs: 2,
        files: None,
        records: None,
        metrics: Vec::new(),
        progress: false,
        interrupt: Arc::new(AtomicUsize::new(0)),
        exits_after: false,
        stream: None,
        background: false,
        turns: None,
    };
    let host =
        Host::load(&batch.script, batch.registry.clone(), batch.limits).expect("rooms.lua loads");
    let shared = prepare(&batch, &host, 2).expect("the batch starts");
    // Chunk 0 is claimed and never committed: without the guard, a worker past the window
    // would wait for it forever.
    let far = shared.window + 1;
    assert!(!shared.stopping());
    let panicked = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let _stop = StopOnPanic(&shared);
                panic!("a bug while measuring");
            })
            .join()
    });
    assert!(panicked.is_err());
    assert!(shared.stopping());
    assert!(!shared.wait_for_window(far), "no wait once the batch stops");
    let fatal = shared.fatal.lock().map(|mut f| f.take());
    assert!(
        matches!(fatal, Ok(Some(Error::Internal(ref m))) if m.contains("panicked")),
        "{fatal:?}"
    );
}

#[test]
fn typos_find_their_metric() {
    let known: Vec<String> = ["floor_fraction", "dead_ends", "time_us.total"]
        .map(String::from)
        .to_vec();
    let closest = |name| nearest(name, known.iter().map(String::as_str), Reach::Quarter);
    assert_eq!(closest("floor_fracton"), Some("floor_fraction"));
    assert_eq!(closest("time_us.totl"), Some("time_us.total"));
    assert_eq!(closest("rooms"), None);
}
