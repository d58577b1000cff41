//! The generation worker: one thread that owns the live recipes (their Lua states are not
//! `Send`), follows their files with the same machinery as `warren watch` ([`LiveRecipe`],
//! [`Changes`]), and generates maps for requests one at a time under the recipes' budgets. The
//! start recipe is loaded at start-up; each other recipe of the [`Catalog`] the first time a
//! page asks for it, and kept (with its own status and version) from then on.
//!
//! Requests wait in a bounded queue: a full queue is refused at once ("busy"), never blocks the
//! server. A request whose caller has gone away is dropped unrun, and one whose caller goes
//! away while it runs (the page moved on to another seed, the connection closed) is cancelled
//! at its next budget checkpoint, so the worker is free for what the page wants now. Recent
//! generations are kept, so a page's layers and downloads of the map on screen do not generate
//! it again. After a reload the worker publishes a new [`Status`]; pages regenerate when its
//! version changes.

use super::catalog::Catalog;
use super::query::MapRequest;
use super::status::{problems_of, Problem, RecipeInfo, Session, Status};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};
use warren_core::map::Map;
use warren_core::region::Registry;
use warren_core::stats::{Measurer, BUILTIN};
use warren_lua::api::map::debug::Snapshot;
use warren_lua::error::Error;
use warren_lua::run::{level_seed, GeneratedLevel};
use warren_lua::turns::Turns;
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
    pub level: GeneratedLevel,
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
    pub fn plain_levels(&self) -> Vec<GeneratedLevel> {
        self.levels.iter().map(|l| l.level.clone()).collect()
    }
}

type Reply = oneshot::Sender<Result<Arc<Generation>, Failure>>;

/// What the worker is asked to do.
enum Job {
    /// Generate a map.
    Generate {
        request: MapRequest,
        reply: Reply,
        /// Set when the caller stops waiting (the page moved on, the connection closed, the
        /// wait timed out): the generation, if it is running, ends at its next budget
        /// checkpoint.
        cancel: Arc<AtomicBool>,
    },
    /// Load a recipe of the catalog (if it is not loaded yet), for its status.
    Open {
        recipe: String,
        reply: oneshot::Sender<Result<watch::Receiver<Arc<Status>>, Failure>>,
    },
    /// What a statistics sweep of a recipe needs.
    Sweep {
        recipe: String,
        sets: Vec<(String, String)>,
        reply: oneshot::Sender<Result<SweepInputs, Failure>>,
    },
}

/// What a statistics sweep runs: the recipe as the worker has it loaded now.
#[derive(Clone)]
pub struct SweepInputs {
    /// The recipe file.
    pub script: PathBuf,
    /// The recipe's name.
    pub name: String,
    /// The region registry in force.
    pub registry: Arc<Registry>,
    /// Budgets.
    pub limits: Limits,
    /// The parameter values (defaults filled in).
    pub params: ParamValues,
    /// The recipe's status version these inputs belong to.
    pub version: u64,
    /// The recipe's status, to notice a newer version.
    pub status: watch::Receiver<Arc<Status>>,
    /// The memory limit the sweep's generations share with the page's.
    pub turns: Arc<Turns>,
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
    /// The recipes it may serve; the start recipe is loaded at once.
    pub catalog: Catalog,
    /// The region directory.
    pub regions: PathBuf,
    /// Budgets.
    pub limits: Limits,
    /// The start-up command line, for the status.
    pub session: Session,
}

/// The statuses of the recipes loaded so far, by name.
type Statuses = Arc<Mutex<BTreeMap<String, watch::Receiver<Arc<Status>>>>>;

/// The handle the server keeps: a queue into the worker and the recipes' latest statuses.
#[derive(Clone)]
pub struct Worker {
    jobs: SyncSender<Job>,
    statuses: Statuses,
}

impl Worker {
    /// Starts the worker thread; it loads the start recipe and starts watching before this
    /// returns.
    pub fn start(setup: Setup) -> Result<Worker, Error> {
        let (jobs, queue) = sync_channel(QUEUE);
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let statuses = Statuses::default();
        let shared = statuses.clone();
        std::thread::Builder::new()
            .name("warren-serve-worker".into())
            .spawn(move || run(setup, shared, queue, ready_tx))
            .map_err(|e| Error::Io(format!("cannot start the generation thread: {e}")))?;
        ready_rx
            .recv()
            .map_err(|_| Error::Internal("the generation thread stopped at start-up".into()))??;
        Ok(Worker { jobs, statuses })
    }

