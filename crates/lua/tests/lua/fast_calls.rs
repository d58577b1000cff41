//! The fast calls (`api::fast`): `map:get`, `map:set` and the other per-cell methods answer the
//! common case on the run's map without mlua, and must answer exactly as their declared bindings
//! do. `ctx.above` is a map without fast calls, so a recipe at depth 2 that starts both maps
//! alike and calls every method on both, on the same line, compares the two paths: same
//! answers, same errors at the same lines, same writes, same budget.
use std::path::Path;
use warren_lua::{Host, Limits, Run};

use crate::common;
use crate::common::level as generate;

/// A host for `recipe` with `limits`.
fn host(dir: &Path, recipe: &str, limits: Limits) -> Host {
    common::host_for(dir, "fast", recipe, limits)
}

/// At depth 1, a map to start from; at depth 2, the same writes and then every fast method on
/// every cell and a ring of cells off the map, on the run's map (fast) and on `ctx.above`
/// (declared) alike, each pair of answers or errors kept in a tag. `coords` gives the cells as
/// integers or as floats with no fraction (`map.width / 2` is one).
const PROBE: &str = r#"
return {
  params = {
    width = { default = 23 }, height = { default = 17 },
    coords = { default = "int", choices = { "int", "float" } },
  },
  generate = function(map, ctx)
    local f = ctx.params.coords == "float" and 0.0 or 0
    local style = ctx.regions.rooms
    map:fill_rect({ x = 2, y = 2, w = 6, h = 4 }, style.floor, { region = "vault", priority = 200 })
    local above = ctx.above
    if not above then return end
    local function both(name, ...)
      local a = table.pack(pcall(map[name], map, ...)) local b = table.pack(pcall(above[name], above, ...))
      return tostring(a[1]) .. ":" .. tostring(a[2]) .. "/" .. a.n, tostring(b[1]) .. ":" .. tostring(b[2]) .. "/" .. b.n
    end
    local fast, declared = {}, {}
    local rng = ctx.rng:stream("probe")
    local terrains = { style.wall, style.floor, "door", "nowhere" }
    local inherit = setmetatable({}, { __index = { force = true } })
    local options = {
      false, "nil", { force = true }, { force = false }, { priority = 50 }, { priority = 250.0 },
      { priority = "room_floor" }, { priority = 300 }, { priority = -1 }, { priority = "nope" },
      { region = "vault" }, { region = "new" }, { force = "yes" }, { unknown = 1 }, { 1, 2 },
      { force = true, priority = 10, region = "vault" }, inherit, {}, 5,
      { [true] = 1 }, { [string.rep("force", 9)] = true }, { priority = 2^53 }, { region = 5 },
      (function() local t = { 1, force = true } t[1] = nil return t end)(),
    }
    for _ = 1, 600 do
      local x, y = rng:int(-1, map.width) + f, rng:int(-1, map.height) + f
      local t, o = terrains[rng:int(1, 4)], options[rng:int(1, #options)]
      if o == false then
        fast[#fast + 1], declared[#declared + 1] = both("set", x, y, t)
      elseif o == "nil" then
        fast[#fast + 1], declared[#declared + 1] = both("set", x, y, t, nil)
      else
        fast[#fast + 1], declared[#declared + 1] = both("set", x, y, t, o)
      end
    end
    for y = 0, map.height - 1 do
      for x = 0, map.width - 1 do
        if not map:is_solid(x, y) then map:mark_connected(x, y) above:mark_connected(x, y) break end
      end
    end
    for _, name in ipairs { "in_bounds", "is_edge", "get", "priority", "region", "is_solid", "is_connected" } do
      for y = -1, map.height do
        for x = -1, map.width do
          fast[#fast + 1], declared[#declared + 1] = both(name, x + f, y + f)
        end
      end
    end
    -- Snapshots (off here) and whole-map fills, last: a fill changes every cell.
    for _, args in ipairs { { "snapshot", "phase" }, { "snapshot", 5 }, { "snapshot" }, { "snapshot", "a", "b" },
                            { "fill", "nowhere" }, { "fill", 7 }, { "fill", style.floor, { priority = 9 } },
                            { "fill", style.floor, nil }, { "fill" }, { "fill", style.wall } } do
      fast[#fast + 1], declared[#declared + 1] = both(table.unpack(args))
    end
    for y = 0, map.height - 1 do
      for x = 0, map.width - 1 do
        fast[#fast + 1], declared[#declared + 1] = both("priority", x, y)
        fast[#fast + 1], declared[#declared + 1] = both("get", x, y)
      end
    end
    map:tag("fast", table.concat(fast, "\n"))
    map:tag("declared", table.concat(declared, "\n"))
  end,
}
"#;

#[test]
fn fast_calls_answer_as_the_declared_bindings_do() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), PROBE, Limits::default());
    for seed in 0..12 {
        let (w, hgt) = if seed % 2 == 0 {
            ("23", "17")
        } else {
            ("16", "40")
        };
        let coords = if seed % 3 == 0 { "float" } else { "int" };
        let sets = [("width", w), ("height", hgt), ("coords", coords)];
        let map = common::below_itself(&h, seed, &sets);
        let (fast, declared) = (&map.notes.tags["fast"], &map.notes.tags["declared"]);
        assert_eq!(fast, declared, "seed {seed}: the answers differ");
        let fast = format!("{fast:?}");
        for seen in [
            format!("map:get: (-1, -1) is outside the {w}×{hgt} map"),
            "map:set: unknown terrain 'nowhere'".into(),
            "true:vault".into(),
            "true:200".into(),
            "true:floor".into(),
            "true:nil".into(),
            "true:true".into(),
            "true:false".into(),
            "true:nil/1".into(),
            "map:fill: unknown terrain 'nowhere'".into(),
            format!(
                "true:{}/2",
                (w.parse::<u32>().unwrap() - 2) * (hgt.parse::<u32>().unwrap() - 2)
            ),
        ] {
            assert!(
                fast.contains(&seen),
                "seed {seed}: no {seen:?} in the answers"
            );
        }
    }
}

/// `n` rounds of one fast method (`only`) or of all of them, on the run's map or (`on =
/// "above"`, at depth 2) on `ctx.above`, whose methods are the declared bindings; one cell has a
/// region, whose name is a string answer.
const LOOP: &str = r#"
return {
  params = {
    width = { default = 16 }, height = { default = 16 },
    n = { default = 100, min = 0, max = 1000000 },
    on = { default = "map", choices = { "map", "above" } },
    only = { default = "all", doc = "A method name, or all." },
  },
  generate = function(map, ctx)
    -- The same instructions pick either map, so the two budgets differ only by the calls.
    local m = ({ map = map, above = ctx.above })[ctx.params.on]
    for _, each in ipairs { map, ctx.above } do
      each:fill_rect({ x = 2, y = 2, w = 1, h = 1 }, "floor", { region = "vault" })
    end
    local only = ctx.params.only
    local force, styled = { force = true }, { priority = "room_floor", region = "vault" }
    for _ = 1, ctx.params.n do
      if only == "set" then m:set(3, 4, "floor")
      elseif only == "set_force" then m:set(0, 4, "floor", force)
      elseif only == "set_styled" then m:set(3, 4, "floor", styled)
      elseif only == "region" then m:region(2, 2)
      elseif only == "fill" then m:fill("floor")
      elseif only == "snapshot" then m:snapshot("step")
      elseif only == "all" then
        m:set(3, 4, "floor")
        m:get(3, 4) m:priority(3, 4) m:region(3, 4) m:in_bounds(3, 4)
        m:is_edge(3, 4) m:is_solid(3, 4) m:is_connected(3, 4) m:region(2, 2)
      else m[only](m, 3, 4) end
    end
  end,
}
"#;

#[test]
fn a_fast_call_costs_the_budget_what_the_declared_binding_does() {
    let dir = tempfile::tempdir().unwrap();
    let methods = [
        "set",
        "set_force",
        "set_styled",
        "get",
        "priority",
        "region",
        "in_bounds",
        "is_edge",
        "is_solid",
        "is_connected",
        "fill",
        "snapshot",
    ];
    let above = generate(
        &host(dir.path(), LOOP, Limits::default()),
        1,
        &[("n", "0")],
        None,
    );
    let above = above.unwrap();
    for only in methods.into_iter().chain(["all"]) {
        let (fast, declared) =
            common::least_budgets_on_both(dir.path(), LOOP, &[("only", only)], &above);
        assert_eq!(fast, declared, "{only}");
        assert!(fast > 100 * 5, "{only}: every call is charged ({fast})");
    }
}

#[test]
fn fast_calls_leave_the_state_clean() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), LOOP, Limits::default());
    for seed in 0..5 {
        generate(&h, seed, &[("n", "1000")], None).unwrap();
    }
    assert_eq!(h.reloads(), 0, "fast calls made the state dirty");
}

/// A recipe whose options table is made at load: `map:set` reads it on the map's edge (where
/// only `force` writes), a floor and a wall twice each (so that the brushes found are
/// remembered, and found again) and six cells inside as statements, then after the run set
/// `force`, in a state made dirty first or not, the edge again.
const KEPT_OPTIONS: &str = r#"
local OPTS = { force = false }
local co = coroutine.create(function() coroutine.yield() end)
return {
  params = { width = { default = 8 }, height = { default = 8 }, dirty = { default = "no", choices = { "no", "yes" } } },
  generate = function(map, ctx)
    local writes = {}
    local function four(first)
      for y = first, first + 3 do
        writes[#writes + 1] = tostring(map:set(0, y, y % 2 == 0 and "floor" or "rock wall", OPTS))
      end
    end
    four(0)
    -- Inside the map, as statements (no result kept): written, each with its own brush.
    for y = 1, 6 do map:set(3, y, y % 2 == 0 and "floor" or "rock wall", OPTS) end
    local inside = {}
    for y = 1, 6 do inside[y] = map:get(3, y) end
    map:tag("inside", table.concat(inside, ","))
    if ctx.params.dirty == "yes" then coroutine.resume(co) end
    OPTS.force = true
    four(4)
    map:tag("writes", table.concat(writes, " "))
  end,
}
"#;

/// The patched Lua keeps what it read of a pristine options table (`lua_warren_fields`), and
/// must never answer from it once the table has changed: after a write in the run, after a
/// write in a dirty state (where the pristine bit stays), or in the next run after the reset.
#[test]
fn a_kept_options_reading_never_outlives_a_change_of_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), KEPT_OPTIONS, Limits::default());
    for dirty in ["no", "yes", "no", "no"] {
        let map = generate(&h, 1, &[("dirty", dirty)], None).unwrap();
        assert_eq!(
            format!("{:?}", map.notes.tags["writes"]),
            "Text(\"false false false false true true true true\")",
            "dirty: {dirty}"
        );
        assert_eq!(
            format!("{:?}", map.notes.tags["inside"]),
            "Text(\"rock wall,floor,rock wall,floor,rock wall,floor\")",
            "dirty: {dirty}"
        );
    }
    assert_eq!(h.reloads(), 1, "only the dirty run loads the recipe again");
}

/// A recipe handing every cell of its map over with `map:set`, the edge with an options table
/// made when it loads, the rest with none: after the first few cells, every brush is one
/// `map:set` remembers.
const EVERY_CELL: &str = r#"
local FORCE = { force = true }
return {
  params = { width = { default = 8 }, height = { default = 8 } },
  generate = function(map, ctx)
    for y = 0, map.height - 1 do
      for x = 0, map.width - 1 do
        local name = (x + y) % 3 == 0 and "floor" or "rock wall"
        if map:is_edge(x, y) then map:set(x, y, name, FORCE) else map:set(x, y, name) end
      end
    end
  end,
}
"#;

/// Each cell's terrain, by name.
fn cell_names(map: &warren_core::map::Map) -> Vec<String> {
    let mut names = Vec::new();
    for y in 0..map.height() {
        for x in 0..map.width() {
            let id = map.terrain_at(warren_core::map::Point::new(x, y)).unwrap();
            names.push(map.terrains().get(id).name.clone());
        }
    }
    names
}

/// The brushes `map:set` remembers are found again only for the same state and the same terrain
/// table: two hosts taking turns on one thread, then one given region files whose terrains are
/// numbered differently, write what a fresh host writes.
#[test]
fn a_remembered_brush_serves_only_its_own_state_and_terrains() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (
        host(dir.path(), EVERY_CELL, Limits::default()),
        host(dir.path(), EVERY_CELL, Limits::default()),
    );
    let expected: Vec<String> = (0..64)
        .map(|i| {
            if (i % 8 + i / 8) % 3 == 0 {
                "floor"
            } else {
                "rock wall"
            }
            .to_string()
        })
        .collect();
    for seed in 0..4 {
        for h in [&one, &two] {
            assert_eq!(cell_names(&generate(h, seed, &[], None).unwrap()), expected);
        }
    }
    // A terrain before the two the recipe writes: both are numbered one higher.
    let terrain = dir.path().join("regions/terrain.toml");
    let text = std::fs::read_to_string(&terrain).unwrap();
    let moss =
        "[[terrain]]\nname = \"moss\"\nglyph = \",\"\ncolor = \"#3a6b35\"\nsolid = false\n\n";
    std::fs::write(
        &terrain,
        text.replacen("[[terrain]]", &format!("{moss}[[terrain]]"), 1),
    )
    .unwrap();
    let script = dir.path().join("scripts/fast.lua");
    let registry = std::sync::Arc::new(warren_lua::run::load_registry(None, &script).unwrap());
    let mut one = one;
    let before = generate(&one, 0, &[], None).unwrap();
    one.set_registry(registry).unwrap();
    let after = generate(&one, 0, &[], None).unwrap();
    assert_eq!(cell_names(&after), expected);
    let floor = |m: &warren_core::map::Map| m.terrains().id("floor").unwrap();
    assert_eq!(
        floor(&after),
        floor(&before) + 1,
        "the region files renumbered floor"
    );
}

