//! The FFI's constants are the patched Lua's header's (`ffi.rs`).

/// The header's `#define name value`, as written.
fn defined(name: &str) -> String {
    let header = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../lua-src/lua-5.4.8/lwarren.h"
    );
    let text = std::fs::read_to_string(header).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("#define ")?.strip_prefix(name))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("{name} is not defined in lwarren.h"))
}

#[test]
fn the_call_cost_is_the_headers() {
    assert_eq!(
        defined("LUA_WARREN_CALLCOST"),
        warren_lua::ffi::CALL_COST.to_string()
    );
}
