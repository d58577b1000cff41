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
                        self.metrics[metric_ids[id as usize] as usize].add(v);
                    }
                    for (place, &(id, v)) in times.iter().enumerate() {
                        let id = time_ids[id as usize] as usize;
                        self.mark_time_order(id, (r.seed, place));
                        self.times[id].add(v);
                    }
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            recipe: "r".into(),
            params: BTreeMap::new(),
            plan: None,
        }
    }

    /// A worker's records; even seeds record `alpha`, odd ones `zeta`. `first` is interned
    /// first, so workers number the names differently.
    fn worker(seeds: &[u64], first: &str) -> (Vec<Record>, RecordNames) {
        let mut names = RecordNames::default();
        names.metrics.id(first);
        let phase = names.times.id("carve");
        let records = seeds
            .iter()
            .map(|&s| {
                let extra = names.metrics.id(if s % 2 == 0 { "alpha" } else { "zeta" });
                Record {
                    seed: s,
                    outcome: Outcome::Measured {
                        metrics: vec![(0, s as f64), (extra, 1.0)],
                        times: vec![(0, 2.0), (phase, 1.0)],
                    },
                }
            })
            .collect();
        (records, names)
    }

    #[test]
    fn the_same_seeds_give_the_same_aggregate_however_they_were_split() {
        let mut one = Aggregate::new(header());
        let (r, n) = worker(&[3, 1, 2, 4], "zeta");
        one.absorb(&r, &n);
        let mut split = Aggregate::new(header());
        for (seeds, first) in [(&[4, 2][..], "alpha"), (&[1, 3], "zeta"), (&[], "zeta")] {
            let (r, n) = worker(seeds, first);
            split.absorb(&r, &n);
        }
        let names = |a: &Aggregate| -> Vec<String> {
            a.metrics().iter().map(|c| c.name.to_string()).collect()
        };
        assert_eq!(names(&one), ["floor_fraction", "alpha", "zeta"]);
        assert_eq!(names(&one), names(&split));
        for (a, b) in one.metrics().iter().zip(split.metrics()) {
            assert_eq!(a.stats, b.stats, "{}", a.name);
        }
        assert_eq!(one.seed_range(), Some((1, 4)));
        let times: Vec<&str> = one.times().iter().map(|c| c.name).collect();
        assert_eq!(times, ["total", "carve"]);
        assert_eq!(one.column("alpha").map(|c| c.stats.count()), Some(2));
        assert!(one.column("time_us.carve").is_some());
        assert!(one.column("components").is_none(), "never recorded");
    }

    #[test]
    fn failures_keep_the_lowest_seeds_and_count_the_rest() {
        let mut a = Aggregate::new(header());
        let names = RecordNames::default();
        for seed in (0..20).rev() {
            let r = Record {
                seed,
                outcome: Outcome::Failed(format!("boom {seed}")),
            };
            a.absorb(&[r], &names);
        }
        assert_eq!(a.failed(), 20);
        assert_eq!(a.maps(), 20);
        let kept: Vec<u64> = a.first_failures().iter().map(|f| f.0).collect();
        assert_eq!(kept, [0, 1, 2, 3, 4]);
    }

    /// What a summary shows of an aggregate, for comparisons.
    fn shown(a: &Aggregate) -> impl PartialEq + std::fmt::Debug {
        let columns = |cs: Vec<Column>| -> Vec<(String, ColumnStats)> {
            cs.iter()
                .map(|c| (c.name.to_string(), c.stats.clone()))
                .collect()
        };
        (
            columns(a.metrics()),
            columns(a.times()),
            a.first_failures().to_vec(),
            (a.maps(), a.failed(), a.seed_range()),
        )
    }

    /// A map's record drawn from `draw`: sometimes a failure; else the built-in metric, some
    /// recipe metrics and phases (in the map's own order), with values that repeat or are zero
    /// of either sign; the total time differs on every map, so that big batches pass the exact
    /// limit and go to the sketch.
    fn drawn_record(seed: u64, draw: &[u16], names: &mut RecordNames) -> Record {
        let pick = |i: usize| draw[i % draw.len()] as u64;
        if pick(0) % 9 == 0 {
            return Record {
                seed,
                outcome: Outcome::Failed(format!("boom {seed}")),
            };
        }
        let value = |i: usize| match pick(i) % 4 {
            0 => 0.0,
            1 => -0.0,
            2 => (pick(i + 1) % 7) as f64 - 3.0,
            _ => seed as f64 * 0.37 + pick(i + 2) as f64,
        };
        let mut metrics = vec![(0, value(1))];
        for (k, name) in ["alpha", "zeta", "beta"].iter().enumerate() {
            if pick(3 + k) % 2 == 0 {
                metrics.push((names.metrics.id(name), value(4 + k)));
            }
        }
        let mut times = vec![(0, seed as f64 * 1.25 + 0.5)];
        let mut phases = ["carve", "fill", "rooms"];
        phases.rotate_left((pick(8) % 3) as usize);
        for (k, name) in phases.iter().enumerate() {
            if pick(9 + k) % 3 != 0 {
                times.push((names.times.id(name), value(10 + k).abs()));
            }
        }
        Record {
            seed,
            outcome: Outcome::Measured { metrics, times },
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Workers absorb the chunks they commit, in any order, and hand in their aggregates:
        /// the merge shows exactly what absorbing every record in seed order shows.
        #[test]
        fn merged_workers_equal_one_aggregate_in_seed_order(
            count in 0u64..20_000,
            chunk in 1u64..80,
            workers in 1usize..4,
            draw in proptest::collection::vec(0u16..u16::MAX, 1..64),
        ) {
            let mut whole = Aggregate::new(header());
            let mut parts = vec![Aggregate::new(header()); workers];
            let mut chunks: Vec<(usize, Vec<Record>, RecordNames)> = Vec::new();
            for (index, first) in (0..count).step_by(chunk as usize).enumerate() {
                let mut names = RecordNames::default();
                let records: Vec<Record> = (first..(first + chunk).min(count))
                    .map(|seed| drawn_record(seed, &draw[(seed as usize) % draw.len()..], &mut names))
                    .collect();
                whole.absorb(&records, &names);
                let worker = draw[index % draw.len()] as usize % workers;
                chunks.push((worker, records, names));
            }
            chunks.reverse();
            for (worker, records, names) in &chunks {
                parts[*worker].absorb(records, names);
            }
            let mut merged = Aggregate::new(header());
            for part in parts.iter().rev() {
                merged.merge(part);
            }
            proptest::prop_assert_eq!(shown(&merged), shown(&whole));
        }
    }

    #[test]
    fn phases_are_ordered_by_the_lowest_seed_that_marks_them() {
        let mut names = RecordNames::default();
        let (late, early) = (names.times.id("late"), names.times.id("early"));
        let record = |seed, times| Record {
            seed,
            outcome: Outcome::Measured {
                metrics: vec![],
                times,
            },
        };
        let mut a = Aggregate::new(header());
        a.absorb(&[record(9, vec![(0, 1.0), (late, 1.0)])], &names);
        a.absorb(
            &[record(2, vec![(0, 1.0), (early, 1.0), (late, 1.0)])],
            &names,
        );
        let times: Vec<&str> = a.times().iter().map(|c| c.name).collect();
        assert_eq!(times, ["total", "early", "late"]);
    }
}
