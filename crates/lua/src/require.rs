//! `require`, confined to the script directories: module names are dotted identifiers
//! (`lib.cave`), never paths, and the resolved file must lie inside a root even after symlinks
//! are followed.

use super::{fail, sandbox::state};
use mlua::{Lua, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest script file warren loads, in bytes.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Modules of one Lua state.
pub struct Modules {
    roots: Vec<PathBuf>,
    loaded: BTreeMap<String, Loaded>,
}

enum Loaded {
    InProgress,
    Done(mlua::RegistryKey, PathBuf),
}

impl Modules {
    /// A module set that resolves names inside `roots`.
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Modules {
            roots,
            loaded: BTreeMap::new(),
        }
    }

    /// How many modules were loaded or are loading.
    pub fn count(&self) -> usize {
        self.loaded.len()
    }

    /// Files of every module loaded so far (for watching).
    pub fn files(&self) -> Vec<PathBuf> {
        self.loaded
            .values()
            .filter_map(|l| match l {
                Loaded::Done(_, p) => Some(p.clone()),
                Loaded::InProgress => None,
            })
            .collect()
    }
}

/// Whether `name` is a dotted module name made of `[A-Za-z0-9_]` segments.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|seg| {
            !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
}

/// Reads a script file with the size cap, as UTF-8 text.
pub fn read_script(path: &Path) -> Result<String, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if meta.len() > MAX_SCRIPT_BYTES {
        return Err(format!(
            "{}: script is {} bytes; scripts may be at most {MAX_SCRIPT_BYTES} bytes",
            path.display(),
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
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
        if !candidate.is_file() {
            continue;
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

/// The sandbox's `require(name)`.
pub fn require(lua: &Lua, name: String) -> mlua::Result<Value> {
    if name == "warren" {
        return lua.globals().raw_get("warren");
    }
    if !valid_name(&name) {
        return Err(fail(
            lua,
            format!(
                "require: '{name}' is not a module name; use dotted names such as \"lib.cave\" \
                 (no paths, no '..')"
            ),
        ));
    }
    let path = {
        let data = state(lua);
        let modules = data.modules.borrow();
        match modules.loaded.get(&name) {
            Some(Loaded::Done(key, _)) => return lua.registry_value(key),
            Some(Loaded::InProgress) => {
                return Err(fail(lua, format!("require: circular require of '{name}'")))
            }
            None => {
                resolve(&modules.roots, &name).map_err(|e| fail(lua, format!("require: {e}")))?
            }
        }
    };
    let text = read_script(&path).map_err(|e| fail(lua, format!("require: {e}")))?;
    state(lua)
        .modules
        .borrow_mut()
        .loaded
        .insert(name.clone(), Loaded::InProgress);
    let result = lua
        .load(text)
        .set_name(format!("@{}", path.display()))
        .set_mode(mlua::ChunkMode::Text)
        .call::<Value>(name.clone());
    let data = state(lua);
    let mut modules = data.modules.borrow_mut();
    match result {
        Ok(v) => {
            let v = if v.is_nil() { Value::Boolean(true) } else { v };
            let key = lua.create_registry_value(v.clone())?;
            modules.loaded.insert(name, Loaded::Done(key, path));
            Ok(v)
        }
        Err(e) => {
            modules.loaded.remove(&name);
            Err(e)
        }
    }
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
