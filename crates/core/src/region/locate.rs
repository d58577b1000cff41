//! Finds where a key or value sits in a TOML source, so that validation errors found after
//! deserialisation can still name the line and column.

use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// One step of a path into a TOML document: a key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A table key.
    Key(String),
    /// An array index (0-based).
    Index(usize),
}

/// A path such as `corridor[2].constants.turn_chance`.
pub type Path = Vec<Seg>;

/// Builds a path from keys and indices: `path!["corridor", 2, "weight"]`.
#[macro_export]
#[doc(hidden)]
macro_rules! tpath {
    ($($seg:expr),* $(,)?) => {
        vec![$($crate::region::locate::Seg::from($seg)),*]
    };
}

impl From<&str> for Seg {
    fn from(s: &str) -> Seg {
        Seg::Key(s.to_string())
    }
}

impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

/// Renders a path the way a modder reads it: `corridor[2].constants.turn_chance`.
pub fn display(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// A parsed document that remembers spans.
pub struct Locator<'a> {
    text: &'a str,
    root: Option<DeTable<'a>>,
}

impl<'a> Locator<'a> {
    /// Parses `text`; a document that does not parse locates nothing.
    pub fn new(text: &'a str) -> Self {
        Locator {
            text,
            root: DeTable::parse(text).ok().map(|t| t.into_inner()),
        }
    }

    /// The byte span of the value at `path`, or of the deepest existing ancestor (so an error
    /// about a missing key points at its table). An index into a text value is its character
    /// of that number (0-based, as the value reads once the TOML quoting is undone): a
    /// prefab's map names the very cell that is wrong.
    pub fn span(&self, path: &[Seg]) -> Option<Range<usize>> {
        let root = self.root.as_ref()?;
        let mut best = None;
        let mut table: Option<&DeTable> = Some(root);
        let mut value: Option<&DeValue> = None;
        for seg in path {
            let next = match (seg, table, value) {
                (Seg::Key(k), Some(t), _) => t.get(k.as_str()),
                (Seg::Index(i), _, Some(DeValue::Array(a))) => a.get(*i),
                (Seg::Index(i), _, Some(DeValue::String(_))) => {
                    let whole: Range<usize> = best.clone()?;
                    let at = char_offset(&self.text[whole.clone()], *i)
                        .map_or(whole.start, |o| whole.start + o);
                    return Some(at..at + 1);
                }
                _ => None,
            };
            let Some(next) = next else { break };
            best = Some(next.span());
            value = Some(next.get_ref());
            table = next.get_ref().as_table();
        }
        best
    }

    /// The text value at `path`, if there is one (an entry's `name`).
    pub fn string(&self, path: &[Seg]) -> Option<String> {
        let root = self.root.as_ref()?;
        let mut table: Option<&DeTable> = Some(root);
        let mut value: Option<&DeValue> = None;
        for seg in path {
            let next = match (seg, table, value) {
                (Seg::Key(k), Some(t), _) => t.get(k.as_str()),
                (Seg::Index(i), _, Some(DeValue::Array(a))) => a.get(*i),
                _ => None,
            }?;
            value = Some(next.get_ref());
            table = next.get_ref().as_table();
        }
        value?.as_str().map(str::to_string)
    }

    /// The path of the deepest key or value that covers byte `offset`. A key's own span
    /// counts (an unknown key is found as itself), and so does the `[[room]]` header of an
    /// entry (a missing key is reported there).
    pub fn path_at(&self, offset: usize) -> Path {
        let mut path = Vec::new();
        if let Some(root) = self.root.as_ref() {
            search(root, offset, &mut path);
        }
        path
    }
}

/// The byte offset, in `raw` (a TOML string as written, quotes included), of character `n`
/// of the string's value; `None` when `raw` is no string or too short. Multi-line strings
/// drop the newline right after their opening quotes; a basic string's escapes (`\n`,
/// `\u00e9`, a line-ending backslash) are read as TOML reads them.
fn char_offset(raw: &str, n: usize) -> Option<usize> {
    let (quote, basic) = [("\"\"\"", true), ("'''", false), ("\"", true), ("'", false)]
        .into_iter()
        .find(|(q, _)| raw.starts_with(q))?;
    let mut start = quote.len();
    if quote.len() == 3 {
        if raw[start..].starts_with("\r\n") {
            start += 2;
        } else if raw[start..].starts_with('\n') {
            start += 1;
        }
    }
    let mut chars = raw[start..].char_indices().peekable();
    let mut seen = 0;
    while let Some((at, c)) = chars.next() {
        if basic && c == '\\' {
            match chars.next() {
                Some((_, 'u')) => {
                    chars.nth(3);
                }
                Some((_, 'U')) => {
                    chars.nth(7);
                }
                Some((_, w)) if w.is_whitespace() => {
                    while chars.next_if(|(_, w)| w.is_whitespace()).is_some() {}
                    continue;
                }
                _ => {}
            }
        }
        if seen == n {
            return Some(start + at);
        }
        seen += 1;
    }
    None
}

/// Pushes onto `path` the way to what covers `offset` in `table`; whether something does.
fn search(table: &DeTable, offset: usize, path: &mut Path) -> bool {
    for (k, v) in table.iter() {
        path.push(Seg::Key(k.get_ref().to_string()));
        if k.span().contains(&offset) || within(v, offset, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Whether `value` (or something in it, pushed onto `path`) covers `offset`.
fn within(value: &toml::Spanned<DeValue>, offset: usize, path: &mut Path) -> bool {
    match value.get_ref() {
        DeValue::Table(t) if search(t, offset, path) => return true,
        DeValue::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                if within(e, offset, path) {
                    return true;
                }
                path.pop();
            }
        }
        _ => {}
    }
    value.span().contains(&offset)
}
