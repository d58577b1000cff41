//! Every map starts from the same state: the shipped recipes never leave their state dirty (so
//! reuse costs nothing), and a recipe that does is loaded again before the next run, so its maps
//! equal those of a fresh host.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warren_lua::{run, Host, Limits, Run};

use crate::common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn host(script: &Path) -> Host {
    let registry = Arc::new(run::load_registry(None, script).unwrap());
    Host::load(script, registry, Limits::default()).unwrap()
}

fn rows(host: &Host, seed: u64) -> String {
    let params = host.resolve_params(&[]).unwrap();
    let map = host
        .generate(&Run {
            seed,
            params: &params,
            depth: 1,
            above: None,
        })
        .unwrap();
    let view = warren_core::render::layers::LayerChoice::from_name("terrain")
        .view(&map)
        .unwrap();
    format!(
        "{}{:?}",
        warren_core::render::text::ascii(&view),
        map.notes.tags
    )
}

#[test]
fn shipped_recipes_leave_their_state_clean() {
    for name in ["rooms", "cave", "dungeon", "townmaze"] {
        let script = root().join("scripts").join(format!("{name}.lua"));
        let h = host(&script);
        for seed in 1..=3 {
            rows(&h, seed);
        }
        assert_eq!(h.reloads(), 0, "{name} left its state dirty");
    }
}

