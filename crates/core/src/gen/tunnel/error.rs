//! Errors a tunnel request can produce. Each names the bad value and the valid range.

use crate::map::MapError;
use thiserror::Error;

/// Why a tunnel could not be dug.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum TunnelError {
    /// A start or destination cell outside the map.
    #[error("tunnel {which}: {source}")]
    OutOfBounds {
        /// `"start"` or `"destination"`.
        which: &'static str,
        /// The map's description of the bad cell.
        source: MapError,
    },
    /// A setting with a value outside its valid range.
    #[error("tunnel: {what} is {value}; valid: {valid}")]
    BadSetting {
        /// The setting, e.g. `"styles[2].weight"`.
        what: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        valid: String,
    },
}

impl TunnelError {
    /// A [`TunnelError::BadSetting`] from anything printable.
    pub(crate) fn bad(
        what: impl Into<String>,
        value: impl ToString,
        valid: impl Into<String>,
    ) -> TunnelError {
        TunnelError::BadSetting {
            what: what.into(),
            value: value.to_string(),
            valid: valid.into(),
        }
    }
}
