//! Why a toolbox primitive (fields, paths, cellular automata, drunkard's walks, BSP, mazes,
//! wave function collapse) failed: one error type for all of them, so a binding maps one type to its messages. Each
//! message names the bad value and the valid range.

use super::area::{AreaError, SizeMismatch};
use super::meter::Stopped;
use crate::map::MapError;
use thiserror::Error;

/// Why a toolbox primitive failed.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ToolError {
    /// Two grids of different sizes.
    #[error(transparent)]
    Size(#[from] SizeMismatch),
    /// A cell off the map, or a bad rectangle.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A bound that is not a number.
    #[error("{what} is not a number; give a finite value or ±infinity")]
    NotANumber {
        /// Which argument.
        what: &'static str,
    },
    /// A move cost outside `1..=MAX_COST`.
    #[error("a move cost of {cost} is out of range: costs are whole numbers 1..={most}")]
    Cost {
        /// The cost given.
        cost: i64,
        /// The largest cost allowed.
        most: u32,
    },
    /// A distance map or path with no source cell.
    #[error("{what} needs at least one source cell")]
    NoSources {
        /// The primitive.
        what: &'static str,
    },
    /// A cellular automaton rule that does not parse.
    #[error("cellular rule {rule:?} is not in birth/survival notation: write B then the counts 0-8 that bring a cell to life, a slash, S then the counts that keep it alive (e.g. \"B5678/S45678\")")]
    Rule {
        /// The text given.
        rule: String,
    },
    /// An option out of range.
    #[error("{what} option {key} = {value} is out of range: {range}")]
    Range {
        /// The primitive.
        what: &'static str,
        /// The option.
        key: &'static str,
        /// Its value.
        value: String,
        /// What it may be.
        range: String,
    },
    /// A mask was given where a rectangle is needed.
    #[error("{what} needs a rectangular area (the whole map, a rectangle or a room), not a mask")]
    NotARectangle {
        /// The primitive.
        what: &'static str,
    },
    /// A cell that must be in the area is not.
    #[error("{what} ({x}, {y}) is not in the area")]
    NotInArea {
        /// Which cell.
        what: &'static str,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A wave function collapse sample or area smaller than its patterns.
    #[error(
        "{what} is {width}×{height}; wave function collapse with n = {n} needs at least {n}×{n}"
    )]
    TooSmall {
        /// The sample (named) or the area.
        what: String,
        /// Its columns.
        width: i32,
        /// Its rows.
        height: i32,
        /// The pattern side.
        n: usize,
    },
    /// Every attempt of a wave function collapse met a position no pattern fits.
    #[error("wave function collapse from sample '{sample}' met a contradiction on each of its {attempts} attempts; more retries, a larger or more varied sample, a smaller n, or rotations and reflections give it more ways to succeed")]
    Contradiction {
        /// The sample's name.
        sample: String,
        /// Attempts made.
        attempts: u32,
    },
    /// The meter refused more work.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

impl ToolError {
    /// Checks that `value` is in `lo..=hi`, or names `what`'s option `key` and its range.
    pub fn check_range(
        what: &'static str,
        key: &'static str,
        value: i64,
        (lo, hi): (i64, i64),
    ) -> Result<(), ToolError> {
        if (lo..=hi).contains(&value) {
            Ok(())
        } else {
            Err(ToolError::Range {
                what,
                key,
                value: value.to_string(),
                range: format!("{lo}..={hi}"),
            })
        }
    }
}

impl From<AreaError> for ToolError {
    fn from(e: AreaError) -> Self {
        match e {
            AreaError::Map(e) => ToolError::Map(e),
            AreaError::Size(e) => ToolError::Size(e),
        }
    }
}
