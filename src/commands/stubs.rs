//! `warren stubs`: the LuaLS stubs of the Lua API (or, with `--markdown`, the API reference's
//! table, `docs/lua-api.md`), printed, written, or checked.

use crate::cli::StubsArgs;
use crate::output::write_atomic;
use std::io::{Read, Write};
use std::path::Path;
use warren_lua::error::{Error, Result};
use warren_lua::stubs::{markdown, page_with_table, render};

/// What `--out FILE` (or `--check FILE`) should hold: the stubs; with `--markdown`, FILE with
/// its API table replaced (a new file gets the table alone; an existing file without the
/// table's markers is an error, never replaced).
fn wanted(args: &StubsArgs, file: Option<&Path>) -> Result<String> {
    if !args.markdown {
        return Ok(render());
    }
    let Some(path) = file.filter(|p| p.exists()) else {
        return Ok(markdown());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
    page_with_table(&text).map_err(|e| Error::Param(format!("{}: {e}", path.display())))
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
            if !args.markdown {
                refuse_non_stubs(path)?;
            }
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

/// The first line of every stubs file (LuaLS reads it as "definitions only").
const STUBS_MARK: &[u8] = b"---@meta";

/// Refuses to replace an existing file that is not a stubs file: `--out scripts/rooms.lua`
/// would otherwise overwrite a recipe (or a module, or a region file) with the stubs.
fn refuse_non_stubs(path: &Path) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        // Nothing there (or nothing readable): writing creates it, or fails and says why.
        return Ok(());
    };
    // Only a regular file is opened (opening a FIFO would wait for a writer).
    let mut head = Vec::new();
    let is_stubs = meta.is_file()
        && std::fs::File::open(path)
            .and_then(|f| f.take(STUBS_MARK.len() as u64).read_to_end(&mut head))
            .is_ok()
        && head == STUBS_MARK;
    if is_stubs {
        Ok(())
    } else {
        Err(Error::Param(format!(
            "--out {}: the file exists and is not a stubs file (it does not begin with \
             `---@meta`); refusing to overwrite it — remove it first if that is meant",
            path.display()
        )))
    }
}
