//! Region-file errors: each names the file, line and column.

use std::fmt;
use std::path::PathBuf;

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
        match (self.line, self.col) {
            (0, _) => write!(f, "{file}: {}", self.message),
            (l, 0) => write!(f, "{file}:{l}: {}", self.message),
            (l, c) => write!(f, "{file}:{l}:{c}: {}", self.message),
        }
    }
}

/// Every problem found while loading a region set (loading reports all of them, not only the
/// first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionErrors(pub Vec<RegionError>);

impl fmt::Display for RegionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let t = "a = 1\nbé = 2\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 6), (2, 1));
        assert_eq!(line_col(t, 9), (2, 3));
    }
}
