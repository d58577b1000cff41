//! Reading a Lua 5.4 chunk into a parse tree ([`full_moon`]) and reading its tokens back:
//! positions, names, and the values of string and number literals.

use full_moon::ast::Ast;
use full_moon::node::Node;
use full_moon::tokenizer::{Lexer, LexerResult, Token, TokenReference, TokenType};
use full_moon::LuaVersion;

/// A place in a file: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line.
    pub line: usize,
    /// Column.
    pub col: usize,
}

/// The tokens of `text`, or `None` when it does not tokenize.
// full_moon 3's lexer panics on a few inputs Lua itself rejects cleanly (a backtick, read as
// Luau's string interpolation); such a text has no tokens here.
pub fn tokens(text: &str) -> Option<Vec<Token>> {
    match std::panic::catch_unwind(|| Lexer::new(text, LuaVersion::lua54()).collect()) {
        Ok(LexerResult::Ok(tokens)) => Some(tokens),
        _ => None,
    }
}

/// The parse tree of `text`, or the first syntax error and where it is.
pub fn parse(text: &str) -> Result<Ast, (Pos, String)> {
    // The parser panics where its lexer does (see [`tokens`]): then Lua's own error is the one
    // reported.
    let Ok(result) =
        std::panic::catch_unwind(|| full_moon::parse_fallible(text, LuaVersion::lua54()))
    else {
        return Err((
            Pos { line: 1, col: 1 },
            "the static checks' parser cannot read this file".into(),
        ));
    };
    match result.errors().first() {
        None => Ok(result.into_ast()),
        Some(e) => {
            let (start, _) = e.range();
            let message = match e {
                full_moon::Error::AstError(a) => a.error_message().to_string(),
                full_moon::Error::TokenizerError(t) => t.error().to_string(),
            };
            Err((
                Pos {
                    line: start.line(),
                    col: start.character(),
                },
                message,
            ))
        }
    }
}

/// Where a token starts.
pub fn pos(t: &TokenReference) -> Pos {
    let p = t.token().start_position();
    Pos {
        line: p.line(),
        col: p.character(),
    }
}

/// Where a node starts (its first token, without the whitespace before it).
pub fn start(node: &impl Node) -> Pos {
    node.start_position()
        .map(|p| Pos {
            line: p.line(),
            col: p.character(),
        })
        .unwrap_or_default()
}

/// Byte offset of a token: identifies the declaration it starts.
pub fn offset(t: &TokenReference) -> usize {
    t.token().start_position().bytes()
}

/// Byte offset of a node's first token: identifies the node.
pub fn offset_of(node: &impl Node) -> usize {
    node.start_position().map_or(0, |p| p.bytes())
}

/// The text of a name token (or of any token, without whitespace).
pub fn text(t: &TokenReference) -> String {
    match t.token().token_type() {
        TokenType::Identifier { identifier } => identifier.to_string(),
        _ => t.token().to_string(),
    }
}

/// The value of a string literal token, escapes decoded; `None` when the token is no string
/// or an escape is malformed.
pub fn string_value(t: &TokenReference) -> Option<String> {
    let TokenType::StringLiteral {
        literal,
        multi_line_depth,
        quote_type,
    } = t.token().token_type()
    else {
        return None;
    };
    let raw: &str = literal.as_str();
    if *multi_line_depth > 0
        || matches!(
            quote_type,
            full_moon::tokenizer::StringLiteralQuoteType::Brackets
        )
    {
        // A long string keeps its text as written, less a first newline.
        let body = raw
            .strip_prefix("\r\n")
            .or_else(|| raw.strip_prefix("\n\r"))
            .or_else(|| raw.strip_prefix('\n'))
            .or_else(|| raw.strip_prefix('\r'))
            .unwrap_or(raw);
        return Some(body.to_string());
    }
    unescape(raw)
}

/// Decodes the escapes of a quoted Lua string's body.
fn unescape(raw: &str) -> Option<String> {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let e = *bytes.get(i + 1)?;
        i += 2;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'\\' | b'"' | b'\'' => out.push(e),
            b'\n' | b'\r' => out.push(b'\n'),
            b'z' => {
                while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                    i += 1;
                }
            }
            b'x' => {
                let hex = raw.get(i..i + 2)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b'0'..=b'9' => {
                let mut n = u32::from(e - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(d @ b'0'..=b'9') => {
                            n = n * 10 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(u8::try_from(n).ok()?);
            }
            b'u' => {
                let rest = raw.get(i..)?.strip_prefix('{')?;
                let close = rest.find('}')?;
                let code = u32::from_str_radix(&rest[..close], 16).ok()?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut buf).as_bytes());
                i += close + 2;
            }
            _ => return None,
        }
    }
    String::from_utf8(out).ok()
}

/// The value of a number literal: the number, and whether it is an integer.
pub fn number_value(t: &TokenReference) -> Option<(f64, bool)> {
    let TokenType::Number { text } = t.token().token_type() else {
        return None;
    };
    let s = text.as_str();
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.contains(['.', 'p', 'P']) {
            return None;
        }
        // Hexadecimal integers wrap around, as in Lua.
        let mut n: u64 = 0;
        for c in hex.chars() {
            n = n.wrapping_mul(16).wrapping_add(u64::from(c.to_digit(16)?));
        }
        return Some((n as i64 as f64, true));
    }
    if s.contains(['.', 'e', 'E']) {
        return s.parse::<f64>().ok().map(|v| (v, false));
    }
    match s.parse::<i64>() {
        Ok(n) => Some((n as f64, true)),
        Err(_) => s.parse::<f64>().ok().map(|v| (v, false)),
    }
}
