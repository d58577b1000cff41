//! `warren schema`: the JSON Schema of region files (or, with `--markdown`, the region-file
//! reference), printed, written, or checked. Both are generated from the region schema
//! ([`warren_core::region::reference`]).

use crate::cli::SchemaArgs;
use crate::output::write_atomic;
use std::io::Write;
use std::path::Path;
use warren_core::region::reference::{json_schema_text, markdown, GENERATED_MARK, SCHEMA_TITLE};
use warren_lua::error::{Error, Result};

/// Executes `warren schema`.
pub fn run(args: SchemaArgs) -> Result<()> {
    let text = if args.markdown {
        markdown()
    } else {
        json_schema_text()
    };
    let fix = |path: &Path| match args.markdown {
        true => format!("warren schema --markdown --out {}", path.display()),
        false => format!("warren schema --out {}", path.display()),
    };
    if let Some(path) = &args.check {
        let on_disk = std::fs::read_to_string(path)
            .map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
        if on_disk != text {
            return Err(Error::Io(format!(
                "{}: out of date with the region schema; run `{}`",
                path.display(),
                fix(path)
            )));
        }
        eprintln!("{}: up to date", path.display());
        return Ok(());
    }
    match &args.out {
        Some(path) => {
            refuse_other_files(path)?;
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

/// Refuses to replace an existing file that `warren schema` did not write: `--out
/// regions/dungeon.toml` would otherwise overwrite a region file with the schema.
fn refuse_other_files(path: &Path) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        // Nothing there (or nothing readable): writing creates it, or fails and says why.
        return Ok(());
    };
    // Only a regular file is read (reading a FIFO would wait for a writer).
    let ours = meta.is_file()
        && meta.len() <= 1 << 20
        && std::fs::read_to_string(path)
            .is_ok_and(|text| text.starts_with(GENERATED_MARK) || text.contains(SCHEMA_TITLE));
    if ours {
        Ok(())
    } else {
        Err(Error::Param(format!(
            "--out {}: the file exists and is not one `warren schema` wrote; refusing to \
             overwrite it — remove it first if that is meant",
            path.display()
        )))
    }
}
