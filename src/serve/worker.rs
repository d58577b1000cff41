//! The generation worker: one thread that owns the live recipe (its Lua state is not `Send`),
//! follows the files with the same machinery as `warren watch` ([`LiveRecipe`], [`Changes`]),
//! and generates maps for requests one at a time under the recipe's budgets.
//!
//! Requests wait in a bounded queue: a full queue is refused at once ("busy"), never blocks the
//! server. A request whose caller has gone away is dropped unrun, and one whose caller goes
//! away while it runs (the page moved on to another seed, the connection closed) is cancelled
//! at its next budget checkpoint, so the worker is free for what the page wants now. Recent
//! generations are kept, so a page's layers and downloads of the map on screen do not generate
//! it again. After a reload the worker publishes a new [`Status`]; pages regenerate when its
//! version changes.

use super::query::MapRequest;
use super::status::{problems_of, Problem, RecipeInfo, Session, Status};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};
use warren_core::map::Map;
use warren_core::stats::{Measurer, BUILTIN};
use warren_lua::api::debug::Snapshot;
use warren_lua::error::Error;
use warren_lua::run::{level_seed, Level};
use warren_lua::watch::changes::Changes;
use warren_lua::watch::live::LiveRecipe;
use warren_lua::{Host, Limits, ParamValue, ParamValues, Run};

/// How long files must be quiet before a reload. Shorter than `warren watch`'s, so that a
/// page follows a save within 300 ms (editors finish a save, atomic or not, within a few ms).
pub const QUIET: Duration = Duration::from_millis(40);
/// Requests that may wait for the worker; more are refused as busy.
const QUEUE: usize = 32;
/// How often the worker looks at file changes while no request comes.
const POLL: Duration = Duration::from_millis(10);
/// Generations kept for the layers and downloads of maps on screen.
const KEPT: usize = 4;
/// The most cells one page request may hold, levels and kept steps together (2048 × 2048):
/// beyond this the browser's copy grows past what it can redraw smoothly. `warren run` has no
/// such limit.
pub const MAX_PAGE_CELLS: usize = 1 << 22;

/// Why a request was not served.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The request is malformed: an unknown parameter, a value out of range (400).
    BadRequest(String),
    /// The map would be too large for the page (413).
    TooLarge(String),
    /// The recipe or its region files are broken, or the recipe failed (422): every problem.
    Recipe(Vec<Problem>),
    /// Too many requests are waiting (503).
    Busy,
    /// A bug in warren (500).
    Internal(String),
}

/// One finished level, with what the page shows beside the map.
#[derive(Debug)]
pub struct LevelResult {
    /// The level.
    pub level: Level,
    /// Its `map:snapshot` steps (when asked for), oldest first.
    pub snapshots: Vec<Snapshot>,
    /// Steps left out to keep the page's copy within [`MAX_PAGE_CELLS`].
    pub snapshots_dropped: usize,
    /// Its generation time.
    pub time: Duration,
    /// Its `ctx.phase` marks.
    pub phases: Vec<(String, Duration)>,
    /// The measurements `warren batch` takes, then the recipe's own metrics.
    pub metrics: Vec<(String, f64)>,
}

/// A finished generation.
#[derive(Debug)]
pub struct Generation {
    /// The status version it was generated under.
    pub version: u64,
    /// The request.
    pub request: MapRequest,
    /// The recipe's name.
    pub recipe: String,
    /// The parameter values used (defaults filled in).
    pub params: ParamValues,
    /// The levels, top first.
    pub levels: Vec<LevelResult>,
}

impl Generation {
    /// The levels as `warren run` renders them.
    pub fn plain_levels(&self) -> Vec<Level> {
        self.levels.iter().map(|l| l.level.clone()).collect()
    }
}

type Reply = oneshot::Sender<Result<Arc<Generation>, Failure>>;