#[test]
fn a_stateful_recipe_is_reset_and_gives_the_fresh_maps() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("regions")).unwrap();
    for f in std::fs::read_dir(root().join("regions")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.path().join("regions").join(f.file_name().unwrap())).unwrap();
    }
    let script = dir.path().join("scripts/counter.lua");
    std::fs::write(
        &script,
        r#"
local n = 0
local seen = {}
return {
  name = "counter",
  params = { width = { default = 24, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    n = n + 1
    seen[#seen + 1] = tostring({})
    map:fill("rock wall")
    for i = 1, n do map:set(i, 1, "floor") end
    map:tag("ids", table.concat(seen, ","))
  end,
}
"#,
    )
    .unwrap();
    let h = host(&script);
    let reused: Vec<String> = (1..=3).map(|s| rows(&h, s)).collect();
    assert_eq!(
        h.reloads(),
        0,
        "an upvalue and a table were put back by a reload"
    );
    assert_eq!(h.resets(), (3, 6), "each run put back `n` and `seen`");
    for (i, m) in reused.iter().enumerate() {
        assert_eq!(m, &rows(&host(&script), i as u64 + 1));
    }
}

/// Checks that `recipe`'s maps of `seeds`, made in turn by one host, equal a fresh host's each;
/// returns the one host.
fn reused_maps_are_fresh(
    dir: &Path,
    name: &str,
    recipe: &str,
    seeds: std::ops::RangeInclusive<u64>,
) -> Host {
    let reused = common::host_for(dir, name, recipe, Limits::default());
    for seed in seeds {
        let fresh = common::host_for(dir, name, recipe, Limits::default());
        assert_eq!(
            rows(&reused, seed),
            rows(&fresh, seed),
            "{name}, seed {seed}"
        );
    }
    reused
}

#[test]
fn a_recipe_that_catches_rust_errors_keeps_its_state_and_gives_the_fresh_maps() {
    // Catching an error a Rust function raised (while loading too) used to leave the state
    // dirty (mlua sets the metatable its preallocated error object already has), so such
    // recipes reloaded before every map. The state stays clean now, and the host puts the error
    // objects back into mlua's pool, so a later run that nests Rust calls (here 7 levels of
    // `map:get_rect` calling an `__index` that calls it again, within the pool's 16 levels, but
    // not within the 6 the ten errors leave) numbers its objects as a fresh state's run does.
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
local loaded = select(2, pcall(function() return require("warren").rect(1, 2, 3) end))
local function deep(map, n)
  if n == 0 then return tostring({}) end
  local found
  local rect = setmetatable({}, { __index = function(_, k)
    if k == "x" then found = deep(map, n - 1) end
    return ({ x = 0, y = 0, w = 1, h = 1 })[k]
  end })
  map:get_rect(rect)
  return found
end
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local caught = {}
    for i = 1, 10 do
      local ok, e = pcall(function() return map:get(-1, i) end)
      caught[#caught + 1] = tostring(ok) .. " " .. e
    end
    local t = {}
    for i = 1, 20 do t[{}] = i end
    local order = {}
    for _, v in pairs(t) do order[#order + 1] = v end
    map:tag("caught", table.concat(caught, "; "))
    map:tag("order", table.concat(order, ","))
    map:tag("deep", deep(map, 7))
    map:tag("loaded", loaded)
  end,
}
"#;
    let h = common::host_for(dir.path(), "catcher", recipe, Limits::default());
    let reused: Vec<String> = (1..=4).map(|s| rows(&h, s)).collect();
    assert_eq!(h.reloads(), 0, "catching Rust errors made the state dirty");
    assert!(reused[0].contains("false "), "{}", reused[0]);
    assert!(reused[0].contains("warren.rect"), "{}", reused[0]);
    for (i, m) in reused.iter().enumerate() {
        let fresh = common::host_for(dir.path(), "catcher", recipe, Limits::default());
        assert_eq!(m, &rows(&fresh, i as u64 + 1), "seed {}", i + 1);
    }
}

#[test]
fn a_recipe_whose_loading_nests_past_the_warming_reloads_after_taking_from_the_pool() {
    // Loading nests 110 calls from C (sorts in sorts' comparators): deeper than the host warms
    // the pool (100 levels), so the pool might hold more than a refill gives back. A run that
    // catches a warren error (taking an object from the pool) leaves the state to be loaded
    // again; a run that catches none keeps it.
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
local function nested_sorts(n)
  if n == 0 then return end
  table.sort({ 2, 1 }, function(a, b) nested_sorts(n - 1) n = 0 return a < b end)
end
nested_sorts(110)
return {
  params = { width = { default = 16 }, height = { default = 16 }, catch = { default = true } },
  generate = function(map, ctx)
    if ctx.params.catch then pcall(map.get, map, -1, 1) end
    map:tag("id", tostring({}))
  end,
}
"#;
    for (catch, reloads) in [("true", 2), ("false", 0)] {
        let sets = [("catch", catch)];
        let reused = common::host_for(dir.path(), "deep_sorter", recipe, Limits::default());
        let maps: Vec<String> = (1..=3).map(|seed| tags(&reused, seed, &sets)).collect();
        assert_eq!(reused.reloads(), reloads, "catch = {catch}");
        let fresh = common::host_for(dir.path(), "deep_sorter", recipe, Limits::default());
        assert_eq!(maps[2], tags(&fresh, 3, &sets), "catch = {catch}");
    }
}

#[test]
fn a_run_that_first_builds_a_long_string_numbers_its_objects_as_a_fresh_one() {
    // Lua's auxiliary library keeps a string buffer longer than a kilobyte in a box whose
    // metatable it makes the first time, in the registry: made by the first run, not by the
    // runs after it, it numbered their objects one apart from a fresh state's.
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local long = string.rep("x", 3000) .. table.concat({ string.rep("y", 2000), "z" }, ";")
    map:tag("id", tostring({}) .. " " .. #long)
  end,
}
"#;
    let reused = reused_maps_are_fresh(dir.path(), "long", recipe, 1..=3);
    assert_eq!(reused.reloads(), 0);
}

#[test]
fn a_close_handler_gets_a_warren_errors_message_as_pcall_does() {
    // A `<close>` variable's handler got mlua's error object for an error a warren function
    // raised: in a reused state, whose pool the host had refilled, another object than a
    // fresh state's, numbered apart (as a table key it changed the order `pairs` gives).
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local seen, got = {}, {}
    for i = 1, 3 do
      pcall(function()
        local guard <close> = setmetatable({}, { __close = function(_, e)
          got[#got + 1] = type(e)
          seen[e] = i
        end })
        map:get(-1, i)
      end)
    end
    for i = 1, 8 do seen[{}] = 10 + i end
    local order = {}
    for k, v in pairs(seen) do order[#order + 1] = v .. (type(k) == "string" and k:match("map:get") or "") end
    map:tag("order", table.concat(order, ","))
    map:tag("got", table.concat(got, ","))
  end,
}
"#;
    let reused = reused_maps_are_fresh(dir.path(), "closer", recipe, 1..=4);
    assert_eq!(reused.reloads(), 0);
    let first = rows(&reused, 1);
    assert!(first.contains("string,string,string"), "{first}");
    assert!(first.contains("1map:get"), "{first}");
}

/// A recipe nesting `map:get_rect` in an `__index` that calls it again, `ctx.params.depth`
/// levels deep, each level two calls from C (mlua's protected read of the field, then the
/// metamethod); or, with `how = "sorts"`, `table.sort` in a comparator that sorts again, each
/// level one call from C and no Rust callback; first it catches `caught` errors from a warren
/// function. The map's tags show the innermost table's id and the order `pairs` gives tables
/// keyed by new tables: both number the run's objects.
const NESTER: &str = r#"
local function nested_rects(map, n)
  if n == 0 then return tostring({}) end
  local found
  local rect = setmetatable({}, { __index = function(_, k)
    if k == "x" then found = nested_rects(map, n - 1) end
    return ({ x = 0, y = 0, w = 1, h = 1 })[k]
  end })
  map:get_rect(rect)
  return found
end
local function nested_sorts(n)
  if n == 0 then return tostring({}) end
  local found
  table.sort({ 2, 1 }, function(a, b) found = found or nested_sorts(n - 1) return a < b end)
  return found
end
return {
  params = {
    width = { default = 16 }, height = { default = 16 },
    depth = { default = 1, min = 0, max = 98 },
    how = { default = "rects", choices = { "rects", "sorts" } },
    caught = { default = 0 },
  },
  generate = function(map, ctx)
    local p = ctx.params
    for i = 1, p.caught do pcall(map.get, map, -1, i) end
    local innermost = p.how == "rects" and nested_rects(map, p.depth) or nested_sorts(p.depth)
    local t = {}
    for i = 1, 20 do t[{}] = i end
    local order = {}
    for _, v in pairs(t) do order[#order + 1] = v end
    map:tag("innermost", innermost)
    map:tag("order", table.concat(order, ","))
  end,
}
"#;

/// The tags of [`NESTER`]'s map of `seed` from host `h`, nesting `how`, `depth` levels deep
/// after catching `caught` errors.
fn nested_map(h: &Host, (how, depth, caught): (&str, i64, i64), seed: u64) -> String {
    let (depth, caught) = (depth.to_string(), caught.to_string());
    let sets = [("depth", depth.as_str()), ("how", how), ("caught", &caught)];
    tags(h, seed, &sets)
}

/// The tags of `h`'s map of `seed` with the parameters `sets`, at depth 1.
fn tags(h: &Host, seed: u64, sets: &[(&str, &str)]) -> String {
    let map = common::generate_at(h, seed, sets, 1, None).unwrap();
    format!("{:?}", map.notes.tags)
}

/// Checks that seeds 1 to 4 of [`NESTER`] nesting `how`, `depth` levels deep after catching
/// `caught` errors, made in turn by one host, equal a fresh host's each, and that the one host
/// loaded its state again `reloads` times.
fn assert_nested_maps_fresh(dir: &Path, run: (&str, i64, i64), reloads: u64) {
    let reused = common::host_for(dir, "nester", NESTER, Limits::default());
    for seed in 1..=4 {
        let fresh = common::host_for(dir, "nester", NESTER, Limits::default());
        assert_eq!(
            nested_map(&reused, run, seed),
            nested_map(&fresh, run, seed),
            "{run:?}, seed {seed}"
        );
    }
    assert_eq!(reused.reloads(), reloads, "{run:?}");
}

#[test]
fn a_run_nesting_past_the_error_pool_reloads_and_gives_the_fresh_maps() {
    // mlua makes an error object the first time Rust callbacks nest a level deeper than its
    // pool holds (16 levels, warmed with the state), taking an object id; a state reused after
    // such a run would not make it again, and would number its objects apart from a fresh
    // state's run. Each such run but the last is followed by a reload. 90 levels of
    // `map:get_rect` is 180 C calls, near Lua's limit of 200.
    let dir = tempfile::tempdir().unwrap();
    assert_nested_maps_fresh(dir.path(), ("rects", 90, 0), 3);
}

#[test]
fn a_run_nesting_as_deep_as_the_error_pool_keeps_its_state() {
    // The host cannot see mlua's pool, so it compares how deep calls from C nested with the
    // pool's 16 levels: a run's k-th nested callback is k calls deep at least. `generate` is
    // one; nested sorts are one more a level: 15 keep the state, one more reloads it.
    // `map:get_rect` in an `__index` is two a level (mlua's protected read, the metamethod): 7
    // keep it. The same after runs that caught errors (the pool refilled after each).
    let dir = tempfile::tempdir().unwrap();
    for caught in [0, 3] {
        for (how, kept) in [("sorts", 15), ("rects", 7)] {
            assert_nested_maps_fresh(dir.path(), (how, kept, caught), 0);
            assert_nested_maps_fresh(dir.path(), (how, kept + 1, caught), 3);
        }
    }
}

#[test]
fn a_recipe_whose_loading_nests_deep_gets_a_pool_that_deep() {
    // Loading nests 21 levels of `print` calling a `__tostring` that prints again: mlua's pool
    // grows to 21 in every fresh state. Odd seeds catch three errors (the pool gives three
    // objects up, and the host refills it), even seeds nest as deep as loading did: they must
    // find the pool as deep as a fresh state's, or they make objects a fresh state's run does
    // not.
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
local function nest(n)
  if n == 0 then return "" end
  return setmetatable({}, { __tostring = function() print(nest(n - 1)) return "" end })
end
print(nest(20))
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    if ctx.seed % 2 == 1 then
      for i = 1, 3 do pcall(map.get, map, -1, i) end
    else
      print(nest(20))
    end
    map:tag("id", tostring({}))
  end,
}
"#;
    let reused = reused_maps_are_fresh(dir.path(), "deep_loader", recipe, 1..=4);
    assert_eq!(reused.reloads(), 0, "no run nests deeper than loading did");
}

/// A recipe that writes to what its loading made in every way a library does, while the
/// collector runs: each map must equal a fresh host's, with no reload.
const WRITER: &str = r#"
local M = require "lib.state"
local n = 0
local big = {}
for i = 1, 200 do big[i] = { i } end
local sub = { hello = "world" }
M.sub = sub
local plain = {}
local mt = { __index = function(_, k) return k .. "!" end }
local Point = setmetatable({ made = 0 }, { __call = function(cls, x)
  cls.made = cls.made + 1
  return setmetatable({ x = x }, cls)
end })
Point.__index = Point
local co_free = coroutine.wrap(function() end)
return {
  params = { width = { default = 24, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    local seen = {}
    local function see(v) seen[#seen + 1] = tostring(v) end
    see(n) see(M.seed) see(M.sub) see(sub.hello) see(#big) see(big[5][1])
    see(getmetatable(plain)) see(plain.x) see(rawget(_G, "newglobal")) see(string.shout)
    see(Point.made) see(package.loaded["lib.late"]) see(Point.extra)
    n = n + 1
    M.seed = ctx.seed
    M.sub = nil
    sub.hello = "changed " .. n
    big[5][1] = n
    for i = 1, 300 do big[#big + 1] = { i } end
    big[3] = nil
    setmetatable(plain, mt)
    string.shout = function(s) return s:upper() end
    newglobal = n
    local p = Point(ctx.seed)
    Point.extra = p
    local late = require "lib.late"
    late.count = (late.count or 0) + 1
    see(late.count)
    -- Garbage enough for several collections while the copies are the only way to what the
    -- run removed.
    local junk = {}
    for i = 1, 10000 do junk[i] = { i, tostring(i) } end
    local order = {}
    for k in pairs(M) do order[#order + 1] = tostring(k) end
    table.sort(order)
    see(table.concat(order, ","))
    see(tostring({}))
    map:fill("rock wall")
    map:tag("seen", table.concat(seen, " "))
  end,
}
"#;

#[test]
fn every_kind_of_write_is_put_back_while_the_collector_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts/lib")).unwrap();
    std::fs::write(
        dir.path().join("scripts/lib/state.lua"),
        "local M = { a = 1, b = 2 } return M",
    )
    .unwrap();
    std::fs::write(dir.path().join("scripts/lib/late.lua"), "return {}").unwrap();
    let h = common::host_for(dir.path(), "writer", WRITER, Limits::default());
    let reused: Vec<String> = (1..=4).map(|s| rows(&h, s)).collect();
    assert_eq!(h.reloads(), 0, "a write was put back by a reload");
    assert_eq!(h.resets().0, 4, "every run put its writes back");
    assert!(reused[0].contains("0 nil table:"), "{}", reused[0]);
    for (i, m) in reused.iter().enumerate() {
        let fresh = common::host_for(dir.path(), "writer", WRITER, Limits::default());
        assert_eq!(m, &rows(&fresh, i as u64 + 1), "seed {}", i + 1);
    }
}

#[test]
fn a_write_that_cannot_be_put_back_reloads_the_state() {
    // A coroutine made while loading and resumed by a run: its stack is not saved.
    let recipe = r#"
local next_id = coroutine.wrap(function() for i = 1, 1000 do coroutine.yield(i) end end)
local seen = {}
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    seen[#seen + 1] = next_id()
    map:tag("ids", table.concat(seen, ","))
  end,
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let h = common::host_for(dir.path(), "resumer", recipe, Limits::default());
    let reused: Vec<String> = (1..=3).map(|s| rows(&h, s)).collect();
    assert_eq!(
        h.reloads(),
        2,
        "every run after the first reloaded the state"
    );
    for m in &reused {
        assert!(m.contains("Text(\"1\")"), "{m}");
    }
}

#[test]
fn refused_writes_to_the_regions_name_their_tables_in_every_run() {
    // The first refused write of a run names every table of `ctx.regions` at once (into a
    // table made while loading, which the reset empties again): each run names them alike,
    // and the state stays clean.
    let dir = tempfile::tempdir().unwrap();
    let recipe = r#"
return {
  params = { width = { default = 8 }, height = { default = 8 } },
  generate = function(map, ctx)
    local said = {}
    local function try(f) said[#said + 1] = select(2, pcall(f)) end
    try(function() ctx.regions.terrain[2].glyph = "?" end)
    try(function() rawset(ctx.regions, "new", 1) end)
    try(function() ctx.regions.terrain[1].x = 1 end)
    try(function() table.insert(ctx.regions.terrain, {}) end)
    map:tag("said", table.concat(said, "; "))
  end,
}
"#;
    let h = common::host_for(dir.path(), "refused", recipe, Limits::default());
    let runs: Vec<String> = (1..=3).map(|s| rows(&h, s)).collect();
    assert_eq!(h.reloads(), 0, "naming the tables made the state dirty");
    for said in [
        "cannot modify read-only table 'ctx.regions.terrain.2' (key glyph)",
        "cannot modify read-only table 'ctx.regions' (key new)",
        "cannot modify read-only table 'ctx.regions.terrain.1' (key x)",
        "cannot modify read-only table 'ctx.regions.terrain'",
    ] {
        assert!(runs[0].contains(said), "{said}: {}", runs[0]);
    }
    let fresh = common::host_for(dir.path(), "refused", recipe, Limits::default());
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run, &rows(&fresh, i as u64 + 1), "run {}", i + 1);
        assert_eq!(run, &runs[0], "run {}: the same names as the first", i + 1);
    }
}
