//! Many maps at once: seeds generated in parallel, each worker reusing one Lua state (and its
//! map buffers) for all its maps, every map measured and folded into the statistics as soon as
//! its chunk of seeds is done.
//!
//! Workers claim small chunks of seeds in order from a shared counter (`chunks.rs`: full chunks,
//! then shrinking ones so that the workers finish together). Finished chunks are committed
//! strictly in seed order: their records are appended to the records file, and a worker that
//! runs too far ahead of the oldest unfinished chunk waits (the only time a worker sleeps: a
//! commit that nobody waits for wakes nobody). The worker that commits a chunk folds it,
//! outside the lock, into an [`Aggregate`] of its own; the workers' aggregates are merged when
//! they finish (an aggregate depends only on the set of records it saw, see
//! [`Aggregate::merge`]). So memory does not grow with the number of maps, the records file is
//! in seed order, and the statistics depend only on the seeds, never on the number of jobs or
//! on timing.
//!
//! A batch that is told to stop (a signal) finishes the map each worker is on, commits every
//! chunk up to the first unfinished one, and reports where to resume; the records and
//! statistics then cover exactly the seeds before that point. A batch that saves anything keeps
//! its committed records in a journal (`journal.rs`), so that however it stops, even by
//! `kill -9`, the same batch run again continues after the last committed seed.

use crate::output::write_atomic;
use crate::render::render;
use crate::render::Format;
use crate::stats::records::write_record;
use crate::stats::{Aggregate, Header, Measurer, Outcome, Record, RecordNames, SeedPlan, BUILTIN};
use chunks::Chunks;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use journal::{Fingerprint, Journal};
use placement::Placement;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use warren_core::region::explain::{nearest, Reach};
use warren_core::region::Registry;
use warren_lua::error::{Error, Result};
use warren_lua::run::{params_json, GeneratedLevel};
use warren_lua::turns::Turns;
use warren_lua::{Host, Limits, ParamValues, Run};

// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod chunks;
// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod journal;
// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod placement;

/// Where and how to save every generated map.
#[derive(Clone, Debug)]
pub struct MapFiles {
    /// Directory the files go to (created if missing).
    pub dir: PathBuf,
    /// File format.
    pub format: Format,
    /// PNG pixels per cell.
    pub scale: u32,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The recipe.
    pub script: PathBuf,
    /// The region registry.
    pub registry: Arc<Registry>,
    /// Budgets for each generation.
    pub limits: Limits,
    /// `--set` assignments.
    pub sets: Vec<(String, String)>,
    /// The seeds asked for (level 1 of each): [`SeedPlan::seeds`] are generated.
    pub plan: SeedPlan,
    /// Worker threads, at least 1.
    pub jobs: usize,
    /// Save each map, if wanted.
    pub files: Option<MapFiles>,
    /// Write every map's record to this file (CSV when it ends in `.csv`, Parquet when it ends in
    /// `.parquet`, else JSON Lines).
    pub records: Option<PathBuf>,
    /// Column names that must exist (`--metrics`): checked on the first map, before the rest
    /// are generated.
    pub metrics: Vec<String>,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Set to a non-zero value (the signal number) to stop the batch early.
    pub interrupt: Arc<AtomicUsize>,
    /// The process exits once the batch returns: each worker then leaves its Lua state to the
    /// exit instead of closing it ([`Host::leave_to_exit`]), on the batch's critical path.
    pub exits_after: bool,
    /// Receives the records of every chunk of seeds as it is committed, for a live view of a
    /// batch in progress (`warren serve`'s statistics). Chunks arrive as workers commit them:
    /// each holds consecutive seeds, and together they are every seed the report covers.
    pub stream: Option<std::sync::mpsc::Sender<Streamed>>,
    /// Run in the background: every worker thread, the calling one included, lowers its
    /// scheduling priority ([`lower_priority`]) so that interactive work on the machine goes
    /// first.
    pub background: bool,
    /// A memory limit this batch's generations share with others outside it (`warren serve`'s
    /// page beside its sweeps), taking turns when they crowd each other out. `None`: with more
    /// than one job, the jobs share `limits.memory` among themselves; one job keeps it alone.
    pub turns: Option<Arc<Turns>>,
}

