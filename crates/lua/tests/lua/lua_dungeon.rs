//! The `warren.tunnel`, `warren.dungeon` and map connectivity bindings as recipes use them:
//! results, region entries given as views of `ctx.regions` or made by hand, the old spellings
//! gone, and errors that name the bad value, the valid range and the recipe's line.

use crate::common::*;
use std::sync::Arc;
use warren_core::map::Map;
use warren_core::region::Registry;
use warren_lua::{Host, Limits, Run};

/// Runs a recipe whose `generate` body is `body`, on a 64×48 map, with the shipped regions.
fn run(body: &str, seed: u64) -> Result<Map, String> {
    let recipe = format!(
        "local warren = require \"warren\"\nreturn {{ name = \"t\", params = {{ width = {{ default = 64 }}, height = {{ default = 48 }} }},\ngenerate = function(map, ctx)\n{body}\nend }}\n"
    );
    let dir = temp_tree(&[("scripts/t.lua", &recipe)]);
    copy_regions(dir.path());
    let registry = Arc::new(Registry::load_dir(&dir.path().join("regions")).unwrap());
    let host = Host::load(
        &dir.path().join("scripts/t.lua"),
        registry,
        Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    let params = host.resolve_params(&[]).unwrap();
    host.generate(&Run {
        seed,
        params: &params,
        depth: 1,
        above: None,
    })
    .map_err(|e| e.to_string())
}

/// Two rooms far apart on rock, and a tunnel context.
const TWO_ROOMS: &str = r#"
  map:fill_rect({ x = 4, y = 4, w = 6, h = 5 }, "floor", { priority = "room_floor" })
  map:fill_rect({ x = 50, y = 36, w = 6, h = 5 }, "floor", { priority = "room_floor" })
  local tunnels = warren.tunnel.new(map, ctx.regions, { panel_width = 16, panel_height = 16 })
"#;

#[test]
fn dig_reports_where_and_why_it_stopped() {
    let body = format!(
        r#"{TWO_ROOMS}
  local t = tunnels:dig(map, ctx.rng, {{ from = {{ x = 9, y = 6 }}, to = {{ x = 52, y = 38 }}, flags = {{ "exact", "notouch" }} }})
  assert(t.x == 52 and t.y == 38, "ended at " .. t.x .. "," .. t.y)
  assert(t.stop == "exact", t.stop)
  assert(type(t.style) == "string" and #t.carved > 20 and t.steps > 20)
  for _, c in ipairs(t.carved) do assert(not map:is_solid(c.x, c.y)) end
  local areas = map:components()
  assert(#areas == 1 and areas[1].size > 60, "areas " .. #areas)
  assert(map:mark_connected(4, 4) == areas[1].size)
  assert(map:is_connected(52, 38) and not map:is_connected(1, 1))
"#
    );
    run(&body, 3).unwrap();
}

#[test]
fn fixup_joins_every_area_and_reports_each_tunnel() {
    let body = format!(
        r#"{TWO_ROOMS}
  map:fill_rect({{ x = 30, y = 5, w = 3, h = 3 }}, "floor", {{ priority = "room_floor" }})
  assert(#map:components() == 3)
  local report = tunnels:fixup(map, ctx.rng, {{ trials = 26 }})
  assert(report.areas_before == 3, report.areas_before)
  assert(#report.tunnels >= 2 and report.trials >= 1)
  for _, t in ipairs(report.tunnels) do
    assert(t.how == "tunnel" or t.how == "path" or t.how == "already joined", t.how)
    assert(t.why:find("was cut off"), t.why)
    assert(t.area.size > 0 and t.distance > 0)
  end
  assert(#map:components() == 1)
"#
    );
    for seed in 0..20 {
        run(&body, seed).unwrap();
    }
}

#[test]
fn a_fixup_out_of_trials_names_the_seed() {
    let body = format!("{TWO_ROOMS}\n  tunnels:fixup(map, ctx.rng, {{ trials = 0 }})");
    let e = run(&body, 77).unwrap_err();
    assert!(
        e.contains("t.lua:9: tunnels:fixup: seed 77: fix-up tunnelling gave up after 0 trial(s)"),
        "{e}"
    );
}

#[test]
fn a_sealed_area_is_reported_with_the_seed() {
    // A vault-priority ring no corridor may cross, around open floor.
    let body = r#"
  local level = warren.dungeon.init_level(map, { width = 64, height = 64, panel_width = 32, panel_height = 32 })
  map:fill_rect({ x = 40, y = 40, w = 5, h = 5 }, "floor", { priority = "room_floor" })
  map:outline_rect({ x = 10, y = 10, w = 5, h = 3 }, "vault wall", { priority = "vault" })
  map:set(11, 11, "vault floor", { priority = "vault" })
  local tunnels = warren.tunnel.new(map)
  tunnels:fixup(map, ctx.rng)
"#;
    let e = run(body, 5).unwrap_err();
    assert!(e.contains("seed 5") && e.contains("is sealed"), "{e}");
}

#[test]
fn bad_arguments_name_the_value_and_what_is_valid() {
    let cases: &[(&str, &str)] = &[
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 52, y = 38 }, flags = { "diagonal" } })"#,
            "tunnels:dig: opts.flags[1] = \"diagonal\" is not a tunnel flag (valid: 'connect', 'direct', 'length', 'notouch', 'exact', 'wander', 'natural')",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 52, y = 38 }, flags = { "wandr" } })"#,
            "(did you mean 'wander'?)",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 52, y = 38 }, flags = { "length" } })"#,
            "length_limit is missing; valid: 1..=8192 with the `length` flag",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 99, y = 38 } })"#,
            "tunnels:dig: opts.to: (99, 38) is outside the 64×48 map",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 52, y = 38 }, start_dir = "up" })"#,
            "opts.start_dir = \"up\" is not one of 'north', 'south', 'east', 'west'",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { x = 9, y = 6 }, to = { x = 52, y = 38 }, speed = 3 })"#,
            "tunnels:dig: unknown option 'speed' in opts (valid: from, to, flags, start_dir, length)",
        ),
        ("map:mark_connected(0, 0)", "flood fill cannot start at (0, 0): the cell is solid"),
        (
            r#"warren.tunnel.new(map, { corridor = {} })"#,
            "warren.tunnel.new: no corridor regions; add a [[corridor]] to the region files",
        ),
        (
            r#"warren.tunnel.new(map, ctx.regions, { corridor = "sewer" })"#,
            "corridor = 'sewer' names no corridor region (known: 'dusty tunnel'",
        ),
        (
            r#"warren.tunnel.new(map, { corridor = { { name = "c", weight = 1, floor = "floor", walls = "rock", door = "door", constants = { turn_chance = 200 } } } })"#,
            "warren.tunnel.new: argument 2 (regions).corridor[1]: constants.turn_chance = 200 is not a percentage (0..=100)",
        ),
        (
            r#"warren.tunnel.new(map, { corridor = { { name = "c", weight = 1, floor = "rock", walls = "rock", door = "door" } } })"#,
            "floor = 'rock' is a solid terrain; it must be open (solid = false)",
        ),
        (
            r#"warren.tunnel.new(map, { corridor = ctx.regions.corridor, dungeon = { segment_minlen = 0 } })"#,
            "argument 2 (regions).dungeon: segment_minlen = 0 is out of range (1..=1000)",
        ),
        (
            r#"warren.dungeon.init_level(map, { width = 64, height = 48, panel_width = 32, panel_height = 32 })"#,
            "level height is 48; valid: a multiple of panel_height = 32 (e.g. 32, 64)",
        ),
        (
            r#"warren.dungeon.draw_room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, { name = "x", weight = 1, kind = "hexagon", floor = "floor", wall = "rock", door = "door" })"#,
            "warren.dungeon.draw_room: argument 4 (room): kind = 'hexagon' is not a room kind (valid: normal, lifecave, castle, maze, destroyed, pillared, circular)",
        ),
        (
            r#"warren.dungeon.draw_room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, { name = "x", weight = 1, kind = "normal", flor = "floor", wall = "rock", door = "door" })"#,
            "argument 4 (room): unknown field `flor`, expected one of",
        ),
        (
            r#"warren.dungeon.draw_room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, ctx.regions.room[1], { min_width = 6, max_width = 31, min_height = 6, max_height = 9 })"#,
            "room_max_width is 31; valid: room_min_width (6)..=30 (the panel width less 2)",
        ),
        (
            r#"warren.dungeon.draw_streamer(map, ctx.rng, { name = "s", weight = 1, kind = "river", terrain = "water", min_width = 3, max_width = 2 })"#,
            "warren.dungeon.draw_streamer: argument 3 (streamer): min_width = 3 must not exceed max_width = 2",
        ),
        (
            r#"warren.dungeon.draw_streamer(map, ctx.rng, { name = "s", weight = 1, kind = "river", terrain = "watr", min_width = 1, max_width = 2 })"#,
            "argument 3 (streamer): unknown terrain 'watr'",
        ),
        (
            r#"warren.dungeon.place_down_stairs(map, ctx.rng, { count = 1 })"#,
            "no open floor of priority ≤ ROOM_FLOOR is left for the down stairs",
        ),
        (
            r#"warren.dungeon.carry_chasms(map, map, { chasms = { "rift" } })"#,
            "argument 2 (above) must not be the map itself",
        ),
        (
            r#"warren.dungeon.place_down_stairs(map, ctx.rng, { terrain = "down stairs", place = "cellar" })"#,
            "warren.dungeon.place_down_stairs: opts.place = \"cellar\" is not one of",
        ),
        (
            r#"warren.dungeon.finish_doors(map, ctx.rng, { depth = 0 })"#,
            "warren.dungeon.finish_doors: opts.depth must be",
        ),
        (
            r#"warren.dungeon.finish_doors(map, ctx.rng, { deep = 3 })"#,
            "unknown option 'deep' in opts",
        ),
        (
            r#"local tunnels = warren.tunnel.new(map); tunnels:fixup(map, ctx.rng, { connectivity = "6" })"#,
            "tunnels:fixup: opts.connectivity = \"6\" is not one of",
        ),
        (
            r#"local tunnels = warren.tunnel.new(map); tunnels:fixup(map, ctx.rng, { bridge = "rock" })"#,
            "opts.bridge = 'rock' must be open and no hazard",
        ),
        (
            r#"local tunnels = warren.tunnel.new(map); tunnels:fixup(map, ctx.rng, { bridge = "chasm" })"#,
            "opts.bridge = 'chasm' must be open and no hazard",
        ),
        (
            r#"map:components({ connectivity = 6 })"#,
            "map:components: opts.connectivity must be",
        ),
        (
            r#"map:mark_connected(5, 5, { adjacency = 4 })"#,
            "map:mark_connected: unknown option 'adjacency' in opts",
        ),
        (
            r#"map:add_door(5, 5, nil, "ajar")"#,
            "map:add_door: argument 4 (state) = \"ajar\" is not one of",
        ),
        (
            r#"warren.gen.join_areas(map, ctx.rng, { terrain = "floor", style = "straight" })"#,
            "warren.gen.join_areas: opts.style = \"straight\" is not one of",
        ),
        (
            r#"warren.dungeon.draw_room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, { name = "x", weight = 1, kind = "normal", floor = "floor", wall = "rock", door = "gate" })"#,
            "door = 'gate' is neither a [[door]] kind (known: 'oak door', 'iron-bound door') nor a terrain",
        ),
    ];
    for (call, want) in cases {
        // The stairs need a map without open floor; every other case runs on the two rooms.
        let setup = if call.contains("down_stairs") {
            ""
        } else {
            TWO_ROOMS
        };
        let e = run(&format!("{setup}\n  {call}"), 1).unwrap_err();
        assert!(e.contains("t.lua:"), "{call}: no location in {e}");
        assert!(e.contains(want), "{call}:\n  got  {e}\n  want {want}");
    }
}

