//! A recipe's chunk, compiled once: the host loads a recipe from Lua bytecode it compiled
//! itself, kept in warren's cache directory ([`warren_core::cache`]) between runs, rather than
//! parsing the text at every start. Parsing `rooms.lua` took 0.36 M of a `warren run`'s 4.57 M
//! instructions; loading its bytecode takes a fifth of that.
//!
//! The chunk is compiled in a state of its own, which is then closed, before the load's
//! budget begins (`recipe::prepare`), and only the bytecode is loaded into the recipe's state,
//! whether it came from the cache or was compiled just now (or the cache is off): so the
//! recipe's state is the same either way, down to the memory it holds
//! (`collectgarbage("count")`), the most its load held, and its objects' ids. A text that does not compile (or
//! whose compiling runs past the memory limit) is parsed in the recipe's state as before,
//! which reports the error as it always did.
//!
//! A cache file holds the chunk's name and text, byte for byte, the memory limit it was
//! compiled within, and the bytecode (debug information kept: messages and tracebacks name the
//! same lines), after the keyed tag every cache file starts with ([`warren_core::cache`]): no
//! one without the user's key can make a file that is loaded. It is used only when its tag is
//! right (which also says this very binary, whose Lua wrote the bytecode, wrote it), its name
//! and text equal the recipe's, and the memory limit now is at least the one it was compiled
//! within. Bytecode is otherwise never loaded (a recipe or module file that is bytecode is
//! refused).

use mlua::{Function, Lua, LuaOptions, StdLib};
use serde::{Deserialize, Serialize};
use warren_core::cache::{CacheDir, Kind};

/// What every cache file of compiled chunks starts with: changed whenever the layout changes.
const FORMAT: &str = "warren compiled chunk 5";

/// A cache file's head, followed by the bytecode.
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    /// [`FORMAT`].
    format: &'a str,
    /// The chunk's name (`@scripts/rooms.lua`): the bytecode holds it, for messages.
    name: &'a str,
    /// The text compiled.
    text: &'a str,
    /// The smallest memory limit it is known to compile within ([`Compiled::within`]).
    within: u64,
}

/// A chunk compiled: its bytecode, and the memory limit it was compiled within.
struct Compiled {
    bytecode: Vec<u8>,
    /// The smallest memory limit, in bytes, the chunk has been compiled within: it compiles
    /// within any limit at least that. Under a smaller one it is compiled again to know.
    within: usize,
}

/// The bytecode of the chunk `text`, named `name`: from `cache` when it holds it, else
/// compiled now within `memory_limit` bytes (and kept in `cache`). `None` when it does not
/// compile within `memory_limit`: then the caller parses it in the recipe's state and reports
/// what is wrong. Bytecode in the cache is used only when it was compiled within
/// `memory_limit` or less; otherwise (an earlier run had a larger limit) it is compiled again
/// under this one, so that a recipe fails or loads alike with the cache cold, warm or off.
pub fn bytecode(
    cache: Option<&CacheDir>,
    name: &str,
    text: &str,
    memory_limit: usize,
) -> Option<Vec<u8>> {
    let cached = cache.and_then(|cache| read(cache, name, text));
    if let Some(cached) = cached.filter(|c| c.within <= memory_limit) {
        return Some(cached.bytecode);
    }
    let compiled = compile(name, text, memory_limit)?;
    if let Some(cache) = cache {
        write(cache, name, text, &compiled);
    }
    Some(compiled.bytecode)
}

/// The chunk `text`, named `name`, as a function of `lua`, a warren state: loaded from
/// `bytecode` (this text compiled: [`bytecode`]'s, or the prelude's from the build) when there
/// is some and it loads, else parsed in place, which reports what is wrong with the text (or
/// that no memory is left) as parsing always did.
pub fn function(
    lua: &Lua,
    name: &str,
    text: &str,
    bytecode: Option<&[u8]>,
) -> mlua::Result<Function> {
    match bytecode.and_then(|b| load(lua, name, b)) {
        Some(function) => Ok(function),
        None => parse(lua, name, text),
    }
}

/// The chunk `text`, named `name`, parsed into a function of `lua`.
fn parse(lua: &Lua, name: &str, text: &str) -> mlua::Result<Function> {
    lua.load(text)
        .set_name(name)
        .set_mode(mlua::ChunkMode::Text)
        .into_function()
}

/// `bytecode` ([`bytecode`]'s, for the chunk `name`) as a function of `lua`, a warren state,
/// with the state's objects numbered from here on as if it had parsed the chunk; `None` when
/// it cannot be loaded (no memory left).
pub fn load(lua: &Lua, name: &str, bytecode: &[u8]) -> Option<Function> {
    let function = lua
        .load(bytecode)
        .set_name(name)
        .set_mode(mlua::ChunkMode::Binary)
        .into_function()
        .ok()?;
    // Parsing makes one object loading does not (the parser's table of the chunk's strings,
    // after the chunk's function): skip its id, so that every object made after numbers as in
    // a state that parsed the chunk.
    // SAFETY: `raw.state()` is `lua`'s live state; this only moves its id counter.
    lua.exec_raw_lua(|raw| unsafe { crate::state::skip_ids(raw.state(), 1) });
    Some(function)
}

/// `text` compiled in a state of its own with at most `memory_limit` bytes, as `string.dump`
/// makes it (debug information kept), or `None` when it does not compile.
fn compile(name: &str, text: &str, memory_limit: usize) -> Option<Compiled> {
    let scratch = Lua::new_with(StdLib::NONE, LuaOptions::new()).ok()?;
    scratch.set_memory_limit(memory_limit).ok()?;
    let function = parse(&scratch, name, text).ok()?;
    let mut bytecode = function.dump(false);
    // The room it grew into would be held beside the recipe's state while it loads.
    bytecode.shrink_to_fit();
    Some(Compiled {
        bytecode,
        within: memory_limit,
    })
}

/// The file in `cache` that holds `text` compiled under `name`, whether or not it was written.
pub fn path(cache: &CacheDir, name: &str, text: &str) -> std::path::PathBuf {
    cache.path(Kind::Chunk, &[name, text])
}

/// `text` compiled under `name`, if `cache` holds it whole.
fn read(cache: &CacheDir, name: &str, text: &str) -> Option<Compiled> {
    let bytes = cache.read(&path(cache, name, text))?;
    let (head, body) = postcard::take_from_bytes::<Head>(&bytes).ok()?;
    let same = head.format == FORMAT && head.name == name && head.text == text;
    same.then(|| Compiled {
        bytecode: body.to_vec(),
        within: usize::try_from(head.within).unwrap_or(usize::MAX),
    })
}

/// Keeps `compiled`, `text` compiled under `name`, in `cache` for the next load.
fn write(cache: &CacheDir, name: &str, text: &str, compiled: &Compiled) {
    let head = Head {
        format: FORMAT,
        name,
        text,
        within: compiled.within as u64,
    };
    let Ok(mut bytes) = postcard::to_stdvec(&head) else {
        return;
    };
    bytes.extend_from_slice(&compiled.bytecode);
    cache.write(&path(cache, name, text), &bytes);
}