#[test]
fn the_fast_methods_are_installed_and_other_maps_use_the_declared_ones() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "return { params = { width = { default = 16 }, height = { default = 16 } },\n\
         generate = function(map, ctx)\n\
           if not ctx.above then map:set(3, 4, 'floor') return end\n\
           map:tag('distinct', tostring(map.get ~= ctx.above.get))\n\
           map:tag('above', ctx.above:get(3, 4) .. ' ' .. map.get(ctx.above, 3, 4))\n\
           map:tag('own', map:get(3, 4))\n\
           map:tag('ids', tostring(map.get) .. ' ' .. tostring(ctx.rng.int) .. ' ' .. tostring(math.random))\n\
           map:tag('names', tostring(map):match('^[^:]*') .. ' ' .. tostring(ctx.rng:stream('s')):match('^[^:]*'))\n\
         end }\n",
        Limits::default(),
    );
    let params = h.resolve_params(&[]).unwrap();
    let level = |depth, above| {
        h.generate(&Run {
            seed: 1,
            params: &params,
            depth,
            above,
        })
        .unwrap()
    };
    let above = level(1, None);
    let map = level(2, Some(&above));
    let tag = |k: &str| format!("{:?}", map.notes.tags[k]);
    assert_eq!(
        tag("distinct"),
        "Text(\"true\")",
        "no fast methods installed"
    );
    assert_eq!(tag("above"), "Text(\"floor floor\")");
    assert_ne!(tag("own"), "Text(\"floor\")");
    // The fast closures are numbered from 2^39 (map methods, then rng methods from 2^39 + 64,
    // then `math.random` at 2^39 + 128): `map.get` is the third map method, `rng.int` the first
    // rng method.
    assert_eq!(
        tag("ids"),
        "Text(\"function: 0x00008000000002 function: 0x00008000000040 function: 0x00008000000080\")",
        "the fast closures are not installed, or not numbered apart"
    );
    assert_eq!(
        tag("names"),
        "Text(\"LuaMap LuaRng\")",
        "what tostring shows"
    );
}

