//! The LuaLS stubs and the API reference's table: up to date and valid (formerly the unit tests
//! of `crates/lua/src/stubs.rs`).

use warren_lua::stubs::{page_with_table, render, API_PAGE, STUBS_PATH};

#[test]
fn checked_in_stubs_are_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(STUBS_PATH);
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == render(),
        "{STUBS_PATH} is stale: run `cargo run -- stubs --out {STUBS_PATH}`"
    );
}

#[test]
fn the_api_reference_table_is_the_generated_one() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(API_PAGE);
    let page = std::fs::read_to_string(&path).unwrap();
    let expected = page_with_table(&page).unwrap();
    assert!(
        page == expected,
        "{API_PAGE}'s API table is stale: run `cargo run -- stubs --markdown --out {API_PAGE}`"
    );
    assert!(page_with_table("no markers").is_err());
}

#[test]
fn stubs_are_valid_lua() {
    let lua = mlua::Lua::new();
    if let Err(e) = lua.load(render()).set_name("=stubs").into_function() {
        panic!("the stubs do not compile: {e}");
    }
}

#[test]
fn stubs_describe_methods_with_params_and_returns() {
    let s = render();
    assert!(s.starts_with("---@meta warren\n"));
    let get = "---The terrain name at (x, y).\n---@param x integer\n---@param y integer\n---@return string\nfunction Map:get(x, y) end\n";
    assert!(s.contains(get), "{s}");
    assert!(s.contains("function warren.gen.join_areas(map, rng, opts) end"));
    assert!(s.contains("---@param opts? warren.WriteOptions"));
    assert!(s.contains("---@class warren.PathOptions : warren.WriteOptions"));
    assert!(s.contains("---@field attempts? integer Placement attempts (the tutorial's MAX_ROOMS). Range 0..=20000. Default 30."));
    assert!(s.contains("---@field ROOM_FLOOR integer 70"));
    assert!(s.contains("---@field width integer Map width in cells."));
}
