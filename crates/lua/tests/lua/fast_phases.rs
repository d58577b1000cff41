//! The fast rooms phases (`api::map::phases`): `map:carve_rooms`, `warren.gen.connect_rooms`
//! and `warren.gen.start_and_stairs` on the run's map must do exactly what their declared
//! bindings do. At depth 2 a recipe runs each call on the run's map (fast) and on `ctx.above`
//! (declared), with equal rngs and equal room lists: same answers, same errors, same cells and
//! notes, same budget.
use std::path::Path;
use warren_core::map::Point;
use warren_lua::{Error, Host, Limits};

use crate::common;
use crate::common::level as generate;

/// A host for `recipe` with `limits`.
fn host(dir: &Path, recipe: &str, limits: Limits) -> Host {
    common::host_for(dir, "phases", recipe, limits)
}

/// At depth 2: every case on both maps, in turn, each side with its own stream of the same
/// name and its own list scattered from equal streams; the answers, then each map's cells,
/// rooms, corridors and start tags, are kept as tags to compare.
const PROBE: &str = r##"
local warren = require "warren"
local gen = warren.gen

-- A value as text, tables by sorted keys, so two sides compare as strings.
local function dump(v)
  if type(v) ~= "table" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" .. dump(v[k]) end
  return "{" .. table.concat(out, ",") .. "}"
end

-- What a call answered: its results (or error) and how many.
local function answer(...)
  local r = table.pack(pcall(...))
  local out = {}
  for i = 1, r.n do out[i] = tostring(r[i]) end
  return table.concat(out, ",") .. "/" .. r.n
end

