//! Checks on Lua source text before it is compiled: a size cap, and no to-be-closed variables.
//!
//! A `<close>` variable's handler runs while an error unwinds and may replace that error with
//! its own, which would let a script swallow a Rust panic reported through `pcall`. Recipes
//! have no resources to close, so the attribute is refused outright.

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

/// Checks `text` before compiling it: at most [`MAX_SOURCE_BYTES`], no `<close>` attribute.
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
    let tokens = Lexer {
        text,
        pos: 0,
        line: 1,
    };
    let mut last: [Token; 2] = [Token::Other, Token::Other];
    for (token, line) in tokens {
        if let (Token::Op(b'<'), Token::Name(b"close"), Token::Op(b'>')) = (last[0], last[1], token)
        {
            return Err(Problem {
                line,
                message: "to-be-closed variables (<close>) are not allowed in recipes".into(),
            });
        }
        last = [last[1], token];
    }
    Ok(())
}

/// The tokens the check needs to tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A single-character operator that is not part of a longer one (`<` but not `<=`).
    Op(u8),
    /// A name or keyword.
    Name(&'a [u8]),
    /// Anything else: numbers, strings, longer operators.
    Other,
}

/// A minimal Lua lexer: skips whitespace, comments and strings (short and long).
struct Lexer<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.text.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn bump(&mut self) {
        if self.peek(0) == b'\n' {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// The level of a long bracket `[==[` at the cursor, if there is one.
    fn long_bracket(&self) -> Option<usize> {
        if self.peek(0) != b'[' {
            return None;
        }
        let mut level = 0;
        while self.peek(1 + level) == b'=' {
            level += 1;
        }
        (self.peek(1 + level) == b'[').then_some(level)
    }

    /// Skips a long string or comment of `level` starting at the cursor.
    fn skip_long(&mut self, level: usize) {
        self.pos += level + 2;
        while self.pos < self.text.len() {
            if self.peek(0) == b']'
                && (1..=level).all(|i| self.peek(i) == b'=')
                && self.peek(level + 1) == b']'
            {
                self.pos += level + 2;
                return;
            }
            self.bump();
        }
    }

    /// Skips a quoted string starting at the cursor.
    fn skip_quoted(&mut self) {
        let quote = self.peek(0);
        self.pos += 1;
        while self.pos < self.text.len() {
            match self.peek(0) {
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                c if c == quote => {
                    self.pos += 1;
                    return;
                }
                b'\n' => return,
                _ => self.bump(),
            }
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = (Token<'a>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let c = self.peek(0);
            if self.pos >= self.text.len() {
                return None;
            }
            if c.is_ascii_whitespace() {
                self.bump();
            } else if c == b'-' && self.peek(1) == b'-' {
                self.pos += 2;
                match self.long_bracket() {
                    Some(level) => self.skip_long(level),
                    None => {
                        while self.pos < self.text.len() && self.peek(0) != b'\n' {
                            self.pos += 1;
                        }
                    }
                }
            } else {
                break;
            }
        }
        let line = self.line;
        let c = self.peek(0);
        let token = if c.is_ascii_alphabetic() || c == b'_' {
            let start = self.pos;
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            Token::Name(&self.text[start..self.pos])
        } else if c.is_ascii_digit() {
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'.' {
                self.pos += 1;
            }
            Token::Other
        } else if c == b'"' || c == b'\'' {
            self.skip_quoted();
            Token::Other
        } else if let Some(level) = self.long_bracket() {
            self.skip_long(level);
            Token::Other
        } else if (c == b'<' || c == b'>') && matches!(self.peek(1), b'=' | b'<' | b'>') {
            self.pos += 2;
            Token::Other
        } else {
            self.bump();
            Token::Op(c)
        };
        Some((token, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_close_attributes_wherever_they_hide() {
        for src in [
            "local x <close> = nil",
            "local a, b <close> = 1, nil",
            "local x < close > = nil",
            "local x <--[[ hidden ]] close --\n> = nil",
            "do\n\n  local x <close> = f()\nend",
        ] {
            let e = check(src.as_bytes()).expect_err(src);
            assert!(e.message.contains("to-be-closed variables"), "{src}: {e:?}");
        }
        let e = check(b"local s = 1\n\nlocal x <close> = nil").unwrap_err();
        assert_eq!(
            e.located("t.lua"),
            "t.lua:3: to-be-closed variables (<close>) are not allowed in recipes"
        );
    }

    #[test]
    fn accepts_close_in_strings_comments_names_and_const() {
        for src in [
            "local s = '<close>'",
            "local s = \"a\\\"<close>\"",
            "local s = [==[ <close> ]==]",
            "-- local x <close> = nil",
            "--[[ local x <close> = nil ]]",
            "local x <const> = 1",
            "local close = 1; local y = close",
            "local ok = a <= close and b >= 1",
            "local z = x << close >> 1",
        ] {
            assert_eq!(check(src.as_bytes()), Ok(()), "{src}");
        }
    }

    #[test]
    fn caps_the_size() {
        let big = vec![b' '; MAX_SOURCE_BYTES + 1];
        let e = check(&big).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e
            .located("big.lua")
            .starts_with("big.lua: chunk is 1048577 bytes"));
    }
}
