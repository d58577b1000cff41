//! What warren measures on every finished map: open fraction, separate areas, dead ends and the
//! recipe's own metrics, computed 64 cells at a time.
//!
//! Measurements are deterministic (same map, same values).

mod areas;
pub mod dead_ends;
pub mod measure;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod open_bits;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod pack;
mod sweep;

pub use measure::{Measurer, BUILTIN};