/// The records of one committed chunk of seeds (see [`Batch::stream`]).
#[derive(Debug)]
pub struct Streamed {
    /// The seeds' records, in seed order.
    pub records: Vec<Record>,
    /// The names their ids stand for.
    pub names: RecordNames,
}

/// Lowers the calling thread's scheduling priority to nice 10 (Linux; elsewhere nothing): the
/// scheduler then runs it only when the machine's other work leaves it room. An unprivileged
/// thread cannot raise it again, so call it only on threads that end with their work.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid takes no arguments; setpriority with PRIO_PROCESS and a thread id sets
    // that thread's nice value (Linux threads each have their own).
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Why and where a batch stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The value [`Batch::interrupt`] was set to.
    pub signal: usize,
    /// The first seed not generated: the statistics and records cover the seeds before it.
    pub next_seed: u64,
    /// The journal holding the records so far, which the same batch run again continues
    /// (only for a batch that saves records or maps).
    pub journal: Option<PathBuf>,
}

/// What a batch produced.
#[derive(Debug)]
pub struct Report {
    /// The statistics of every seed done, in seed order.
    pub data: Aggregate,
    /// Wall-clock time from the first map to the last.
    pub elapsed: Duration,
    /// Set when the batch was interrupted before its last seed.
    pub stopped: Option<Stopped>,
    /// Seeds an earlier, interrupted run of the same batch had finished: this run took their
    /// records from its journal and started after them.
    pub resumed: u64,
    /// How the workers' Lua states were brought back between maps.
    pub states: StateReuse,
}

/// How the workers' Lua states were brought back to where every map starts (see
/// [`warren_lua::Host`]), summed over the workers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateReuse {
    /// Maps whose end put back objects the recipe's loading made and the map wrote to.
    pub resets: u64,
    /// How many objects those resets put back.
    pub restored: u64,
    /// Times a state was loaded again instead (a write no reset can put back).
    pub reloads: u64,
}

/// One chunk of seeds, done (or, if interrupted, done up to some map).
struct Chunk {
    /// Its seeds, as offsets from the batch's first seed.
    seeds: std::ops::Range<u64>,
    records: Vec<Record>,
    names: RecordNames,
    lines: Vec<u8>,
    complete: bool,
}

/// Chunks waiting for the ones before them, and what has been committed.
struct Committed {
    /// Where the next chunk to commit starts (an offset from the batch's first seed).
    next: u64,
    /// Finished chunks by where they start.
    waiting: BTreeMap<u64, Chunk>,
    /// Workers waiting for the window to move.
    window_waiters: usize,
    /// The aggregates of the workers that have finished, merged (the first one handed in is
    /// moved here, not copied).
    data: Option<Aggregate>,
    /// The journal the records are committed to, when the batch saves anything.
    journal: Option<Journal>,
    seeds_done: u64,
    /// An unfinished chunk was committed: nothing after it may be.
    ended: bool,
}

/// State the workers share.
pub struct Shared<'a> {
    batch: &'a Batch,
    /// What the maps are made with: each worker's aggregate starts from it.
    header: Header,
    params: ParamValues,
    /// Digits of the largest seed of the whole plan, for file names.
    seed_digits: usize,
    /// The first seed this run generates: the plan's first, or the one after those an
    /// earlier run finished.
    first: u64,
    /// Seeds this run generates (from `first` to the plan's end).
    remaining: u64,
    /// Seeds an earlier run finished.
    resumed: u64,
    /// Whether records are committed to a journal (so each map's record line is written).
    journaled: bool,
    chunks: Chunks,
    /// [`Committed::next`], readable without the lock.
    next_to_commit: AtomicU64,
    /// How many seeds past the start of the oldest uncommitted chunk a worker may start a chunk.
    pub window: u64,
    stop: AtomicBool,
    /// The error that ends the whole batch, if one did (the first one recorded).
    pub fatal: Mutex<Option<Error>>,
    committed: Mutex<Committed>,
    advanced: Condvar,
    /// The progress bar, when one is drawn.
    progress: Option<ProgressBar>,
    /// What the workers that have finished did to their states between maps.
    states: Mutex<StateReuse>,
    /// The memory limit the generations share: [`Batch::turns`], else with more than one job
    /// the jobs' own.
    turns: Option<Arc<Turns>>,
}

