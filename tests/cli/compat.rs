//! Stock Lua 5.4's library through the real binary: `io.write` lines and `print` on stderr,
//! `package.path`, `loadfile`/`dofile` and `collectgarbage` as recipes written for stock Lua
//! expect them (`crates/lua/tests/lua/compat.rs` runs stock libraries through the host).

use crate::common::*;

#[test]
fn io_loadfile_dofile_package_path_and_collectgarbage_behave_as_in_stock_lua() {
    // Through the real binary: the log lines are on stderr.
    let recipe = r#"
local helpers = assert(loadfile("lib/helpers.lua"))()
local data = dofile("data/level.lua")
local missing, why = loadfile("nope.lua")
local binary, mode = loadfile("lib/helpers.lua", "b")
local path = package.path
package.path = "../?.lua;" .. package.path
local deep = require "lib/deep"
return {
  name = "stockio",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    io.write("a", 1)
    io.write("b")
    io.flush()
    io.stdout:setvbuf("no")
    io.stdout:write("x"):write("y\n")
    print("p", io.type(io.stdout), io.type(42))
    io.stderr:write("err\n")
    io.write("tail without newline")
    map:tag("helpers", helpers.twice(21))
    map:tag("data", data.name)
    map:tag("missing", tostring(missing) .. " " .. why)
    map:tag("binary", tostring(binary) .. " " .. mode)
    map:tag("deep", deep)
    map:tag("path", path)
    map:tag("count", type(collectgarbage("count")))
    map:tag("gc", tostring(collectgarbage()) .. tostring(collectgarbage("step")) .. tostring(collectgarbage("isrunning")))
    map:tag("same_count", tostring(collectgarbage("count") == collectgarbage("count")))
  end,
}
"#;
    let dir = temp_tree(&[
        ("scripts/stockio.lua", recipe),
        (
            "scripts/lib/helpers.lua",
            "return { twice = function(x) return 2 * x end }",
        ),
        ("scripts/data/level.lua", "return { name = 'first' }"),
        (
            "scripts/lib/deep/init.lua",
            "return 'found through ?/init.lua'",
        ),
    ]);
    copy_regions(dir.path());
    let out = warren()
        .current_dir(dir.path())
        .args([
            "run",
            "scripts/stockio.lua",
            "--seed",
            "3",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("[stockio]")).collect();
    assert_eq!(
        lines,
        [
            "[stockio] a1b",
            "[stockio] xy",
            "[stockio] p\tfile\tnil",
            "[stockio] err",
            "[stockio] tail without newline",
        ],
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tags = &json["levels"][0]["tags"];
    assert_eq!(tags["helpers"], 42);
    assert_eq!(tags["data"], "first");
    assert!(
        tags["missing"]
            .as_str()
            .unwrap()
            .starts_with("nil cannot open scripts/nope.lua"),
        "{tags}"
    );
    assert_eq!(
        tags["binary"],
        "nil attempt to load a text chunk (mode is 'b')"
    );
    assert_eq!(tags["deep"], "found through ?/init.lua");
    assert_eq!(tags["path"], "scripts/?.lua;scripts/?/init.lua");
    assert_eq!(tags["count"], "number");
    assert_eq!(tags["gc"], "0truetrue");
    assert_eq!(tags["same_count"], "true");
}
