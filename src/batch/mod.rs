//! Many maps at once: seeds generated in parallel, each worker reusing one Lua state (and its
//! map buffers) for all its maps, every map measured, results gathered in seed order.
//!
//! Workers pull small chunks of seeds from a shared counter, so the split between workers
//! depends on timing, but the gathered [`Dataset`] depends only on the seeds: the same seeds
//! give the same statistics for any number of jobs or shards.

pub mod shard;

pub use shard::Shard;

use crate::output::write_atomic;
use crate::render::render;
use crate::render::Format;
use crate::stats::{Collector, Dataset, Header, Measurer, Outcome, Record, BUILTIN};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warren_core::region::Registry;
use warren_lua::error::{Error, Result};
use warren_lua::run::{params_json, Level};
use warren_lua::{Host, Limits, ParamValues, Run};

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
    /// Seeds to generate (level 1 of each).
    pub seeds: Range<u64>,
    /// Worker threads, at least 1.
    pub jobs: usize,
    /// Save each map, if wanted.
    pub files: Option<MapFiles>,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

/// What a batch produced.
#[derive(Debug)]
pub struct Report {
    /// Every seed's measurements (or failure), in seed order.
    pub data: Dataset,
    /// Wall-clock time from the first map to the last.
    pub elapsed: Duration,
}

/// State the workers share.
struct Shared<'a> {
    batch: &'a Batch,
    params: ParamValues,
    recipe: String,
    next: AtomicU64,
    chunk: u64,
    stop: AtomicBool,
    fatal: Mutex<Option<Error>>,
    done: Mutex<Vec<Collector>>,
    progress: ProgressBar,
}

impl Shared<'_> {
    /// Records an error that ends the whole batch (the first one wins) and stops the workers.
    fn fail(&self, e: Error) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut fatal) = self.fatal.lock() {
            fatal.get_or_insert(e);
        }
    }
}

/// Generates and measures every seed of `batch`.
pub fn run(batch: &Batch) -> Result<Report> {
    let jobs = batch.jobs.max(1);
    let host = Host::load(&batch.script, batch.registry.clone(), batch.limits)?;
    let params = host.resolve_params(&batch.sets)?;
    let header = Header {
        recipe: host.recipe().name.clone(),
        params: params_json(&params),
    };
    if let Some(files) = &batch.files {
        std::fs::create_dir_all(&files.dir)
            .map_err(|e| Error::Io(format!("{}: cannot create: {e}", files.dir.display())))?;
    }
    let total = batch.seeds.end.saturating_sub(batch.seeds.start);
    let shared = Shared {
        batch,
        recipe: header.recipe.clone(),
        params,
        next: AtomicU64::new(0),
        chunk: (total / (jobs as u64 * 64)).clamp(1, 64),
        stop: AtomicBool::new(false),
        fatal: Mutex::new(None),
        done: Mutex::new(Vec::new()),
        progress: progress_bar(total, batch.progress),
    };
    let started = Instant::now();
    if jobs == 1 {
        finish_worker(&shared, work(&host, &shared));
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs - 1)
            .thread_name(|i| format!("warren-batch-{}", i + 1))
            .build()
            .map_err(|e| Error::Internal(format!("starting {jobs} workers: {e}")))?;
        pool.in_place_scope(|scope| {
            for _ in 1..jobs {
                scope.spawn(|_| {
                    match Host::load(&batch.script, batch.registry.clone(), batch.limits) {
                        Ok(host) => finish_worker(&shared, work(&host, &shared)),
                        Err(e) => shared.fail(e),
                    }
                });
            }
            finish_worker(&shared, work(&host, &shared));
        });
    }
    let elapsed = started.elapsed();
    shared.progress.finish_and_clear();
    if let Some(e) = shared.fatal.lock().ok().and_then(|mut f| f.take()) {
        return Err(e);
    }
    let mut all = Collector::new();
    for c in shared.done.into_inner().unwrap_or_default() {
        all.absorb(c);
    }
    let data = all.finish(header).map_err(Error::Internal)?;
    Ok(Report { data, elapsed })
}

/// Hands a worker's records over.
fn finish_worker(shared: &Shared, collector: Collector) {
    match shared.done.lock() {
        Ok(mut done) => done.push(collector),
        Err(_) => shared.fail(Error::Internal("a batch worker panicked".into())),
    }
}

/// The progress bar: drawn on stderr when asked to, hidden otherwise.
fn progress_bar(total: u64, visible: bool) -> ProgressBar {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40.cyan/blue} {human_pos}/{human_len} maps  {elapsed} elapsed, eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// One worker: takes chunks of seeds until none are left, generating each with `host`.
fn work(host: &Host, shared: &Shared) -> Collector {
    let batch = shared.batch;
    let total = batch.seeds.end.saturating_sub(batch.seeds.start);
    let mut collector = Collector::new();
    let mut measurer = Measurer::new();
    while !shared.stop.load(Ordering::Relaxed) {
        let first = shared.next.fetch_add(shared.chunk, Ordering::Relaxed);
        if first >= total {
            break;
        }
        let last = (first + shared.chunk).min(total);
        for offset in first..last {
            let seed = batch.seeds.start + offset;
            let record = one_map(host, shared, &mut measurer, &mut collector, seed);
            match record {
                Ok(r) => collector.push(r),
                Err(e) => {
                    shared.fail(e);
                    return collector;
                }
            }
        }
        shared.progress.inc(last - first);
    }
    collector
}

/// Generates, measures and (when asked) saves one map. A generation error is a failed record;
/// only failing to save is an error that ends the batch.
fn one_map(
    host: &Host,
    shared: &Shared,
    measurer: &mut Measurer,
    names: &mut Collector,
    seed: u64,
) -> Result<Record> {
    let generated = host.generate(&Run {
        seed,
        params: &shared.params,
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
        metrics.push((names.metric_id(&recipe_metric_name(name)), v));
    }
    let mut times = vec![(0, total_us)];
    for (name, spent) in host.phases().iter() {
        let name = if name == crate::stats::dataset::TOTAL_TIME {
            Cow::Owned(format!("phase.{name}"))
        } else {
            Cow::Borrowed(name)
        };
        times.push((names.time_id(&name), spent.as_secs_f64() * 1e6));
    }
    let map = match &shared.batch.files {
        Some(files) => save(files, shared, seed, map)?,
        None => map,
    };
    host.recycle(map);
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
    let level = [Level {
        map,
        seed,
        depth: 1,
    }];
    let bytes = render(
        &level,
        &shared.recipe,
        &shared.params,
        files.format,
        files.scale,
    )?;
    let path = files
        .dir
        .join(file_name(&shared.batch.script, seed, files.format));
    write_atomic(&path, &bytes)
        .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))?;
    let [level] = level;
    Ok(level.map)
}

/// `rooms-42.json` for seed 42 of `scripts/rooms.lua` in JSON.
fn file_name(script: &Path, seed: u64, format: Format) -> String {
    let stem = script
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    let ext = match format {
        Format::Ascii => "txt",
        Format::Ansi => "ans",
        Format::Json => "json",
        Format::Png => "png",
        Format::Tiled => "tmx",
    };
    format!("{stem}-{seed}.{ext}")
}
