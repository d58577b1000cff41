//! Why a toolbox primitive (fields, paths, cellular automata, drunkard's walks, BSP, mazes)
//! failed: one error type for all of them, so a binding maps one type to its messages. Each
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
    /// A bad move cost, or no sources.
    #[error(transparent)]
    Rules(#[from] super::field::distance::RulesError),
    /// A noise option out of range.
    #[error(transparent)]
    Noise(#[from] super::field::noise::NoiseOptionError),
    /// A bad cellular automaton rule.
    #[error(transparent)]
    Rule(#[from] super::cellular::RuleError),
    /// A bad drunkard's walk option.
    #[error(transparent)]
    Drunkard(#[from] super::drunkard::DrunkardError),
    /// A bad BSP option or area.
    #[error(transparent)]
    Bsp(#[from] super::bsp::BspError),
    /// The meter refused more work.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

impl From<AreaError> for ToolError {
    fn from(e: AreaError) -> Self {
        match e {
            AreaError::Map(e) => ToolError::Map(e),
            AreaError::Size(e) => ToolError::Size(e),
        }
    }
}
