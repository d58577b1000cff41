//! Libraries written for stock Lua 5.4 run unchanged: a self-registering module whose submodule
//! requires it back, class tables with `setmetatable`, extended standard tables and string
//! methods, `os.time`/`os.clock`/`os.date`, debug output with `print` and `io.write`, and stock
//! idioms such as `local unpack = unpack or table.unpack`.

use crate::common::*;
use warren_lua::{Host, Limits};

const LIB: &str = r#"
local M = {}
package.loaded[...] = M            -- self-registration before requiring submodules
M.name = ...
M.Map = require "rotlike.map"      -- which requires "rotlike" back
M.seed = os.time()
function table.random(t, rng) return t[rng:int(1, #t)] end
function string.split(s, sep)
  local out = {}
  for piece in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do out[#out + 1] = piece end
  return out
end
function math.round(x) return math.floor(x + 0.5) end
return M
"#;

const MAP: &str = r#"
local ROT = require "rotlike"
local unpack = unpack or table.unpack
local Map = {}
Map.__index = Map
function Map.new(w, h) return setmetatable({ w = w, h = h, lib = ROT.name, cells = {} }, Map) end
-- A generator with a time limit, as real ones have.
function Map:dig(rng, seconds)
  local start, n = os.clock(), 0
  while os.clock() - start < seconds do
    local x, y = unpack { rng:int(2, self.w - 1), rng:int(2, self.h - 1) }
    self.cells[y * self.w + x] = true
    n = n + 1
  end
  return n
end
return Map
"#;

const RECIPE: &str = r#"
local ROT = require "rotlike"
local debug_on = false
return {
  name = "compat",
  params = { width = { default = 30, min = 16 }, height = { default = 20, min = 16 } },
  generate = function(map, ctx)
    local m = ROT.Map.new(map.width, map.height)
    local dug = m:dig(ctx.rng, 0.001)
    map:fill("rock wall")
    for k in pairs(m.cells) do map:set(k % m.w, k // m.w, "floor") end
    local parts = ("a,b,c"):split(",")
    print("parts", #parts, table.random(parts, ctx.rng))
    io.write("dug ", dug, "\n")
    io.stdout:write("ok\n")
    if debug_on then io.write(undefined_global.x) end
    map:tag("lib", m.lib)
    map:tag("dug", dug)
    map:tag("round", math.round(2.5))
    map:tag("seed", ROT.seed)
    map:tag("date", os.date("!%Y-%m-%d %H:%M:%S", os.time { year = 2024, month = 2, day = 29, hour = 13 }))
    map:tag("diff", os.difftime(os.time(), ROT.seed))
    map:tag("missing", tostring(rawget(_G, "nothing") == nil and nothing == nil))
  end,
}
"#;

#[test]
fn a_stock_style_library_runs_unchanged() {
    let dir = temp_tree(&[
        ("scripts/compat.lua", RECIPE),
        ("scripts/rotlike.lua", LIB),
        ("scripts/rotlike/map.lua", MAP),
    ]);
    copy_regions(dir.path());
    let script = dir.path().join("scripts/compat.lua");
    let load = || {
        let reg = std::sync::Arc::new(warren_lua::run::load_registry(None, &script).unwrap());
        Host::load(&script, reg, Limits::default()).unwrap()
    };
    let host = load();
    let p = params(&host, &[]);
    let a = generate(&host, 5, &p);
    let tags = format!("{:?}", a.notes.tags);
    for want in [
        "\"lib\": Text(\"rotlike\")",
        "\"round\": Int(3)",
        "\"seed\": Int(946684800)",
        "\"date\": Text(\"2024-02-29 13:00:00\")",
        // os.time() starts from the seed: 0 while loading, the map's seed in the run.
        "\"diff\": Number(5.0)",
        "\"missing\": Text(\"true\")",
    ] {
        assert!(tags.contains(want), "{want} in {tags}");
    }
    // os.clock is virtual: the time-limited loop does the same work everywhere.
    let b = generate(&load(), 5, &p);
    assert_eq!(format!("{:?}", b.notes.tags), tags);
    assert!(
        tags.contains("\"dug\": Int("),
        "the loop ran and stopped: {tags}"
    );
}

#[test]
fn default_budgets_let_a_big_pure_lua_automaton_finish_and_stop_a_runaway_loop() {
    let ca = std::fs::read_to_string(root().join("benches/pure_lua/ca.lua")).unwrap();
    let recipe = |body: &str| {
        format!(
            "local ca = require 'ca'\nreturn {{ name = 'ca', params = {{ width = {{ default = 16 }}, \
             height = {{ default = 16 }} }}, generate = function(map) {body} end }}"
        )
    };
    let dir = temp_tree(&[
        ("scripts/big.lua", &recipe("map:tag('walls', ca(256, 256))")),
        ("scripts/loop.lua", &recipe("while true do end")),
        ("scripts/ca.lua", &ca),
    ]);
    let load = |name: &str| {
        Host::load(
            &dir.path().join("scripts").join(name),
            registry(),
            Limits::default(),
        )
        .unwrap()
    };
    let big = load("big.lua");
    let map = generate(&big, 1, &params(&big, &[]));
    assert!(map.notes.tags.contains_key("walls"));
    let runaway = load("loop.lua");
    let start = std::time::Instant::now();
    let e = runaway
        .generate(&warren_lua::Run {
            seed: 1,
            params: &params(&runaway, &[]),
            depth: 1,
            above: None,
        })
        .unwrap_err()
        .to_string();
    // The instruction budget stops it on an idle machine; on a loaded one the 4 s clock may
    // come first. Either is the default budgets doing their job, at the loop's line.
    assert!(
        e.contains("loop.lua:2: instruction budget exceeded")
            || e.contains("loop.lua:2: time budget exceeded (4 s"),
        "{e}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}
