//! Lua errors as one line that starts with the `file:line` where they happened.
//!
//! Most errors carry their place already (Lua's own runtime errors, `error("…")`, every binding
//! error made with `state::fail`). Some do not: a wrong argument type caught by mlua before a
//! plain function runs (`bad argument #2: …`, named here from the traceback), an error value
//! that is not a string (`error({})`), `error("…", 0)`, a budget that ran out inside a Rust
//! function before any line was seen. For those the place comes from the traceback mlua keeps
//! with every error: the innermost frame in a script. (Methods of warren objects never reach
//! mlua's argument checks: their gates and fast calls check receivers and counts, and they take
//! every argument as a plain value.)

use mlua::Error;

/// Chunks of the host's own Lua (their frames are never where a recipe went wrong); the short
/// sources Lua shows for the chunk names in `budget::HOST_CHUNKS`.
const HOST_SOURCES: [&str; 3] = ["warren prelude", "table", "table.sort"];

/// The innermost cause of an mlua error.
fn root_cause(e: &Error) -> &Error {
    match e {
        Error::CallbackError { cause, .. } => root_cause(cause),
        Error::WithContext { cause, .. } => root_cause(cause),
        other => other,
    }
}

/// The message of a Lua error without mlua's wrapping and tracebacks: its first line, with
/// error values that are not strings described.
pub fn message(e: &Error) -> String {
    let text = match root_cause(e) {
        Error::RuntimeError(m) | Error::SyntaxError { message: m, .. } => {
            m.lines().next().unwrap_or("").to_string()
        }
        Error::ExternalError(x) => x.to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    };
    describe_value(&text)
}

/// [`message`], starting with the place the error happened when it does not already.
pub fn located_message(e: &Error) -> String {
    let mut msg = message(e);
    // mlua names no function for a plain function's bad argument: the traceback does.
    if let (Some(rest), Some(name)) = (
        msg.strip_prefix("bad argument #"),
        traceback(e).and_then(called_function),
    ) {
        if let Some((n, detail)) = rest.split_once(": ") {
            if n.bytes().all(|b| b.is_ascii_digit()) {
                msg = format!("bad argument #{n} to '{name}': {detail}");
            }
        }
    }
    match (starts_located(&msg), traceback_location(e)) {
        (false, Some(at)) => format!("{at}: {msg}"),
        _ => msg,
    }
}

/// Whether `msg` starts with a place: `file:line: …` (or `[string "…"]:line: …`).
pub fn starts_located(msg: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // A chunk name in brackets may hold anything, colons included.
    if let Some(r) = msg.strip_prefix("[string \"") {
        return r
            .find("\"]:")
            .and_then(|i| r[i + 3..].split_once(": "))
            .is_some_and(|(line, _)| digits(line));
    }
    msg.split_once(": ")
        .and_then(|(head, _)| head.rsplit_once(':'))
        .is_some_and(|(file, line)| !file.is_empty() && digits(line))
}

/// `file:line` of the innermost script frame in the error's traceback.
pub fn traceback_location(e: &Error) -> Option<String> {
    let traceback = traceback(e)?;
    traceback
        .lines()
        .skip_while(|l| !l.starts_with("stack traceback:"))
        .skip(1)
        .filter_map(frame_location)
        .next()
}

/// The traceback text mlua attached to `e`, if any.
fn traceback(e: &Error) -> Option<&str> {
    match e {
        Error::CallbackError { traceback, cause } => {
            // The innermost traceback is the closest to where it went wrong.
            traceback_of_cause(cause).or(Some(traceback.as_str()))
        }
        Error::WithContext { cause, .. } => traceback(cause),
        Error::RuntimeError(m) => m.contains("\nstack traceback:").then_some(m.as_str()),
        _ => None,
    }
}

fn traceback_of_cause(e: &Error) -> Option<&str> {
    match e {
        Error::CallbackError { .. } | Error::WithContext { .. } | Error::RuntimeError(_) => {
            traceback(e)
        }
        _ => None,
    }
}

/// The name of the C function the traceback starts in (`[C]: in field 'new'` → `new`).
fn called_function(traceback: &str) -> Option<String> {
    let frame = traceback
        .lines()
        .skip_while(|l| !l.starts_with("stack traceback:"))
        .nth(1)?
        .trim_start()
        .strip_prefix("[C]: in ")?;
    let (_, quoted) = frame.split_once('\'')?;
    let (name, _) = quoted.split_once('\'')?;
    Some(name.to_string())
}

/// `file:line` of one traceback line (`\tt.lua:3: in function <t.lua:2>`), unless it is a C
/// function or the host's own chunk.
fn frame_location(line: &str) -> Option<String> {
    let line = line.trim_start();
    let end = line.find(": in ")?;
    let place = &line[..end];
    let (src, num) = place.rsplit_once(':')?;
    if src.is_empty()
        || src.starts_with("[C]")
        || HOST_SOURCES.contains(&src)
        || num.is_empty()
        || !num.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some(place.to_string())
}

/// A message that is only the `tostring` of a non-string error value (`table: 0x…`, `nil`)
/// says what was raised instead (as the standalone `lua` does).
fn describe_value(text: &str) -> String {
    if text == "nil" {
        return "error object is a nil value (raise a string to say what went wrong)".into();
    }
    for kind in ["table", "function", "userdata", "thread"] {
        if let Some(addr) = text.strip_prefix(kind).and_then(|r| r.strip_prefix(": 0x")) {
            if !addr.is_empty() && addr.bytes().all(|b| b.is_ascii_hexdigit()) {
                return format!(
                    "error object is a {kind} value (raise a string, or give the {kind} a \
                     __tostring, to say what went wrong)"
                );
            }
        }
    }
    text.to_string()
}
