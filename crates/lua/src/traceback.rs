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
//! The host hooks in twice: it calls `generate` under [`handler`] (`call`, as Lua's own
//! `xpcall` would), and [`outcome`] turns what was raised into a result.

use crate::ffi::{lua_warren_outermost, lua_warren_samestack, lua_warren_stepstack};
use mlua::{ffi, AnyUserData, Function, Lua, Table, Value};
use std::ffi::CStr;
use std::fmt::Write as _;

/// The most recipe frames a traceback lists: the innermost ones and the outermost ones, with
/// a count of the frames left out between them.
const INNER_FRAMES: usize = 20;
const OUTER_FRAMES: usize = 10;

/// The most frames examined from each end of the stack for recipe frames: the frames between
/// are only counted, so a traceback costs what it shows (and a walk over the rest, one pointer
/// a frame), whatever the depth of a runaway recursion.
const SCANNED_FRAMES: usize = 1000;

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

/// Calls `function(map, ctx)` under `handler` with one protected call made on the Lua stack
/// (what Lua's own `xpcall` does, without its frame, and without mlua's typed call into it; what
/// that saved is in CHANGELOG.md): `Ok(None)` when it returned, `Ok(Some(value))` with what
/// was raised: the handler's message, or, where no handler runs (a memory error; fatal mode,
/// when a budget ran out), the value as raised (a message, or mlua's error from a Rust
/// function). A Rust panic resumes here, as mlua resumes it.
pub(crate) fn call(
    lua: &Lua,
    handler: &Function,
    function: &Function,
    (map, ctx): (&AnyUserData, &Table),
) -> mlua::Result<Option<Value>> {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: room for the four values is checked; each is pushed from a handle of this
        // state; the stack is put back as it was on every way out, a resumed panic's included.
        unsafe {
            let top = ffi::lua_gettop(l);
            let _restore = StackTop(l, top);
            if ffi::lua_checkstack(l, 4) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(handler)?;
            raw.push(function)?;
            raw.push(map)?;
            raw.push(ctx)?;
            Ok(match ffi::lua_pcall(l, 2, 0, top + 1) {
                ffi::LUA_OK => None,
                _ => Some(raw.pop_value()),
            })
        }
    })
}

/// Puts a Lua stack's top back where it was when dropped (as mlua's own calls do, unwinding
/// included).
struct StackTop(*mut ffi::lua_State, std::ffi::c_int);

impl Drop for StackTop {
    fn drop(&mut self) {
        // SAFETY: the state is live while the call that made this runs; the top it sets is one
        // the stack had.
        unsafe { ffi::lua_settop(self.0, self.1) };
    }
}

/// What a run of `generate` under [`handler`] raised (`call`), as a result: a message (the
/// handler's, a memory error's, a budget's) comes back as a [`Traced`] error, mlua's own errors
/// as they are (the host reports a budget's own message either way).
pub fn outcome(lua: &Lua, raised: Option<Value>) -> mlua::Result<()> {
    let Some(error) = raised else {
        return Ok(());
    };
    match error {
        Value::String(s) => Err(mlua::Error::external(Traced(
            s.to_string_lossy().to_string(),
        ))),
        Value::Error(e) => Err(*e),
        // A value raised in fatal mode (neither is a message the handler made).
        Value::Nil => Err(mlua::Error::runtime("error")),
        other => Err(mlua::Error::runtime(describe(lua, &other))),
    }
}

