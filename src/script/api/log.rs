//! `print` and `ctx.log`: recipe output goes to stderr, never into the map on stdout.

use mlua::{Lua, Value, Variadic};

/// Writes its arguments, tab-separated, to stderr as `[recipe] …`.
pub fn print(lua: &Lua, args: Variadic<Value>) -> mlua::Result<()> {
    let mut line = String::new();
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            line.push('\t');
        }
        line.push_str(&v.to_string()?);
    }
    let name =
        crate::script::with_run(lua, |r| r.recipe.clone()).unwrap_or_else(|| "recipe".into());
    eprintln!("[{name}] {line}");
    Ok(())
}
