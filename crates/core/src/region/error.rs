//! Region-file errors: each names the file, line and column.

use crate::message::cap;
use std::fmt;
use std::path::PathBuf;

/// The most problems a [`RegionErrors`] shows when printed (`warren check` lists them all).
pub const MAX_SHOWN_ERRORS: usize = 100;

/// One problem in one region file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionError {
    /// The file (as given on the command line or found in the directory).
    pub file: PathBuf,
    /// 1-based line, 0 when the problem is with the file as a whole.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub col: usize,
    /// What is wrong and what would be right.
    pub message: String,
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.display();
        let message = cap(&self.message);
        match (self.line, self.col) {
            (0, _) => write!(f, "{file}: {message}"),
            (l, 0) => write!(f, "{file}:{l}: {message}"),
            (l, c) => write!(f, "{file}:{l}:{c}: {message}"),
        }
    }
}

/// Every problem found while loading a region set (loading reports all of them, not only the
/// first). Printed, it shows the first [`MAX_SHOWN_ERRORS`] and counts the rest; each message is
/// capped (see [`crate::message::cap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionErrors(pub Vec<RegionError>);

impl fmt::Display for RegionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().take(MAX_SHOWN_ERRORS).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        match self.0.len().saturating_sub(MAX_SHOWN_ERRORS) {
            0 => Ok(()),
            more => write!(
                f,
                "\n… and {more} more problems (`warren check` lists every one)"
            ),
        }
    }
}

impl std::error::Error for RegionErrors {}

/// Converts a byte offset in `text` to a 1-based (line, column); the column counts characters.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}
