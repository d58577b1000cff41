//! Statistics of generated maps: what warren measures on every map, per-map records gathered
//! into columns, aggregates and histograms, JSON Lines / CSV records and PNG histogram plots.
//!
//! Measurements are deterministic (same seed, same values); wall-clock times are kept apart
//! from them so that comparisons between runs never see timing noise.

mod areas;
pub mod dataset;
pub mod dead_ends;
mod font;
pub mod measure;
mod open_bits;
pub mod plot;
pub mod records;
pub mod summary;

pub use dataset::{Collector, Column, Dataset, Header, Outcome, Record};
pub use measure::{Measurer, BUILTIN};
pub use summary::{table, Histogram, Summary};
