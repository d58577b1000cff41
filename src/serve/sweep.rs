//! Statistics sweeps: the page's live statistics over many seeds. A sweep is `warren batch`
//! (the same engine, [`crate::batch::run`], so the same numbers) over the recipe as the server
//! has it loaded, run in the background on every core at a lower priority than the page's own
//! maps. Its statistics are folded in as chunks of seeds finish and published to the pages that
//! watch it, a few times a second.
//!
//! One sweep runs at a time. A page asking for the sweep that runs (or last finished) shares
//! it; any other sweep replaces it. A sweep stops early when a newer version of its recipe is
//! loaded (a save: the page then asks for a sweep of the new version) or when no page watches
//! it any more.

use super::query::SweepRequest;
use super::worker::SweepInputs;
use crate::batch::{self, Batch, Streamed};
use crate::stats::{Aggregate, Header, Outcome, SeedPlan};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use warren_lua::run::params_json;
use warren_lua::Host;

/// How often a running sweep publishes its statistics.
const PUBLISH_EVERY: Duration = Duration::from_millis(150);
/// Failures listed by seed (the lowest seeds); the rest are counted.
pub const FAILURES_LISTED: usize = 100;

/// What identifies a sweep: two requests with equal keys share one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    recipe: String,
    version: u64,
    /// The resolved parameters, as JSON.
    params: String,
    start: u64,
    count: u64,
}

/// A sweep's latest statistics, as the JSON a page reads.
#[derive(Debug)]
pub struct Progress {
    /// The JSON text.
    pub json: String,
    /// Whether the sweep has ended (done, cancelled or failed): nothing follows.
    pub finished: bool,
    /// Whether it ended with every seed it was asked for (or failed to start), so that its
    /// statistics can be served again; false while it runs and when it was cancelled.
    pub whole: bool,
}

/// The sweep that runs or last ran.
struct Current {
    key: Key,
    progress: watch::Receiver<Arc<Progress>>,
    control: Arc<Control>,
}

/// What stops a sweep: the batch's interrupt flag, raised when its last watcher leaves.
#[derive(Default)]
struct Control {
    interrupt: Arc<AtomicUsize>,
    watchers: AtomicUsize,
    /// Why it was stopped, when it was.
    why: Mutex<Option<&'static str>>,
}

impl Control {
    fn stop(&self, why: &'static str) {
        if let Ok(mut w) = self.why.lock() {
            w.get_or_insert(why);
        }
        self.interrupt.store(1, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) != 0
    }
}

/// A page watching a sweep: the sweep stops when the last one is dropped.
pub struct Watcher {
    control: Arc<Control>,
    /// The sweep's statistics, the latest first.
    pub progress: watch::Receiver<Arc<Progress>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if self.control.watchers.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.control.stop("no page watches it any more");
        }
    }
}

/// The server's sweeps.
pub struct Sweeps {
    current: Mutex<Option<Current>>,
    /// Worker threads per sweep.
    jobs: usize,
    /// Sweeps started, for their ids.
    started: AtomicUsize,
}

impl Default for Sweeps {
    fn default() -> Self {
        Sweeps {
            current: Mutex::new(None),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            started: AtomicUsize::new(0),
        }
    }
}

impl Sweeps {
    /// Watches the sweep `request` asks for with `inputs`: the one running (or last finished)
    /// when it is the same, else a new one, which stops the one before.
    pub fn watch(&self, request: &SweepRequest, inputs: SweepInputs) -> Result<Watcher, String> {
        let key = Key {
            recipe: request.recipe.clone(),
            version: inputs.version,
            params: serde_json::to_string(&params_json(&inputs.params)).unwrap_or_default(),
            start: request.start,
            count: request.count,
        };
        let mut current = self
            .current
            .lock()
            .map_err(|_| "the sweeps' state is broken (a bug in warren)".to_string())?;
        if let Some(c) = current.as_ref() {
            let reusable = {
                let p = c.progress.borrow();
                if p.finished {
                    p.whole
                } else {
                    !c.control.stopped()
                }
            };
            if c.key == key && reusable {
                c.control.watchers.fetch_add(1, Ordering::AcqRel);
                return Ok(Watcher {
                    control: c.control.clone(),
                    progress: c.progress.clone(),
                });
            }
            c.control.stop("a newer sweep replaced it");
        }
        let id = self.started.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(Control {
            watchers: AtomicUsize::new(1),
            ..Control::default()
        });
        let progress = start(id, key.clone(), request, inputs, self.jobs, control.clone())?;
        *current = Some(Current {
            key,
            progress: progress.clone(),
            control: control.clone(),
        });
        Ok(Watcher { control, progress })
    }
}

