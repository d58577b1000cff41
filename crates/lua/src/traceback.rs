//! Lua errors for people: the recipe's `generate` runs under a message handler that, at the
//! moment of the error, formats the error value and lists the recipe frames that led to it.
//!
//! - A string error keeps its `file:line:` prefix; one without (`error("x", 2)` blaming the host
//!   that called `generate`, `error("x", 0)`) gets the line of the innermost recipe frame.
//! - Any other value is written readably at that line: `error({code = 1})` gives
//!   `scripts/r.lua:5: error({code = 1})`; a table with `__tostring` gives its text.
//! - When the error passed through two or more recipe frames, a short traceback follows, most
//!   recent call first, one `file:line: in function 'name'` per frame (frames of the host, the
//!   standard library and `load`ed strings left out; long recursions shortened; where a tail
//!   call replaced its caller's frame, `(… tail calls …)` says so, as Lua's own traceback does).
//!
//! The host hooks in twice: it calls `generate` under Lua's own `xpcall` with [`handler`], and
//! [`outcome`] turns what that `xpcall` returned into a result.

use mlua::{Function, Lua, Table, Value};
use std::fmt::Write as _;

/// The most recipe frames a traceback lists: the innermost ones and the outermost ones, with
/// a count of those left out between them.
const INNER_FRAMES: usize = 8;
const OUTER_FRAMES: usize = 3;

/// An error already formatted by the handler: its message, then the traceback lines.
#[derive(Debug)]
pub struct Traced(pub String);

impl std::fmt::Display for Traced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Traced {}

/// The message handler `generate` runs under (see the module's description).
pub fn handler(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(handle)
}

/// What `xpcall(generate, handler, …)` returned, as a result: its error comes back as a
/// [`Traced`] error with the handler's message and recipe traceback. Budget errors and Rust
/// panics pass as they are (the host reports those).
pub fn outcome(lua: &Lua, ok: Value, error: Value) -> mlua::Result<()> {
    if matches!(ok, Value::Boolean(true)) {
        return Ok(());
    }
    match error {
        Value::String(s) => Err(mlua::Error::external(Traced(
            s.to_string_lossy().to_string(),
        ))),
        Value::Error(e) => Err(*e),
        Value::Nil => Err(mlua::Error::runtime("error")),
        other => Err(mlua::Error::runtime(describe(lua, &other))),
    }
}

/// The message handler: runs where the error happened, with its stack still there.
fn handle(lua: &Lua, value: Value) -> mlua::Result<String> {
    let frames = recipe_frames(lua);
    let mut text = match &value {
        Value::String(s) => s.to_string_lossy().to_string(),
        Value::Error(e) => crate::located::message(e),
        Value::Table(t) if has_tostring(t) => describe(lua, &value),
        other => format!("error({})", describe(lua, other)),
    };
    if !crate::located::starts_located(&text) {
        if let Some(f) = frames.first() {
            text = format!("{}:{}: {text}", f.file, f.line);
        }
    }
    if frames.len() >= 2 {
        text.push_str("\ntraceback (most recent call first):");
        let n = frames.len();
        let shown = |i: usize| i < INNER_FRAMES || i >= n.saturating_sub(OUTER_FRAMES);
        let mut skipped = 0;
        for (i, f) in frames.iter().enumerate() {
            if !shown(i) {
                skipped += 1;
                continue;
            }
            if skipped > 0 {
                let _ = write!(text, "\n  … {skipped} more");
                skipped = 0;
            }
            let _ = write!(text, "\n  {}:{}: in {}", f.file, f.line, f.function);
            if f.tail {
                text.push_str("\n  (… tail calls …)");
            }
        }
    }
    Ok(text)
}

/// One frame of recipe code.
struct Frame {
    file: String,
    line: usize,
    function: String,
    /// Called by a tail call: the frames of its callers are gone (Lua reuses them).
    tail: bool,
}

