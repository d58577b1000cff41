//! The `warren.tunnel`, `warren.dungeon` and map connectivity bindings as recipes use them:
//! results, and errors that name the bad value, the valid range and the recipe's line.

mod common;
use common::*;
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
  local tunnels = warren.tunnel.context(map, ctx.regions, { panel_width = 16, panel_height = 16 })
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
fn a_sealed_vault_is_reported_with_the_seed() {
    let body = r#"
  local level = warren.dungeon.init(map, { width = 64, height = 64, panel_width = 32, panel_height = 32 })
  map:fill_rect({ x = 40, y = 40, w = 5, h = 5 }, "floor", { priority = "room_floor" })
  local sealed = { name = "cell", grid = "WWWWW\nW...W\nWWWWW", legend = { W = "vault wall", ["."] = "vault floor" } }
  assert(warren.dungeon.vault(map, ctx.rng, level, sealed), "placed")
  local tunnels = warren.tunnel.context(map, ctx.regions)
  tunnels:fixup(map, ctx.rng)
"#;
    let e = run(body, 5).unwrap_err();
    assert!(e.contains("seed 5") && e.contains("is sealed"), "{e}");
}

#[test]
fn bad_arguments_name_the_value_and_what_is_valid() {
    let cases: &[(&str, &str)] = &[
        (
            r#"tunnels:dig(map, ctx.rng, { from = { 9, 6 }, to = { 52, 38 }, flags = { "diagonal" } })"#,
            "tunnels:dig: tunnel: flag is \"diagonal\"; valid: connect, direct, length, notouch, exact, wander, natural",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { 9, 6 }, to = { 52, 38 }, flags = { "length" } })"#,
            "length_limit is missing; valid: 1..=8192 with the `length` flag",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { 9, 6 }, to = { 99, 38 } })"#,
            "tunnels:dig: to: (99, 38) is outside the 64×48 map",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { 9, 6 }, to = { 52, 38 }, start_dir = "up" })"#,
            "start_dir = 'up' (valid: north, south, east, west)",
        ),
        (
            r#"tunnels:dig(map, ctx.rng, { from = { 9, 6 }, to = { 52, 38 }, speed = 3 })"#,
            "tunnels:dig: unknown option 'speed' (valid: from, to, flags, start_dir, length)",
        ),
        ("map:mark_connected(0, 0)", "flood fill cannot start at (0, 0): the cell is solid"),
        (
            r#"warren.tunnel.context(map, { corridor = {} })"#,
            "no corridor regions; add a [[corridor]] to the region files",
        ),
        (
            r#"warren.tunnel.context(map, ctx.regions, { corridor = "sewer" })"#,
            "corridor = 'sewer' names no corridor region (known: 'dusty tunnel'",
        ),
        (
            r#"warren.dungeon.init(map, { width = 64, height = 48, panel_width = 32, panel_height = 32 })"#,
            "level height is 48; valid: a multiple of panel_height = 32 (e.g. 32, 64)",
        ),
        (
            r#"warren.dungeon.room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, { name = "x", kind = "hexagon", floor = "floor", wall = "rock", door = "door" }, { min_width = 6, max_width = 9, min_height = 6, max_height = 9 })"#,
            "room 'x': kind = 'hexagon' (valid: normal, lifecave, castle, maze, destroyed, pillared, circular)",
        ),
        (
            r#"warren.dungeon.room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, ctx.regions.room[1], { min_width = 6, max_width = 31, min_height = 6, max_height = 9 })"#,
            "room_max_width is 31; valid: room_min_width (6)..=30 (the panel width less 2)",
        ),
        (
            r#"warren.dungeon.streamer(map, ctx.rng, { name = "s", kind = "river", terrain = "water", min_width = 3, max_width = 2 })"#,
            "streamer 's' max_width is 2; valid: min_width (3)..=16",
        ),
        (
            r#"warren.dungeon.down_stairs(map, ctx.rng, { terrain = "down stairs", count = 1 })"#,
            "no open floor of priority ≤ ROOM_FLOOR is left for the down stairs",
        ),
        (
            r#"warren.dungeon.down_stairs(map, ctx.rng, { terrain = "down stairs", place = "cellar" })"#,
            "place = 'cellar' (valid: rooms, anywhere)",
        ),
        (
            r#"warren.dungeon.finish_doors(map, ctx.rng, { depth = 0 })"#,
            "warren.dungeon.finish_doors: depth = 0 is out of range (1..=1000)",
        ),
        (
            r#"warren.dungeon.finish_doors(map, ctx.rng, { deep = 3 })"#,
            "unknown option 'deep' (valid: depth, reveal_depth, reveal_radius)",
        ),
        (
            r#"tunnels:fixup(map, ctx.rng, { connectivity = "6" })"#,
            "tunnels:fixup: connectivity = '6' (valid: \"4\" or \"8\")",
        ),
        (
            r#"tunnels:fixup(map, ctx.rng, { bridge = "rock" })"#,
            "bridge = 'rock' must be open and no hazard",
        ),
        (
            r#"tunnels:fixup(map, ctx.rng, { bridge = "chasm" })"#,
            "bridge = 'chasm' must be open and no hazard",
        ),
        (
            r#"map:components({ connectivity = 6 })"#,
            "map:components: connectivity = '6' (valid: \"4\" or \"8\")",
        ),
        (
            r#"map:mark_connected(5, 5, { adjacency = 4 })"#,
            "map:mark_connected: unknown option 'adjacency' (valid: connectivity)",
        ),
        (
            r#"map:add_door(5, 5, nil, "ajar")"#,
            "map:add_door: state 'ajar' (valid: closed, open, locked, secret, broken)",
        ),
        (
            r#"warren.gen.join_areas(map, ctx.rng, { terrain = "floor", style = "straight" })"#,
            "warren.gen.join_areas: style = 'straight' (valid: dogleg, natural)",
        ),
        (
            r#"warren.dungeon.room(map, ctx.rng, { x = 0, y = 0, w = 32, h = 32 }, { name = "x", kind = "normal", floor = "floor", wall = "rock", door = "gate" }, { min_width = 6, max_width = 9, min_height = 6, max_height = 9 })"#,
            "room 'x': door = 'gate' is neither a [[door]] kind (known: 'oak door', 'iron-bound door') nor a terrain",
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
  assert(map:mark_connected(4, 4, { connectivity = 4 }) == 9)
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
  local tunnels = warren.tunnel.context(map, ctx.regions, { panel_width = 16, panel_height = 16 })
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
  local level = warren.dungeon.init(map, { width = 96, height = 64, panel_width = 32, panel_height = 32 })
  assert(#level:panels() == 6 and #level:free_panels() == 6)
  level:use_panel(1, 0)
  local free = level:free_panels()
  assert(#free == 5)
  for _, p in ipairs(free) do assert(not (p.px == 1 and p.py == 0)) end
  local limits = { min_width = 6, max_width = 12, min_height = 6, max_height = 12 }
  local rooms = warren.dungeon.rooms(map, ctx.rng, level, ctx.regions.room, limits)
  assert(#rooms == 5, #rooms)
  for _, r in ipairs(rooms) do assert(r.kind and r.region and r.w > 0) end
  local one = warren.dungeon.room(map, ctx.rng, { x = 32, y = 0, w = 32, h = 32 }, ctx.regions.room[1], limits)
  assert(one.kind == "normal" and one.region == "stone room", one.kind)
  assert(#map:rooms() == 6)
"#;
    run(body, 2).unwrap();
}
