//! Error places: located messages and the innermost script frame (`located.rs`).

use mlua::Error;
use warren_lua::located::{located_message, starts_located};

#[test]
fn places_are_recognised() {
    assert!(starts_located("t.lua:3: boom"));
    assert!(starts_located("./lib/m.lua:12: boom"));
    assert!(starts_located("[string \"x: y\"]:1: boom"));
    assert!(!starts_located("t.lua: boom"));
    assert!(!starts_located("bad argument #2 to 'rng:pick': error"));
    assert!(!starts_located("boom"));
    assert!(!starts_located(":3: boom"));
}

#[test]
#[allow(clippy::arc_with_non_send_sync)] // mlua's own error type holds the cause so
fn the_innermost_script_frame_is_the_place() {
    let e = Error::CallbackError {
        traceback: "stack traceback:\n\t[C]: in field 'pick'\n\twarren prelude:9: in x\n\ttable:3: in y\n\tt.lua:3: in local 'f'\n\tt.lua:4: in function <t.lua:2>".into(),
        cause: std::sync::Arc::new(Error::RuntimeError("bad argument #2: error converting Lua integer to table".into())),
    };
    assert_eq!(
        located_message(&e),
        "t.lua:3: bad argument #2 to 'pick': error converting Lua integer to table"
    );
    let e = Error::RuntimeError(
        "table: 0x20000426b40\nstack traceback:\n\t[C]: in ?\n\t[C]: in function 'error'\n\tp.lua:3: in function <p.lua:2>".into(),
    );
    assert_eq!(
        located_message(&e),
        "p.lua:3: error object is a table value (raise a string, or give the table a __tostring, to say what went wrong)"
    );
    let e = Error::RuntimeError("p.lua:7: boom\nstack traceback:\n\tp.lua:3: in f".into());
    assert_eq!(located_message(&e), "p.lua:7: boom");
}
