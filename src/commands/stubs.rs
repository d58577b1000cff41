//! `warren stubs`: the LuaLS stubs of the Lua API (or, with `--markdown`, the README's API
//! table), printed, written, or checked.

use crate::cli::StubsArgs;
use crate::output::write_atomic;
use std::io::Write;
use std::path::Path;
use warren_lua::error::{Error, Result};
use warren_lua::stubs::{markdown, readme_with_table, render};

/// What `--out FILE` (or `--check FILE`) should hold: the stubs; with `--markdown`, FILE with
/// its API table replaced (a file without the table's markers gets the table alone).
fn wanted(args: &StubsArgs, file: Option<&Path>) -> Result<String> {
    if !args.markdown {
        return Ok(render());
    }
    let Some(path) = file.filter(|p| p.exists()) else {
        return Ok(markdown());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
    match readme_with_table(&text) {
        Ok(updated) => Ok(updated),
        Err(_) => Ok(markdown()),
    }
}

/// Executes `warren stubs`.
pub fn stubs(args: StubsArgs) -> Result<()> {
    if let Some(path) = &args.check {
        let text = wanted(&args, Some(path))?;
        let on_disk = std::fs::read_to_string(path)
            .map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
        if on_disk != text {
            let fix = if args.markdown {
                format!("warren stubs --markdown --out {}", path.display())
            } else {
                format!("warren stubs --out {}", path.display())
            };
            return Err(Error::Io(format!(
                "{}: out of date with the Lua API; run `{fix}`",
                path.display()
            )));
        }
        eprintln!("{}: up to date", path.display());
        return Ok(());
    }
    let text = wanted(&args, args.out.as_deref())?;
    match &args.out {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Error::Io(format!("{}: cannot create: {e}", dir.display())))?;
            }
            write_atomic(path, text.as_bytes())
                .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))
        }
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| Error::Io(format!("stdout: {e}"))),
    }
}
