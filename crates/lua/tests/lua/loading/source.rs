//! Chunks refused before Lua parses them (`source.rs`).

use warren_lua::source::{check, MAX_SOURCE_BYTES};

#[test]
fn refuses_oversized_chunks_and_accepts_close() {
    assert!(check(b"local x <close> = nil").is_ok());
    let big = vec![b' '; MAX_SOURCE_BYTES + 1];
    let e = check(&big).unwrap_err();
    assert_eq!(e.line, 0);
    assert!(e.located("t.lua").starts_with("t.lua: chunk is"));
}
