//! `print` and `ctx.log`: recipe output goes to stderr, never into the map on stdout.

use crate::budget::{charge, MAX_OUTPUT_BYTES};
use crate::sandbox::state;
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
    let name = crate::with_run(lua, |r| r.recipe.clone()).unwrap_or_else(|| "recipe".into());
    eprintln!("[{name}] {line}");
    Ok(())
}
