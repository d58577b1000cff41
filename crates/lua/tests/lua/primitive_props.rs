//! Property test: every Lua-exposed primitive called with random arguments — NaN, infinities,
//! huge and negative numbers, wrong types, hostile tables — never panics (an internal error),
//! never writes outside the map, and never records an annotation outside it.

use crate::common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use warren_core::map::{Map, Point};
use warren_lua::{Host, Limits, Run};

const W: i32 = 24;
const H: i32 = 16;

/// Values of every kind a hostile script could pass.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "7",
    "15",
    "16",
    "23",
    "24",
    "1e308",
    "-1e308",
    "0/0",
    "1/0",
    "-1/0",
    "math.maxinteger",
    "math.mininteger",
    "2^31",
    "-2^31",
    "2^53",
    "2^63",
    "0.5",
    "-0.5",
    "3.0",
    "'3'",
    "'x'",
    "''",
    "true",
    "false",
    "nil",
    "{}",
    "{ x = 1 }",
    "map",
    "ctx.rng",
    "print",
    "('x'):rep(300)",
    "setmetatable({}, { __index = function() return 1 end })",
];

const TERRAINS: &[&str] = &["'floor'", "'rock'", "'lava'", "''", "1", "nil", "{}"];

const OPTIONS: &[&str] = &[
    "nil",
    "{}",
    "{ priority = V }",
    "{ priority = 'room_floor' }",
    "{ priority = 'bogus' }",
    "{ force = V }",
    "{ region = V }",
    "{ region = 'r' }",
    "{ corridor = true, region = 'c' }",
    "{ first = 'vertical' }",
    "{ first = V }",
    "{ attempts = V, min_size = V, max_size = V }",
    "{ strategy = 'bsp', terrain = 'floor' }",
    "{ strategy = V, terrain = V }",
    "{ table = ctx.regions.spawn, max_per_area = V, depth = V }",
    "{ table = { { name = 'a', weight = V } }, max_per_area = V }",
    "{ trials = V, terrain = 'floor' }",
    "{ terrain = 'floor', priority = V, force = V }",
    "{ bogus = 1 }",
    "V",
];

const RECTS: &[&str] = &[
    "{ x = V, y = V, w = V, h = V }",
    "{ V, V, V, V }",
    "{ x = 1, y = 1, w = 5, h = 4 }",
    "{}",
    "V",
];

const LISTS: &[&str] = &[
    "{}",
    "{ R }",
    "{ R, R, R }",
    "{ { x = V, y = V }, { V, V } }",
    "{ 1, 2, 3 }",
    "{ { name = 'a', weight = V }, { weight = V } }",
    "ctx.regions.spawn",
    "V",
];

/// Call templates: V value, T terrain, O options, R rect, L list.
const CALLS: &[&str] = &[
    "map:in_bounds(V, V)",
    "map:is_edge(V, V)",
    "map:get(V, V)",
    "map:priority(V, V)",
    "map:region(V, V)",
    "map:is_solid(V, V)",
    "map:set(V, V, T, O)",
    "map:fill(T, O)",
    "map:fill_rect(R, T, O)",
    "map:outline_rect(R, T, O)",
    "map:write_edge(T)",
    "map:line(V, V, V, V, T, O)",
    "map:dogleg(V, V, V, V, T, O)",
    "map:add_room(R, V)",
    "map:add_door(V, V, V)",
    "map:add_stair(V, V, V)",
    "map:add_spawn(V, V, V)",
    "map:add_corridor(L, V)",
    "map:tag(V, V)",
    "map:rooms()",
    "map:corridors()",
    "map:count(T)",
    "map:open_count()",
    "local _ = map.width + map.height",
    "ctx.rng:int(V, V)",
    "ctx.rng:below(V)",
    "ctx.rng:chance(V)",
    "ctx.rng:float()",
    "ctx.rng:pick(L)",
    "ctx.rng:weighted(L, V)",
    "ctx.rng:shuffle(L)",
    "ctx.rng:stream(V):int(1, 6)",
    "ctx.rng:seed()",
    "math.random(V, V)",
    "math.random(V)",
    "math.random(V, V, V)",
    "warren.gen.scatter_rooms(map, ctx.rng, O)",
    "warren.gen.connect_rooms(map, ctx.rng, L, O)",
    "warren.gen.spawn_in_corridors(map, ctx.rng, O)",
    "warren.gen.join_areas(map, ctx.rng, O)",
    "warren.gen.scatter_rooms(V, V, V)",
    "warren.gen.scatter_rooms(map, ctx.rng, O):center(V)",
    "warren.gen.start_and_stairs(map, L, O)",
    "warren.gen.start_and_stairs(map, warren.gen.scatter_rooms(map, ctx.rng, O), O)",
    "ctx.metric(V, V)",
    "ctx.log(V, V)",
    "warren.rect(V, V, V, V):center()",
    "warren.rect(R):intersects(warren.rect(R), V)",
    "map.set(V, 1, 1, 'floor')",
    "ctx.rng.int(map, 1, 2)",
];

thread_local! {
    /// The current case's random choices, consumed as templates are filled.
    static PICKS: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One of `list`, chosen by the case's next random number.
fn pick<'a>(list: &[&'a str]) -> &'a str {
    let i = PICKS.with(|v| v.borrow_mut().pop().unwrap_or(0));
    list[i % list.len()]
}

