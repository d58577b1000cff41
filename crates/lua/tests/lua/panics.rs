//! A Rust panic inside a primitive is an internal error (exit code 3) that no script can catch,
//! wherever the script tries to: pcall, xpcall, coroutines, `load` readers, metamethods,
//! callbacks of Rust functions. The host stays usable afterwards. (The binary's exit code 3 for
//! it is checked in the root `tests/cli/cli.rs`.)
//!
//! `warren.debug_panic` exists in debug builds only, so these tests do too.
#![cfg(debug_assertions)]

use crate::common::*;
use warren_lua::{Host, Limits, Run};

const BOOM: &str = "warren.debug_panic('boom')";

const CATCHERS: &[&str] = &[
    BOOM,
    "pcall(warren.debug_panic, 'boom')",
    "pcall(function() BOOM end)",
    "xpcall(function() BOOM end, function(e) return e end)",
    "xpcall(error, function() BOOM end)",
    "for _ = 1, 50 do pcall(pcall, pcall, warren.debug_panic, 'boom') end",
    "local co = coroutine.create(function() BOOM end) local ok, e = coroutine.resume(co)",
    "local co = coroutine.wrap(function() BOOM end) pcall(co)",
    "local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) pcall(coroutine.close, co) BOOM",
    "load(function() BOOM end)",
    "pcall(load, function() BOOM end)",
    "string.gsub('abc', '%w', function() BOOM end)",
    "pcall(string.gsub, 'abc', '%w', function() BOOM end)",
    "for _ in string.gmatch('abc', '%w') do pcall(warren.debug_panic, 'boom') end",
    "table.sort({ 3, 2, 1 }, function() BOOM end)",
    "pcall(table.sort, { 3, 2, 1 }, function() BOOM end)",
    "local t = setmetatable({}, { __index = function() BOOM end }) pcall(function() return t.x end)",
    "pcall(tostring, setmetatable({}, { __tostring = function() BOOM end }))",
    "pcall(string.format, '%s', setmetatable({}, { __tostring = function() BOOM end }))",
    "pcall(map.fill_rect, map, setmetatable({}, { __index = function() BOOM end }), 'floor')",
    "pcall(ctx.rng.pick, ctx.rng, setmetatable({}, { __index = function() BOOM end }))",
    "pcall(require, 'lib.boom')",
    // <close> handlers cannot replace or swallow a panic (fatal mode skips them).
    "do local x <close> = setmetatable({}, { __close = function() error('replaced') end }) BOOM end",
    "pcall(function() local x <close> = setmetatable({}, { __close = function() return 1 end }) BOOM end)",
    "local co = coroutine.wrap(function() local x <close> = setmetatable({}, { __close = function() error('x') end }) BOOM end) pcall(co)",
];

fn run(body: &str) -> Result<warren_core::map::Map, warren_lua::Error> {
    let body = body.replace("BOOM", BOOM);
    let recipe = format!(
        "return {{ name = 't', params = {{ width = {{ default = 8 }}, height = {{ default = 8 }} }},\n\
         generate = function(map, ctx) if ctx.seed ~= 1 then return end\n{body}\nend }}"
    );
    let dir = temp_tree(&[
        ("scripts/t.lua", recipe.as_str()),
        ("scripts/lib/boom.lua", BOOM),
    ]);
    let host = Host::load(
        &dir.path().join("scripts/t.lua"),
        registry(),
        Limits::default(),
    )
    .unwrap();
    let p = host.resolve_params(&[]).unwrap();
    let outcome = host.generate(&Run {
        seed: 1,
        params: &p,
        depth: 1,
        above: None,
    });
    // The state is still usable after the panic.
    host.generate(&Run {
        seed: 2,
        params: &p,
        depth: 1,
        above: None,
    })
    .expect("the host recovers");
    outcome
}

#[test]
fn no_script_can_catch_a_panic() {
    for body in CATCHERS {
        match run(body) {
            Err(e @ warren_lua::Error::Internal(_)) => {
                assert!(e.to_string().contains("boom"), "{body}: {e}");
                assert_eq!(e.exit_code(), 3);
            }
            other => panic!("{body}: {other:?}"),
        }
    }
}
