//! The readable table of a batch's statistics: every column's min, median, p95, max, mean
//! and histogram.

use super::aggregate::{Aggregate, Column};
use std::fmt::Write;
use warren_core::message::cap;

/// Bins of the table's text histograms.
const TABLE_BINS: usize = 16;

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

/// Rows of the table for some columns. Quantiles read from a sketch (columns with more than
/// [`EXACT_VALUES`](super::column::EXACT_VALUES) distinct values) are marked `~`.
fn rows(columns: &[Column]) -> Vec<[String; 8]> {
    columns
        .iter()
        .filter_map(|c| {
            let s = c.stats.summary()?;
            let h = c.stats.histogram(TABLE_BINS)?;
            let quantile = |v: f64| {
                if s.exact {
                    number(v)
                } else {
                    format!("~{}", number(v))
                }
            };
            Some([
                c.name.to_string(),
                s.count.to_string(),
                number(s.min),
                quantile(s.median),
                quantile(s.p95),
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
pub fn table(data: &Aggregate) -> String {
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
        data.failed()
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
        &rows(&data.metrics()),
    );
    for (seed, msg) in data.first_failures() {
        // Records files may come from elsewhere: their messages are capped like warren's own.
        let _ = writeln!(out, "failed: seed {seed}: {}", cap(msg));
    }
    let more = data.failed() - data.first_failures().len() as u64;
    if more > 0 {
        let _ = writeln!(out, "failed: … and {more} more");
    }
    let times = rows(&data.times());
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