/// Connectivity in both modes, doors as features, hazards bridged, door states drawn.
#[test]
fn walkers_doors_and_hazards_from_lua() {
    let body = r#"
  -- Two rooms touching only at a corner: one area 8 ways, two areas 4 ways.
  map:fill_rect({ x = 4, y = 4, w = 3, h = 3 }, "floor")
  map:fill_rect({ x = 7, y = 7, w = 3, h = 3 }, "floor")
  assert(#map:components() == 1)
  assert(#map:components({ connectivity = "4" }) == 2)
  assert(map:mark_connected(4, 4, { connectivity = "4" }) == 9)
  -- A closed door (solid terrain) in a wall between two rooms joins them.
  map:fill_rect({ x = 20, y = 4, w = 3, h = 3 }, "floor")
  map:fill_rect({ x = 24, y = 4, w = 3, h = 3 }, "floor")
  map:set(23, 5, "door")
  assert(map:is_solid(23, 5))
  assert(#map:components() == 3)
  map:add_door(23, 5, nil, "locked")
  assert(#map:components() == 2)
  -- A chasm is open but splits what it crosses.
  map:fill_rect({ x = 40, y = 4, w = 10, h = 3 }, "floor")
  map:fill_rect({ x = 44, y = 4, w = 2, h = 3 }, "chasm", { priority = "river_streamer" })
  assert(not map:is_solid(44, 5))
  assert(#map:components() == 4)
  local tunnels = warren.tunnel.new(map, ctx.regions, { panel_width = 16, panel_height = 16 })
  local report = tunnels:fixup(map, ctx.rng, { connectivity = "4", bridge = "bridge" })
  assert(report.areas_before == 5, report.areas_before)
  assert(#map:components({ connectivity = "4" }) == 1)
  assert(map:get(44, 4) == "bridge" or map:get(44, 5) == "bridge" or map:get(44, 6) == "bridge")
  -- Doors made by region data get states; recipe doors keep theirs.
  local counts = warren.dungeon.finish_doors(map, ctx.rng, { depth = 7 })
  assert(counts.locked >= 1, counts.locked)
"#;
    run(body, 4).unwrap();
}

#[test]
fn the_level_tracks_free_panels_and_rooms_fill_them() {
    let body = r#"
  local level = warren.dungeon.init_level(map, { width = 96, height = 64, panel_width = 32, panel_height = 32 })
  assert(#level:panels() == 6 and #level:free_panels() == 6)
  level:use_panel(1, 0)
  local free = level:free_panels()
  assert(#free == 5)
  for _, p in ipairs(free) do assert(not (p.px == 1 and p.py == 0)) end
  local limits = { min_width = 6, max_width = 12, min_height = 6, max_height = 12 }
  local rooms = warren.dungeon.draw_rooms(map, ctx.rng, level, ctx.regions.room, limits)
  assert(#rooms == 5, #rooms)
  for _, r in ipairs(rooms) do assert(r.kind and r.region and r.w > 0) end
  local one = warren.dungeon.draw_room(map, ctx.rng, { x = 32, y = 0, w = 32, h = 32 }, ctx.regions.room[1], limits)
  assert(one.kind == "normal" and one.region == "stone room", one.kind)
  assert(#map:rooms() == 6)
  local ok, e = pcall(level.use_panel, level, 3, 0)
  assert(not ok and e:find("panel is %(3, 0%); valid: x 0..=2, y 0..=1"), e)
"#;
    run(body, 2).unwrap();
}

/// Draws a level with `room` (a Lua expression for the room region) in every panel and
/// returns the map.
fn level_with_room(room: &str, seed: u64) -> Map {
    run(
        &format!(
            "local level = warren.dungeon.init_level(map, {{ width = 96, height = 64 }})\n\
             warren.dungeon.draw_rooms(map, ctx.rng, level, {{ {room} }})"
        ),
        seed,
    )
    .unwrap()
}

#[test]
fn a_hand_made_region_draws_like_the_view_it_copies() {
    // A view of ctx.regions is used as resolved at load; a table copied from it (nested
    // tables included, and through an __index chain) is resolved the same way.
    let copy = "(function() local t = {} for k, v in pairs(ctx.regions.room[2]) do t[k] = v end return t end)()";
    let inherit = "setmetatable({ weight = 5 }, { __index = ctx.regions.room[2] })";
    for seed in 0..4 {
        let view = level_with_room("ctx.regions.room[2]", seed);
        for made in [copy, inherit] {
            let other = level_with_room(made, seed);
            assert_eq!(view.terrain_cells(), other.terrain_cells(), "{made}");
            assert_eq!(view.region_cells(), other.region_cells(), "{made}");
        }
    }
}

#[test]
fn defaults_come_from_the_dungeon_section() {
    let body = r#"
  local d = ctx.regions.dungeon
  local level = warren.dungeon.init_level(map)
  assert(map.width == d.level_width and map.height == d.level_height)
  assert(#level:panels() == (d.level_width // d.panel_width) * (d.level_height // d.panel_height))
  for _, r in ipairs(warren.dungeon.draw_rooms(map, ctx.rng, level, { ctx.regions.room[1] })) do
    assert(r.w + 2 <= d.room_max_width and r.h + 2 <= d.room_max_height, r.w .. "x" .. r.h)
  end
  local tunnels = warren.tunnel.new(map)
  assert(warren.dungeon.connect_panels(map, ctx.rng, level, tunnels) > 0)
  local report = tunnels:fixup(map, ctx.rng)
  assert(report.trials <= d.fixup_trials)
  local down = warren.dungeon.place_down_stairs(map, ctx.rng)
  assert(#down == 1 and map:get(down[1].x, down[1].y) == "down stairs")
"#;
    run(body, 4).unwrap();
}

#[test]
fn the_old_spellings_are_gone() {
    // Pre-1.0, the deprecated aliases were deleted rather than kept for a release.
    let body = r#"
  for _, name in ipairs { "init", "streamer", "vault", "room", "rooms", "up_stairs", "down_stairs" } do
    assert(warren.dungeon[name] == nil, name)
  end
  assert(warren.tunnel.context == nil)
  warren.dungeon.init(map)
"#;
    let e = run(body, 1).unwrap_err();
    assert!(
        e.contains("t.lua:9: attempt to call a nil value (field 'init')"),
        "{e}"
    );
}