/// Draws of every fast rng method from a stream and from `ctx.rng`, and of `math.random` (which
/// draws from `ctx.rng`), floats as their 53 bits.
const DRAWS: &str = r#"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local s = ctx.rng:stream("draws")
    local out = {}
    for i = 1, 400 do
      local k = i % 4
      if k == 0 then out[#out + 1] = s:int(-3, 1000 + i)
      elseif k == 1 then out[#out + 1] = s:below(i)
      elseif k == 2 then out[#out + 1] = tostring(s:chance(i % 103 - 1))
      else out[#out + 1] = string.format("%d", math.tointeger(s:float() * 2 ^ 53)) end
    end
    out[#out + 1] = s:int(1.0, 6.0)
    out[#out + 1] = s.int(s, 5, 5)
    out[#out + 1] = ctx.rng:int(1, 1000)
    for i = 1, 100 do
      local k = i % 4
      if k == 0 then out[#out + 1] = math.random(-5, i)
      elseif k == 1 then out[#out + 1] = math.random(i)
      elseif k == 2 then out[#out + 1] = math.random(0)
      else out[#out + 1] = string.format("%d", math.tointeger(math.random() * 2 ^ 53)) end
    end
    map:tag("draws", table.concat(out, " "))
  end,
}
"#;

#[test]
fn fast_rng_calls_and_math_random_draw_what_the_generator_draws() {
    use warren_core::rng::Rng;
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), DRAWS, Limits::default());
    for seed in [0, 1, 77, 1 << 40] {
        let map = generate(&h, seed, &[], None).unwrap();
        let mut s = Rng::new(seed).stream("draws");
        let mut want = Vec::new();
        for i in 1..=400i64 {
            want.push(match i % 4 {
                0 => s.range(-3, 1000 + i).to_string(),
                1 => s.below(i as u64).to_string(),
                2 => s.percent(i % 103 - 1).to_string(),
                _ => ((s.float() * 2f64.powi(53)) as i64).to_string(),
            });
        }
        want.push(s.range(1, 6).to_string());
        want.push(s.range(5, 5).to_string());
        let mut r = Rng::new(seed);
        want.push(r.range(1, 1000).to_string());
        for i in 1..=100i64 {
            want.push(match i % 4 {
                0 => r.range(-5, i).to_string(),
                1 => r.range(1, i).to_string(),
                2 => (r.next_u64() as i64).to_string(),
                _ => ((r.float() * 2f64.powi(53)) as i64).to_string(),
            });
        }
        assert_eq!(
            format!("{:?}", map.notes.tags["draws"]),
            format!("Text({:?})", want.join(" ")),
            "seed {seed}"
        );
    }
    assert_eq!(h.reloads(), 0, "fast rng calls made the state dirty");
}

/// `n` calls of `t.int(rng, 1, 6)` where `t.int` is `rng.int`, or a Lua function that calls
/// `math.random(1, 6)`, or one that calls a Lua function that does nothing: the same
/// instructions around each call.
const RNG_LOOP: &str = r#"
return {
  params = {
    width = { default = 16 }, height = { default = 16 },
    n = { default = 200, min = 0, max = 1000000 },
    call = { default = "rng", choices = { "rng", "random", "lua" } },
  },
  generate = function(map, ctx)
    local rng = ctx.rng:stream("loop")
    local function noop() end
    local t = ({ rng = rng, random = { int = function(_, ...) return math.random(...) end },
                 lua = { int = function(_, ...) return noop(...) end } })[ctx.params.call]
    for _ = 1, ctx.params.n do t.int(rng, 1, 6) end
  end,
}
"#;

#[test]
fn a_fast_rng_call_or_math_random_costs_the_budget_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let least = |call| common::least_budget(dir.path(), RNG_LOOP, &[("call", call)], None);
    // `lua` is a Lua call where `rng` is a C call; `random` and `lua` both make two calls.
    let lua = least("lua");
    assert_eq!(least("rng") + 5 * 200, lua, "rng:int");
    assert_eq!(least("random"), lua, "math.random");
}

/// A recipe that snapshots its map three times and tags how many values a snapshot returns.
const SNAPSHOTS: &str = r##"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    map:snapshot("solid")
    map:fill("floor")
    map:tag("results", select("#", map:snapshot("open")))
    map:set(3, 3, "rock wall")
    map:snapshot("walled")
  end,
}
"##;

#[test]
fn a_snapshot_is_kept_only_while_snapshots_are_on() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), SNAPSHOTS, Limits::default());
    let map = generate(&h, 1, &[], None).unwrap();
    assert!(h.take_snapshots().is_empty(), "kept while off");
    assert_eq!(format!("{:?}", map.notes.tags["results"]), "Int(0)");
    for on in [true, false, true] {
        h.record_snapshots(on);
        generate(&h, 1, &[], None).unwrap();
        let labels: Vec<String> = h.take_snapshots().into_iter().map(|s| s.label).collect();
        let expected: &[&str] = if on {
            &["solid", "open", "walled"]
        } else {
            &[]
        };
        assert_eq!(labels, expected, "snapshots on: {on}");
    }
}
