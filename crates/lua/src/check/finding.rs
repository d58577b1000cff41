//! One problem the static checks found in a file.

use super::syntax::Pos;

/// A problem at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Where.
    pub at: Pos,
    /// What is wrong.
    pub message: String,
    /// A warning (the code runs, but likely not as meant) rather than an error.
    pub warning: bool,
}

impl Finding {
    /// An error.
    pub fn error(at: Pos, message: impl Into<String>) -> Finding {
        Finding {
            at,
            message: message.into(),
            warning: false,
        }
    }

    /// A warning.
    pub fn warning(at: Pos, message: impl Into<String>) -> Finding {
        Finding {
            at,
            message: message.into(),
            warning: true,
        }
    }
}