impl Shared<'_> {
    /// Records an error that ends the whole batch (the first one wins) and stops the workers.
    fn fail(&self, e: Error) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut fatal) = self.fatal.lock() {
            fatal.get_or_insert(e);
        }
        self.advanced.notify_all();
    }

    /// Whether workers should stop: an error, or a signal.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.batch.interrupt.load(Ordering::Relaxed) != 0
    }

    fn lock(&self) -> Option<MutexGuard<'_, Committed>> {
        match self.committed.lock() {
            Ok(guard) => Some(guard),
            Err(_) => {
                self.fail(worker_panicked());
                None
            }
        }
    }

    /// Waits until a chunk starting at offset `first` is within the window of the oldest
    /// uncommitted chunk; false when the batch is stopping instead.
    pub fn wait_for_window(&self, first: u64) -> bool {
        let within = |next: u64| first < next.saturating_add(self.window);
        if within(self.next_to_commit.load(Ordering::Acquire)) {
            return true;
        }
        let Some(mut state) = self.lock() else {
            return false;
        };
        state.window_waiters += 1;
        let may_start = loop {
            if within(state.next) {
                break true;
            }
            if self.stopping() {
                break false;
            }
            state = match self.advanced.wait_timeout(state, Duration::from_millis(50)) {
                Ok((s, _)) => s,
                Err(poisoned) => {
                    // A worker panicked holding the lock: the batch fails, and this worker
                    // stops waiting without leaving the count of waiters raised.
                    poisoned.into_inner().0.window_waiters -= 1;
                    self.fail(worker_panicked());
                    return false;
                }
            };
        };
        state.window_waiters -= 1;
        may_start
    }

    /// Hands a chunk over, committing it and every waiting chunk after it that is now next;
    /// the chunks committed are moved to `done`, for the caller to fold into its aggregate.
    fn commit(&self, chunk: Chunk, done: &mut Vec<Chunk>) {
        let Some(mut guard) = self.lock() else {
            return;
        };
        let state = &mut *guard;
        state.waiting.insert(chunk.seeds.start, chunk);
        while !state.ended {
            let Some(c) = state.waiting.remove(&state.next) else {
                break;
            };
            if let Some(journal) = &mut state.journal {
                if let Err(e) = journal.write(&c.lines) {
                    self.fail(Error::Io(e));
                }
            }
            state.seeds_done += c.records.len() as u64;
            state.next = c.seeds.end;
            state.ended = !c.complete;
            done.push(c);
        }
        self.next_to_commit.store(state.next, Ordering::Release);
        let wake = state.window_waiters > 0;
        drop(guard);
        if wake {
            self.advanced.notify_all();
        }
    }

    /// Adds a finished worker's aggregate to the batch's.
    fn hand_in(&self, data: Aggregate) {
        if let Some(mut state) = self.lock() {
            match &mut state.data {
                Some(merged) => merged.merge(&data),
                None => state.data = Some(data),
            }
        }
    }
}

/// Generates and measures every seed of `batch`'s plan. `load_first` loads the recipe for the
/// first worker (with the batch's registry and limits; the caller may check it before anything
/// is written); with more jobs, the other workers load theirs meanwhile, on their own threads
/// and CPUs (`placement.rs`), and start as soon as the batch does.
pub fn run(batch: &Batch, load_first: impl FnOnce() -> Result<Host>) -> Result<Report> {
    let jobs = batch.jobs.max(1);
    if batch.background {
        lower_priority();
    }
    let loading = Loading(AtomicUsize::new(jobs));
    if jobs == 1 {
        let host = loading.done(load_first())?;
        let shared = prepare(batch, &host, jobs)?;
        let started = Instant::now();
        work(host, &shared);
        return finish(shared, started);
    }
    let gate = Gate::default();
    let placement = Placement::new();
    let first = std::thread::scope(|scope| {
        // Closed however the first worker ends, a panic included: the scope waits for the
        // others, which must not wait for a start that never comes.
        let _closing = CloseOnDrop(&gate);
        for i in 1..jobs {
            let worker = || {
                if batch.background {
                    lower_priority();
                }
                let claim = placement.settle();
                let loaded = loading.done(Host::load(
                    &batch.script,
                    batch.registry.clone(),
                    batch.limits,
                ));
                let Some(shared) = gate.wait() else { return };
                placement.return_to(claim);
                match loaded {
                    Ok(host) => work(host, &shared),
                    Err(e) => shared.fail(e),
                }
            };
            std::thread::Builder::new()
                .name(format!("warren-batch-{}", i + 1))
                .spawn_scoped(scope, worker)
                .map_err(|e| Error::Internal(format!("starting {jobs} workers: {e}")))?;
        }
        // A worker queued behind this thread moves to a CPU of its own now, not at a tick.
        placement.give_way(jobs - 1);
        loading.done(load_first()).and_then(|host| {
            let shared = Arc::new(prepare(batch, &host, jobs)?);
            gate.open(shared.clone());
            // So does a worker woken next to this thread.
            placement.give_way(jobs - 1);
            let started = Instant::now();
            work(host, &shared);
            Ok((shared, started))
        })
    });
    let (shared, started) = first?;
    let shared = Arc::try_unwrap(shared)
        .map_err(|_| Error::Internal("a batch worker outlived the batch".into()))?;
    finish(shared, started)
}

