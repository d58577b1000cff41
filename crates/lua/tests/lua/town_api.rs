//! The Lua face of TownMaze: `warren.town` (one method per step, queries, drawing into the map)
//! and `warren.status_lists`, the status-list primitive for any "grow until every cell is
//! served" generator. Errors name the call and the rule, at the recipe's line.

use crate::common::*;
use warren_core::map::Map;
use warren_lua::{Host, Limits, Run};

/// Runs `body` as the generate function of a `width`×`height` recipe; the body starts on line 2.
fn run(body: &str, width: i64, height: i64, limits: Limits) -> Result<Map, String> {
    let recipe = format!(
        "return {{ name = 't', params = {{ width = {{ default = {width} }}, height = {{ default = {height} }} }}, generate = function(map, ctx)\n{body}\nend }}"
    );
    let dir = temp_tree(&[("scripts/t.lua", recipe.as_str())]);
    let host = Host::load(&dir.path().join("scripts/t.lua"), registry(), limits)
        .map_err(|e| e.to_string())?;
    let p = host.resolve_params(&[]).map_err(|e| e.to_string())?;
    host.generate(&Run {
        seed: 5,
        params: &p,
        depth: 1,
        above: None,
    })
    .map_err(|e| e.to_string())
}

fn ok(body: &str) -> Map {
    run(body, 77, 23, Limits::default()).unwrap_or_else(|e| panic!("{e}\n{body}"))
}

fn err(body: &str) -> String {
    match run(body, 77, 23, Limits::default()) {
        Ok(_) => panic!("should fail:\n{body}"),
        Err(e) => e,
    }
}