return {
  params = {
    width = { default = 40 }, height = { default = 30 },
    max_size = { default = 8 },
  },
  generate = function(map, ctx)
    local style = ctx.regions.rooms
    map:fill(style.wall)
    local above = ctx.above
    if not above then return end
    above:fill(style.wall)
    local sizes = { attempts = 30, min_size = 3, max_size = ctx.params.max_size }
    local floor, corridor = style.floor, style.corridor
    local cases = {
      { "carve", floor, n = 1 },
      { "carve", floor, nil, n = 2 },
      { "carve", floor, { kind = "vault" }, n = 2 },
      { "carve", floor, {}, n = 2 },
      { "carve", floor, { kind = 5 }, n = 2 },
      { "carve", "nowhere", n = 1 },
      { "carve", floor, { kind = "x", bogus = 1 }, n = 2 },
      -- Keys as long as an option's and the same but at one end (compared a word at a time).
      { "carve", floor, { xind = "x" }, n = 2 },
      { "carve", floor, { kinx = "x" }, n = 2 },
      { "connect", { terrain = corridor, xerrain = corridor }, n = 1 },
      { "connect", { terrain = corridor, terraix = corridor }, n = 1 },
      { "connect", { terrain = corridor, xonnectivity = "4" }, n = 1 },
      { "connect", { terrain = corridor, connectivitx = "4" }, n = 1 },
      { "carve", floor, { "vault", kind = "x" }, n = 2 },
      { "connect", { corridor, terrain = corridor, [2.5] = 1 }, n = 1 },
      { "carve", floor, { priority = 9, kind = "hall" }, n = 2 },
      { "carve", floor, style, n = 2 },
      { "carve", floor, { kind = "a" }, "extra", n = 3 },
      { "carve", 7, n = 1 },
      { "connect", { terrain = corridor }, n = 1 },
      { "connect", { terrain = corridor, strategy = "lines", connectivity = "4" }, n = 1 },
      { "connect", { terrain = corridor, strategy = "lines" }, n = 1 },
      { "connect", { terrain = corridor, strategy = "dogleg" }, n = 1 },
      { "connect", { terrain = corridor, strategy = "bsp", connectivity = "4" }, n = 1 },
      { "connect", { terrain = corridor, strategy = "nope" }, n = 1 },
      { "connect", { strategy = "lines" }, n = 1 },
      { "connect", { terrain = "nowhere" }, n = 1 },
      { "connect", { terrain = corridor, connectivity = 4 }, n = 1 },
      { "connect", { terrain = corridor, region = "hall" }, n = 1 },
      { "connect", nil, n = 1 },
      { "connect", { terrain = corridor }, "extra", n = 2 },
      { "stairs", n = 0 },
      { "stairs", nil, n = 1 },
      { "stairs", { down = 1 }, n = 1 },
      { "stairs", { down = 99 }, n = 1 },
      { "stairs_empty", n = 0 },
      { "plain_list", floor, n = 1 },
      { "sort", "leftmost", n = 1 }, { "sort", "topmost", n = 1 }, { "sort", "largest", n = 1 },
      { "sort", "sideways", n = 1 }, { "sort", 1, n = 1 }, { "sort", n = 0 },
      { "sort", "largest", "extra", n = 2 },
      { "scatter", n = 0 }, { "scatter", nil, n = 1 }, { "scatter", {}, n = 1 },
      { "scatter", { attempts = 12, min_size = 2, max_size = 4 }, n = 1 },
      { "scatter", { attempts = 12.0, max_size = 5.0 }, n = 1 },
      { "scatter", { attempts = 12.5 }, n = 1 }, { "scatter", { attempts = "12" }, n = 1 },
      { "scatter", { attempts = 20001 }, n = 1 }, { "scatter", { min_size = 9, max_size = 3 }, n = 1 },
      { "scatter", { attempts = 0 }, n = 1 }, { "scatter", { rooms = 3 }, n = 1 },
      { "scatter", style, n = 1 }, { "scatter", {}, "extra", n = 2 },
    }
    local answers = { {}, {} }
    for i, case in ipairs(cases) do
      for side, m in ipairs { map, above } do
        local rooms = gen.scatter_rooms(m, ctx.rng:stream("rooms" .. i), sizes)
        local rng = ctx.rng:stream("corridors" .. i)
        local what = case[1]
        local got
        if what == "carve" then
          got = answer(m.carve_rooms, m, rooms, table.unpack(case, 2, case.n + 1))
        elseif what == "connect" then
          m:carve_rooms(rooms, floor)
          got = answer(gen.connect_rooms, m, rng, rooms, table.unpack(case, 2, case.n + 1))
        elseif what == "stairs" then
          got = answer(gen.start_and_stairs, m, rooms, table.unpack(case, 2, case.n + 1))
        elseif what == "sort" then
          got = answer(rooms.sort, rooms, table.unpack(case, 2, case.n + 1))
            .. " " .. #rooms .. " " .. dump(rooms:list())
        elseif what == "scatter" then
          local ok, list = pcall(gen.scatter_rooms, m, rng, table.unpack(case, 2, case.n + 1))
          got = tostring(ok) .. ":" .. (ok and dump(list:list()) or tostring(list)) .. " " .. rng:int(1, 1000000)
        elseif what == "stairs_empty" then
          local none = gen.scatter_rooms(m, rng, { attempts = 0 })
          got = answer(gen.start_and_stairs, m, none)
        else
          got = answer(m.carve_rooms, m, { { x = 2, y = 2, w = 3, h = 3 }, { x = 0, y = 0, w = 2, h = 2 } }, case[2])
        end
        answers[side][i] = got
      end
    end
    for side, m in ipairs { map, above } do
      local cells = {}
      for y = 0, m.height - 1 do
        for x = 0, m.width - 1 do cells[#cells + 1] = m:get(x, y) .. "@" .. m:priority(x, y) end
      end
      local name = side == 1 and "fast" or "declared"
      map:tag(name .. " answers", table.concat(answers[side], "\n"))
      map:tag(name .. " cells", table.concat(cells, " "))
      map:tag(name .. " notes", dump(m:rooms()) .. dump(m:corridors()))
    end
  end,
}
"##;

/// `map:tag` (fast) and the declared `tag` (reached through `ctx.above`) on the run's map, the
/// same keys under two prefixes; what each call answered is a tag too.
const TAGS: &str = r##"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local above = ctx.above
    if not above then return end
    local values = { true, false, 3, -7, 2.5, 1e308 * 10, 0 / 0, 1e300, "text", "", {}, map, nil }
    local answers = { fast = {}, declared = {} }
    for round = 1, 2 do
      for i = 1, #values + 1 do
        local v = values[i]
        for side, tag in pairs { fast = map.tag, declared = above.tag } do
          local r = table.pack(pcall(tag, map, side .. ":" .. i, v))
          answers[side][#answers[side] + 1] = tostring(r[1]) .. ":" .. tostring(r[2]) .. "/" .. r.n
        end
      end
      for side, tag in pairs { fast = map.tag, declared = above.tag } do
        local r = table.pack(pcall(tag, map, 5, "x"))
        answers[side][#answers[side] + 1] = tostring(r[1]) .. ":" .. tostring(r[2]) .. "/" .. r.n
        r = table.pack(pcall(tag, map, side .. ":extra", 1, 2))
        answers[side][#answers[side] + 1] = tostring(r[1]) .. ":" .. tostring(r[2]) .. "/" .. r.n
      end
    end
    above.tag(map, "answers fast", table.concat(answers.fast, "\n"))
    above.tag(map, "answers declared", table.concat(answers.declared, "\n"))
  end,
}
"##;

#[test]
fn a_fast_tag_records_what_the_declared_binding_records() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), TAGS, Limits::default());
    let map = common::below_itself(&h, 1, &[]);
    let tags = &map.notes.tags;
    let side = |prefix: &str| -> Vec<String> {
        tags.iter()
            .filter_map(|(k, v)| k.strip_prefix(prefix).map(|k| format!("{k}={v:?}")))
            .collect()
    };
    assert_eq!(side("fast:"), side("declared:"));
    assert_eq!(side("fast:").len(), 8, "{:?}", side("fast:"));
    let answers = format!("{:?}", tags["answers fast"]);
    assert_eq!(
        answers,
        format!("{:?}", tags["answers declared"]).replace("declared", "fast")
    );
    assert!(
        answers.contains("must be a boolean, a finite number or a string"),
        "{answers}"
    );
}

