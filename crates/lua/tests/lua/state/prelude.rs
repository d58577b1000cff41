//! The prelude: compiled by the build as the host parses it, and numbering what follows as a
//! parsed one does (`sandbox.rs`).

use mlua::Lua;
use warren_lua::sandbox::{prelude, PRELUDE_BYTECODE, PRELUDE_NAME};

/// In a fresh state: the prelude's chunk name and the `tostring` of the first table made
/// after the prelude is loaded from `bytecode` (or parsed, when that is not bytecode).
fn after_prelude(bytecode: &[u8]) -> (Option<String>, String) {
    let lua = Lua::new();
    let prelude = prelude(&lua, bytecode).expect("the prelude loads");
    let next: String = lua.load("return tostring({})").eval().expect("runs");
    (prelude.info().source, next)
}

#[test]
fn the_build_compiled_the_prelude_as_the_host_parses_it() {
    let lua = Lua::new();
    let parsed = lua
        .load(include_str!("../../../src/prelude.lua"))
        .set_name(PRELUDE_NAME)
        .into_function()
        .expect("the prelude parses");
    assert!(
        parsed.dump(false) == PRELUDE_BYTECODE,
        "build.rs compiled the prelude with another Lua than the host's"
    );
}

#[test]
fn a_loaded_prelude_numbers_what_follows_as_a_parsed_one_does() {
    let loaded = after_prelude(PRELUDE_BYTECODE);
    assert_eq!(loaded.0.as_deref(), Some(PRELUDE_NAME));
    assert_eq!(
        after_prelude(b"not bytecode"),
        loaded,
        "parsed from the source"
    );
}
