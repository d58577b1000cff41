//! `print`, `io.write` and `ctx.log`: recipe output goes to the run's log on stderr, never into
//! the map on stdout. As on stock Lua's stdout, `print` and `io.write` share one line buffer:
//! `io.write` pieces are joined until a newline, `print` ends its line, and `io.flush` (or the
//! run's end) writes an unfinished line as it is. Each line is logged as `[recipe] …`.

use crate::budget::MAX_OUTPUT_BYTES;
use crate::state::charge;
use crate::state::state;
use mlua::{Lua, Table, Value, Variadic};

/// Sets the output functions in the prelude's `host` table: `write` and `flush` (behind
/// `io.write`, `io.flush` and the standard files) and `print`.
pub fn install(lua: &Lua, host: &Table) -> mlua::Result<()> {
    host.set("write", lua.create_function(write)?)?;
    host.set("flush", lua.create_function(flush)?)?;
    host.set("print", lua.create_function(print)?)
}

/// Writes its arguments, tab-separated, and ends the line; at most [`MAX_OUTPUT_BYTES`] per
/// generation (a note says when the rest is dropped).
pub fn print(lua: &Lua, args: Variadic<Value>) -> mlua::Result<()> {
    let mut line = String::new();
    for (i, v) in args.iter().enumerate() {
        if line.len() > MAX_OUTPUT_BYTES {
            break;
        }
        if i > 0 {
            line.push('\t');
        }
        line.push_str(&v.to_string()?);
    }
    charge(lua, 1 + line.len() as u64 / 32)?;
    line.push('\n');
    emit(lua, &line);
    Ok(())
}

/// `io.write(...)` (and `io.stdout:write`): strings and numbers, joined without separators,
/// into the line buffer (see the module's description).
pub fn write(lua: &Lua, args: Variadic<Value>) -> mlua::Result<()> {
    let mut text = String::new();
    for (i, v) in args.iter().enumerate() {
        match v {
            Value::String(_) | Value::Integer(_) | Value::Number(_) => {}
            other => {
                return Err(crate::state::fail(
                    lua,
                    format!(
                        "bad argument #{} to 'write' (string expected, got {})",
                        i + 1,
                        other.type_name()
                    ),
                ))
            }
        }
        if text.len() > MAX_OUTPUT_BYTES {
            break;
        }
        text.push_str(&v.to_string()?);
    }
    charge(lua, 1 + text.len() as u64 / 32)?;
    emit(lua, &text);
    Ok(())
}

/// `io.flush()` (and `io.stdout:flush()`): logs the unfinished line, if any.
pub fn flush(lua: &Lua, _: Variadic<Value>) -> mlua::Result<()> {
    finish(lua);
    Ok(())
}

/// Logs what is left of an unfinished line (the host calls it when a run or a load ends).
pub fn finish(lua: &Lua) {
    let rest = std::mem::take(&mut *state(lua).output.borrow_mut());
    if !rest.is_empty() {
        log_line(lua, &rest);
    }
}

/// Adds `text` to the line buffer and logs every line it completes. An unfinished line longer
/// than [`MAX_OUTPUT_BYTES`] is logged as it stands.
fn emit(lua: &Lua, text: &str) {
    let data = state(lua);
    let mut pending = data.output.borrow_mut();
    let mut rest = text;
    while let Some(end) = rest.find('\n') {
        pending.push_str(&rest[..end]);
        let line = std::mem::take(&mut *pending);
        drop(pending);
        log_line(lua, &line);
        pending = data.output.borrow_mut();
        rest = &rest[end + 1..];
    }
    pending.push_str(rest);
    if pending.len() > MAX_OUTPUT_BYTES {
        let line = std::mem::take(&mut *pending);
        drop(pending);
        log_line(lua, &line);
    }
}

/// Logs one line as `[recipe] line`, within the run's output quota.
fn log_line(lua: &Lua, line: &str) {
    let note;
    let line = match state(lua).budget.output(line.len()) {
        Some(true) => line,
        Some(false) => {
            note = format!("… output beyond {MAX_OUTPUT_BYTES} bytes is not shown");
            &note
        }
        None => return,
    };
    let name = crate::state::with_run(lua, |r| r.recipe.clone()).unwrap_or_else(|| "recipe".into());
    eprintln!("[{name}] {line}");
}