/// Fills a template's holes (V value, T terrain, O options, R rect, L list) with random picks.
fn instantiate(template: &str) -> String {
    let mut out = String::new();
    for c in template.chars() {
        match c {
            'V' => out.push_str(pick(VALUES)),
            'T' => out.push_str(pick(TERRAINS)),
            'O' => out.push_str(&instantiate(pick(OPTIONS))),
            'R' => out.push_str(&instantiate(pick(RECTS))),
            'L' => out.push_str(&instantiate(pick(LISTS))),
            other => out.push(other),
        }
    }
    out
}

/// Every recorded cell and rectangle lies on the map; every cell holds a known terrain.
fn check_map(map: &Map, terrains: usize) -> Result<(), String> {
    if (map.width(), map.height()) != (W, H) || map.len() != (W * H) as usize {
        return Err(format!("map is {}×{}", map.width(), map.height()));
    }
    if let Some(t) = map
        .terrain_cells()
        .iter()
        .find(|&&t| t as usize >= terrains)
    {
        return Err(format!("unknown terrain id {t}"));
    }
    let inside = |p: &Point| p.x >= 0 && p.y >= 0 && p.x < W && p.y < H;
    let n = &map.notes;
    let doors: Vec<Point> = n.doors.iter().map(|d| d.at()).collect();
    let cells = n
        .corridors
        .iter()
        .flat_map(|c| c.cells.iter())
        .chain(&doors)
        .chain(&n.stairs.up)
        .chain(&n.stairs.down)
        .chain(n.rooms.iter().flat_map(|r| r.doors.iter()));
    if let Some(p) = cells.into_iter().find(|p| !inside(p)) {
        return Err(format!("annotation outside the map: {p:?}"));
    }
    if let Some(s) = n.spawns.iter().find(|s| !inside(&Point::new(s.x, s.y))) {
        return Err(format!("spawn outside the map: {s:?}"));
    }
    for r in &n.rooms {
        let corners = [
            Point::new(r.rect.x, r.rect.y),
            Point::new(r.rect.x2(), r.rect.y2()),
        ];
        if !corners.iter().all(inside) {
            return Err(format!("room outside the map: {:?}", r.rect));
        }
    }
    Ok(())
}

/// A recipe that runs the Lua code in its `code` parameter, loaded in its own directory (kept
/// alive by the returned guard).
fn fuzz_host() -> (tempfile::TempDir, Host) {
    let dir = temp_tree(&[(
        "scripts/fuzz.lua",
        "return { name = 'fuzz',
           params = { width = { default = 24 }, height = { default = 16 }, code = { default = '' } },
           generate = function(map, ctx) assert(load(ctx.params.code, '=calls'))(map, ctx) end }",
    )]);
    let host = Host::load(
        &dir.path().join("scripts/fuzz.lua"),
        registry(),
        Limits::default(),
    )
    .unwrap();
    (dir, host)
}

/// Runs `code` (which gets `map, ctx` as `...`) as the fuzz recipe's `generate`.
fn run_code(host: &Host, code: &str) -> Result<Map, warren_lua::Error> {
    let params = host
        .resolve_params(&[("code".into(), code.into())])
        .unwrap();
    host.generate(&Run {
        seed: 3,
        params: &params,
        depth: 1,
        above: None,
    })
}

/// Rectangles at the far ends of the range Lua integers and floats reach: corners, centres and
/// overlaps neither overflow (a panic, with overflow checks on) nor wrap into wrong answers.
#[test]
fn extreme_rectangles_neither_overflow_nor_wrap() {
    let (_dir, host) = fuzz_host();
    let code = "local low = warren.rect(math.mininteger, -2^31, math.mininteger, -2^31)
        local high = warren.rect{ x = math.maxinteger, y = 2^31, w = 2^31, h = math.maxinteger }
        for _, r in ipairs({ low, high }) do
          r:x2() r:y2() r:center() r:contains(0, 0) r:contains(math.mininteger, math.maxinteger)
          for _, m in ipairs({ 0, 1, 2^29, 2^30 }) do
            r:intersects(low, m) r:intersects(high, m)
            low:intersects(r, m) high:intersects(r, m)
          end
        end
        local a, b = warren.rect(0, 0, 1, 1), warren.rect(1000, 0, 1, 1)
        assert(a:intersects(b, 2^30) and a:intersects(b, 1000) and not a:intersects(b, 999))
        assert(not low:intersects(high, 2^30) and not high:intersects(low, 2^30))";
    if let Err(e) = run_code(&host, code) {
        panic!("{e}");
    }
}

#[test]
fn primitives_survive_random_arguments() {
    let (_dir, host) = fuzz_host();
    let terrains = registry().terrains().names().len();
    let strategy = prop::collection::vec(
        (0..CALLS.len(), prop::collection::vec(any::<usize>(), 64)),
        1..24,
    );
    let mut runner = TestRunner::new(Config::with_cases(600));
    runner
        .run(&strategy, |calls| {
            let mut code = String::from("local map, ctx = ...\n");
            for (call, picks) in &calls {
                PICKS.with(|v| *v.borrow_mut() = picks.clone());
                let text = instantiate(CALLS[*call]);
                code.push_str(&format!("pcall(function() {text} end)\n"));
            }
            match run_code(&host, &code) {
                Ok(map) => check_map(&map, terrains)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{code}")))?,
                // Every call runs under pcall, so only a budget may end the run early.
                Err(warren_lua::Error::Budget(_)) => {}
                Err(e) => return Err(TestCaseError::fail(format!("{e}\n{code}"))),
            }
            Ok(())
        })
        .unwrap();
}