/// How many workers are still loading their recipe. The last one to be done (loaded or not)
/// lets go of the huge pages the binary holds back through a batch's start-up (why: see
/// [`crate::memory`]).
struct Loading(AtomicUsize);

impl Loading {
    /// Counts one worker's loading as done, and passes its outcome on.
    fn done<T>(&self, outcome: T) -> T {
        if self.0.fetch_sub(1, Ordering::AcqRel) == 1 {
            crate::memory::release_huge_pages();
        }
        outcome
    }
}

/// The go signal for workers that load their Lua state while the first worker loads its own:
/// the shared state once the batch starts, nothing if it never does.
#[derive(Default)]
struct Gate<'a> {
    state: Mutex<GateState<'a>>,
    changed: Condvar,
}

#[derive(Default)]
enum GateState<'a> {
    #[default]
    Waiting,
    Open(Arc<Shared<'a>>),
    Closed,
}

impl<'a> Gate<'a> {
    /// Blocks until the batch starts (its shared state) or will not ([`None`]).
    fn wait(&self) -> Option<Arc<Shared<'a>>> {
        let mut state = self.state.lock().ok()?;
        loop {
            match &*state {
                GateState::Waiting => state = self.changed.wait(state).ok()?,
                GateState::Open(shared) => return Some(shared.clone()),
                GateState::Closed => return None,
            }
        }
    }

    fn set(&self, to: GateState<'a>) {
        if let Ok(mut state) = self.state.lock() {
            *state = to;
        }
        self.changed.notify_all();
    }

    /// Starts the waiting workers on `shared`.
    fn open(&self, shared: Arc<Shared<'a>>) {
        self.set(GateState::Open(shared));
    }

    /// Lets no more workers start (and drops the gate's hold on the shared state).
    fn close(&self) {
        self.set(GateState::Closed);
    }
}

/// Closes its gate when dropped.
struct CloseOnDrop<'g, 'a>(&'g Gate<'a>);

