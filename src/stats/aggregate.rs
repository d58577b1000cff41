//! Per-map records folded, as they arrive, into one [`Aggregate`] per batch: a
//! [`ColumnStats`] per metric and per phase time, the failures, the seeds seen. Its size does
//! not grow with the number of maps, and it depends only on the set of seeds, never on who
//! measured what or in which order.

use super::column::ColumnStats;
use super::plan::SeedPlan;
use std::collections::BTreeMap;
use warren_core::stats::BUILTIN;

/// Failure messages kept (those of the lowest seeds); the rest are only counted.
pub const FAILURES_KEPT: usize = 5;

/// The time name of a whole generation, always the first time column.
pub const TOTAL_TIME: &str = "total";

/// Names interned to small ids, in the order they were first seen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names(Vec<String>);

impl Names {
    /// The id of `name`, interning it on first use.
    pub fn id(&mut self, name: &str) -> u32 {
        match self.0.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                self.0.push(name.to_string());
                (self.0.len() - 1) as u32
            }
        }
    }

    /// The name of an id.
    pub fn name(&self, id: u32) -> &str {
        &self.0[id as usize]
    }

    /// Every name, in id order.
    pub fn all(&self) -> &[String] {
        &self.0
    }
}

/// The names a producer of records (a batch worker, a records file) gives its ids. The built-in
/// metrics have ids `0..BUILTIN.len()` and the total time has id 0.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordNames {
    /// Metric names.
    pub metrics: Names,
    /// Time names.
    pub times: Names,
}

impl Default for RecordNames {
    fn default() -> Self {
        let mut metrics = Names::default();
        for name in BUILTIN {
            metrics.id(name);
        }
        let mut times = Names::default();
        times.id(TOTAL_TIME);
        RecordNames { metrics, times }
    }
}

/// What came of one seed.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The map was generated and measured: `(name id, value)` pairs; times are in µs.
    Measured {
        /// Measurements, ids into [`RecordNames::metrics`].
        metrics: Vec<(u32, f64)>,
        /// Wall-clock times in µs, ids into [`RecordNames::times`], in the order the map marked
        /// them.
        times: Vec<(u32, f64)>,
    },
    /// Generation failed with this message.
    Failed(String),
}

/// One seed's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The seed.
    pub seed: u64,
    /// What came of it.
    pub outcome: Outcome,
}

/// What the maps were made with. Runs can be merged only when recipe and parameters agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The recipe's name.
    pub recipe: String,
    /// Parameter values, as JSON.
    pub params: BTreeMap<String, serde_json::Value>,
    /// The seeds the run was asked for (absent in records written before plans were recorded).
    pub plan: Option<SeedPlan>,
}

/// One column of the aggregate, with its name.
#[derive(Clone, Copy, Debug)]
pub struct Column<'a> {
    /// The metric or phase name.
    pub name: &'a str,
    /// Its values' aggregate.
    pub stats: &'a ColumnStats,
}

/// Values on their way into columns, each column's latest value with how many times in a row
/// it came: a run is added at once ([`ColumnStats::add_times`]) when a different value comes,
/// and every run when the records are all read. The columns end the same as if each value had
/// been added on its own.
struct Runs(Vec<(u64, u64)>);

impl Runs {
    /// No runs yet, for `columns` columns.
    fn new(columns: usize) -> Runs {
        Runs(vec![(0, 0); columns])
    }

    /// Adds `v` to column `id` of `columns` (below the count [`Runs::new`] was given).
    fn add(&mut self, columns: &mut [ColumnStats], id: usize, v: f64) {
        let (bits, n) = &mut self.0[id];
        if *n > 0 && *bits == v.to_bits() {
            *n += 1;
            return;
        }
        columns[id].add_times(f64::from_bits(*bits), *n);
        (*bits, *n) = (v.to_bits(), 1);
    }

    /// Adds every run still open.
    fn finish(self, columns: &mut [ColumnStats]) {
        for (id, (bits, n)) in self.0.into_iter().enumerate() {
            columns[id].add_times(f64::from_bits(bits), n);
        }
    }
}

/// Everything a batch (or a merge of batches) measured, aggregated.
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    /// What the maps were made with.
    pub header: Header,
    names: RecordNames,
    metrics: Vec<ColumnStats>,
    times: Vec<ColumnStats>,
    /// For each time column, the lowest seed that marked it and its place in that map's list:
    /// phases are listed in the order the lowest seeds first mark them.
    time_order: Vec<(u64, usize)>,
    measured: u64,
    failed: u64,
    failures: Vec<(u64, String)>,
    seeds: Option<(u64, u64)>,
}

impl Aggregate {
    /// An empty aggregate of maps made as `header` says.
    pub fn new(header: Header) -> Aggregate {
        let names = RecordNames::default();
        Aggregate {
            header,
            metrics: vec![ColumnStats::default(); names.metrics.all().len()],
            times: vec![ColumnStats::default(); names.times.all().len()],
            time_order: vec![(0, 0)],
            names,
            measured: 0,
            failed: 0,
            failures: Vec::new(),
            seeds: None,
        }
    }