    /// The latest status of `recipe`, and every later one; the recipe is loaded if it is not
    /// yet. (The caller checks that the catalog lists it.)
    pub async fn status(&self, recipe: &str) -> Result<watch::Receiver<Arc<Status>>, Failure> {
        let known = self
            .statuses
            .lock()
            .map_err(|_| stopped())?
            .get(recipe)
            .cloned();
        if let Some(status) = known {
            return Ok(status);
        }
        let (reply, answer) = oneshot::channel();
        self.send(Job::Open {
            recipe: recipe.to_string(),
            reply,
        })?;
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// What a statistics sweep of `recipe` with `sets` needs, or why it cannot run now (the
    /// recipe is broken, a parameter is bad).
    pub async fn sweep_inputs(
        &self,
        recipe: &str,
        sets: &[(String, String)],
    ) -> Result<SweepInputs, Failure> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Sweep {
            recipe: recipe.to_string(),
            sets: sets.to_vec(),
            reply,
        })?;
        answer.await.unwrap_or_else(|_| Err(stopped()))
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
        self.send(Job::Generate {
            request,
            reply,
            cancel,
        })?;
        let answered = answer.await;
        abandoned.armed = false;
        answered.unwrap_or_else(|_| Err(stopped()))
    }

    /// Queues a job, or refuses at once when the queue is full.
    fn send(&self, job: Job) -> Result<(), Failure> {
        match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(Failure::Busy),
            Err(TrySendError::Disconnected(_)) => Err(stopped()),
        }
    }
}

fn stopped() -> Failure {
    Failure::Internal("the generation thread has stopped".into())
}

/// One loaded recipe: its live state, status and recent generations.
struct Slot {
    live: LiveRecipe,
    version: u64,
    status: watch::Sender<Arc<Status>>,
    kept: Vec<Arc<Generation>>,
}

/// The worker's state.
struct State {
    catalog: Catalog,
    regions: PathBuf,
    limits: Limits,
    /// `--max-memory` is the server's: the page's generations and every sweep's share it.
    turns: Arc<Turns>,
    changes: Changes,
    session: Session,
    slots: BTreeMap<String, Slot>,
    statuses: Statuses,
    measurer: Measurer,
}

