//! Statistics of many generated maps: per-map records gathered into columns, aggregates and
//! histograms, JSON Lines / CSV records and PNG histogram plots. The per-map measurements
//! themselves live in [`warren_core::stats`].
//!
//! Wall-clock times are kept apart from measurements so that comparisons between runs never see
//! timing noise.

pub mod dataset;
mod font;
pub mod plot;
pub mod records;
pub mod summary;

pub use dataset::{Collector, Column, Dataset, Header, Outcome, Record};
pub use summary::{table, Histogram, Summary};
pub use warren_core::stats::{Measurer, BUILTIN};
