//! Statistics of many generated maps: per-map records folded as they stream into aggregates
//! whose size does not depend on the number of maps, the readable table, JSON Lines / CSV /
//! Parquet records and PNG histogram plots. The per-map measurements themselves live in
//! [`warren_core::stats`].
//!
//! Wall-clock times are kept apart from measurements so that comparisons between runs never see
//! timing noise.

pub mod aggregate;
pub mod column;
// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod font;
pub mod parquet_file;
pub mod plan;
pub mod plot;
pub mod records;
pub mod summary;

pub use aggregate::{Aggregate, Column, Header, Outcome, Record, RecordNames};
pub use column::{ColumnStats, Histogram, Summary};
pub use plan::{SeedPlan, Shard};
pub use summary::table;
pub use warren_core::stats::{Measurer, BUILTIN};
