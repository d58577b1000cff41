//! Per-map records, gathered from any number of workers or shard files into one column-major
//! [`Dataset`] whose content depends only on the set of seeds, never on who measured what.

use std::collections::BTreeMap;
use warren_core::stats::BUILTIN;

/// Names interned to small ids, in the order they were first seen.
#[derive(Clone, Debug, Default)]
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
}

/// What came of one seed.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The map was generated and measured: `(name id, value)` pairs; times are in µs.
    Measured {
        /// Measurements, ids into the collector's metric names.
        metrics: Vec<(u32, f64)>,
        /// Wall-clock times in µs, ids into the collector's time names.
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

/// The time name of a whole generation, always the first time column.
pub const TOTAL_TIME: &str = "total";

/// Gathers records and the names their ids refer to.
#[derive(Clone, Debug)]
pub struct Collector {
    metric_names: Names,
    time_names: Names,
    records: Vec<Record>,
}

impl Default for Collector {
    fn default() -> Self {
        let mut metric_names = Names::default();
        for name in BUILTIN {
            metric_names.id(name);
        }
        let mut time_names = Names::default();
        time_names.id(TOTAL_TIME);
        Collector {
            metric_names,
            time_names,
            records: Vec::new(),
        }
    }
}

impl Collector {
    /// An empty collector; the built-in metrics have ids `0..BUILTIN.len()` and the total time
    /// has id 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of a metric name.
    pub fn metric_id(&mut self, name: &str) -> u32 {
        self.metric_names.id(name)
    }

    /// The id of a time name.
    pub fn time_id(&mut self, name: &str) -> u32 {
        self.time_names.id(name)
    }

    /// Adds a record whose ids come from this collector.
    pub fn push(&mut self, record: Record) {
        self.records.push(record);
    }

    /// Number of records so far.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no record has been added.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Moves every record of `other` into this collector, translating its ids.
    pub fn absorb(&mut self, other: Collector) {
        let metric_map: Vec<u32> = other
            .metric_names
            .0
            .iter()
            .map(|n| self.metric_names.id(n))
            .collect();
        let time_map: Vec<u32> = other
            .time_names
            .0
            .iter()
            .map(|n| self.time_names.id(n))
            .collect();
        self.records.extend(other.records.into_iter().map(|mut r| {
            if let Outcome::Measured { metrics, times } = &mut r.outcome {
                metrics
                    .iter_mut()
                    .for_each(|(id, _)| *id = metric_map[*id as usize]);
                times
                    .iter_mut()
                    .for_each(|(id, _)| *id = time_map[*id as usize]);
            }
            r
        }));
    }

    /// Orders the records by seed and lays them out in columns. Built-in metrics come first, in
    /// [`BUILTIN`] order, then recipe metrics by name; the total time comes first, then phases in
    /// the order the lowest seeds first mark them. A seed recorded twice is an error naming it.
    pub fn finish(mut self, header: Header) -> Result<Dataset, String> {
        self.records.sort_by_key(|r| r.seed);
        if let Some(w) = self.records.windows(2).find(|w| w[0].seed == w[1].seed) {
            return Err(format!(
                "seed {} appears more than once (do shards overlap?)",
                w[0].seed
            ));
        }
        let mut metric_ids: Vec<u32> = (0..self.metric_names.0.len() as u32).collect();
        metric_ids[BUILTIN.len()..]
            .sort_by(|&a, &b| self.metric_names.name(a).cmp(self.metric_names.name(b)));
        let mut time_ids: Vec<u32> = vec![0];
        for r in &self.records {
            if let Outcome::Measured { times, .. } = &r.outcome {
                for &(id, _) in times {
                    if !time_ids.contains(&id) {
                        time_ids.push(id);
                    }
                }
            }
        }
        let slot = |ids: &[u32], len: usize| {
            let mut s = vec![usize::MAX; len];
            for (col, &id) in ids.iter().enumerate() {
                s[id as usize] = col;
            }
            s
        };
        let metric_slot = slot(&metric_ids, self.metric_names.0.len());
        let time_slot = slot(&time_ids, self.time_names.0.len());
        let measured = self
            .records
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Measured { .. }))
            .count();
        let column = |names: &Names, id: u32| Column {
            name: names.name(id).to_string(),
            values: Vec::with_capacity(measured),
        };
        let mut data = Dataset {
            header,
            seeds: Vec::with_capacity(measured),
            metrics: metric_ids
                .iter()
                .map(|&id| column(&self.metric_names, id))
                .collect(),
            times: time_ids
                .iter()
                .map(|&id| column(&self.time_names, id))
                .collect(),
            failures: Vec::new(),
        };
        for r in self.records {
            match r.outcome {
                Outcome::Failed(msg) => data.failures.push((r.seed, msg)),
                Outcome::Measured { metrics, times } => {
                    data.seeds.push(r.seed);
                    for c in data.metrics.iter_mut().chain(data.times.iter_mut()) {
                        c.values.push(None);
                    }
                    for (id, v) in metrics {
                        let col = metric_slot[id as usize];
                        if let Some(last) = data.metrics[col].values.last_mut() {
                            *last = Some(v);
                        }
                    }
                    for (id, v) in times {
                        let col = time_slot[id as usize];
                        if let Some(last) = data.times[col].values.last_mut() {
                            *last = Some(v);
                        }
                    }
                }
            }
        }
        Ok(data)
    }
}