impl Drop for CloseOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Resolves the parameters, checks the metrics asked for, and opens the outputs: the state the
/// workers share.
pub fn prepare<'a>(batch: &'a Batch, host: &Host, jobs: usize) -> Result<Shared<'a>> {
    let params = host.resolve_params(&batch.sets)?;
    let header = Header {
        recipe: host.recipe().name.clone(),
        params: params_json(&params),
        plan: Some(batch.plan),
    };
    let seeds = batch.plan.seeds();
    check_metrics(host, &params, seeds.start, &batch.metrics)?;
    if let Some(files) = &batch.files {
        std::fs::create_dir_all(&files.dir)
            .map_err(|e| Error::Io(format!("{}: cannot create: {e}", files.dir.display())))?;
        let stem = script_stem(&batch.script);
        crate::output::remove_dead_temps(&files.dir, &format!(".{stem}-"));
    }
    let (journal, resumed, data) = match open_journal(batch, host, &header)? {
        Some(r) => (Some(r.journal), r.done, (r.done > 0).then_some(r.data)),
        None => (None, 0, None),
    };
    if resumed > 0 {
        eprintln!(
            "warren: continuing an interrupted batch: seeds {}..={} are done (their records are in {})",
            seeds.start,
            seeds.start + resumed - 1,
            journal.as_ref().map_or(Path::new("?"), |j| j.path()).display()
        );
    }
    let first = seeds.start + resumed;
    let remaining = seeds.end - first;
    let last_seed = batch.plan.whole().end.saturating_sub(1);
    let chunks = Chunks::new(remaining, jobs);
    let window = 4 * jobs as u64 * chunks.full();
    Ok(Shared {
        batch,
        header,
        params,
        seed_digits: last_seed.to_string().len(),
        first,
        remaining,
        resumed,
        journaled: journal.is_some(),
        chunks,
        next_to_commit: AtomicU64::new(0),
        window,
        stop: AtomicBool::new(false),
        fatal: Mutex::new(None),
        committed: Mutex::new(Committed {
            next: 0,
            waiting: BTreeMap::new(),
            window_waiters: 0,
            data,
            journal,
            seeds_done: 0,
            ended: false,
        }),
        advanced: Condvar::new(),
        progress: batch.progress.then(|| progress_bar(remaining)),
        states: Mutex::default(),
        turns: batch.turns.clone().or_else(|| {
            (jobs > 1).then(|| Turns::releasing(batch.limits.memory, crate::memory::release_freed))
        }),
    })
}

/// The journal of a batch that saves records or maps (see `journal.rs`), with what an earlier
/// run of the same batch left in it; none for a batch that saves nothing.
fn open_journal(batch: &Batch, host: &Host, header: &Header) -> Result<Option<journal::Resumed>> {
    let anchor = match (&batch.records, &batch.files) {
        (Some(records), _) => records.clone(),
        (None, Some(files)) => files.dir.join(script_stem(&batch.script)),
        (None, None) => return Ok(None),
    };
    let mut print = Fingerprint::default();
    print
        .add(env!("CARGO_PKG_VERSION").as_bytes())
        .add(crate::stats::records::header_line(header).as_bytes())
        .add(format!("{:?}", batch.limits).as_bytes());
    for file in host.script_files().iter().chain(&batch.registry.files) {
        print.add_file(file);
    }
    if let Some(records) = &batch.records {
        print.add(records.as_os_str().as_encoded_bytes());
    }
    if let Some(files) = &batch.files {
        print
            .add(files.dir.as_os_str().as_encoded_bytes())
            .add(format!("{:?} {}", files.format, files.scale).as_bytes());
    }
    let first = batch.plan.seeds().start;
    Journal::open(&anchor, print, header, first, batch.records.clone())
        .map(Some)
        .map_err(Error::Io)
}

/// The report of a batch whose workers have all returned, which started at `started`.
fn finish(shared: Shared, started: Instant) -> Result<Report> {
    let elapsed = started.elapsed();
    if let Some(bar) = &shared.progress {
        bar.finish_and_clear();
    }
    if let Some(e) = shared.fatal.lock().ok().and_then(|mut f| f.take()) {
        return Err(e);
    }
    let batch = shared.batch;
    let committed = shared
        .committed
        .into_inner()
        .map_err(|_| worker_panicked())?;
    let data = committed
        .data
        .unwrap_or_else(|| Aggregate::new(shared.header.clone()));
    let signal = batch.interrupt.load(Ordering::Relaxed);
    let stopped = (committed.seeds_done < shared.remaining).then(|| Stopped {
        signal,
        next_seed: shared.first + committed.seeds_done,
        journal: committed.journal.as_ref().map(|j| j.path().to_path_buf()),
    });
    // An interrupted batch keeps its journal (flushed at every commit) for the next run.
    if let (Some(journal), None) = (committed.journal, &stopped) {
        journal.finish(&data).map_err(Error::Io)?;
    }
    Ok(Report {
        data,
        elapsed,
        stopped,
        states: shared.states.into_inner().unwrap_or_default(),
        resumed: shared.resumed,
    })
}