    /// Folds in records whose ids are `names`'.
    pub fn absorb(&mut self, records: &[Record], names: &RecordNames) {
        let metric_ids: Vec<u32> = names
            .metrics
            .all()
            .iter()
            .map(|n| self.metric_id(n))
            .collect();
        let time_ids: Vec<u32> = names.times.all().iter().map(|n| self.time_id(n)).collect();
        // A metric's equal values in a row (a count every map shares, say) are added as one.
        let mut runs = Runs::new(self.metrics.len());
        for r in records {
            self.seeds = Some(match self.seeds {
                None => (r.seed, r.seed),
                Some((lo, hi)) => (lo.min(r.seed), hi.max(r.seed)),
            });
            match &r.outcome {
                Outcome::Failed(msg) => self.add_failure(r.seed, msg),
                Outcome::Measured { metrics, times } => {
                    self.measured += 1;
                    for &(id, v) in metrics {
                        runs.add(&mut self.metrics, metric_ids[id as usize] as usize, v);
                    }
                    for (place, &(id, v)) in times.iter().enumerate() {
                        let id = time_ids[id as usize] as usize;
                        self.mark_time_order(id, (r.seed, place));
                        self.times[id].add(v);
                    }
                }
            }
        }
        runs.finish(&mut self.metrics);
    }

    /// Adds everything `other` aggregated, as if its records had been absorbed here: the
    /// result depends only on the union of the records, not on how they were split.
    pub fn merge(&mut self, other: &Aggregate) {
        for (i, name) in other.names.metrics.all().iter().enumerate() {
            let id = self.metric_id(name) as usize;
            self.metrics[id].merge(&other.metrics[i]);
        }
        for (i, name) in other.names.times.all().iter().enumerate() {
            let (theirs, order) = (&other.times[i], other.time_order[i]);
            if theirs.count() == 0 {
                continue;
            }
            let id = self.time_id(name) as usize;
            self.mark_time_order(id, order);
            self.times[id].merge(theirs);
        }
        self.measured += other.measured;
        self.failed += other.failed;
        self.failures.extend(other.failures.iter().cloned());
        self.failures.sort_by_key(|f| f.0);
        self.failures.truncate(FAILURES_KEPT);
        self.seeds = match (self.seeds, other.seeds) {
            (Some((lo, hi)), Some((l, h))) => Some((lo.min(l), hi.max(h))),
            (mine, theirs) => mine.or(theirs),
        };
    }

    /// Notes that time column `id` is marked at `(seed, place)`: the column is ordered by the
    /// lowest such mark (call before adding the column's values).
    fn mark_time_order(&mut self, id: usize, at: (u64, usize)) {
        if self.times[id].count() == 0 || at < self.time_order[id] {
            self.time_order[id] = at;
        }
    }

    fn metric_id(&mut self, name: &str) -> u32 {
        let id = self.names.metrics.id(name);
        if id as usize == self.metrics.len() {
            self.metrics.push(ColumnStats::default());
        }
        id
    }

    fn time_id(&mut self, name: &str) -> u32 {
        let id = self.names.times.id(name);
        if id as usize == self.times.len() {
            self.times.push(ColumnStats::default());
            self.time_order.push((u64::MAX, 0));
        }
        id
    }

    fn add_failure(&mut self, seed: u64, msg: &str) {
        self.failed += 1;
        let at = self.failures.partition_point(|f| f.0 < seed);
        if at < FAILURES_KEPT {
            self.failures.insert(at, (seed, msg.to_string()));
            self.failures.truncate(FAILURES_KEPT);
        }
    }

    /// Number of seeds, measured or failed.
    pub fn maps(&self) -> u64 {
        self.measured + self.failed
    }

    /// Number of seeds whose generation failed.
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// The failures of the lowest seeds (at most [`FAILURES_KEPT`]), ascending.
    pub fn first_failures(&self) -> &[(u64, String)] {
        &self.failures
    }

    /// The lowest and highest seed, if there is any.
    pub fn seed_range(&self) -> Option<(u64, u64)> {
        self.seeds
    }

    /// The metric columns that have values: built-in metrics first, in [`BUILTIN`] order, then
    /// recipe metrics by name.
    pub fn metrics(&self) -> Vec<Column<'_>> {
        let mut ids: Vec<usize> = (0..self.metrics.len()).collect();
        ids[BUILTIN.len()..].sort_by_key(|&i| &self.names.metrics.all()[i]);
        self.columns(&ids, &self.names.metrics, &self.metrics)
    }

    /// The time columns that have values: the total first, then phases in the order the lowest
    /// seeds first mark them.
    pub fn times(&self) -> Vec<Column<'_>> {
        let mut ids: Vec<usize> = (1..self.times.len()).collect();
        ids.sort_by_key(|&i| (self.time_order[i], &self.names.times.all()[i]));
        ids.insert(0, 0);
        self.columns(&ids, &self.names.times, &self.times)
    }

    fn columns<'a>(
        &'a self,
        ids: &[usize],
        names: &'a Names,
        stats: &'a [ColumnStats],
    ) -> Vec<Column<'a>> {
        ids.iter()
            .filter(|&&i| stats[i].count() > 0)
            .map(|&i| Column {
                name: names.name(i as u32),
                stats: &stats[i],
            })
            .collect()
    }

    /// The metric column called `name`, or the time column called `time_us.NAME`.
    pub fn column(&self, name: &str) -> Option<Column<'_>> {
        match name.strip_prefix("time_us.") {
            Some(time) => self.times().into_iter().find(|c| c.name == time),
            None => self.metrics().into_iter().find(|c| c.name == name),
        }
    }

    /// Every name [`Aggregate::column`] knows, for messages.
    pub fn known_names(&self) -> Vec<String> {
        let mut known: Vec<String> = self.metrics().iter().map(|c| c.name.to_string()).collect();
        known.extend(self.times().iter().map(|c| format!("time_us.{}", c.name)));
        known
    }
}
