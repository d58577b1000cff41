//! Aggregates of a column (min, median, p95, max, mean, histogram) and the readable table.

use super::dataset::{Column, Dataset};
use std::fmt::Write;
use warren_core::message::cap;

/// Bins of the table's text histograms.
const TABLE_BINS: usize = 16;

/// The aggregate of one column's recorded values.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Maps that recorded a value.
    pub count: usize,
    /// Smallest value.
    pub min: f64,
    /// The nearest-rank median: the ⌈n/2⌉-th smallest value.
    pub median: f64,
    /// The nearest-rank 95th percentile: the ⌈0.95·n⌉-th smallest value.
    pub p95: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean (summed in ascending order, so it does not depend on map order).
    pub mean: f64,
}

impl Summary {
    /// The summary of the present values, or `None` when there are none.
    pub fn of(values: &[Option<f64>]) -> Option<Summary> {
        let mut v: Vec<f64> = values.iter().flatten().copied().collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let rank = |p: usize| v[(v.len() * p).div_ceil(100).max(1) - 1];
        Some(Summary {
            count: v.len(),
            min: v[0],
            median: rank(50),
            p95: rank(95),
            max: v[v.len() - 1],
            mean: v.iter().sum::<f64>() / v.len() as f64,
        })
    }
}

/// A histogram of a column's values: bin counts over `[lo, hi]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// Left edge of the first bin.
    pub lo: f64,
    /// Right edge of the last bin.
    pub hi: f64,
    /// Values per bin.
    pub counts: Vec<usize>,
}

impl Histogram {
    /// Up to `bins` equal-width bins from the smallest to the largest value; integer columns
    /// spanning fewer values than that get one bin per integer instead.
    pub fn of(values: &[Option<f64>], bins: usize) -> Option<Histogram> {
        let s = Summary::of(values)?;
        let integral = values.iter().flatten().all(|v| v.fract() == 0.0);
        let (lo, hi, n) = if integral && s.max - s.min < bins as f64 {
            (s.min, s.max + 1.0, (s.max - s.min) as usize + 1)
        } else if s.max == s.min {
            (s.min, s.max, 1)
        } else {
            (s.min, s.max, bins.max(1))
        };
        let mut counts = vec![0; n];
        for v in values.iter().flatten() {
            let i = if hi > lo {
                ((v - lo) / (hi - lo) * n as f64) as usize
            } else {
                0
            };
            counts[i.min(n - 1)] += 1;
        }
        Some(Histogram { lo, hi, counts })
    }

    /// The histogram as a line of block characters, tallest bin full height.
    pub fn sparkline(&self) -> String {
        const BLOCKS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
        let top = self.counts.iter().copied().max().unwrap_or(0).max(1);
        self.counts
            .iter()
            .map(|&c| BLOCKS[if c == 0 { 0 } else { (c * 8).div_ceil(top) }])
            .collect()
    }
}

/// A number for the table: integers as integers, other values with a few significant digits.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else if v.abs() < 1.0 {
        format!("{v:.4}")
    } else if v.abs() < 100.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

/// Rows of the table for some columns.
fn rows(columns: &[Column]) -> Vec<[String; 8]> {
    columns
        .iter()
        .filter_map(|c| {
            let s = Summary::of(&c.values)?;
            let h = Histogram::of(&c.values, TABLE_BINS)?;
            Some([
                c.name.clone(),
                s.count.to_string(),
                number(s.min),
                number(s.median),
                number(s.p95),
                number(s.max),
                number(s.mean),
                h.sparkline(),
            ])
        })
        .collect()
}

/// Appends aligned rows under a heading line.
fn section(out: &mut String, head: [&str; 8], rows: &[[String; 8]]) {
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([head[i].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..8).map(width).collect();
    let mut line = |cells: [&str; 8]| {
        let mut l = format!("{:<w$}", cells[0], w = widths[0]);
        for i in 1..7 {
            let _ = write!(l, "  {:>w$}", cells[i], w = widths[i]);
        }
        let _ = writeln!(out, "{l}  {}", cells[7].trim_end());
    };
    line(head);
    for r in rows {
        line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]]);
    }
}

/// The readable report: what was run, every metric's aggregate and histogram, failures, and
/// (last, because they vary between runs) the timings.
pub fn table(data: &Dataset) -> String {
    let mut out = String::new();
    let range = match data.seed_range() {
        Some((lo, hi)) => format!("seeds {lo}..={hi}"),
        None => "no seeds".into(),
    };
    let _ = writeln!(
        out,
        "{}: {} maps ({range}), {} failed",
        data.header.recipe,
        data.maps(),
        data.failures.len()
    );
    let params: Vec<String> = data
        .header
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if !params.is_empty() {
        let _ = writeln!(out, "params: {}", params.join(" "));
    }
    out.push('\n');
    section(
        &mut out,
        [
            "metric",
            "maps",
            "min",
            "median",
            "p95",
            "max",
            "mean",
            "histogram (min..max)",
        ],
        &rows(&data.metrics),
    );
    for (seed, msg) in data.failures.iter().take(5) {
        // Records files may come from elsewhere: their messages are capped like warren's own.
        let _ = writeln!(out, "failed: seed {seed}: {}", cap(msg));
    }
    if data.failures.len() > 5 {
        let _ = writeln!(out, "failed: … and {} more", data.failures.len() - 5);
    }
    let times = rows(&data.times);
    if !times.is_empty() {
        out.push('\n');
        section(
            &mut out,
            [
                "time µs (varies)",
                "maps",
                "min",
                "median",
                "p95",
                "max",
                "mean",
                "histogram (min..max)",
            ],
            &times,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some(v: &[f64]) -> Vec<Option<f64>> {
        v.iter().map(|&x| Some(x)).collect()
    }

    #[test]
    fn nearest_rank_percentiles_and_mean() {
        let v: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        let s = Summary::of(&some(&v)).expect("values");
        assert_eq!((s.min, s.median, s.p95, s.max), (1.0, 10.0, 19.0, 20.0));
        assert_eq!(s.mean, 10.5);
        let one = Summary::of(&[None, Some(7.0)]).expect("a value");
        assert_eq!((one.count, one.median, one.p95), (1, 7.0, 7.0));
        assert_eq!(Summary::of(&[None]), None);
    }

    #[test]
    fn histograms_bin_small_integer_ranges_per_value() {
        let h = Histogram::of(&some(&[1.0, 2.0, 2.0, 4.0]), 16).expect("values");
        assert_eq!(h.counts, [1, 2, 0, 1]);
        assert_eq!(h.sparkline(), "▄█ ▄");
        let f = Histogram::of(&some(&[0.0, 0.25, 0.5, 1.0]), 4).expect("values");
        assert_eq!(f.counts, [1, 1, 1, 1]);
        let flat = Histogram::of(&some(&[0.5, 0.5]), 4).expect("values");
        assert_eq!(flat.counts, [2]);
    }

    #[test]
    fn numbers_read_naturally() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(0.31234), "0.3123");
        assert_eq!(number(12.345), "12.35");
        assert_eq!(number(1234.56), "1234.6");
    }
}
