//! `warren stubs`: the LuaLS stubs of the Lua API, printed, written, or checked.

use crate::cli::StubsArgs;
use crate::output::write_atomic;
use std::io::Write;
use warren_lua::error::{Error, Result};
use warren_lua::stubs::render;

/// Executes `warren stubs`.
pub fn stubs(args: StubsArgs) -> Result<()> {
    let text = render();
    if let Some(path) = &args.check {
        let on_disk = std::fs::read_to_string(path)
            .map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
        if on_disk != text {
            return Err(Error::Io(format!(
                "{}: out of date with the Lua API; run `warren stubs --out {}`",
                path.display(),
                path.display()
            )));
        }
        eprintln!("{}: up to date", path.display());
        return Ok(());
    }
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
