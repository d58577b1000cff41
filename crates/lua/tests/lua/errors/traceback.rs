//! Tracebacks: locations recognised, values written readably (`traceback.rs`).

use mlua::{Lua, Value};
use warren_lua::traceback::describe;

#[test]
fn locations_are_recognised() {
    assert!(warren_lua::located::starts_located(
        "scripts/r.lua:12: boom"
    ));
    assert!(warren_lua::located::starts_located(
        "[string \"x\"]:1: boom"
    ));
    assert!(!warren_lua::located::starts_located("boom"));
    assert!(!warren_lua::located::starts_located("width: 3"));
    assert!(!warren_lua::located::starts_located("a:b: c"));
}

#[test]
fn values_are_written_readably() {
    let lua = Lua::new();
    let v: Value = lua
        .load(r#"return { code = 1, "first", nested = { deep = { deeper = 1 } }, [true] = 2 }"#)
        .eval()
        .unwrap();
    assert_eq!(
        describe(&lua, &v),
        r#"{"first", code = 1, nested = {deep = {…}}, [true] = 2}"#
    );
    let v: Value = lua
        .load(r#"return setmetatable({}, { __tostring = function() return "E42" end })"#)
        .eval()
        .unwrap();
    assert_eq!(describe(&lua, &v), "E42");
    let many: Value = lua
        .load("local t = {} for i = 1, 20 do t[i] = i end return t")
        .eval()
        .unwrap();
    assert_eq!(describe(&lua, &many), "{1, 2, 3, 4, 5, 6, 7, 8, … 12 more}");
}
