//! `warren::stats` (src/stats/): the statistics of a batch.

/// `aggregate.rs`: the same seeds give the same aggregate however they were split.
mod aggregate;
/// `column.rs`: one column's percentiles, histograms, sketch and exact sum.
mod column;
/// `font.rs`: the plots' bitmap font.
mod font;
/// `plan.rs`: seed plans, shards and gaps.
mod plan;
/// `plot.rs`: histograms drawn into a PNG.
mod plot;
/// `records.rs`: JSON Lines and CSV records.
mod records;
/// `summary.rs`: numbers in the table.
mod summary;
