//! `require`, confined to the script directories: module names are dotted identifiers
//! (`lib.cave`), never paths, and the resolved file must lie inside a root even after symlinks
//! are followed.

use crate::state::state;
use mlua::{ffi, Function, Lua};
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use warren_core::input::{read_regular, regular_file, ReadError};

/// The largest script file warren loads, in bytes.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Whether `name` is a dotted module name made of `[A-Za-z0-9_]` segments.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|seg| {
            !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
}

/// Reads a script file with the size cap, as UTF-8 text. Only regular files are read: a FIFO
/// or a device given as a recipe or module is refused instead of waiting or never ending.
pub fn read_script(path: &Path) -> Result<String, String> {
    let bytes = read_regular(path, MAX_SCRIPT_BYTES).map_err(|e| match e {
        ReadError::TooLarge(bytes) => format!(
            "{}: script is {bytes} bytes; scripts may be at most {MAX_SCRIPT_BYTES} bytes",
            path.display()
        ),
        ReadError::NotRegular(_) => format!(
            "{}: {e}; recipes and modules must be regular files",
            path.display()
        ),
        ReadError::Unreadable(_) => format!("{}: {e}", path.display()),
    })?;
    if bytes.first() == Some(&0x1b) {
        return Err(format!(
            "{}: precompiled Lua bytecode is not accepted; load the source text",
            path.display()
        ));
    }
    super::source::check(&bytes).map_err(|p| p.located(&path.display().to_string()))?;
    String::from_utf8(bytes).map_err(|_| format!("{}: script is not valid UTF-8", path.display()))
}

/// Finds the file for a module name inside the roots.
fn resolve(roots: &[PathBuf], name: &str) -> Result<PathBuf, String> {
    let rel: PathBuf = name.split('.').collect::<PathBuf>().with_extension("lua");
    let mut tried = Vec::new();
    for root in roots {
        let candidate = root.join(&rel);
        tried.push(candidate.display().to_string());
        match regular_file(&candidate) {
            Ok(_) => {}
            Err(ReadError::NotRegular(kind)) => {
                return Err(format!(
                    "module '{name}': {} is {kind}, not a regular file",
                    candidate.display()
                ))
            }
            Err(_) => continue,
        }
        let real_root = root
            .canonicalize()
            .map_err(|e| format!("cannot resolve {}: {e}", root.display()))?;
        let real = candidate
            .canonicalize()
            .map_err(|e| format!("cannot resolve {}: {e}", candidate.display()))?;
        if !real.starts_with(&real_root) {
            return Err(format!(
                "module '{name}' resolves to {} outside the script directory {}",
                real.display(),
                root.display()
            ));
        }
        return Ok(candidate);
    }
    Err(format!(
        "module '{name}' not found (looked for {})",
        tried.join(", ")
    ))
}

/// An error located at the script line that called `require` (past the prelude's `require`).
fn require_error(lua: &Lua, msg: String) -> mlua::Error {
    match super::budget::caller_location(lua) {
        Some(at) => mlua::Error::RuntimeError(format!("{at}: require: {msg}")),
        None => mlua::Error::RuntimeError(format!("require: {msg}")),
    }
}

/// The searcher behind the prelude's stock-Lua `require`: the module's file inside the script
/// directories, compiled (text only) into its loader, and the file name, which `require` passes
/// to the loader as its second argument (the first is the module name, so `...` works).
pub fn find_module(lua: &Lua, name: String) -> mlua::Result<(Function, String)> {
    if !valid_name(&name) {
        return Err(require_error(
            lua,
            format!(
                "'{name}' is not a module name; use dotted names such as \"lib.cave\" \
                 (no paths, no '..')"
            ),
        ));
    }
    let path = {
        let data = state(lua);
        let modules = data.modules.borrow();
        resolve(&modules.roots, &name).map_err(|e| require_error(lua, e))?
    };
    let text = read_script(&path).map_err(|e| require_error(lua, e))?;
    let loader = lua
        .load(text)
        .set_name(format!("@{}", path.display()))
        .set_mode(mlua::ChunkMode::Text)
        .into_function()?;
    let file = path.display().to_string();
    state(lua).modules.borrow_mut().files.insert(name, path);
    Ok((loader, file))
}

/// `call_loader(loader, name, file)`: calls `loader(name, file)` from C and returns its first
/// result, as stock Lua's `require` (a C function) calls a module's loader. Every nested
/// `require` then takes a level of the C stack, so a require cycle meets Lua's C-stack limit
/// (`LUAI_MAXCCALLS`, 200) and ends at once with stock Lua's "C stack overflow", where a
/// `require` written in Lua would recurse until the Lua stack is full, loading the module
/// again at every level.
///
/// # Safety
/// A Lua C function: called by Lua only, with the loader and its arguments.
pub unsafe extern "C-unwind" fn call_loader(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with its arguments on the stack; lua_call raises on error.
    unsafe {
        let args = ffi::lua_gettop(l) - 1;
        ffi::luaL_checktype(l, 1, ffi::LUA_TFUNCTION);
        ffi::lua_call(l, args, 1);
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_are_identifiers_only() {
        assert!(valid_name("lib.cave"));
        assert!(valid_name("x_1"));
        for bad in ["", "../x", "/etc/passwd", "a..b", "a/b", "a.", ".a", "a-b"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }
}
