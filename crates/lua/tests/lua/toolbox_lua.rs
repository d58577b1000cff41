//! `warren.toolbox` through Lua, where the core's own tests cannot reach: over 1,000 seeds each
//! writing call leaves every cell outside its `rect` or `mask` as it was and the same seed makes
//! the same map in a fresh host; the budgets stop a call that does too much with the budget's
//! message at the recipe's line; bad options fail with messages that name them.

use crate::common::*;
use warren_lua::{Host, Limits, Run};

/// A recipe whose `generate` runs `body` on a 24×18 map filled with rock, with `area` (a Lua
/// expression for the options' area keys) in scope.
fn recipe(body: &str) -> String {
    format!(
        r#"local warren = require "warren"
local T = warren.toolbox
return {{
  params = {{
    width = {{ default = 24 }}, height = {{ default = 18 }},
    call = {{ default = "cave" }}, shape = {{ default = "rect" }},
  }},
  generate = function(map, ctx)
{body}
  end,
}}"#
    )
}

/// The body that checks one call's area: snapshot, call inside a random rect or noise mask,
/// then every cell outside must hold what it held.
const AREA_BODY: &str = r#"
    local p, rng = ctx.params, ctx.rng:stream("area")
    map:fill("rock")
    local base = T.noise(map, rng, { kind = "white" })
    base:threshold(map, 0, 0.4, { terrain = "floor" })
    local w, h = rng:int(3, map.width - 2), rng:int(3, map.height - 2)
    local r = warren.rect(rng:int(1, map.width - 1 - w), rng:int(1, map.height - 1 - h), w, h)
    local opts = {}
    local inside
    if p.shape == "rect" then
      opts.rect = r
      inside = function(x, y) return x >= r.x and x < r.x + r.w and y >= r.y and y < r.y + r.h end
    else
      local m = T.noise(map, rng, { frequency = 0.2 }):mask(0.45, 1)
      opts.mask = m
      inside = function(x, y) return m:value(x, y) > 0 end
    end
    local before = {}
    for y = 0, map.height - 1 do for x = 0, map.width - 1 do before[#before + 1] = map:get(x, y) end end
    local s = ctx.rng:stream("call")
    local function with(t) for k, v in pairs(opts) do t[k] = v end return t end
    local c = p.call
    if c == "cave" then T.cave(map, s, with { wall = "rock wall", floor = "worn floor" })
    elseif c == "smooth" then T.smooth(map, with { wall = "rock wall", floor = "worn floor", generations = 2 })
    elseif c == "drunkard" then
      local sx, sy
      for y = 0, map.height - 1 do for x = 0, map.width - 1 do
        if not sx and inside(x, y) then sx, sy = x, y end
      end end
      if not sx then return end
      T.drunkard(map, s, with { terrain = "worn floor", variant = "open_halls", start = { x = sx, y = sy } })
    elseif c == "maze" then T.maze(map, s, with { passage = "worn floor", wall = "rock wall", algorithm = "prim", braid = 40 })
    elseif c == "threshold" then T.noise(map, s):threshold(map, 0.3, 0.7, with { terrain = "worn floor" })
    elseif c == "cull" then
      local from
      for y = 0, map.height - 1 do for x = 0, map.width - 1 do
        if not from and map:get(x, y) == "floor" then from = { x = x, y = y } end
      end end
      if not from then return end
      T.cull(map, { from }, with { terrain = "rock wall" })
    elseif c == "bsp_rooms" then T.bsp_rooms(map, s, with { floor = "worn floor", corridor = "worn floor", min_leaf = 5, min_room = 2 })
    elseif c == "dla" then
      local sx, sy
      for y = 0, map.height - 1 do for x = 0, map.width - 1 do
        if not sx and inside(x, y) then sx, sy = x, y end
      end end
      if not sx then return end
      T.dla(map, s, with { terrain = "worn floor", mode = "walk_outwards", floor_percent = 30, start = { x = sx, y = sy } })
    elseif c == "hive" then
      local ids = T.voronoi(map, s, with { seeds = 6, metric = "manhattan" })
      T.hive(map, ids, with { wall = "rock wall", floor = "worn floor", border = 1, thin = true })
    elseif c == "loops" then T.loops(map, s, with { door = "door", min_distance = 4, connectivity = "4" })
    elseif c == "lakes" then
      T.lakes(map, s, with { terrain = "water", wreath = "worn floor", count = 3, min_size = 3, max_size = 12 })
    elseif c == "bsp_interior" then T.bsp_interior(map, s, with { floor = "worn floor", wall = "rock wall", door = "door", min_room = 2 })
    elseif c == "bsp_halves" then T.bsp_interior(map, s, with { floor = "worn floor", wall = "rock wall", door = "door", min_room = 2, split = "halves" })
    elseif c == "wfc" then T.wfc(map, s, with { sample = "town houses", reflect = true, retries = 100 })
    end
    local i = 0
    for y = 0, map.height - 1 do for x = 0, map.width - 1 do
      i = i + 1
      if not inside(x, y) and map:get(x, y) ~= before[i] then
        error(("%s (%s) changed (%d, %d) outside its area: %s -> %s"):format(c, p.shape, x, y, before[i], map:get(x, y)))
      end
    end end
"#;

fn host_for(dir: &tempfile::TempDir, limits: Limits) -> Host {
    Host::load(&dir.path().join("scripts/t.lua"), registry(), limits).expect("the recipe loads")
}

#[test]
fn every_writing_call_keeps_to_its_area_and_its_seed_over_1000_seeds() {
    let dir = temp_tree(&[("scripts/t.lua", &recipe(AREA_BODY))]);
    let (host, again) = (
        host_for(&dir, Limits::default()),
        host_for(&dir, Limits::default()),
    );
    let calls = [
        "cave",
        "smooth",
        "drunkard",
        "maze",
        "threshold",
        "cull",
        "dla",
        "hive",
        "loops",
        "lakes",
        "wfc",
    ];
    let rectangular = ["bsp_rooms", "bsp_interior", "bsp_halves"];
    for call in calls.iter().chain(&rectangular) {
        for shape in ["rect", "mask"] {
            if shape == "mask" && rectangular.contains(call) {
                continue;
            }
            let p = params(&host, &[("call", call), ("shape", shape)]);
            for seed in 0..1000 {
                let map = generate(&host, seed, &p);
                if seed % 100 == 0 {
                    // A second host, never used for this seed before, makes the same map.
                    let other = generate(&again, seed, &p);
                    let text = |m| {
                        warren_core::render::text::ascii(&warren_core::render::View::terrain(m))
                    };
                    assert_eq!(text(&map), text(&other), "{call} {shape} seed {seed}");
                }
            }
        }
    }
}

/// What several viewers see together is what each sees, combined: over 1,000 seeds of noise
/// caves, `fov_union` equals the `max` of each viewer's `fov`.
#[test]
fn fov_union_is_every_viewer_s_view_combined_over_1000_seeds() {
    let body = r#"
    local rng = ctx.rng:stream("viewers")
    map:fill("rock")
    T.noise(map, rng, { kind = "white" }):threshold(map, 0, 0.6, { terrain = "floor" })
    local viewers, want = {}, T.field(map)
    for i = 1, rng:int(1, 4) do
      local v = { x = rng:int(0, map.width - 1), y = rng:int(0, map.height - 1) }
      viewers[i] = v
      want:combine(T.fov(map, v.x, v.y, 7), "max")
    end
    local got = T.fov_union(map, viewers, 7)
    local seen = 0
    for y = 0, map.height - 1 do for x = 0, map.width - 1 do
      if got:value(x, y) ~= want:value(x, y) then error(("(%d, %d) differs"):format(x, y)) end
      if got:value(x, y) > 0 then seen = seen + 1 end
    end end
    map:tag("seen", seen)
"#;
    let dir = temp_tree(&[("scripts/t.lua", &recipe(body))]);
    let host = host_for(&dir, Limits::default());
    let p = params(&host, &[]);
    for seed in 0..1000 {
        let map = generate(&host, seed, &p);
        match map.notes.tags.get("seen") {
            Some(warren_core::map::TagValue::Int(n)) => assert!(*n >= 1, "seed {seed}"),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

/// The error `body` raises under `limits`.
fn failure(body: &str, limits: Limits) -> String {
    let dir = temp_tree(&[("scripts/t.lua", &recipe(body))]);
    run_err(&host_for(&dir, limits))
}

/// The error of one generation with seed 1.
fn run_err(host: &Host) -> String {
    let p = host.resolve_params(&[]).unwrap();
    match host.generate(&Run {
        seed: 1,
        params: &p,
        depth: 1,
        above: None,
    }) {
        Ok(_) => panic!("the recipe did not fail"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_call_that_does_too_much_stops_at_the_budget_with_the_recipe_line() {
    let limits = Limits {
        instructions: 2_000_000,
        ..Limits::default()
    };
    // The loop alone runs about 200,000 instructions; each distance map's Rust work on the
    // 24×18 map is charged a few hundred more, which exceed the limit.
    let e = failure(
        "    for _ = 1, 20000 do T.distance(map, { { x = 1, y = 1 } }) end",
        limits,
    );
    assert!(e.contains("t.lua:9:"), "{e}");
    assert!(e.contains("instruction"), "{e}");
}

/// `max_room` reaches the core: with it every BSP room keeps to it, without it some room is
/// larger (the largest sides are reported through the error, the run's one way out).
#[test]
fn bsp_rooms_keep_to_max_room() {
    let e = failure(
        "    local opts = { floor = 'floor', corridor = 'floor', min_leaf = 8, min_room = 2 }\n\
         local function largest(rooms)\n\
           local n = 0\n\
           for i = 1, #rooms do n = math.max(n, rooms[i].w, rooms[i].h) end\n\
           return n\n\
         end\n\
         local free = largest(T.bsp_rooms(map, ctx.rng, opts))\n\
         opts.max_room = 3\n\
         map:fill('rock')\n\
         error(('largest %d %d'):format(free, largest(T.bsp_rooms(map, ctx.rng, opts))))",
        Limits::default(),
    );
    let sides: Vec<i64> = e
        .split("largest ")
        .nth(1)
        .unwrap_or_else(|| panic!("{e}"))
        .split_whitespace()
        .take(2)
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(sides[0] > 3, "{e}");
    assert!((2..=3).contains(&sides[1]), "{e}");
}

#[test]
fn fields_are_charged_to_the_memory_budget() {
    let limits = Limits {
        memory: 8 << 20,
        ..Limits::default()
    };
    // Fields kept alive (each 24×18 field holds 1,728 bytes outside the Lua state), in a
    // table made large enough first, so that only the fields grow.
    let e = failure(
        "    local keep = {}\n    for i = 1, 8192 do keep[i] = false end\n    for i = 1, 1000000 do keep[i] = T.field(map) end",
        limits,
    );
    assert!(e.contains("t.lua:11:"), "{e}");
    assert!(e.to_lowercase().contains("memory"), "{e}");
    // The limit is crossed by a field's own bytes or by the Lua object that holds it,
    // whichever comes first for the exact sizes of the build; either way the fields hold the
    // memory, not the Lua heap (under 1 MiB of the 8).
    let by_field = e.contains("warren.toolbox.field needs");
    let beside_fields = e.contains("the Lua heap holds") && e.contains(" KiB beside ");
    assert!(by_field || beside_fields, "{e}");
}

#[test]
fn bad_options_name_themselves() {
    let cases = [
        (
            "    T.distance(map, { { x = 1, y = 1 } }, { costs = { lava = 3 } })",
            "unknown terrain 'lava'",
        ),
        (
            "    T.distance(map, { { x = 1, y = 1 } }, { costs = { rock = 0 } })",
            "opts.costs['rock'] must be a whole number 1..=1000, \"blocked\" or \"default\", got 0",
        ),
        (
            "    T.noise(map, ctx.rng, { rect = warren.rect(1, 1, 2, 2), mask = T.field(map) })",
            "`rect` or `mask`, not both",
        ),
        (
            "    T.cave(map, ctx.rng, { wall = 'rock', floor = 'floor', rule = 'B9' })",
            "cellular rule \"B9\" is not in birth/survival notation",
        ),
        (
            "    T.bsp_interior(map, ctx.rng, { floor = 'floor', wall = 'rock', mask = T.field(map, 1) })",
            "needs a rectangular area",
        ),
        (
            "    T.bsp_interior(map, ctx.rng, { floor = 'floor', wall = 'rock', split = 'thirds' })",
            "opts.split",
        ),
        (
            "    T.bsp_rooms(map, ctx.rng, { floor = 'floor', corridor = 'floor', min_room = 4, max_room = 3 })",
            "opts.max_room = 3 is less than opts.min_room = 4",
        ),
        (
            "    T.maze(map, ctx.rng, { passage = 'floor', rect = warren.rect(20, 10, 10, 10) })",
            "(29, 19) is outside the 24×18 map",
        ),
        (
            "    T.field(map):value(24, 0)",
            "cell (24, 0) is off the field (0..24 × 0..18)",
        ),
        (
            "    T.field(map):clamp(1, 0)",
            "lo = 1 exceeds hi = 0",
        ),
        (
            "    T.dla(map, ctx.rng, { terrain = 'floor', mode = 'sideways' })",
            "opts.mode",
        ),
        (
            "    T.dla(map, ctx.rng, { terrain = 'floor', rect = warren.rect(2, 2, 3, 3), start = { x = 0, y = 0 } })",
            "the aggregation's start (0, 0) is not in the area",
        ),
        (
            "    T.voronoi(map, ctx.rng, { seeds = 0 })",
            "opts.seeds",
        ),
        (
            "    T.hive(map, T.field(map), { wall = 'rock', floor = 'floor', border = 5 })",
            "opts.border",
        ),
        (
            "    T.hive(map, map, { wall = 'rock', floor = 'floor' })",
            "argument 2",
        ),
        (
            "    T.loops(map, ctx.rng, { door = 'door', min_distance = 1 })",
            "opts.min_distance",
        ),
        (
            "    T.loops(map, ctx.rng, { door = 'dor' })",
            "unknown terrain 'dor'",
        ),
        (
            "    T.lakes(map, ctx.rng, { terrain = 'water', min_size = 20, max_size = 10 })",
            "opts.max_size = 10 is less than opts.min_size = 20",
        ),
        (
            "    T.lakes(map, ctx.rng, { terrain = 'water', wreath = 'rock' })",
            "wreath terrain = rock is out of range: a passable terrain",
        ),
        (
            "    T.fov_union(map, { { x = 1, y = 1 }, { x = 30, y = 1 } }, 5)",
            "(30, 1)",
        ),
        (
            "    T.wfc(map, ctx.rng, { sample = 'town house' })",
            "warren.toolbox.wfc: unknown sample 'town house'; did you mean 'town houses'?",
        ),
        (
            "    T.wfc(map, ctx.rng, { sample = 'town houses', n = 4 })",
            "opts.n",
        ),
        (
            "    T.wfc(map, ctx.rng, { sample = 'town houses', rect = warren.rect(1, 1, 2, 9) })",
            "the area is 2×9; wave function collapse with n = 3 needs at least 3×3",
        ),
    ];
    for (body, wanted) in cases {
        let e = failure(body, Limits::default());
        assert!(e.contains("t.lua:9:"), "{body}: {e}");
        assert!(e.contains(wanted), "{body}: expected '{wanted}' in: {e}");
    }
}

/// A sample that can never be tiled fails after its retries with a message naming it, at the
/// recipe's line, and leaves the map as it was; the instruction budget stops a collapse too big
/// for it, and the memory budget one whose wave does not fit.
#[test]
fn wfc_contradictions_and_budgets_fail_with_the_sample_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("regions")).unwrap();
    std::fs::write(
        dir.path().join("regions/zz_bad_sample.toml"),
        "[[sample]]\nname = \"stripes\"\ngrid = \"\"\"\n#.\n#.\n\"\"\"\n[sample.legend]\n\"#\" = \"rock\"\n\".\" = \"floor\"\n",
    )
    .unwrap();
    let body = recipe(
        "    map:fill('rock wall')\n    local ok, e = pcall(T.wfc, map, ctx.rng, { sample = 'stripes', n = 2, retries = 7 })\n    assert(map:get(3, 3) == 'rock wall')\n    error(e, 0)",
    );
    let host = host_for_dir(dir.path(), &body, Limits::default());
    let e = run_err(&host);
    assert!(
        e.contains("t.lua:10:")
            && e.contains("sample 'stripes' met a contradiction on each of its 8 attempts"),
        "{e}"
    );
    let big = recipe("    T.wfc(map, ctx.rng, { sample = 'town houses' })");
    let tight = Limits {
        instructions: 1_000_000,
        ..Limits::default()
    };
    let big = big
        .replace("default = 24", "default = 400")
        .replace("default = 18", "default = 300");
    let host = host_for_dir(dir.path(), &big, tight);
    let e = run_err(&host);
    assert!(e.contains("t.lua:9:") && e.contains("instruction"), "{e}");
    let small = Limits {
        memory: 16 << 20,
        ..Limits::default()
    };
    let host = host_for_dir(dir.path(), &big, small);
    let e = run_err(&host);
    assert!(e.contains("warren.toolbox.wfc needs"), "{e}");
}

/// A host for the recipe `text` with the shipped regions and whatever `dir/regions` holds.
fn host_for_dir(dir: &std::path::Path, text: &str, limits: Limits) -> Host {
    crate::common::host_for(dir, "t", text, limits)
}
