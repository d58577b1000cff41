//! Errors of the dungeon phases. Each names the bad value and what would be valid.

use crate::gen::connectivity::FloodError;
use crate::gen::meter::Stopped;
use crate::gen::tunnel::TunnelError;
use crate::map::MapError;
use thiserror::Error;

/// Why a dungeon phase could not run.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DungeonError {
    /// A setting outside its valid range.
    #[error("{what} is {value}; valid: {valid}")]
    BadSetting {
        /// The setting, e.g. `"panel_width"`.
        what: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        valid: String,
    },
    /// A cell or rectangle off the map.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A tunnel request the tunnel primitive refused.
    #[error(transparent)]
    Tunnel(#[from] TunnelError),
    /// A flood fill that could not run.
    #[error(transparent)]
    Flood(#[from] FloodError),
    /// An open area that no corridor can reach: every way in is blocked by cells of higher
    /// priority than a corridor floor (vault walls, stairs, the map edge).
    #[error(
        "the open area at ({}, {}) is sealed: every way in crosses cells of priority above \
         ROOM_FLOOR (vault walls or the map edge); give the vault an opening on its border",
        at.x, at.y
    )]
    Sealed {
        /// A cell of the sealed area.
        at: crate::map::Point,
    },
    /// The meter refused more work (a budget ran out).
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// No open floor is left where stairs may go.
    #[error("no open floor of priority ≤ ROOM_FLOOR is left for the {which} stairs")]
    NoStairSpot {
        /// `"down"`.
        which: &'static str,
    },
}

impl DungeonError {
    /// A [`DungeonError::BadSetting`] from anything printable.
    pub fn bad(
        what: impl Into<String>,
        value: impl ToString,
        valid: impl Into<String>,
    ) -> DungeonError {
        DungeonError::BadSetting {
            what: what.into(),
            value: value.to_string(),
            valid: valid.into(),
        }
    }
}