/// The frames of recipe files on the stack, innermost first.
fn recipe_frames(lua: &Lua) -> Vec<Frame> {
    let mut frames = Vec::new();
    // Level 0 is this handler.
    for level in 1.. {
        let Some(frame) = lua.inspect_stack(level, |d| {
            let source = d.source();
            let file = source.source.as_deref()?.strip_prefix('@')?.to_string();
            let line = d.current_line()?;
            let names = d.names();
            let function = match (source.what, names.name, names.name_what) {
                ("main", ..) => "the file's main chunk".to_string(),
                (_, Some(name), Some(what)) if !what.is_empty() => {
                    let what = if what == "global" { "function" } else { what };
                    format!("{what} '{name}'")
                }
                _ => format!("function <{file}:{}>", source.line_defined.unwrap_or(0)),
            };
            Some(Frame {
                file,
                line,
                function,
                tail: d.is_tail_call(),
            })
        }) else {
            break;
        };
        frames.extend(frame);
    }
    frames
}

/// A value written for people: strings quoted, tables as `{key = value, …}` (two levels deep,
/// at most eight entries each), a table's `__tostring` honoured.
fn describe(lua: &Lua, value: &Value) -> String {
    let mut out = String::new();
    write_value(lua, value, 0, &mut out);
    out
}

fn write_value(lua: &Lua, value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::Nil => out.push_str("nil"),
        Value::String(s) => {
            let _ = write!(out, "{:?}", s.to_string_lossy());
        }
        Value::Table(t) => write_table(lua, t, depth, out),
        Value::Error(e) => out.push_str(&crate::located::message(e)),
        other => match other.to_string() {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(other.type_name()),
        },
    }
}

/// Whether a table's metatable says how to write it.
fn has_tostring(t: &Table) -> bool {
    t.metatable()
        .and_then(|mt| mt.raw_get::<Value>("__tostring").ok())
        .is_some_and(|f| !f.is_nil())
}

fn write_table(lua: &Lua, t: &Table, depth: usize, out: &mut String) {
    if has_tostring(t) {
        if let Ok(s) = Value::Table(t.clone()).to_string() {
            out.push_str(&s);
            return;
        }
    }
    if depth >= 2 {
        out.push_str("{…}");
        return;
    }
    let mut entries: Vec<(Value, Value)> = t.clone().pairs::<Value, Value>().flatten().collect();
    entries.sort_by(|(a, _), (b, _)| key_order(a, b));
    out.push('{');
    let len = t.raw_len();
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if i == 8 {
            let _ = write!(out, "… {} more", entries.len() - 8);
            break;
        }
        match k {
            // The array part reads as a list.
            Value::Integer(n) if *n >= 1 && (*n as usize) <= len => {}
            Value::String(s) if is_name(&s.to_string_lossy()) => {
                let _ = write!(out, "{} = ", s.to_string_lossy());
            }
            other => {
                out.push('[');
                write_value(lua, other, depth + 1, out);
                out.push_str("] = ");
            }
        }
        write_value(lua, v, depth + 1, out);
    }
    out.push('}');
}

/// Array keys first in order, then strings sorted, then anything else.
fn key_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    let rank = |v: &Value| match v {
        Value::Integer(_) => 0,
        Value::Number(_) => 1,
        Value::String(_) => 2,
        _ => 3,
    };
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => x.total_cmp(y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(&y.as_bytes()),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Whether `s` can be written as a bare Lua field name.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_recognised() {
        assert!(crate::located::starts_located("scripts/r.lua:12: boom"));
        assert!(crate::located::starts_located("[string \"x\"]:1: boom"));
        assert!(!crate::located::starts_located("boom"));
        assert!(!crate::located::starts_located("width: 3"));
        assert!(!crate::located::starts_located("a:b: c"));
    }

    #[test]
    fn values_are_written_readably() {
        let lua = Lua::new();
        let v: Value = lua
            .load(r#"return { code = 1, "first", nested = { deep = { deeper = 1 } }, [true] = 2 }"#)
            .eval()
            .unwrap();
        assert_eq!(
            describe(&lua, &v),
            r#"{"first", code = 1, nested = {deep = {…}}, [true] = 2}"#
        );
        let v: Value = lua
            .load(r#"return setmetatable({}, { __tostring = function() return "E42" end })"#)
            .eval()
            .unwrap();
        assert_eq!(describe(&lua, &v), "E42");
        let many: Value = lua
            .load("local t = {} for i = 1, 20 do t[i] = i end return t")
            .eval()
            .unwrap();
        assert_eq!(describe(&lua, &many), "{1, 2, 3, 4, 5, 6, 7, 8, … 12 more}");
    }
}