/// The message handler: runs where the error happened, with its stack still there.
fn handle(lua: &Lua, value: Value) -> mlua::Result<String> {
    let frames = recipe_frames(lua);
    // The walk is charged (at a budget point: a budget that runs out trips, and the host
    // reports it; the handler's text is then not used).
    let _ = crate::state::charge(lua, frames.walked / 16 + 1);
    let mut text = match &value {
        Value::String(s) => s.to_string_lossy().to_string(),
        Value::Error(e) => crate::located::message(e),
        Value::Table(t) if has_tostring(t) => describe(lua, &value),
        other => format!("error({})", describe(lua, other)),
    };
    if !crate::located::starts_located(&text) {
        if let Some(f) = frames.inner.first().or(frames.outer.last()) {
            text = format!("{}:{}: {text}", f.file, f.line);
        }
    }
    if frames.inner.len() + frames.outer.len() >= 2 {
        text.push_str("\ntraceback (most recent call first):");
        let shown = |text: &mut String, f: &Frame| {
            let _ = write!(text, "\n  {}:{}: in {}", f.file, f.line, f.function);
            if f.tail {
                text.push_str("\n  (… tail calls …)");
            }
        };
        for f in &frames.inner {
            shown(&mut text, f);
        }
        if frames.between > 0 {
            let _ = write!(text, "\n  … {} more", frames.between);
        }
        for f in frames.outer.iter().rev() {
            shown(&mut text, f);
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

/// What a traceback shows of the stack: the innermost recipe frames (innermost first), the
/// outermost ones (outermost first), how many frames lie between them, and how many frames
/// the walk stepped over in all.
#[derive(Default)]
struct Frames {
    inner: Vec<Frame>,
    outer: Vec<Frame>,
    between: usize,
    walked: u64,
}

/// The recipe frames on the stack (files loaded from disk: the host's, the standard library's
/// and `load`ed strings' frames are left out): up to [`INNER_FRAMES`] from the top and
/// [`OUTER_FRAMES`] from the bottom, each end scanned for at most [`SCANNED_FRAMES`]; the
/// frames between are counted. Every step moves one frame (`lua_warren_stepstack`), so the
/// walk is linear in the depth.
fn recipe_frames(lua: &Lua) -> Frames {
    lua.exec_raw_lua(|raw| {
        // SAFETY: `lua_Debug` is plain data the walk functions fill; the stack does not change
        // during the walk (nothing here calls Lua).
        unsafe { walk(raw.state()) }
    })
}

/// [`recipe_frames`] on the running thread `l`.
///
/// # Safety
/// `l` is the running thread; nothing may change its stack during the walk.
unsafe fn walk(l: *mut ffi::lua_State) -> Frames {
    let mut frames = Frames::default();
    // Level 0 is this handler.
    let mut top: ffi::lua_Debug = unsafe { std::mem::zeroed() };
    if unsafe { ffi::lua_getstack(l, 1, &mut top) } == 0 {
        return frames;
    }
    // From the top, older and older.
    let mut scanned = 0;
    let reached_bottom = loop {
        frames.inner.extend(unsafe { frame(l, &mut top) });
        scanned += 1;
        if frames.inner.len() == INNER_FRAMES || scanned == SCANNED_FRAMES {
            break false;
        }
        if unsafe { lua_warren_stepstack(l, &mut top, 1) } == 0 {
            break true;
        }
    };
    frames.walked = scanned as u64;
    if reached_bottom {
        return frames;
    }
    // From the bottom, newer and newer, up to the frame the first walk stopped at.
    let mut bottom: ffi::lua_Debug = unsafe { std::mem::zeroed() };
    if unsafe { lua_warren_outermost(l, &mut bottom) } == 0 {
        return frames;
    }
    let mut scanned = 0;
    let met = loop {
        if unsafe { lua_warren_samestack(&bottom, &top) } != 0 {
            break true;
        }
        frames.outer.extend(unsafe { frame(l, &mut bottom) });
        scanned += 1;
        if frames.outer.len() == OUTER_FRAMES || scanned == SCANNED_FRAMES {
            break false;
        }
        if unsafe { lua_warren_stepstack(l, &mut bottom, 0) } == 0 {
            break true;
        }
    };
    frames.walked += scanned as u64;
    if met {
        return frames;
    }
    // Count the frames strictly between the two walks' last frames.
    while unsafe { lua_warren_stepstack(l, &mut top, 1) } != 0
        && unsafe { lua_warren_samestack(&top, &bottom) } == 0
    {
        frames.between += 1;
    }
    frames.walked += frames.between as u64;
    frames
}

/// The frame `ar` stands for, when it runs recipe code (a file loaded from disk).
///
/// # Safety
/// `ar` was filled by a stack walk of `l`, whose stack has not changed since.
unsafe fn frame(l: *mut ffi::lua_State, ar: &mut ffi::lua_Debug) -> Option<Frame> {
    let text = |p: *const std::ffi::c_char| {
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    if unsafe { ffi::lua_getinfo(l, c"Slnt".as_ptr(), ar) } == 0 || ar.currentline < 0 {
        return None;
    }
    let file = text(ar.source)?.strip_prefix('@')?.to_string();
    let function = match (text(ar.what).as_deref(), text(ar.name), text(ar.namewhat)) {
        (Some("main"), ..) => "the file's main chunk".to_string(),
        (_, Some(name), Some(what)) if !what.is_empty() => {
            let what = if what == "global" { "function" } else { &what };
            format!("{what} '{name}'")
        }
        _ => format!("function <{file}:{}>", ar.linedefined.max(0)),
    };
    Some(Frame {
        file,
        line: ar.currentline as usize,
        function,
        tail: ar.istailcall != 0,
    })
}

/// A value written for people: strings quoted, tables as `{key = value, …}` (two levels deep,
/// at most eight entries each), a table's `__tostring` honoured.
pub fn describe(lua: &Lua, value: &Value) -> String {
    let mut out = String::new();
    write_value(lua, value, 0, &mut out);
    out
}

fn write_value(lua: &Lua, value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::Nil => out.push_str("nil"),
        Value::String(s) => {
            let text = s.to_string_lossy();
            match text.char_indices().nth(SHOWN_CHARS) {
                Some((end, _)) => {
                    let _ = write!(out, "{:?}…", &text[..end]);
                }
                None => {
                    let _ = write!(out, "{text:?}");
                }
            }
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
    let failed = if has_tostring(t) {
        match Value::Table(t.clone()).to_string() {
            Ok(s) => {
                out.push_str(&s);
                return;
            }
            Err(e) => Some(crate::located::message(&e)),
        }
    } else {
        None
    };
    write_entries(lua, t, depth, out);
    if let Some(why) = failed {
        // As long as a string shown.
        let why: String = why.chars().take(SHOWN_CHARS).collect();
        let _ = write!(out, " (its __tostring failed: {why})");
    }
}

/// A table's entries, `{key = value, …}`.
fn write_entries(lua: &Lua, t: &Table, depth: usize, out: &mut String) {
    if depth >= 2 {
        out.push_str("{…}");
        return;
    }
    // The first entries in key order, kept as the walk goes: a huge table costs one walk.
    let mut entries: Vec<(Value, Value)> = Vec::with_capacity(SHOWN_ENTRIES + 1);
    let mut count = 0;
    for (k, v) in t.clone().pairs::<Value, Value>().flatten() {
        count += 1;
        let at = entries.partition_point(|(e, _)| key_order(e, &k).is_le());
        if at < SHOWN_ENTRIES {
            entries.insert(at, (k, v));
            entries.truncate(SHOWN_ENTRIES);
        }
    }
    out.push('{');
    let len = t.raw_len();
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
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
    if count > SHOWN_ENTRIES {
        let _ = write!(out, ", … {} more", count - SHOWN_ENTRIES);
    }
    out.push('}');
}

/// The most entries of a table a description shows.
const SHOWN_ENTRIES: usize = 8;

/// The most characters of a string a description shows.
const SHOWN_CHARS: usize = 200;

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
