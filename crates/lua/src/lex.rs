//! A small Lua tokenizer that places recipe errors: names, string literals and punctuation with
//! their lines and columns. Comments and numbers are skipped; it never fails (a malformed
//! chunk is reported by Lua itself when the recipe loads).

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name or keyword.
    Name(String),
    /// A string literal's value (common escapes decoded).
    Str(String),
    /// Punctuation: one of `( ) { } [ ] , . : = ;` or another operator character.
    Punct(char),
}

/// A token and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Line.
    pub line: usize,
    /// Column (in characters).
    pub col: usize,
}

/// Tokenizes Lua source.
pub fn tokens(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < chars.len() {
        let c = chars[i];
        let col = i - line_start + 1;
        let at = |j: usize| chars.get(j).copied().unwrap_or('\0');
        if c == '\n' {
            line += 1;
            line_start = i + 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '-' && at(i + 1) == '-' {
            i += 2;
            if let Some(level) = long_bracket(&chars, i) {
                let end = skip_long(&chars, i, level, &mut line, &mut line_start);
                i = end;
            } else {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
        } else if c == '[' && long_bracket(&chars, i).is_some() {
            let level = long_bracket(&chars, i).unwrap_or(0);
            let start = i + level + 2;
            let (l0, c0) = (line, col);
            let end = skip_long(&chars, i, level, &mut line, &mut line_start);
            let body_end = end.saturating_sub(level + 2).max(start);
            let mut text: String = chars[start..body_end].iter().collect();
            if text.starts_with('\n') {
                text.remove(0);
            }
            out.push(Token {
                tok: Tok::Str(text),
                line: l0,
                col: c0,
            });
            i = end;
        } else if c == '"' || c == '\'' {
            let (text, end) = quoted(&chars, i);
            out.push(Token {
                tok: Tok::Str(text),
                line,
                col,
            });
            i = end;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Name(chars[start..i].iter().collect()),
                line,
                col,
            });
        } else if c.is_ascii_digit() || (c == '.' && at(i + 1).is_ascii_digit()) {
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                let exp = matches!(chars[i], 'e' | 'E' | 'p' | 'P');
                i += 1;
                if exp && matches!(at(i), '+' | '-') {
                    i += 1;
                }
            }
        } else if c == '.' && at(i + 1) == '.' {
            // `..` and `...` are operators, never field access.
            while at(i) == '.' {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Punct('~'),
                line,
                col,
            });
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
                col,
            });
            i += 1;
        }
    }
    out
}

/// The level of a long bracket `[==[` starting at `i`, if one starts there.
fn long_bracket(chars: &[char], i: usize) -> Option<usize> {
    if chars.get(i) != Some(&'[') {
        return None;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'=') {
        j += 1;
    }
    (chars.get(j) == Some(&'[')).then_some(j - i - 1)
}

/// Skips a long bracket starting at `i`; returns the index after its closing bracket.
fn skip_long(
    chars: &[char],
    i: usize,
    level: usize,
    line: &mut usize,
    line_start: &mut usize,
) -> usize {
    let mut j = i + level + 2;
    while j < chars.len() {
        if chars[j] == '\n' {
            *line += 1;
            *line_start = j + 1;
        } else if chars[j] == ']'
            && chars[j + 1..].iter().take(level).all(|&c| c == '=')
            && chars.get(j + 1 + level) == Some(&']')
        {
            return j + level + 2;
        }
        j += 1;
    }
    chars.len()
}

/// A quoted string starting at `i`: its decoded text and the index after the closing quote.
fn quoted(chars: &[char], i: usize) -> (String, usize) {
    let quote = chars[i];
    let mut text = String::new();
    let mut j = i + 1;
    while j < chars.len() && chars[j] != quote && chars[j] != '\n' {
        if chars[j] == '\\' && j + 1 < chars.len() {
            j += 1;
            text.push(match chars[j] {
                'n' => '\n',
                't' => '\t',
                other => other,
            });
        } else {
            text.push(chars[j]);
        }
        j += 1;
    }
    (text, (j + 1).min(chars.len()))
}