#[test]
fn every_broken_rule_is_reported_at_once_at_the_recipe_line() {
    let e = err(
        "local x = 1\nlocal town = warren.town.new { height = 9, width = 78, gates = -1, \
         leftgates = 5, courts = -1, unused = -1, straightness = 1000 }",
    );
    let (location, rest) = e.split_once(": ").unwrap();
    assert!(location.ends_with("scripts/t.lua:3"), "{e}");
    assert!(
        rest.starts_with("warren.town.new: invalid town parameters: "),
        "{e}"
    );
    let rules = [
        "height must be at least 11 (five cells, room for one interior row of buildings), got 9",
        "width must be odd (walls on even rows and columns, cells on odd ones), got 78",
        "gates must be at least 0, got -1",
        "leftgates must be at most gates = -1, got 5",
        "courts must be at least 0, got -1",
        "courts + gates must be at least 1 so that some street exists, got -1 + -1",
        "unused must be at least 0, got -1",
        "straightness must be at most 998 so that a bend is always possible, got 1000",
    ];
    for rule in rules {
        assert!(e.contains(rule), "missing {rule:?} in {e}");
    }
    assert_eq!(e.matches("; ").count(), rules.len() - 1, "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

#[test]
fn town_options_are_checked() {
    let e = err("warren.town.new { hieght = 23 }");
    assert!(
        e.contains("warren.town.new: unknown option 'hieght' in opts (did you mean 'height'?) (valid: height, width, gates, leftgates, courts, unused, straightness)"),
        "{e}"
    );
    let e = err("warren.town.new { height = 23.5 }");
    assert!(
        e.contains("warren.town.new: opts.height must be an integer, got 23.5"),
        "{e}"
    );
    let e = err("warren.town.capacity(4097, 23)");
    assert!(
        e.contains(
            "warren.town.capacity: argument 1 (width) must be an integer in 11..=4095, got 4097"
        ),
        "{e}"
    );
    // The old spelling, height first, is gone.
    let e = err("warren.town.limits(23, 4097)");
    assert!(
        e.contains("attempt to call a nil value (field 'limits')"),
        "{e}"
    );
}

#[test]
fn the_steps_can_be_run_and_inspected_one_by_one() {
    ok(r#"
        local rng = ctx.rng
        local most = warren.town.capacity(77, 23)
        assert(most.gates == 24 and most.courts == 36 and most.unused == 5)
        local t = warren.town.new { gates = 3, leftgates = 1 }
        assert(t.height == 23 and t.width == 77 and t.rows == 11 and t.cols == 38)
        assert(t:count("isolated") == 11 * 38 - 4 and t:count("unused") == 4)
        assert(t:cell_status(0, 0) == "unused" and t:cell_status(5, 5) == "isolated")
        assert(t:cell_status(37, 10) == "unused")
        assert(t:make_unused(rng) == 0)
        assert(t:make_gates(rng) == 3)
        assert(t:count("street") == 3 and t:distinct_streets() == 3)
        assert(t:make_courts(rng) == 0)
        t:connect_streets(rng)
        assert(t:distinct_streets() == 1)
        t:finish_alleys(rng)
        assert(t:count("isolated") == 0 and t:count("live") == 0)
        t:close_doors(rng)
        assert(t:close_gates(rng) == 2)
        assert(t:cleanup_map() >= 0)
        local lines = 0
        for line in t:render():gmatch("[^\n]+") do
          assert(#line == 77)
          lines = lines + 1
        end
        assert(lines == 23)
        assert(t:render_debug():find("D") and not t:render_debug():find("I"))
        t:fill()
        assert(t:count("street") == 0 and t:distinct_streets() == 0)
    "#);
}

/// The third joining strategy, used sparingly, joins dense towns as surely and keeps more of
/// their rooms; a bad policy is a located error.
#[test]
fn dead_streets_can_be_used_sparingly() {
    ok(r#"
        local rooms = { freely = 0, sparingly = 0 }
        for seed = 1, 20 do
          for policy in pairs(rooms) do
            local rng = ctx.rng:stream(tostring(seed))
            local t = warren.town.new { gates = 24, leftgates = 0, courts = 36, unused = 5 }
            t:make_unused(rng); t:make_gates(rng); t:make_courts(rng)
            t:connect_streets(rng, { dead_streets = policy })
            assert(t:distinct_streets() == 1)
            t:finish_alleys(rng)
            rooms[policy] = rooms[policy] + t:count("dead")
          end
        end
        assert(rooms.sparingly > rooms.freely, rooms.sparingly .. " vs " .. rooms.freely)
    "#);
    let e =
        err("local t = warren.town.new()\nt:connect_streets(ctx.rng, { dead_streets = 'often' })");
    assert!(
        e.contains("scripts/t.lua:3: town:connect_streets: opts.dead_streets = \"often\" is not one of 'freely', 'sparingly'"),
        "{e}"
    );
    let e = err("local t = warren.town.new()\nt:connect_streets(ctx.rng, { dead = 1 })");
    assert!(
        e.contains("unknown option 'dead' in opts") && e.contains("(valid: dead_streets)"),
        "{e}"
    );
}

#[test]
fn streets_can_be_laid_by_hand() {
    // Cells are addressed x (column), y (row).
    ok(r#"
        local t = warren.town.new { gates = 0, leftgates = 0, courts = 1 }
        assert(t:lay_street(ctx.rng, 10, 5, "east") == true)
        assert(t:cell_status(10, 5) == "street" and t:street_heading(10, 5) == "east")
        assert(t:street_heading(9, 5) == nil and t:cell_status(11, 5) == "live")
        assert(t:lay_street(ctx.rng, 11, 5, "north") == true)
        assert(t:street_heading(11, 5) == "east", "continuing a street beats the asked heading")
    "#);
    // The old spellings, row first, are gone.
    ok(r#"
        local t = warren.town.new { gates = 0, leftgates = 0, courts = 1 }
        assert(t.make_street == nil and t.status == nil and t.heading == nil)
    "#);
    let cases = [
        (
            "t:lay_street(ctx.rng, 0, 0)",
            "scripts/t.lua:3: town:lay_street: cell (0, 0) is unused: only isolated, live or dead cells can become streets",
        ),
        (
            "t:lay_street(ctx.rng, 3, 3, 'up')",
            "town:lay_street: argument 4 (heading) = \"up\" is not one of 'north', 'east', 'south', 'west'",
        ),
        (
            "t:cell_status(0, 11)",
            "town:cell_status: cell (0, 11) is outside the town's 38×11 cells (x 0..=37, y 0..=10)",
        ),
        (
            "t:cell_status(-1, 0)",
            "town:cell_status: argument 1 (x) must be an integer ≥ 0, got -1",
        ),
        (
            "t:count(3)",
            "town:count: argument 1 (status) must be one of 'isolated', 'live', 'dead', 'street', 'unused', got 3",
        ),
        (
            "t:count('alive')",
            "town:count: argument 1 (status) = \"alive\" is not one of 'isolated', 'live', 'dead', 'street', 'unused' (did you mean 'live'?)",
        ),
        (
            "t:make_gates()",
            "scripts/t.lua:3: town:make_gates: argument 1 (rng) is missing: expected a random number generator",
        ),
    ];
    for (call, want) in cases {
        let e = err(&format!("local t = warren.town.new()\n{call}"));
        assert!(e.contains(want), "{call}:\n  got  {e}\n  want {want}");
    }
}

#[test]
fn a_stuck_phase_is_a_located_error() {
    let e = err("local t = warren.town.new()\nt:connect_streets(ctx.rng)");
    assert!(
        e.contains("scripts/t.lua:3: town:connect_streets: there is no street to connect"),
        "{e}"
    );
    let e = err("local t = warren.town.new()\nt:finish_alleys(ctx.rng)");
    assert!(
        e.contains("town:finish_alleys: 414 cells remain isolated and no street can reach them"),
        "{e}"
    );
}

/// Copies `ctx.regions.town` into a table `s` a recipe may change.
const COPY_STYLE: &str = "local s = {}\n\
     for _, k in ipairs { 'wall', 'vertical_door', 'horizontal_door', 'vertical_gate', \
     'horizontal_gate', 'street', 'floor', 'unused', 'debug' } do s[k] = ctx.regions.town[k] end";

#[test]
fn write_draws_with_region_terrain_and_checks_its_options() {
    let map = ok("local t = warren.town.new()\nt:fill()\n\
         local d = t:write(map)\n\
         assert(d.rooms == 11 * 38 - 4 and d.gates == 0 and d.street_cells == 0)");
    assert_eq!(
        map.terrain_at(warren_core::map::Point::new(0, 0)).unwrap(),
        map.terrains().id("town wall").unwrap()
    );
    assert_eq!(
        map.terrain_at(warren_core::map::Point::new(3, 3)).unwrap(),
        map.terrains().id("town floor").unwrap()
    );
    let cases = [
        (
            "t:write(map, { view = 'plan' })".to_string(),
            "town:write: opts.view = \"plan\" is not one of 'map', 'debug'",
        ),
        (
            "t:write(map, { style = ctx.regions.town, colour = 1 })".to_string(),
            "town:write: unknown option 'colour' in opts (valid: style, view)",
        ),
        (
            "t:write(map, { style = 'stone' })".to_string(),
            "town:write: opts.style must be a region table (a view of ctx.regions or one made like it), got \"stone\"",
        ),
        (
            "t:write(map, { style = { wall = 'town wall' } })".to_string(),
            "town:write: opts.style: missing field `vertical_door`",
        ),
        (
            format!("{COPY_STYLE}\ns.street = 'cobbles'\nt:write(map, {{ style = s }})"),
            "town:write: opts.style: unknown terrain 'cobbles'",
        ),
        (
            format!("{COPY_STYLE}\ns.debug = nil\nt:write(map, {{ style = s, view = 'debug' }})"),
            "town:write: view 'debug' needs style.debug (a [town.debug] section in the region files)",
        ),
    ];
    for (body, want) in cases {
        let e = err(&format!("local t = warren.town.new()\n{body}"));
        assert!(e.contains(want), "{body}: {e}");
        assert!(e.contains("scripts/t.lua:"), "located: {e}");
    }
    // A style made by hand (here a copy of the view) draws exactly like the view.
    let copied = ok(&format!(
        "local t = warren.town.new()\nt:fill()\n{COPY_STYLE}\nt:write(map, {{ style = s }})"
    ));
    assert_eq!(copied.terrain_cells(), map.terrain_cells());
    let e = run(
        "warren.town.new():write(map, { style = ctx.regions.town })",
        75,
        23,
        Limits::default(),
    )
    .unwrap_err();
    assert!(
        e.contains(
            "town:write: the 77×23 town does not fit the map: (76, 22) is outside the 75×23 map"
        ),
        "{e}"
    );
}

#[test]
fn towns_count_against_the_memory_limit() {
    let limits = Limits {
        memory: 32 << 20,
        ..Limits::default()
    };
    let e = run(
        "warren.town.new { height = 4095, width = 4095 }",
        8,
        8,
        limits,
    )
    .unwrap_err();
    assert!(
        e.contains("memory limit exceeded (32 MiB; raise it with --max-memory): warren.town.new needs 112 MiB with "),
        "{e}"
    );
    // Dropped towns give their share back: many towns in turn fit where all at once would not.
    run(
        "for i = 1, 60 do local t = warren.town.new { height = 401, width = 401 } end",
        8,
        8,
        limits,
    )
    .unwrap();
    let e = run(
        "local keep = {} for i = 1, 60 do keep[i] = warren.town.new { height = 401, width = 401 } end",
        8,
        8,
        limits,
    )
    .unwrap_err();
    assert!(e.contains("memory limit"), "{e}");
}

#[test]
fn status_lists_move_count_pick_and_iterate() {
    ok(r#"
        local lists = warren.status_lists { cells = 10, statuses = { "wild", "near", "served" } }
        assert(#lists == 10 and lists:count("wild") == 10 and lists:status(9) == "wild")
        local names = lists:statuses()
        assert(#names == 3 and names[1] == "wild" and names[3] == "served")
        lists:move(3, "near")
        lists:move(7, "near")
        lists:move(3, "near") -- already there: nothing changes
        assert(lists:count("near") == 2 and lists:count("wild") == 8)
        assert(lists:status(7) == "near")
        local near = lists:cells("near")
        assert(#near == 2 and near[1] == 3 and near[2] == 7)
        -- The list is a snapshot: moving while iterating is safe.
        for _, cell in ipairs(lists:cells("wild")) do lists:move(cell, "served") end
        assert(lists:count("served") == 8 and lists:count("wild") == 0)
        assert(lists:pick("wild", ctx.rng) == nil)
        local seen = {}
        for _ = 1, 200 do
          local cell = lists:pick("near", ctx.rng)
          assert(cell == 3 or cell == 7)
          seen[cell] = true
        end
        assert(seen[3] and seen[7])
        lists:reset("near")
        assert(lists:count("near") == 10)
        local other = warren.status_lists { cells = 4, statuses = { "a", "b" }, initial = "b" }
        assert(other:count("b") == 4 and other:count("a") == 0)
    "#);
}

#[test]
fn status_lists_grow_a_region_until_every_cell_is_served() {
    // A flood from one corner of a 30×20 map: "frontier" cells are served next, at random.
    let map = run(
        r#"
        local w, h = map.width, map.height
        local lists = warren.status_lists { cells = w * h, statuses = { "wild", "frontier", "served" } }
        local order = 0
        lists:move(0, "frontier")
        while lists:count("frontier") > 0 do
          local cell = lists:pick("frontier", ctx.rng)
          lists:move(cell, "served")
          order = order + 1
          local x, y = cell % w, cell // w
          map:set(x, y, "floor", { force = true })
          for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
            local nx, ny = x + d[1], y + d[2]
            if nx >= 0 and ny >= 0 and nx < w and ny < h and lists:status(nx + ny * w) == "wild" then
              lists:move(nx + ny * w, "frontier")
            end
          end
        end
        assert(order == w * h and lists:count("served") == w * h)
        "#,
        30,
        20,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(map.open_count(), 600);
}

#[test]
fn status_list_errors_name_the_call_and_the_valid_range() {
    let cases = [
        (
            "warren.status_lists { statuses = { 'a' } }",
            "warren.status_lists: opts needs 'cells': an integer in 0..=16777216",
        ),
        (
            "warren.status_lists { cells = -1, statuses = { 'a' } }",
            "warren.status_lists: opts.cells must be an integer in 0..=16777216, got -1",
        ),
        (
            "warren.status_lists { cells = 3, statuses = 'a' }",
            "warren.status_lists: opts.statuses must be a list of strings, got \"a\"",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a', 2 } }",
            "warren.status_lists: opts.statuses[2] must be a string, got 2",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a', 'a' } }",
            "warren.status_lists: status name \"a\" is empty or repeated",
        ),
        (
            "warren.status_lists { cells = 3, statuses = {} }",
            "warren.status_lists: status lists need 1..=256 status names, got 0",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a' }, initial = 'b' }",
            "warren.status_lists: opts.initial = 'b' is not a status (valid: 'a')",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a' }, size = 2 }",
            "warren.status_lists: unknown option 'size' in opts (valid: cells, statuses, initial)",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a', 'b' } }:move(3, 'b')",
            "lists:move: cell 3 does not exist (valid: 0..=2)",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a', 'b' } }:move(0, 'c')",
            "lists:move: argument 2 (status) = 'c' is not a status (valid: 'a', 'b')",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a', 'b' } }:count(1)",
            "lists:count: argument 1 (status) must be a status name ('a', 'b'), got 1",
        ),
        (
            "warren.status_lists { cells = 3, statuses = { 'a' } }:pick('a')",
            "lists:pick: argument 1 (rng) must be a random number generator (ctx.rng or a stream of it), got \"a\"",
        ),
    ];
    for (body, want) in cases {
        let e = err(body);
        assert!(
            e.contains(&format!("scripts/t.lua:2: {want}")),
            "{body}: {e}"
        );
    }
}

#[test]
fn the_town_region_section_is_validated_with_locations() {
    let text = std::fs::read_to_string(root().join("regions/town.toml"))
        .unwrap()
        .replace("street = \"street\"", "street = \"cobbles\"")
        .replace("west = \"debug west\"", "west = \"debug wets\"")
        .replace(
            "floor = \"town floor\"",
            "floor = \"town floor\"\nroof = \"tiles\"",
        );
    let load = |text: &str| {
        let terrain = std::fs::read_to_string(root().join("regions/terrain.toml")).unwrap();
        let sources = vec![
            warren_core::region::Source {
                path: "regions/terrain.toml".into(),
                text: terrain,
            },
            warren_core::region::Source {
                path: "regions/town.toml".into(),
                text: text.into(),
            },
        ];
        warren_core::region::Registry::from_sources(sources).map(|_| ())
    };
    let e = load(&text).unwrap_err().to_string();
    assert!(e.contains("regions/town.toml:"), "{e}");
    assert!(e.contains("town: unknown key 'roof'"), "{e}");
    let text = text.replace("\nroof = \"tiles\"", "");
    let e = load(&text).unwrap_err().to_string();
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert!(
        e.contains(&format!(
            "regions/town.toml:{}:10: town.street = 'cobbles' is not a terrain",
            line_of("cobbles")
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "regions/town.toml:{}:8: town.debug.west = 'debug wets' is not a terrain; did you mean 'debug west'?",
            line_of("wets")
        )),
        "{e}"
    );
    let e = load("[town]\nwall = \"rock\"\n").unwrap_err().to_string();
    assert!(
        e.contains("town has no 'vertical_door', which is required"),
        "{e}"
    );
    // [town.debug] is optional.
    let without_debug = text
        .replace("street = \"cobbles\"", "street = \"street\"")
        .lines()
        .filter(|l| {
            ![
                "[town.debug]",
                "isolated =",
                "live =",
                "dead =",
                "unused = \"debug",
                "north =",
                "east =",
                "south =",
                "west =",
                "no_heading =",
            ]
            .iter()
            .any(|k| l.starts_with(k))
        })
        .collect::<Vec<_>>()
        .join("\n");
    load(&without_debug).unwrap();
}