/// What the maps were made with. Shards can be merged only when their headers agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The recipe's name.
    pub recipe: String,
    /// Parameter values, as JSON.
    pub params: BTreeMap<String, serde_json::Value>,
}

/// One named quantity, one value per measured map (`None` where a map did not record it).
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The metric or phase name.
    pub name: String,
    /// Values in seed order.
    pub values: Vec<Option<f64>>,
}

/// Every map's measurements, in seed order.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// What the maps were made with.
    pub header: Header,
    /// Seeds of the measured maps, ascending.
    pub seeds: Vec<u64>,
    /// Deterministic measurements: built-in, then recipe metrics.
    pub metrics: Vec<Column>,
    /// Wall-clock times in µs (they vary between runs): total, then phases.
    pub times: Vec<Column>,
    /// Seeds whose generation failed, with the message, ascending.
    pub failures: Vec<(u64, String)>,
}

impl Dataset {
    /// Number of seeds, measured or failed.
    pub fn maps(&self) -> usize {
        self.seeds.len() + self.failures.len()
    }

    /// The lowest and highest seed, if there is any.
    pub fn seed_range(&self) -> Option<(u64, u64)> {
        let lo = self
            .seeds
            .first()
            .into_iter()
            .chain(self.failures.first().map(|f| &f.0));
        let hi = self
            .seeds
            .last()
            .into_iter()
            .chain(self.failures.last().map(|f| &f.0));
        Some((*lo.min()?, *hi.max()?))
    }

    /// The metric column called `name`.
    pub fn metric(&self, name: &str) -> Option<&Column> {
        self.metrics.iter().find(|c| c.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            recipe: "r".into(),
            params: BTreeMap::new(),
        }
    }

    /// A worker's collector; even seeds record `alpha`, odd ones `zeta`. `first` is interned
    /// first, so workers number the names differently.
    fn worker(seeds: &[u64], first: &str) -> Collector {
        let mut c = Collector::new();
        c.metric_id(first);
        let phase = c.time_id("carve");
        for &s in seeds {
            let extra = c.metric_id(if s % 2 == 0 { "alpha" } else { "zeta" });
            c.push(Record {
                seed: s,
                outcome: Outcome::Measured {
                    metrics: vec![(0, s as f64), (extra, 1.0)],
                    times: vec![(0, 2.0), (phase, 1.0)],
                },
            });
        }
        c
    }

    #[test]
    fn the_same_seeds_give_the_same_dataset_however_they_were_split() {
        let mut one = worker(&[], "alpha");
        one.absorb(worker(&[3, 1, 2, 4], "zeta"));
        let mut split = worker(&[4, 2], "alpha");
        split.absorb(worker(&[1, 3], "zeta"));
        split.absorb(worker(&[], "zeta"));
        let (a, b) = (one.finish(header()), split.finish(header()));
        let (a, b) = (a.expect("no duplicates"), b.expect("no duplicates"));
        assert_eq!(a.seeds, [1, 2, 3, 4]);
        assert_eq!(
            a.metrics[0].values,
            [Some(1.0), Some(2.0), Some(3.0), Some(4.0)]
        );
        let names: Vec<&str> = a.metrics[BUILTIN.len()..]
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(names, ["alpha", "zeta"], "recipe metrics sorted by name");
        assert_eq!(
            a.metrics[BUILTIN.len()].values,
            [None, Some(1.0), None, Some(1.0)]
        );
        assert_eq!(a, b);
        assert!(
            a.metrics[1].values.iter().all(Option::is_none),
            "unrecorded"
        );
    }

    #[test]
    fn a_seed_recorded_twice_is_an_error() {
        let mut c = worker(&[1, 2], "x");
        c.absorb(worker(&[2], "x"));
        let e = c.finish(header()).expect_err("duplicate");
        assert!(e.contains("seed 2"), "{e}");
    }

    #[test]
    fn failures_are_kept_apart_in_seed_order() {
        let mut c = worker(&[2], "x");
        c.push(Record {
            seed: 1,
            outcome: Outcome::Failed("boom".into()),
        });
        let d = c.finish(header()).expect("no duplicates");
        assert_eq!(d.failures, [(1, "boom".to_string())]);
        assert_eq!(d.seeds, [2]);
        assert_eq!(d.maps(), 2);
        assert_eq!(d.seed_range(), Some((1, 2)));
    }
}
