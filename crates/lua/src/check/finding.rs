//! One problem the static checks found in a file.

use super::syntax::Pos;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The code fails when it runs there.
    Error,
    /// The code runs, but likely not as meant.
    Warning,
    /// The code may fail, but only in ways the checks cannot prove: a call on a value of
    /// unknown type, a use of something the sandbox lacks that is guarded or never called.
    Note,
}

/// A problem at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Where.
    pub at: Pos,
    /// What is wrong.
    pub message: String,
    /// How much it matters.
    pub severity: Severity,
}

impl Finding {
    /// An error.
    pub fn error(at: Pos, message: impl Into<String>) -> Finding {
        Finding {
            at,
            message: message.into(),
            severity: Severity::Error,
        }
    }

    /// A warning.
    pub fn warning(at: Pos, message: impl Into<String>) -> Finding {
        Finding {
            at,
            message: message.into(),
            severity: Severity::Warning,
        }
    }

    /// A note.
    pub fn note(at: Pos, message: impl Into<String>) -> Finding {
        Finding {
            at,
            message: message.into(),
            severity: Severity::Note,
        }
    }
}