/// Starts a sweep on a thread of its own; returns its statistics as they come.
fn start(
    id: usize,
    key: Key,
    request: &SweepRequest,
    inputs: SweepInputs,
    jobs: usize,
    control: Arc<Control>,
) -> Result<watch::Receiver<Arc<Progress>>, String> {
    let header = Header {
        recipe: inputs.name.clone(),
        params: params_json(&inputs.params),
        plan: Some(SeedPlan {
            start: request.start,
            count: request.count,
            shard: None,
        }),
    };
    let mut folded = Folded::new(id, &key, jobs, header);
    let (publish, progress) = watch::channel(Arc::new(folded.progress("running", None)));
    let sets = request.sets.clone();
    std::thread::Builder::new()
        .name("warren-sweep".into())
        .spawn(move || {
            let (tx, rx) = channel::<Streamed>();
            let batch = Batch {
                script: inputs.script.clone(),
                registry: inputs.registry.clone(),
                limits: inputs.limits,
                sets,
                plan: SeedPlan {
                    start: key.start,
                    count: key.count,
                    shard: None,
                },
                jobs,
                files: None,
                records: None,
                metrics: Vec::new(),
                progress: false,
                interrupt: control.interrupt.clone(),
                exits_after: false,
                stream: Some(tx),
                background: true,
                turns: Some(inputs.turns.clone()),
            };
            let mut status = inputs.status;
            std::thread::scope(|scope| {
                // The runner owns the batch: its end drops the batch's sender, which ends the
                // loop below once every chunk is in.
                let runner = scope.spawn(move || {
                    batch::run(&batch, || {
                        Host::load(&batch.script, batch.registry.clone(), batch.limits)
                    })
                    .map(|_| ())
                });
                let mut published = Instant::now();
                let mut shown = 0;
                loop {
                    match rx.recv_timeout(PUBLISH_EVERY) {
                        Ok(chunk) => folded.absorb(chunk),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                    if status.has_changed().unwrap_or(true)
                        && status.borrow_and_update().version != key.version
                    {
                        control.stop("a newer version of the recipe was loaded");
                    }
                    // The first maps are shown at once; then a few times a second.
                    let maps = folded.data.maps();
                    let first = shown == 0 && maps > 0;
                    if first || (maps > shown && published.elapsed() >= PUBLISH_EVERY) {
                        shown = maps;
                        publish.send_replace(Arc::new(folded.progress("running", None)));
                        published = Instant::now();
                    }
                }
                // The batch's sender is gone: every chunk is in. How did it end?
                let outcome = runner.join().unwrap_or_else(|_| {
                    Err(warren_lua::Error::Internal("the sweep panicked".into()))
                });
                let why = control.why.lock().ok().and_then(|w| *w);
                let last = match (outcome, why) {
                    (Err(e), _) => folded.progress("error", Some(e.to_string())),
                    (Ok(()), Some(why)) if folded.data.maps() < key.count => {
                        folded.progress("cancelled", Some(why.to_string()))
                    }
                    (Ok(()), _) => folded.progress("done", None),
                };
                publish.send_replace(Arc::new(last));
            });
        })
        .map_err(|e| format!("cannot start a sweep: {e}"))?;
    Ok(progress)
}

/// A sweep's statistics so far.
struct Folded {
    id: usize,
    recipe: String,
    version: u64,
    start: u64,
    count: u64,
    jobs: usize,
    data: Aggregate,
    /// The failures of the lowest seeds, ascending.
    failures: Vec<(u64, String)>,
    began: Instant,
    /// When the first maps were folded in.
    first: Option<Duration>,
}

/// One metric's statistics, for the page.
#[derive(Serialize)]
struct MetricOut<'a> {
    name: &'a str,
    count: u64,
    min: f64,
    median: f64,
    p95: f64,
    max: f64,
    mean: f64,
    /// Whether the quantiles and values are exact (else within 0.1%).
    exact: bool,
    /// Every distinct value and its count, ascending (the page bins them).
    values: Vec<(f64, u64)>,
}

