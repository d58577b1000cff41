//! `print` and `ctx.log`: recipe output goes to stderr, never into the map on stdout.

use crate::budget::MAX_OUTPUT_BYTES;
use crate::state::charge;
use crate::state::state;
use mlua::{Lua, Value, Variadic};

/// Writes its arguments, tab-separated, to stderr as `[recipe] …`; at most
/// [`MAX_OUTPUT_BYTES`] per generation (a note says when the rest is dropped).
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
    let line = match state(lua).budget.output(line.len()) {
        Some(true) => line,
        Some(false) => format!("… output beyond {MAX_OUTPUT_BYTES} bytes is not shown"),
        None => return Ok(()),
    };
    let name = crate::state::with_run(lua, |r| r.recipe.clone()).unwrap_or_else(|| "recipe".into());
    eprintln!("[{name}] {line}");
    Ok(())
}

/// `io.write(...)` (and `io.stdout:write`): strings and numbers, joined without separators, to
/// the run's log like [`print`](fn@print) (one log line per call, a final newline dropped).
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
    if text.ends_with('\n') {
        text.pop();
    }
    print(
        lua,
        Variadic::from_iter([Value::String(lua.create_string(&text)?)]),
    )
}
