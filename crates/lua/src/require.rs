//! `require`, confined to the script directories: a module name is segments separated by dots
//! or slashes (`lib.cave`, `lib/cave`, as stock Lua's searcher takes both), never `..` or an
//! absolute path; it is looked for as `ROOT/lib/cave.lua`, then `ROOT/lib/cave/init.lua` (stock
//! Lua's `./?.lua;./?/init.lua`), and the file found must lie inside its root even after
//! symlinks are followed.

use crate::state::state;
use mlua::{ffi, Function, Lua};
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use warren_core::input::{read_regular, regular_file, ReadError};

/// The largest script file warren loads, in bytes.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// The segments of module name `name` (separated by `.` or `/`), when each is made of
/// `[A-Za-z0-9_-]`: no empty segment, so no `..`, no absolute path.
pub fn segments(name: &str) -> Option<Vec<&str>> {
    let segments: Vec<&str> = name.split(['.', '/']).collect();
    segments
        .iter()
        .all(|seg| {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
        .then_some(segments)
}

/// The file templates tried in each root, in order, as in stock Lua's `package.path`.
const TEMPLATES: [&str; 2] = ["?.lua", "?/init.lua"];

/// `package.path` for scripts: the templates in every root, `;`-separated (a description of
/// where `require` looks; `require` never reads it back).
pub fn search_path(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .flat_map(|root| {
            TEMPLATES.iter().map(move |t| {
                let root = root.display().to_string();
                let root = root.trim_end_matches('/');
                format!("{root}/{t}")
            })
        })
        .collect::<Vec<_>>()
        .join(";")
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

/// Why `require` finds no file for a module name.
#[derive(Debug, PartialEq)]
pub enum NotFound {
    /// The name is not a module name: segments of `[A-Za-z0-9_-]` separated by `.` or `/`.
    NotAName,
    /// No file has the name: the paths looked at, `, `-separated.
    Missing(String),
    /// A file has the name but may not be loaded (not a regular file, or outside its root once
    /// symlinks are followed): why.
    Refused(String),
}

/// The file of module `name` inside the roots, as `require` finds it: each root's
/// `ROOT/a/b.lua`, then `ROOT/a/b/init.lua`, in order.
pub fn module_file(roots: &[PathBuf], name: &str) -> Result<PathBuf, NotFound> {
    let segments = segments(name).ok_or(NotFound::NotAName)?;
    let stem: PathBuf = segments.iter().collect();
    let candidates = [stem.with_extension("lua"), stem.join("init.lua")];
    let mut tried = Vec::new();
    for (root, rel) in roots
        .iter()
        .flat_map(|r| candidates.iter().map(move |c| (r, c)))
    {
        let candidate = root.join(rel);
        tried.push(candidate.display().to_string());
        match regular_file(&candidate) {
            Ok(_) => {}
            Err(ReadError::NotRegular(kind)) => {
                return Err(NotFound::Refused(format!(
                    "module '{name}': {} is {kind}, not a regular file",
                    candidate.display()
                )))
            }
            Err(_) => continue,
        }
        let resolved = |p: &Path| {
            p.canonicalize()
                .map_err(|e| NotFound::Refused(format!("cannot resolve {}: {e}", p.display())))
        };
        let real = resolved(&candidate)?;
        if !real.starts_with(resolved(root)?) {
            return Err(NotFound::Refused(format!(
                "module '{name}' resolves to {} outside the script directory {}",
                real.display(),
                root.display()
            )));
        }
        return Ok(candidate);
    }
    Err(NotFound::Missing(tried.join(", ")))
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
    let found = module_file(&state(lua).modules.borrow().roots, &name);
    let path = found.map_err(|e| {
        let msg = match e {
            NotFound::NotAName => format!(
                "'{name}' is not a module name; use names such as \"lib.cave\" or \
                 \"lib/cave\", inside the script directory (no '..', no absolute paths)"
            ),
            NotFound::Missing(looked) => format!("module '{name}' not found (looked for {looked})"),
            NotFound::Refused(why) => why,
        };
        require_error(lua, msg)
    })?;
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

/// The file `name` names for `loadfile`/`dofile`: relative to the first script directory, and
/// inside one of them once symlinks are followed; an error message (stock Lua's `cannot open
/// NAME` where it has one) otherwise.
fn chunk_file(roots: &[PathBuf], name: &str) -> Result<PathBuf, String> {
    let root = roots.first().ok_or_else(|| format!("cannot open {name}"))?;
    let path = root.join(name);
    let real = path
        .canonicalize()
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let inside = roots
        .iter()
        .filter_map(|r| r.canonicalize().ok())
        .any(|r| real.starts_with(r));
    if !inside {
        return Err(format!(
            "cannot open {}: outside the script directory {}",
            path.display(),
            root.display()
        ));
    }
    Ok(path)
}

/// The host's reader behind `loadfile` and `dofile`: the text of the file `name` names inside
/// the script directory and its chunk name (`@path`), or nothing and the error message.
pub fn read_chunk(lua: &Lua, name: String) -> mlua::Result<(Option<String>, String)> {
    let path = {
        let modules = state(lua).modules.borrow();
        chunk_file(&modules.roots, &name)
    };
    let read = path.and_then(|p| read_script(&p).map(|text| (text, p)));
    crate::state::charge(lua, 1)?;
    Ok(match read {
        Ok((text, path)) => {
            crate::state::charge(lua, text.len() as u64 / 16)?;
            (Some(text), format!("@{}", path.display()))
        }
        Err(e) => (None, e),
    })
}