/// Checks that every name in `metrics` is a column the batch will have: built-in metrics and
/// `time_us.total` at once, recipe metrics and phases on the recipe's first map (`seed`), before
/// any other map is generated. If that map fails, the names are checked at the end instead.
fn check_metrics(host: &Host, params: &ParamValues, seed: u64, metrics: &[String]) -> Result<()> {
    let builtin = |n: &str| BUILTIN.contains(&n) || n == "time_us.total";
    if metrics.iter().all(|n| builtin(n)) {
        return Ok(());
    }
    let mut names = RecordNames::default();
    let record = measure(host, params, &mut Measurer::new(), &mut names, seed, Ok)?;
    if matches!(record.outcome, Outcome::Failed(_)) {
        return Ok(());
    }
    let mut known: Vec<String> = names.metrics.all().to_vec();
    known.extend(names.times.all().iter().map(|t| format!("time_us.{t}")));
    match metrics.iter().find(|n| !known.contains(n)) {
        None => Ok(()),
        Some(name) => {
            let hint = nearest(name, known.iter().map(String::as_str), Reach::Quarter)
                .map(|k| format!("did you mean '{k}'? "))
                .unwrap_or_default();
            Err(Error::Param(format!(
                "--metrics: no metric '{name}' ({hint}the recipe's first map, seed {seed}, has: {})",
                known.join(", ")
            )))
        }
    }
}

/// The progress bar, drawn on stderr.
fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40.cyan/blue} {human_pos}/{human_len} maps  {elapsed} elapsed, eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// One worker: claims chunks of seeds until none are left (or the batch stops), generating each
/// with `host` and committing it; hands in the statistics of the chunks it committed. Then ends
/// `host`: dropped, or left to the process's exit ([`Batch::exits_after`]).
fn work(host: Host, shared: &Shared) {
    let _stop = StopOnPanic(shared);
    if let Some(turns) = &shared.turns {
        turns.join(&host);
    }
    let mut data = Aggregate::new(shared.header.clone());
    generate_chunks(&host, shared, &mut data);
    shared.hand_in(data);
    if let Ok(mut states) = shared.states.lock() {
        let (resets, restored) = host.resets();
        states.resets += resets;
        states.restored += restored;
        states.reloads += host.reloads();
    }
    if shared.batch.exits_after {
        host.leave_to_exit();
    }
}

/// The error a batch ends with when one of its workers panicked.
fn worker_panicked() -> Error {
    Error::Internal("a batch worker panicked".into())
}

/// Stops the batch when the worker holding it unwinds: a panic in Rust code outside Lua
/// (measuring or saving a map) must not leave the other workers waiting forever for the chunk
/// it will never commit. The panic itself still ends the process as an internal error.
pub struct StopOnPanic<'s, 'a>(pub &'s Shared<'a>);

impl Drop for StopOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail(worker_panicked());
        }
    }
}

/// [`work`]'s loop: folds every chunk this worker commits into `data`.
fn generate_chunks(host: &Host, shared: &Shared, data: &mut Aggregate) {
    let batch = shared.batch;
    let mut measurer = Measurer::new();
    let mut names = RecordNames::default();
    let mut done = Vec::new();
    while !shared.stopping() {
        let Some(claimed) = shared.chunks.claim() else {
            break;
        };
        if !shared.wait_for_window(claimed.start) {
            break;
        }
        let mut chunk = Chunk {
            seeds: claimed.clone(),
            records: Vec::with_capacity((claimed.end - claimed.start) as usize),
            names: RecordNames::default(),
            lines: Vec::new(),
            complete: true,
        };
        for offset in claimed {
            if shared.stopping() {
                chunk.complete = false;
                break;
            }
            let seed = shared.first + offset;
            let save = |map: warren_core::map::Map| match &batch.files {
                Some(files) => save(files, shared, seed, map),
                None => Ok(map),
            };
            match measure_in_turn(host, shared, &mut measurer, &mut names, seed, &save) {
                Ok(record) => {
                    if shared.journaled {
                        write_record(&mut chunk.lines, &record, &names);
                    }
                    chunk.records.push(record);
                }
                Err(e) => {
                    shared.fail(e);
                    return;
                }
            }
        }
        if let Some(bar) = &shared.progress {
            bar.inc(chunk.records.len() as u64);
        }
        chunk.names.clone_from(&names);
        shared.commit(chunk, &mut done);
        for c in done.drain(..) {
            data.absorb(&c.records, &c.names);
            if let Some(stream) = &batch.stream {
                // A receiver that has gone away wants no more: the batch goes on regardless.
                let _ = stream.send(Streamed {
                    records: c.records,
                    names: c.names,
                });
            }
        }
    }
}