#[test]
fn fast_phases_do_what_the_declared_bindings_do() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), PROBE, Limits::default());
    for seed in 0..8 {
        let sets = if seed % 2 == 0 {
            [("width", "40"), ("height", "30"), ("max_size", "8")]
        } else {
            [("width", "24"), ("height", "60"), ("max_size", "5")]
        };
        let map = common::below_itself(&h, seed, &sets);
        let tag = |k: &str| format!("{:?}", map.notes.tags[k]);
        for what in ["answers", "cells", "notes"] {
            assert_eq!(
                tag(&format!("fast {what}")),
                tag(&format!("declared {what}")),
                "seed {seed}: the {what} differ"
            );
        }
        let answers = tag("fast answers");
        for seen in [
            "unknown option 'bogus'",
            "unknown option 'xind'",
            "unknown option 'kinx'",
            "unknown option 'xerrain'",
            "unknown option 'terraix'",
            "unknown option 'xonnectivity'",
            "unknown option 'connectivitx'",
            "unknown terrain 'nowhere'",
            "is not one of",
            "needs 'terrain'",
            "is not a room of the list",
            "true,",
        ] {
            assert!(
                answers.contains(seen),
                "seed {seed}: no {seen:?} in {answers}"
            );
        }
        assert!(
            tag("fast notes").contains("kind=vault"),
            "seed {seed}: no room carved"
        );
    }
}