struct Job {
    request: MapRequest,
    reply: Reply,
    /// Set when the caller stops waiting (the page moved on, the connection closed, the wait
    /// timed out): the generation, if it is running, ends at its next budget checkpoint.
    cancel: Arc<AtomicBool>,
}

/// Cancels a job when the request that sent it is dropped before its answer came.
struct CancelOnDrop {
    flag: Arc<AtomicBool>,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.flag.store(true, Ordering::Relaxed);
        }
    }
}

/// What the worker needs to start.
pub struct Setup {
    /// The recipe.
    pub script: PathBuf,
    /// The region directory.
    pub regions: PathBuf,
    /// Budgets.
    pub limits: Limits,
    /// The start-up command line, for the status.
    pub session: Session,
}

/// The handle the server keeps: a queue into the worker and the latest status.
#[derive(Clone)]
pub struct Worker {
    jobs: SyncSender<Job>,
    status: watch::Receiver<Arc<Status>>,
}

impl Worker {
    /// Starts the worker thread; it loads the recipe and starts watching before this returns.
    pub fn start(setup: Setup) -> Result<Worker, Error> {
        let (jobs, queue) = sync_channel(QUEUE);
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("warren-serve-worker".into())
            .spawn(move || run(setup, queue, ready_tx))
            .map_err(|e| Error::Io(format!("cannot start the generation thread: {e}")))?;
        let status = ready_rx
            .recv()
            .map_err(|_| Error::Internal("the generation thread stopped at start-up".into()))??;
        Ok(Worker { jobs, status })
    }

    /// The latest status, and every later one.
    pub fn status(&self) -> watch::Receiver<Arc<Status>> {
        self.status.clone()
    }

    /// Generates (or finds among the kept generations) the map `request` asks for.
    /// If this future is dropped before the answer comes, the generation is cancelled.
    pub async fn generate(&self, request: MapRequest) -> Result<Arc<Generation>, Failure> {
        let (reply, answer) = oneshot::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let mut abandoned = CancelOnDrop {
            flag: cancel.clone(),
            armed: true,
        };
        match self.jobs.try_send(Job {
            request,
            reply,
            cancel,
        }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(Failure::Busy),
            Err(TrySendError::Disconnected(_)) => {
                return Err(Failure::Internal(
                    "the generation thread has stopped".into(),
                ))
            }
        }
        let answered = answer.await;
        abandoned.armed = false;
        answered.unwrap_or_else(|_| {
            Err(Failure::Internal(
                "the generation thread has stopped".into(),
            ))
        })
    }
}

/// The worker's state.
struct State {
    live: LiveRecipe,
    changes: Changes,
    version: u64,
    session: Session,
    status: watch::Sender<Arc<Status>>,
    kept: Vec<Arc<Generation>>,
    measurer: Measurer,
}