/// The worker thread: load the start recipe, report ready, then serve jobs and follow the
/// files until the server goes away.
fn run(
    setup: Setup,
    statuses: Statuses,
    queue: Receiver<Job>,
    ready: std::sync::mpsc::Sender<Result<(), Error>>,
) {
    let changes = match Changes::new(QUIET) {
        Ok(c) => c,
        Err(e) => {
            let _ = ready.send(Err(Error::Io(e)));
            return;
        }
    };
    let mut state = State {
        catalog: setup.catalog,
        regions: setup.regions,
        limits: setup.limits,
        turns: Turns::releasing(setup.limits.memory, crate::memory::release_freed),
        changes,
        session: setup.session,
        slots: BTreeMap::new(),
        statuses,
        measurer: Measurer::new(),
    };
    let start = state.catalog.start().to_string();
    if let Err(e) = state.open(&start) {
        let _ = ready.send(Err(e));
        return;
    }
    if ready.send(Ok(())).is_err() {
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
    /// Loads `recipe` (a name the catalog lists) if it is not loaded yet, watching its files,
    /// and publishes its first status.
    fn open(&mut self, recipe: &str) -> Result<watch::Receiver<Arc<Status>>, Error> {
        if let Some(slot) = self.slots.get(recipe) {
            return Ok(slot.status.subscribe());
        }
        let started = Instant::now();
        let mut live = LiveRecipe::load(
            std::path::Path::new(recipe),
            &self.regions,
            Vec::new(),
            self.limits,
        );
        live.share_memory(self.turns.clone());
        live.watch(&mut self.changes).map_err(Error::Io)?;
        let (status, receiver) = watch::channel(Arc::new(Status {
            recipe_path: recipe.to_string(),
            recipes: Vec::new(),
            version: 0,
            session: self.session.clone(),
            recipe: None,
            problems: Vec::new(),
            reason: String::new(),
            reload_ms: 0.0,
        }));
        let slot = Slot {
            live,
            version: 0,
            status,
            kept: Vec::new(),
        };
        self.slots.insert(recipe.to_string(), slot);
        self.publish(recipe, "started", started.elapsed());
        if let Ok(mut statuses) = self.statuses.lock() {
            statuses.insert(recipe.to_string(), receiver.clone());
        }
        Ok(receiver)
    }

    /// Reloads what a batch of file changes touched, if anything, in every loaded recipe, and
    /// publishes the result of each recipe that changed.
    fn follow_files(&mut self) {
        let Some(batch) = self.changes.next(Duration::ZERO) else {
            return;
        };
        for e in &batch.errors {
            eprintln!("serve: watcher problem: {e}");
        }
        let names: Vec<String> = self.slots.keys().cloned().collect();
        for name in names {
            let Some(slot) = self.slots.get_mut(&name) else {
                continue;
            };
            let changed = slot.live.changed(&batch);
            if changed.is_empty() {
                continue;
            }
            let started = Instant::now();
            slot.live
                .reload(!changed.regions.is_empty(), !changed.scripts.is_empty());
            // Newly required modules may live in directories not watched yet.
            if let Err(e) = slot.live.watch(&mut self.changes) {
                eprintln!("serve: {e}");
            }
            slot.version += 1;
            slot.kept.clear();
            self.publish(&name, &changed.describe(), started.elapsed());
        }
    }

    /// Follows modules a recipe required while generating (a `require` inside `generate`).
    fn follow_required(&mut self, recipe: &str) {
        let Some(slot) = self.slots.get_mut(recipe) else {
            return;
        };
        if slot.live.note_required() {
            if let Err(e) = slot.live.watch(&mut self.changes) {
                eprintln!("serve: {e}");
            }
        }
    }

    /// Publishes a recipe's current status and prints one status line.
    fn publish(&mut self, recipe: &str, reason: &str, took: Duration) {
        let Some(slot) = self.slots.get(recipe) else {
            return;
        };
        let found: Vec<_> = slot
            .live
            .problems()
            .iter()
            .flat_map(|e| problems_of(e))
            .collect();
        let ms = took.as_secs_f64() * 1e3;
        if found.is_empty() {
            eprintln!("serve: ok · {recipe} · {reason} · {ms:.0} ms");
        } else {
            for p in &found {
                eprintln!("error: {}", p.message);
            }
            eprintln!("serve: error · {recipe} · {reason} · pages keep the last good map");
        }
        slot.status.send_replace(Arc::new(Status {
            recipe_path: recipe.to_string(),
            recipes: self.catalog.list(),
            version: slot.version,
            session: self.session.clone(),
            recipe: slot.live.host().map(RecipeInfo::of),
            problems: found,
            reason: reason.to_string(),
            reload_ms: ms,
        }));
    }

    /// Answers one job.
    fn serve(&mut self, job: Job) {
        match job {
            Job::Generate {
                request,
                reply,
                cancel,
            } => {
                if reply.is_closed() {
                    return;
                }
                let answer = self.answer(&request, cancel);
                let _ = reply.send(answer);
            }
            Job::Open { recipe, reply } => {
                let opened = self.opened(&recipe).map(|s| s.status.subscribe());
                let _ = reply.send(opened);
            }
            Job::Sweep {
                recipe,
                sets,
                reply,
            } => {
                let inputs = self.sweep_inputs(&recipe, &sets);
                let _ = reply.send(inputs);
            }
        }
    }

    /// The slot of `recipe`, loaded now if it is not yet.
    fn opened(&mut self, recipe: &str) -> Result<&mut Slot, Failure> {
        if self.catalog.find(recipe).is_none() && !self.slots.contains_key(recipe) {
            return Err(Failure::BadRequest(unknown_recipe(recipe, &self.catalog)));
        }
        self.open(recipe)
            .map_err(|e| Failure::Internal(e.to_string()))?;
        self.slots
            .get_mut(recipe)
            .ok_or_else(|| Failure::Internal(format!("{recipe} did not load")))
    }

    /// A map, from the kept generations when it can.
    fn answer(
        &mut self,
        request: &MapRequest,
        cancel: Arc<AtomicBool>,
    ) -> Result<Arc<Generation>, Failure> {
        self.opened(&request.recipe)?;
        let (Some(slot), measurer) = (self.slots.get_mut(&request.recipe), &mut self.measurer)
        else {
            return Err(Failure::Internal(format!(
                "{} did not load",
                request.recipe
            )));
        };
        let kept = slot
            .kept
            .iter()
            .position(|g| g.version == slot.version && g.request == *request);
        if let Some(i) = kept {
            let g = slot.kept.remove(i);
            slot.kept.push(g.clone());
            return Ok(g);
        }
        // The generation stops early if its caller stops waiting.
        slot.live.set_cancel(cancel);
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            generate(&slot.live, slot.version, request, measurer)
        }));
        let answer = match outcome {
            Ok(Ok(g)) => {
                let g = Arc::new(g);
                if slot.kept.len() == KEPT {
                    slot.kept.remove(0);
                }
                slot.kept.push(g.clone());
                Ok(g)
            }
            Ok(Err(f)) => Err(f),
            Err(_) => Err(Failure::Internal(
                "a panic while generating (a bug in warren, please report it)".into(),
            )),
        };
        self.follow_required(&request.recipe);
        answer
    }

    /// The inputs of a sweep of `recipe` with `sets`, as the recipe is loaded now.
    fn sweep_inputs(
        &mut self,
        recipe: &str,
        sets: &[(String, String)],
    ) -> Result<SweepInputs, Failure> {
        let limits = self.limits;
        let slot = self.opened(recipe)?;
        let (host, _) = ready(&slot.live)?;
        let params = host.resolve_params(sets).map_err(failure)?;
        let registry = slot
            .live
            .registry()
            .cloned()
            .ok_or_else(|| Failure::Internal("a loaded recipe without regions".into()))?;
        Ok(SweepInputs {
            script: PathBuf::from(recipe),
            name: host.recipe().name.clone(),
            registry,
            limits,
            params,
            version: slot.version,
            status: slot.status.subscribe(),
            turns: self.turns.clone(),
        })
    }
}