/// One time column's summary (times vary from run to run: no values).
#[derive(Serialize)]
struct TimeOut<'a> {
    name: &'a str,
    count: u64,
    median: f64,
    p95: f64,
    max: f64,
}

#[derive(Serialize)]
struct FailureOut<'a> {
    seed: String,
    message: &'a str,
}

#[derive(Serialize)]
struct ProgressOut<'a> {
    id: usize,
    recipe: &'a str,
    version: u64,
    start: String,
    count: u64,
    jobs: usize,
    /// `running`, `done`, `cancelled` or `error`.
    state: &'a str,
    /// Why a sweep was cancelled or failed.
    reason: Option<String>,
    done: u64,
    failed: u64,
    failures: Vec<FailureOut<'a>>,
    metrics: Vec<MetricOut<'a>>,
    times: Vec<TimeOut<'a>>,
    elapsed_ms: f64,
    first_ms: Option<f64>,
}

impl Folded {
    fn new(id: usize, key: &Key, jobs: usize, header: Header) -> Folded {
        Folded {
            id,
            recipe: key.recipe.clone(),
            version: key.version,
            start: key.start,
            count: key.count,
            jobs,
            data: Aggregate::new(header),
            failures: Vec::new(),
            began: Instant::now(),
            first: None,
        }
    }

    fn absorb(&mut self, chunk: Streamed) {
        self.data.absorb(&chunk.records, &chunk.names);
        for r in &chunk.records {
            if let Outcome::Failed(message) = &r.outcome {
                let at = self.failures.partition_point(|f| f.0 < r.seed);
                if at < FAILURES_LISTED {
                    self.failures.insert(at, (r.seed, message.clone()));
                    self.failures.truncate(FAILURES_LISTED);
                }
            }
        }
        self.first.get_or_insert_with(|| self.began.elapsed());
    }

    fn progress(&self, state: &str, reason: Option<String>) -> Progress {
        let metrics = self
            .data
            .metrics()
            .into_iter()
            .filter_map(|c| {
                let s = c.stats.summary()?;
                Some(MetricOut {
                    name: c.name,
                    count: s.count,
                    min: s.min,
                    median: s.median,
                    p95: s.p95,
                    max: s.max,
                    mean: s.mean,
                    exact: s.exact,
                    values: c.stats.values().collect(),
                })
            })
            .collect();
        let times = self
            .data
            .times()
            .into_iter()
            .filter_map(|c| {
                let s = c.stats.summary()?;
                Some(TimeOut {
                    name: c.name,
                    count: s.count,
                    median: s.median,
                    p95: s.p95,
                    max: s.max,
                })
            })
            .collect();
        let out = ProgressOut {
            id: self.id,
            recipe: &self.recipe,
            version: self.version,
            start: self.start.to_string(),
            count: self.count,
            jobs: self.jobs,
            state,
            reason,
            done: self.data.maps(),
            failed: self.data.failed(),
            failures: self
                .failures
                .iter()
                .map(|(seed, message)| FailureOut {
                    seed: seed.to_string(),
                    message,
                })
                .collect(),
            metrics,
            times,
            elapsed_ms: self.began.elapsed().as_secs_f64() * 1e3,
            first_ms: self.first.map(|d| d.as_secs_f64() * 1e3),
        };
        Progress {
            json: serde_json::to_string(&out).unwrap_or_default(),
            finished: state != "running",
            whole: state == "done" || state == "error",
        }
    }
}
