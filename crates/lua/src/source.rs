//! Checks on Lua source text before it is compiled: a size cap. (To-be-closed variables are
//! allowed, as in stock Lua: fatal mode keeps their handlers from catching or replacing a
//! budget error or a Rust panic.)

/// The largest chunk of Lua source warren compiles (script files and `load`), in bytes.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Why a chunk of source is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line, or 0 for the chunk as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// `file:line: message` (or `file: message` for the whole chunk).
    pub fn located(&self, file: &str) -> String {
        match self.line {
            0 => format!("{file}: {}", self.message),
            l => format!("{file}:{l}: {}", self.message),
        }
    }
}

/// Checks `text` before compiling it: at most [`MAX_SOURCE_BYTES`].
pub fn check(text: &[u8]) -> Result<(), Problem> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(Problem {
            line: 0,
            message: format!(
                "chunk is {} bytes; Lua source may be at most {MAX_SOURCE_BYTES} bytes",
                text.len()
            ),
        });
    }
    Ok(())
}
