//! `warren::stats::aggregate` (src/stats/aggregate.rs): aggregates absorbed and merged.

use std::collections::BTreeMap;
use warren::stats::{Aggregate, Column, ColumnStats, Header, Outcome, Record, RecordNames};

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
    let names =
        |a: &Aggregate| -> Vec<String> { a.metrics().iter().map(|c| c.name.to_string()).collect() };
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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// A chunk of records is folded in as if each value were added on its own, whatever runs
    /// of equal values it holds (values a metric repeats map after map are added as one run).
    #[test]
    fn absorbed_runs_of_equal_values_count_each_value(
        values in proptest::collection::vec((0usize..6, 0usize..6, proptest::bool::ANY), 0..40),
    ) {
        const SOME: [f64; 6] = [0.0, -0.0, 1.0, 2.5, 1e300, -3.0];
        let mut names = RecordNames::default();
        let (a, b) = (names.metrics.id("a"), names.metrics.id("b"));
        let (mut alone_a, mut alone_b) = (ColumnStats::default(), ColumnStats::default());
        let records: Vec<Record> = values
            .iter()
            .enumerate()
            .map(|(seed, &(x, y, both))| {
                alone_a.add(SOME[x]);
                let mut metrics = vec![(a, SOME[x])];
                if both {
                    alone_b.add(SOME[y]);
                    metrics.push((b, SOME[y]));
                }
                Record {
                    seed: seed as u64,
                    outcome: Outcome::Measured { metrics, times: vec![(0, 1.0)] },
                }
            })
            .collect();
        let mut folded = Aggregate::new(header());
        folded.absorb(&records, &names);
        let column = |name| folded.column(name).map(|c| c.stats.clone()).unwrap_or_default();
        proptest::prop_assert_eq!(column("a"), alone_a);
        proptest::prop_assert_eq!(column("b"), alone_b);
    }
}