/// [`measure`] beside the other jobs, or alone if what they held stopped it (see [`Turns`]).
fn measure_in_turn(
    host: &Host,
    shared: &Shared,
    measurer: &mut Measurer,
    names: &mut RecordNames,
    seed: u64,
    save: &impl Fn(warren_core::map::Map) -> Result<warren_core::map::Map>,
) -> Result<Record> {
    let params = &shared.params;
    let Some(turns) = &shared.turns else {
        return measure(host, params, measurer, names, seed, save);
    };
    // Each generation's garbage goes as soon as it ends, not when the job's next one begins:
    // the other jobs may need the memory meanwhile, and a job that waits for its turn, or has
    // no seeds left, then holds only what it needs.
    turns.take(host, || measure(host, params, measurer, names, seed, save))
}

/// Generates and measures one map, handing it to `save` before it is recycled. A generation
/// error is a failed record; only a failing `save` is an error that ends the batch.
fn measure(
    host: &Host,
    params: &ParamValues,
    measurer: &mut Measurer,
    names: &mut RecordNames,
    seed: u64,
    save: impl FnOnce(warren_core::map::Map) -> Result<warren_core::map::Map>,
) -> Result<Record> {
    let generated = host.generate(&Run {
        seed,
        params,
        depth: 1,
        above: None,
    });
    let total_us = host.phases().total().as_secs_f64() * 1e6;
    let map = match generated {
        Ok(map) => map,
        Err(e) => {
            return Ok(Record {
                seed,
                outcome: Outcome::Failed(e.to_string()),
            })
        }
    };
    let builtin = measurer.measure(&map);
    let mut metrics = Vec::with_capacity(builtin.len() + map.notes.stats.len());
    metrics.extend(builtin.iter().enumerate().map(|(i, &v)| (i as u32, v)));
    for (name, &v) in &map.notes.stats {
        metrics.push((names.metrics.id(&recipe_metric_name(name)), v));
    }
    let mut times = vec![(0, total_us)];
    for (name, spent) in host.phases().iter() {
        let name = if name == crate::stats::aggregate::TOTAL_TIME {
            Cow::Owned(format!("phase.{name}"))
        } else {
            Cow::Borrowed(name)
        };
        times.push((names.times.id(&name), spent.as_secs_f64() * 1e6));
    }
    host.recycle(save(map)?);
    Ok(Record {
        seed,
        outcome: Outcome::Measured { metrics, times },
    })
}

/// A recipe metric's column name: its own, or `recipe.NAME` when a built-in has that name.
fn recipe_metric_name(name: &str) -> Cow<'_, str> {
    if BUILTIN.contains(&name) {
        Cow::Owned(format!("recipe.{name}"))
    } else {
        Cow::Borrowed(name)
    }
}

/// Writes one map to `files.dir` as `SCRIPT-SEED.EXT`, atomically; returns the map.
fn save(
    files: &MapFiles,
    shared: &Shared,
    seed: u64,
    map: warren_core::map::Map,
) -> Result<warren_core::map::Map> {
    let level = [GeneratedLevel {
        map,
        seed,
        depth: 1,
    }];
    let bytes = render(
        &level,
        &shared.header.recipe,
        &shared.params,
        files.format,
        files.scale,
    )?;
    let name = file_name(&shared.batch.script, seed, shared.seed_digits, files.format);
    let path = files.dir.join(name);
    write_atomic(&path, &bytes)
        .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))?;
    let [level] = level;
    Ok(level.map)
}

/// `rooms` for `scripts/rooms.lua`: what the batch's files are named after.
fn script_stem(script: &Path) -> String {
    script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into())
}

/// `rooms-0042.json` for seed 42 of `scripts/rooms.lua` in JSON, the seed zero-padded to
/// `digits` so that the files of a batch sort in seed order.
pub fn file_name(script: &Path, seed: u64, digits: usize, format: Format) -> String {
    let stem = script_stem(script);
    let ext = match format {
        Format::Ascii => "txt",
        Format::Ansi => "ans",
        Format::Json => "json",
        Format::Png => "png",
        Format::Tiled => "tmx",
        Format::Ldtk => "ldtk",
    };
    format!("{stem}-{seed:0digits$}.{ext}")
}