/// The error for a recipe the catalog does not list.
fn unknown_recipe(recipe: &str, catalog: &Catalog) -> String {
    format!(
        "no recipe {recipe:?} here (this server offers: {})",
        catalog.list().join(", ")
    )
}

/// The host of a live recipe, or every problem that keeps it from generating.
fn ready(live: &LiveRecipe) -> Result<(&Host, ParamValues), Failure> {
    let broken: Vec<Problem> = live
        .problems()
        .iter()
        .flat_map(|e| problems_of(e))
        .collect();
    if !broken.is_empty() {
        return Err(Failure::Recipe(broken));
    }
    live.ready().map_err(failure)
}

/// Generates the levels a request asks for, with the recipe as `live` has it loaded.
fn generate(
    live: &LiveRecipe,
    version: u64,
    request: &MapRequest,
    measurer: &mut Measurer,
) -> Result<Generation, Failure> {
    let (host, _) = ready(live)?;
    let params = host.resolve_params(&request.sets).map_err(failure)?;
    check_size(&params, request.levels)?;
    warren_lua::run::check_levels(host, &params, request.levels).map_err(failure)?;
    // Each level takes its own snapshots, and drops any an earlier try left (generate_levels).
    host.record_snapshots(request.steps);
    let levels = generate_levels(host, live.turns(), request, &params, measurer);
    host.record_snapshots(false);
    Ok(Generation {
        version,
        request: request.clone(),
        recipe: host.recipe().name.clone(),
        params,
        levels: levels?,
    })
}

/// Generates levels 1..=N like `warren run`, timing and measuring each, keeping snapshots
/// within the page's cell limit. With `turns`, each level takes its turn beside the sweeps'
/// generations ([`Turns::take`]); the levels made so far count in the memory account of the
/// next, as in `warren run`.
fn generate_levels(
    host: &Host,
    turns: Option<&Arc<Turns>>,
    request: &MapRequest,
    params: &ParamValues,
    measurer: &mut Measurer,
) -> Result<Vec<LevelResult>, Failure> {
    let mut out: Vec<LevelResult> = Vec::with_capacity(request.levels as usize);
    let mut kept = Vec::with_capacity(request.levels as usize);
    let mut cells = 0usize;
    for depth in 1..=request.levels {
        let seed = level_seed(request.seed, depth);
        let above = out.last().map(|l| &l.level.map);
        // What the page shows of a generation is taken before its turn ends: a turn's end may
        // rebuild the Lua state, snapshots and all. A generation run again alone starts with
        // no snapshots of the first try.
        let generation = || {
            drop(host.take_snapshots());
            let map = host.generate(&Run {
                seed,
                params,
                depth,
                above,
            });
            let phases: Vec<(String, Duration)> = host
                .phases()
                .iter()
                .map(|(n, t)| (n.to_string(), t))
                .collect();
            (map, host.phases().total(), phases, host.take_snapshots())
        };
        let (map, time, phases, mut snapshots) = match turns {
            Some(turns) => turns.take(host, generation),
            None => generation(),
        };
        let map = map.map_err(failure)?;
        cells += map.len();
        if cells > MAX_PAGE_CELLS {
            return Err(too_large(cells));
        }
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
        kept.push(host.keep(map.bytes()));
        let metrics = measure(measurer, &map);
        out.push(LevelResult {
            level: GeneratedLevel { map, seed, depth },
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
