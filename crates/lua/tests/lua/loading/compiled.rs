//! A recipe's chunk loaded from the bytecode the host compiled (`compiled.rs`): the same state
//! as parsing it would make, from the cache or not, and a cache read only for the very text
//! and name it was written for.

use mlua::{Function, Lua};
use std::path::Path;
use warren_core::cache::CacheDir;
use warren_lua::compiled;
use warren_lua::sandbox::{new_state, Sandbox};

/// A chunk that makes objects of every kind that takes an id, and returns a function that
/// makes one more table and says where it is defined.
const CHUNK: &str = "local t = { 1, 2, 3 }\n\
    local f = function() return t end\n\
    local co = coroutine.create(f)\n\
    return function() return {}, co end\n";

/// The chunk's name, as the host gives a recipe's.
const NAME: &str = "@recipes/compiled.lua";

/// The memory a compile may take: the default limit.
const LIMIT: usize = 256 << 20;

/// The chunk `text`, named `name`, loaded into `lua` as the host loads a recipe: its bytecode
/// from `cache` or compiled now.
fn load(lua: &Lua, cache: Option<&CacheDir>, name: &str, text: &str) -> Option<Function> {
    let bytecode = compiled::bytecode(cache, name, text, LIMIT)?;
    compiled::load(lua, name, &bytecode)
}

/// A fresh sandboxed state.
fn state() -> Sandbox {
    new_state(vec![], Default::default(), warren_lua::api::install)
        .unwrap()
        .0
}

/// A cache in a new temporary directory, for a binary called "test".
fn temp_cache() -> (tempfile::TempDir, CacheDir) {
    let tmp = tempfile::tempdir().unwrap();
    let cache = CacheDir::new(tmp.path().into(), "test".into());
    (tmp, cache)
}

/// What a state shows once `chunk` (loaded into it) has run: the id of the next table it
/// makes, the line a function of the chunk is defined on, and the memory the state holds.
fn after_running(lua: &Lua, chunk: Function) -> (u64, i64, usize) {
    let made: Function = chunk.call(()).unwrap();
    let (table, _co): (mlua::Table, mlua::Value) = made.call(()).unwrap();
    let id = warren_lua::state::creation_id(lua, &table).unwrap();
    let line = made.info().line_defined.unwrap() as i64;
    (id, line, lua.used_memory())
}

/// The inode of the file at `path`: a file written again (renamed into place) has another.
#[cfg(unix)]
fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(path).unwrap())
}

#[test]
fn a_compiled_chunk_numbers_its_objects_as_a_parsed_one() {
    let parsed = state();
    let chunk = parsed.load(CHUNK).set_name(NAME).into_function().unwrap();
    let (parsed_id, parsed_line, _) = after_running(&parsed, chunk);

    let lua = state();
    let chunk = load(&lua, None, NAME, CHUNK).unwrap();
    let (id, line, _) = after_running(&lua, chunk);
    assert_eq!((id, line), (parsed_id, parsed_line));
    assert_eq!(line, 4);
}

#[cfg(unix)]
#[test]
fn the_second_load_reads_the_cache_the_first_wrote_into_the_same_state() {
    let (_tmp, cache) = temp_cache();
    let path = compiled::path(&cache, NAME, CHUNK);
    let first = state();
    let chunk = load(&first, Some(&cache), NAME, CHUNK).unwrap();
    let from_compile = after_running(&first, chunk);
    let written = inode(&path);

    let second = state();
    let chunk = load(&second, Some(&cache), NAME, CHUNK).unwrap();
    assert_eq!(after_running(&second, chunk), from_compile);
    assert_eq!(inode(&path), written, "read, not written again");

    // No cache at all: the same state again, memory included.
    let none = state();
    let chunk = load(&none, None, NAME, CHUNK).unwrap();
    assert_eq!(after_running(&none, chunk), from_compile);
}

#[test]
fn a_cache_file_of_another_text_or_name_is_not_loaded() {
    let (_tmp, cache) = temp_cache();
    let other = "return function() return 'other' end\n";
    let mine = "return function() return 'mine' end\n";
    load(&state(), Some(&cache), NAME, other).unwrap();
    // The other text's file, where this text's would be: its text differs, so it is compiled.
    let theirs = compiled::path(&cache, NAME, other);
    std::fs::copy(&theirs, compiled::path(&cache, NAME, mine)).unwrap();
    let lua = state();
    let chunk = load(&lua, Some(&cache), NAME, mine).unwrap();
    let made: Function = chunk.call(()).unwrap();
    assert_eq!(made.call::<String>(()).unwrap(), "mine");
    // And under another name: the name is in the bytecode, for messages.
    let renamed = "@recipes/renamed.lua";
    std::fs::copy(&theirs, compiled::path(&cache, renamed, other)).unwrap();
    let chunk = load(&lua, Some(&cache), renamed, other).unwrap();
    let made: Function = chunk.call(()).unwrap();
    assert_eq!(
        made.info().source.as_deref(),
        Some(renamed),
        "compiled under its own name"
    );
    // And by another binary.
    let (tmp, ours) = temp_cache();
    load(&state(), Some(&ours), NAME, mine).unwrap();
    let another = CacheDir::new(tmp.path().into(), "another build".into());
    let mine_path = compiled::path(&ours, NAME, mine);
    std::fs::copy(&mine_path, compiled::path(&another, NAME, mine)).unwrap();
    let before = std::fs::read(compiled::path(&another, NAME, mine)).unwrap();
    load(&state(), Some(&another), NAME, mine).unwrap();
    assert_ne!(
        std::fs::read(compiled::path(&another, NAME, mine)).unwrap(),
        before,
        "written again for this binary"
    );
}

#[test]
fn a_damaged_cache_file_is_compiled_past_and_written_again() {
    let (_tmp, cache) = temp_cache();
    let text = "return function() return 40 + 2 end\n";
    load(&state(), Some(&cache), NAME, text).unwrap();
    let path = compiled::path(&cache, NAME, text);
    let whole = std::fs::read(&path).unwrap();
    // Each damage: the bytecode's last byte changed (it still has the length it should), the
    // file cut short, or nothing left.
    let mut flipped = whole.clone();
    *flipped.last_mut().unwrap() ^= 0x55;
    for damaged in [flipped, whole[..whole.len() - 9].to_vec(), Vec::new()] {
        std::fs::write(&path, &damaged).unwrap();
        let lua = state();
        let chunk = load(&lua, Some(&cache), NAME, text).unwrap();
        let made: Function = chunk.call(()).unwrap();
        assert_eq!(made.call::<i64>(()).unwrap(), 42);
        assert_eq!(std::fs::read(&path).unwrap(), whole, "written again whole");
    }
}

#[test]
fn a_text_that_does_not_compile_is_left_to_the_parser_and_not_cached() {
    let (tmp, cache) = temp_cache();
    let lua = state();
    assert!(load(&lua, Some(&cache), NAME, "return = 1").is_none());
    // Past the memory a compile may take.
    let long = format!("return {{ {} }}", "1, ".repeat(100_000));
    assert!(compiled::bytecode(Some(&cache), NAME, &long, 64 << 10).is_none());
    assert!(load(&lua, Some(&cache), NAME, &long).is_some());
    let files: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("chunk-"))
        .collect();
    assert_eq!(files.len(), 1, "only the text that compiled: {files:?}");
}