/// The worker thread: load, report ready, then serve jobs and follow the files until the
/// server goes away.
fn run(
    setup: Setup,
    queue: Receiver<Job>,
    ready: std::sync::mpsc::Sender<Result<watch::Receiver<Arc<Status>>, Error>>,
) {
    let started = Instant::now();
    let live = LiveRecipe::load(&setup.script, &setup.regions, Vec::new(), setup.limits);
    let changes = match Changes::new(QUIET) {
        Ok(c) => c,
        Err(e) => {
            let _ = ready.send(Err(Error::Io(e)));
            return;
        }
    };
    let first = Arc::new(Status {
        version: 0,
        session: setup.session.clone(),
        recipe: None,
        problems: Vec::new(),
        reason: String::new(),
        reload_ms: 0.0,
    });
    let (status, receiver) = watch::channel(first);
    let mut state = State {
        live,
        changes,
        version: 0,
        session: setup.session,
        status,
        kept: Vec::new(),
        measurer: Measurer::new(),
    };
    if let Err(e) = state.live.watch(&mut state.changes) {
        let _ = ready.send(Err(Error::Io(e)));
        return;
    }
    state.publish("started", started.elapsed());
    if ready.send(Ok(receiver)).is_err() {
        return;
    }
    loop {
        match queue.recv_timeout(POLL) {
            Ok(job) => state.serve(job),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        // A bug while reloading must not stop the server: report it and keep the last state.
        if std::panic::catch_unwind(AssertUnwindSafe(|| state.follow_files())).is_err() {
            eprintln!("serve: internal error while reloading (a bug in warren, please report it)");
        }
    }
}

impl State {
    /// Reloads what a batch of file changes touched, if anything, and publishes the result.
    fn follow_files(&mut self) {
        let Some(batch) = self.changes.next(Duration::ZERO) else {
            return;
        };
        for e in &batch.errors {
            eprintln!("serve: watcher problem: {e}");
        }
        let changed = self.live.changed(&batch);
        if changed.is_empty() {
            return;
        }
        let started = Instant::now();
        self.live
            .reload(!changed.regions.is_empty(), !changed.scripts.is_empty());
        // Newly required modules may live in directories not watched yet.
        if let Err(e) = self.live.watch(&mut self.changes) {
            eprintln!("serve: {e}");
        }
        self.version += 1;
        self.kept.clear();
        self.publish(&changed.describe(), started.elapsed());
    }

    /// Follows modules the recipe required while generating (a `require` inside `generate`).
    fn follow_required(&mut self) {
        if self.live.note_required() {
            if let Err(e) = self.live.watch(&mut self.changes) {
                eprintln!("serve: {e}");
            }
        }
    }

    /// Publishes the current status and prints one status line.
    fn publish(&mut self, reason: &str, took: Duration) {
        let found: Vec<_> = self
            .live
            .problems()
            .iter()
            .flat_map(|e| problems_of(e))
            .collect();
        let ms = took.as_secs_f64() * 1e3;
        if found.is_empty() {
            eprintln!("serve: ok · {reason} · {ms:.0} ms");
        } else {
            for p in &found {
                eprintln!("error: {}", p.message);
            }
            eprintln!("serve: error · {reason} · pages keep the last good map");
        }
        self.status.send_replace(Arc::new(Status {
            version: self.version,
            session: self.session.clone(),
            recipe: self.live.host().map(RecipeInfo::of),
            problems: found,
            reason: reason.to_string(),
            reload_ms: ms,
        }));
    }

    /// Answers one job, from the kept generations when it can.
    fn serve(&mut self, job: Job) {
        if job.reply.is_closed() {
            return;
        }
        let kept = self
            .kept
            .iter()
            .position(|g| g.version == self.version && g.request == job.request);
        let answer = match kept {
            Some(i) => {
                let g = self.kept.remove(i);
                self.kept.push(g.clone());
                Ok(g)
            }
            None => {
                // The generation stops early if its caller stops waiting.
                self.live.set_cancel(job.cancel.clone());
                let outcome =
                    std::panic::catch_unwind(AssertUnwindSafe(|| self.generate(&job.request)));
                self.follow_required();
                match outcome {
                    Ok(Ok(g)) => {
                        let g = Arc::new(g);
                        if self.kept.len() == KEPT {
                            self.kept.remove(0);
                        }
                        self.kept.push(g.clone());
                        Ok(g)
                    }
                    Ok(Err(f)) => Err(f),
                    Err(_) => Err(Failure::Internal(
                        "a panic while generating (a bug in warren, please report it)".into(),
                    )),
                }
            }
        };
        let _ = job.reply.send(answer);
    }

    /// Generates the levels a request asks for.
    fn generate(&mut self, request: &MapRequest) -> Result<Generation, Failure> {
        let broken: Vec<Problem> = self
            .live
            .problems()
            .iter()
            .flat_map(|e| problems_of(e))
            .collect();
        if !broken.is_empty() {
            return Err(Failure::Recipe(broken));
        }
        let (host, _) = self.live.ready().map_err(failure)?;
        let params = host.resolve_params(&request.sets).map_err(failure)?;
        check_size(&params, request.levels)?;
        host.record_snapshots(request.steps);
        host.take_snapshots();
        let levels = generate_levels(host, request, &params, &mut self.measurer);
        host.take_snapshots();
        host.record_snapshots(false);
        Ok(Generation {
            version: self.version,
            request: request.clone(),
            recipe: host.recipe().name.clone(),
            params,
            levels: levels?,
        })
    }
}

/// Generates levels 1..=N like `warren run`, timing and measuring each, keeping snapshots
/// within the page's cell limit.
fn generate_levels(
    host: &Host,
    request: &MapRequest,
    params: &ParamValues,
    measurer: &mut Measurer,
) -> Result<Vec<LevelResult>, Failure> {
    let mut out: Vec<LevelResult> = Vec::with_capacity(request.levels as usize);
    let mut cells = 0usize;
    for depth in 1..=request.levels {
        let seed = level_seed(request.seed, depth);
        let map = host
            .generate(&Run {
                seed,
                params,
                depth,
                above: out.last().map(|l| &l.level.map),
            })
            .map_err(failure)?;
        cells += map.len();
        if cells > MAX_PAGE_CELLS {
            return Err(too_large(cells));
        }
        let time = host.phases().total();
        let phases = host
            .phases()
            .iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect();
        let mut snapshots = host.take_snapshots();
        let mut kept_cells = 0;
        let keep = snapshots
            .iter()
            .take_while(|s| {
                kept_cells += s.map.len();
                cells + kept_cells <= MAX_PAGE_CELLS
            })
            .count();
        let snapshots_dropped = snapshots.len() - keep;
        snapshots.truncate(keep);
        cells += snapshots.iter().map(|s| s.map.len()).sum::<usize>();
        let metrics = measure(measurer, &map);
        out.push(LevelResult {
            level: Level { map, seed, depth },
            snapshots,
            snapshots_dropped,
            time,
            phases,
            metrics,
        });
    }
    Ok(out)
}

/// Refuses, before generating, a request whose declared size is over the page's limit.
fn check_size(params: &ParamValues, levels: u32) -> Result<(), Failure> {
    let int = |name: &str| match params.get(name) {
        Some(ParamValue::Int(v)) if *v > 0 => Some(*v as u128),
        _ => None,
    };
    if let (Some(w), Some(h)) = (int("width"), int("height")) {
        let cells = w * h * levels as u128;
        if cells > MAX_PAGE_CELLS as u128 {
            return Err(too_large(cells.min(usize::MAX as u128) as usize));
        }
    }
    Ok(())
}

fn too_large(cells: usize) -> Failure {
    Failure::TooLarge(format!(
        "this request makes {cells} cells; the page shows at most {MAX_PAGE_CELLS} (2048×2048) at once: lower width, height or levels, or use `warren run` for larger maps"
    ))
}

/// The [`BUILTIN`] measurements, then the recipe's metrics (`recipe.NAME` when a built-in has
/// that name), as `warren batch` names them.
fn measure(measurer: &mut Measurer, map: &Map) -> Vec<(String, f64)> {
    let builtin = measurer.measure(map);
    let mut metrics: Vec<(String, f64)> = BUILTIN
        .iter()
        .zip(builtin)
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    for (name, &v) in &map.notes.stats {
        let name = if BUILTIN.contains(&name.as_str()) {
            format!("recipe.{name}")
        } else {
            name.clone()
        };
        metrics.push((name, v));
    }
    metrics
}

/// How an error of the recipe host answers a request.
fn failure(e: Error) -> Failure {
    match e {
        Error::Param(m) => Failure::BadRequest(m),
        Error::Internal(m) => Failure::Internal(m),
        other => Failure::Recipe(problems_of(&other)),
    }
}