/// `n` rounds of one phase on the run's map or (`on = "above"`) on `ctx.above`: a fresh list
/// carved, corridors, start and stairs; the same instructions around each call either way.
const LOOP: &str = r##"
local gen = require("warren").gen
return {
  params = {
    width = { default = 40 }, height = { default = 30 },
    n = { default = 20, min = 0, max = 100000 },
    on = { default = "map", choices = { "map", "above" } },
    only = { default = "all", choices = { "carve", "carve_bare", "connect", "stairs", "sort", "len", "tag", "scatter", "stream", "all" } },
    name = { default = "utf8", choices = { "utf8", "raw" }, doc = "A stream name in UTF-8, or not (the declared path)." },
  },
  generate = function(map, ctx)
    local m = ({ map = map, above = ctx.above })[ctx.params.on]
    local only = ctx.params.only
    local rooms = gen.scatter_rooms(m, ctx.rng:stream("rooms"), { attempts = 40, min_size = 3, max_size = 6 })
    local rng = ctx.rng:stream("corridors")
    for _ = 1, ctx.params.n do
      if only == "carve" or only == "all" then m:carve_rooms(rooms, "floor", { kind = "room" }) end
      if only == "carve_bare" or only == "all" then m:carve_rooms(rooms, "floor") end
      if only == "connect" or only == "all" then
        gen.connect_rooms(m, rng, rooms, { terrain = "floor", strategy = "dogleg" })
      end
      if only == "stairs" or only == "all" then gen.start_and_stairs(m, rooms) end
      if only == "sort" or only == "all" then rooms:sort("largest") end
      if only == "len" or only == "all" then local _ = #rooms end
      if only == "tag" or only == "all" then m:tag("key", "a value") m:tag("n", 5) end
      if only == "scatter" or only == "all" then
        gen.scatter_rooms(m, rng, { attempts = 20, min_size = 3, max_size = 5 })
      end
      if only == "stream" or only == "all" then
        local _ = ctx.rng:stream(ctx.params.name == "raw" and "\255" or "a")
      end
    end
  end,
}
"##;

#[test]
fn a_fast_phase_costs_the_budget_what_the_declared_binding_does() {
    let dir = tempfile::tempdir().unwrap();
    let above = generate(
        &host(dir.path(), LOOP, Limits::default()),
        1,
        &[("n", "0")],
        None,
    )
    .unwrap();
    for only in [
        "carve",
        "carve_bare",
        "connect",
        "stairs",
        "sort",
        "len",
        "tag",
        "scatter",
        "stream",
        "all",
    ] {
        let (fast, declared) =
            common::least_budgets_on_both(dir.path(), LOOP, &[("only", only)], &above);
        assert_eq!(fast, declared, "{only}");
        if only == "stream" {
            // A name that is not UTF-8 takes the declared path on either map.
            let declared = common::least_budget(
                dir.path(),
                LOOP,
                &[("only", only), ("name", "raw")],
                Some(&above),
            );
            assert_eq!(fast, declared, "{only}: fast and declared streams");
        }
        assert!(fast > 20 * 5, "{only}: every call is charged ({fast})");
        // One instruction short, both stop with the same error at the same line.
        let stopped = |on| {
            let limits = Limits {
                instructions: fast - 1,
                ..Limits::default()
            };
            let sets = [("on", on), ("only", only)];
            match generate(&host(dir.path(), LOOP, limits), 1, &sets, Some(&above)) {
                Err(Error::Budget(message)) => message,
                other => panic!("{only} on {on}: {other:?}"),
            }
        };
        let message = stopped("map");
        assert_eq!(message, stopped("above"), "{only}");
        assert!(message.contains("phases.lua:"), "{only}: {message}");
    }
}

/// A list scattered on a larger map above, carved into this one: the fast path checks the
/// rooms before it charges or writes, and passes the call on for the declared error.
const OFF_MAP: &str = r##"
local gen = require("warren").gen
return {
  params = { width = { default = 60 }, height = { default = 60 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    if not ctx.above then return end
    local rooms = gen.scatter_rooms(ctx.above, ctx.rng:stream("rooms"), { attempts = 60, min_size = 4, max_size = 9 })
    local ok, err = pcall(map.carve_rooms, map, rooms, "floor")
    map:tag("result", tostring(ok) .. ":" .. tostring(err))
    map:tag("rooms", #map:rooms())
  end,
}
"##;

#[test]
fn rooms_off_the_map_are_the_declared_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), OFF_MAP, Limits::default());
    let above = generate(&h, 3, &[], None).unwrap();
    let map = generate(&h, 3, &[("width", "16"), ("height", "16")], Some(&above)).unwrap();
    let result = format!("{:?}", map.notes.tags["result"]);
    assert!(result.contains("false:"), "{result}");
    assert!(
        result.contains("map:carve_rooms: (") && result.contains("is outside the 16×16 map"),
        "{result}"
    );
    assert_eq!(format!("{:?}", map.notes.tags["rooms"]), "Int(0)");
    let floor = |x, y| {
        let t = map.terrain_at(Point::new(x, y)).unwrap();
        map.terrains().get(t).name == "floor"
    };
    assert!(
        !(0..map.height()).any(|y| (0..map.width()).any(|x| floor(x, y))),
        "a room was written"
    );
}

