//! The errors a run can end with, and the exit code each maps to.

use thiserror::Error;
use warren_core::message::cap;
use warren_core::region::RegionErrors;

/// Why a run failed. Printed, every message is capped at
/// [`MAX_MESSAGE_BYTES`](warren_core::message::MAX_MESSAGE_BYTES) with a note of how much was
/// left out (a recipe's error value or a quoted region value may be megabytes long).
#[derive(Debug, Error)]
pub enum Error {
    /// Region files are invalid (every problem is listed). Transparent: the problems are
    /// the whole message, never repeated as a cause after it.
    #[error(transparent)]
    Region(#[from] RegionErrors),
    /// A recipe failed to load or raised an error; the message starts with `file:line:`.
    #[error("{}", cap(.0))]
    Script(String),
    /// A parameter is unknown, of the wrong type or out of range.
    #[error("{}", cap(.0))]
    Param(String),
    /// A recipe ran past its instruction, time or memory budget.
    #[error("{}", cap(.0))]
    Budget(String),
    /// The command line asks for something that cannot be done (a PNG to the terminal, an
    /// output file of unknown type): exit code 2, like the usage errors clap reports.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing a file failed.
    #[error("{}", cap(.0))]
    Io(String),
    /// A bug in warren itself (a Rust panic inside a primitive). Never caused by a recipe.
    #[error("internal error (a bug in warren, please report it): {}", cap(.0))]
    Internal(String),
}

impl Error {
    /// Process exit code: 1 for anything caused by the inputs, 2 for usage errors, 3 for
    /// internal errors.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => 2,
            Error::Internal(_) => 3,
            _ => 1,
        }
    }
}

/// Result alias for warren's fallible operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;