#[test]
fn the_fast_phases_are_installed_and_numbered_apart() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "local gen = require('warren').gen\n\
         return { params = { width = { default = 16 }, height = { default = 16 } },\n\
         generate = function(map, ctx)\n\
           local rooms = gen.scatter_rooms(map, ctx.rng, {})\n\
           map:tag('ids', tostring(map.carve_rooms) .. ' ' .. tostring(map.tag) .. ' '\n\
             .. tostring(gen.connect_rooms) .. ' ' .. tostring(gen.start_and_stairs) .. ' '\n\
             .. tostring(rooms.sort) .. ' ' .. tostring(gen.scatter_rooms) .. ' ' .. tostring(ctx.rng.stream))\n\
           map:tag('list', tostring(rooms):match('^[^:]*'))\n\
         end }\n",
        Limits::default(),
    );
    let map = generate(&h, 1, &[], None).unwrap();
    // Map methods from 2^39 (`carve_rooms` the eleventh, `tag` the twelfth), `warren.gen`'s
    // from 2^39 + 32, rng methods from 2^39 + 64 (`stream` the fifth), the lists' from
    // 2^39 + 96.
    assert_eq!(
        format!("{:?}", map.notes.tags["ids"]),
        "Text(\"function: 0x0000800000000a function: 0x0000800000000b \
         function: 0x00008000000020 function: 0x00008000000021 \
         function: 0x00008000000060 function: 0x00008000000022 \
         function: 0x00008000000044\")"
    );
    assert_eq!(
        format!("{:?}", map.notes.tags["list"]),
        "Text(\"LuaRects\")"
    );
}

#[test]
fn fast_phases_leave_the_state_clean() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), LOOP, Limits::default());
    for seed in 0..4 {
        generate(&h, seed, &[("n", "3")], None).unwrap();
    }
    assert_eq!(h.reloads(), 0, "fast phases made the state dirty");
}

/// Streams made by the fast `rng:stream` (a UTF-8 name, on the main thread) and by the declared
/// binding (in a coroutine, where fast calls that make userdata pass the call on) draw alike.
const STREAMS: &str = r##"
return {
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local function draws(s) local out = {} for i = 1, 20 do out[i] = s:int(1, 1000000) end return table.concat(out, " ") end
    local fast = ctx.rng:stream("caves")
    local declared = coroutine.wrap(function() return ctx.rng:stream("caves") end)()
    map:tag("fast", draws(fast))
    map:tag("declared", draws(declared))
    map:tag("names", tostring(fast):match("^[^:]*") .. " " .. tostring(declared):match("^[^:]*"))
    local rooms = coroutine.wrap(function()
      return require("warren").gen.scatter_rooms(map, ctx.rng:stream("r"), { attempts = 10 })
    end)()
    local same = require("warren").gen.scatter_rooms(map, ctx.rng:stream("r"), { attempts = 10 })
    local a, b = {}, {}
    for i = 1, #rooms do a[i] = rooms[i].x .. "," .. rooms[i].y end
    for i = 1, #same do b[i] = same[i].x .. "," .. same[i].y end
    map:tag("lists", table.concat(a, ";") .. " / " .. table.concat(b, ";"))
  end,
}
"##;

#[test]
fn fast_streams_and_lists_are_the_declared_ones() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(dir.path(), STREAMS, Limits::default());
    for seed in [1, 2, 99] {
        let map = generate(&h, seed, &[], None).unwrap();
        let tag = |k: &str| format!("{:?}", map.notes.tags[k]);
        assert_eq!(tag("fast"), tag("declared"), "seed {seed}");
        assert_eq!(tag("names"), "Text(\"LuaRng LuaRng\")");
        let lists = tag("lists");
        let (a, b) = lists.split_once(" / ").unwrap();
        assert_eq!(
            a.trim_start_matches("Text(\""),
            b.trim_end_matches("\")"),
            "seed {seed}"
        );
    }
}
