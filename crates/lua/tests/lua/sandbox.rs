//! The sandbox baseline: only safe libraries, text chunks only, confined `require`, strict and
//! read-only globals, deterministic iteration, budgets that hold.

use crate::common;
use crate::common::*;
use std::time::Duration;
use warren_lua::{Host, Limits, Run};

const PARAMS: &str = "params = { width = { default = 8 }, height = { default = 8 } }";

/// Runs `body` as the generate function of a recipe in a temp dir; returns the error text.
fn run_body(
    body: &str,
    extra: &[(&str, &str)],
    limits: Limits,
) -> Result<warren_core::map::Map, String> {
    let recipe =
        format!("return {{ name = 't', {PARAMS}, generate = function(map, ctx)\n{body}\nend }}");
    let mut files = vec![("scripts/t.lua", recipe.as_str())];
    files.extend_from_slice(extra);
    let dir = temp_tree(&files);
    let host = Host::load(&dir.path().join("scripts/t.lua"), registry(), limits)
        .map_err(|e| e.to_string())?;
    let p = host.resolve_params(&[]).unwrap();
    host.generate(&Run {
        seed: 1,
        params: &p,
        depth: 1,
        above: None,
    })
    .map_err(|e| e.to_string())
}

fn err(body: &str) -> String {
    run_body(body, &[], Limits::default()).expect_err(body)
}

#[test]
fn forbidden_globals_are_absent() {
    for expr in [
        "debug",
        "warn",
        "string.dump",
        "math.randomseed",
        "io.open",
        "io.read",
        "io.lines",
        "os.exit",
        "os.getenv",
        "os.execute",
        "os.remove",
        "os.rename",
        "os.tmpname",
        "os.setlocale",
        "package.cpath",
        "package.searchers",
        "package.searchpath",
        "package.loadlib",
    ] {
        run_body(
            &format!("assert({expr} == nil, '{expr} present')"),
            &[],
            Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    }
}

#[test]
fn bytecode_is_refused() {
    // A precompiled chunk (as string.dump would make): ESC "Lua" header.
    let e = run_body(
        "local f, msg = load('\\27Lua\\84\\0'); assert(f == nil); error(msg)",
        &[],
        Limits::default(),
    )
    .unwrap_err();
    assert!(e.contains("attempt to load a binary chunk"), "{e}");
    let e = run_body(
        "local f, msg = load('\\27Lua', 'x', 'b'); error(msg)",
        &[],
        Limits::default(),
    )
    .unwrap_err();
    assert!(e.contains("binary chunk"), "{e}");
    // Text chunks work.
    run_body(
        "assert(load('return 1 + 1')() == 2)",
        &[],
        Limits::default(),
    )
    .unwrap();
}

#[test]
fn require_is_confined_to_the_script_directory() {
    let lib = [
        ("scripts/lib/helper.lua", "return { answer = 42 }"),
        ("secret.lua", "return 'escaped'"),
    ];
    run_body(
        "assert(require('lib.helper').answer == 42)",
        &lib,
        Limits::default(),
    )
    .unwrap();
    run_body(
        "assert(require('lib/helper').answer == 42)",
        &lib,
        Limits::default(),
    )
    .unwrap();
    for name in ["../secret", "/etc/passwd", "..secret", "lib/../secret"] {
        let e = run_body(&format!("require('{name}')"), &lib, Limits::default()).unwrap_err();
        assert!(e.contains("is not a module name"), "{name}: {e}");
        assert!(e.contains("t.lua:2:"), "located: {e}");
    }
    let e = run_body("require('secret')", &lib, Limits::default()).unwrap_err();
    assert!(e.contains("module 'secret' not found"), "{e}");
}

#[cfg(unix)]
#[test]
fn require_refuses_symlinks_out_of_the_script_directory() {
    let dir = temp_tree(&[
        ("outside/evil.lua", "return 'escaped'"),
        (
            "scripts/t.lua",
            &format!("return {{ {PARAMS}, generate = function() require('evil') end }}"),
        ),
    ]);
    std::os::unix::fs::symlink(
        dir.path().join("outside/evil.lua"),
        dir.path().join("scripts/evil.lua"),
    )
    .unwrap();
    let host = Host::load(
        &dir.path().join("scripts/t.lua"),
        registry(),
        Limits::default(),
    )
    .unwrap();
    let p = host.resolve_params(&[]).unwrap();
    let e = host
        .generate(&Run {
            seed: 1,
            params: &p,
            depth: 1,
            above: None,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside the script directory"), "{e}");
}

#[test]
fn globals_and_standard_tables_are_the_runs_own_the_rest_read_only() {
    // As in stock Lua: undefined globals read as nil, globals and the standard tables may be
    // written (the next run starts from a fresh state, see tests/cli/determinism.rs).
    run_body(
        "local unpack = unpack or table.unpack
         assert(unpack({ 1 }) == 1 and undefined_name == nil)
         x = 1 assert(x == 1)
         function string.shout(s) return s .. '!' end assert(('a'):shout() == 'a!')
         table.random = function(t) return t[1] end assert(table.random({ 5 }) == 5)
         math.round = function(v) return math.floor(v + 0.5) end assert(math.round(1.5) == 2)",
        &[],
        Limits::default(),
    )
    .unwrap();
    let e = err("coroutine.wrap = nil");
    assert!(e.contains("read-only table 'coroutine'"), "{e}");
    let e = err("warren.rect = nil");
    assert!(e.contains("read-only table 'warren'"), "{e}");
    let e = err("getmetatable('').__index = {}");
    assert!(e.contains("attempt to index a boolean"), "{e}");
    let e = err("ctx.regions.rooms.floor = 'lava'");
    assert!(e.contains("read-only table 'ctx.regions"), "{e}");
}

#[test]
fn pairs_follows_lua_order_and_proxies_iterate_their_table() {
    // Lua's own order (the same in every process: tests/cli/determinism.rs), every key once.
    run_body(
        "local t = { zeta = 1, alpha = 2, [3] = 'c', [1] = 'a', mid = 3, [true] = 0 }
         local n = 0
         for k, v in pairs(t) do assert(t[k] == v) n = n + 1 end
         assert(n == 6, n)
         local m = 0
         for k, v in pairs(ctx.regions.rooms) do assert(ctx.regions.rooms[k] == v) m = m + 1 end
         assert(m > 0)",
        &[],
        Limits::default(),
    )
    .unwrap();
}

#[test]
fn math_random_is_the_seeded_generator() {
    let body = "map:tag('r', math.random(1, 1000000)); map:tag('f', math.random()); map:tag('c', ctx.rng:int(1, 1000000))";
    let a = run_body(body, &[], Limits::default()).unwrap();
    let b = run_body(body, &[], Limits::default()).unwrap();
    assert_eq!(a.notes.tags, b.notes.tags);
    let e = err("math.random(5, 1)");
    assert!(e.contains("interval is empty"), "{e}");
}

fn small() -> Limits {
    Limits {
        instructions: 20_000_000,
        memory: 64 << 20,
        time: Duration::from_secs(20),
    }
}

#[test]
fn userdata_answer_fields_items_and_methods_and_nil_for_anything_else() {
    let body = "local r = warren.gen.scatter_rooms(map, ctx.rng, { attempts = 1, min_size = 3, max_size = 3 })
        map:tag('size', map.width * 100 + map.height)
        map:tag('nils', tostring(map.nope) .. tostring(map[1]) .. tostring(r[0]) .. tostring(r[2]) .. tostring(r.x))
        map:tag('item', r[1].w * 10 + #r)
        map:tag('methods', type(map.set) .. type(r.sort) .. type(map.tag))";
    let map = run_body(body, &[], Limits::default()).unwrap();
    let tag = |k: &str| map.notes.tags.get(k).cloned();
    use warren_core::map::TagValue::{Int, Text};
    assert_eq!(tag("size"), Some(Int(808)));
    assert_eq!(tag("nils"), Some(Text("nilnilnilnilnil".into())));
    assert_eq!(tag("item"), Some(Int(31)));
    assert_eq!(
        tag("methods"),
        Some(Text("functionfunctionfunction".into()))
    );
}

#[test]
fn start_and_stairs_go_to_the_centres_of_the_chosen_rooms_and_bad_choices_are_refused() {
    let rooms = "local r = { { x = 1, y = 1, w = 3, h = 3 }, { x = 5, y = 2, w = 2, h = 2 } }";
    let map = run_body(
        &format!("{rooms} local sx, sy, dx, dy = warren.gen.start_and_stairs(map, r, {{ start = 2, down = 1, terrain = 'floor' }}) map:tag('back', sx * 1000 + sy * 100 + dx * 10 + dy)"),
        &[],
        Limits::default(),
    )
    .unwrap();
    use warren_core::map::{Point, TagValue::Int};
    assert_eq!(map.notes.tags.get("start_x"), Some(&Int(5)));
    assert_eq!(map.notes.tags.get("start_y"), Some(&Int(2)));
    assert_eq!(map.notes.tags.get("back"), Some(&Int(5222)));
    assert_eq!(map.notes.stairs.down, vec![Point::new(2, 2)]);
    assert_eq!(
        map.terrain_at(Point::new(2, 2)).ok(),
        map.terrains().id("floor")
    );
    let call = "t.lua:2: warren.gen.start_and_stairs:";
    for (body, wanted) in [
        (
            "warren.gen.start_and_stairs(map, {})",
            "the room list is empty",
        ),
        (
            &format!("{rooms} warren.gen.start_and_stairs(map, r, {{ down = 3 }})"),
            "opts.down = 3 is not a room of the list (1..=2)",
        ),
        (
            &format!("{rooms} warren.gen.start_and_stairs(map, r, {{ start = 1.5 }})"),
            "opts.start must be an integer ≥ 1, got 1.5",
        ),
        (
            &format!("{rooms} warren.gen.start_and_stairs(map, r, {{ first = 1 }})"),
            "unknown option 'first' in opts (valid: start, down, terrain)",
        ),
        (
            &format!("{rooms} warren.gen.start_and_stairs(map, r, {{ terrain = 'lava' }})"),
            "unknown terrain 'lava'",
        ),
        (
            "warren.gen.start_and_stairs(map, { { x = 7, y = 7, w = 3, h = 3 } })",
            "room (9, 9) is outside the 8×8 map",
        ),
    ] {
        let e = err(body);
        assert!(e.contains(&format!("{call} {wanted}")), "{body}: {e}");
    }
}

#[test]
fn a_rectangle_list_gives_centres_and_refuses_indexes_outside_it() {
    let scatter = "local r = warren.gen.scatter_rooms(map, ctx.rng, { attempts = 1, min_size = 3, max_size = 3 })";
    let map = run_body(
        &format!(
            "{scatter} local x, y = r:center(1) map:tag('ok', x == r[1].x + 1 and y == r[1].y + 1)"
        ),
        &[],
        Limits::default(),
    )
    .unwrap();
    assert_eq!(
        map.notes.tags.get("ok"),
        Some(&warren_core::map::TagValue::Bool(true))
    );
    for (index, shown) in [("2", "2"), ("0", "0"), ("'a'", "\"a\"")] {
        let e = err(&format!("{scatter} r:center({index})"));
        assert!(
            e.contains(&format!(
                "t.lua:2: rects:center: argument 1 (i) = {shown} is not a rectangle of the list (1..=1)"
            )),
            "{e}"
        );
    }
}

#[test]
fn runaway_scripts_are_stopped_even_through_pcall_and_coroutines() {
    let cases = [
        "while true do end",
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function(e) return e end) end",
        "local co = coroutine.create(function() while true do end end)
         while true do coroutine.resume(co) end",
        "local f = coroutine.wrap(function() while true do end end)
         while true do pcall(f) end",
    ];
    // Each overflow grows and gives back a stack a million slots deep: CPU work between few
    // instructions, so on a loaded machine the clock can run out before the instruction budget.
    let overflows = "local function r(n) return r(n + 1) + 1 end while true do pcall(r, 1) end";
    for body in cases.into_iter().chain([overflows]) {
        let e = run_body(body, &[], small()).expect_err(body);
        let stopped_by = |what: &str| e.contains(what);
        assert!(
            stopped_by("instruction budget exceeded (20000000 instructions")
                || body == overflows && stopped_by("time budget exceeded (20 s"),
            "{body}: {e}"
        );
        assert!(e.contains("t.lua:"), "names the line reached: {e}");
    }
}

#[test]
fn the_last_usage_is_the_generations_instructions_memory_and_whole_time() {
    let host = common::host("rooms.lua");
    let params = common::params(&host, &[]);
    let run = Run {
        seed: 3,
        params: &params,
        depth: 1,
        above: None,
    };
    host.generate(&run).expect("rooms.lua generates");
    let usage = host.last_usage();
    assert!(usage.instructions > 1_000, "{usage:?}");
    assert!(
        usage.peak_memory > 80 * 50,
        "the map is in the account: {usage:?}"
    );
    assert!(usage.time > Duration::ZERO, "{usage:?}");
    assert_eq!(
        usage.time,
        host.phases().total(),
        "one clock ends the generation"
    );
}

#[test]
fn memory_bombs_hit_the_memory_limit() {
    let cases = [
        "local t, s, i = {}, ('x'):rep(1 << 20), 0 while true do i = i + 1 t[i] = s .. i end",
        "local t = {} local i = 0 while true do i = i + 1 t[i] = {i, i, i} end",
        "while true do pcall(string.rep, 'x', 1 << 23) local t = {} for i = 1, 1e7 do t[i] = i end end",
    ];
    for body in cases {
        let e = run_body(body, &[], small()).expect_err(body);
        assert!(e.contains("memory limit exceeded (64 MiB"), "{body}: {e}");
    }
    let e = run_body("local s = 'x' while true do s = s .. s end", &[], small()).unwrap_err();
    assert!(
        e.contains("t.lua:2: string size limit exceeded (a single string may hold at most 16 MiB)"),
        "{e}"
    );
}

#[test]
fn runtime_errors_name_file_and_line() {
    let e = err("local t = nil\nlocal x = t.field");
    assert!(e.contains("t.lua:3: attempt to index a nil value"), "{e}");
    let e = err("map:set(99, 0, 'floor')");
    assert!(
        e.contains("t.lua:2: map:set: (99, 0) is outside the 8×8 map"),
        "{e}"
    );
    let e = err("map:set(1, 1, 'lava')");
    assert!(
        e.contains("t.lua:2: map:set: unknown terrain 'lava' (known: ") && e.contains("'rock'"),
        "{e}"
    );
    let e = err("map:fill_rect({x = 1, y = 1, w = 3, h = 3}, 'floor', { prio = 70 })");
    assert!(
        e.contains("unknown option 'prio' in opts (did you mean 'priority'?) (valid: priority, force, region)"),
        "{e}"
    );
    let e = err("map:set(1.5, 1, 'floor')");
    assert!(
        e.contains("map:set: argument 1 (x) must be an integer, got 1.5"),
        "{e}"
    );
}

#[test]
fn syntax_errors_name_file_line_and_the_problem() {
    let dir = temp_tree(&[(
        "scripts/bad.lua",
        "return {\n  params = {\n  generate = function( end\n}",
    )]);
    let e = Host::load(
        &dir.path().join("scripts/bad.lua"),
        registry(),
        Limits::default(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("bad.lua:3:"), "{e}");
}

#[test]
fn recipes_must_declare_width_and_height() {
    let dir = temp_tree(&[("scripts/r.lua", "return {\n  params = {\n    size = { default = 3 },\n  },\n  generate = function() end,\n}")]);
    let e = Host::load(
        &dir.path().join("scripts/r.lua"),
        registry(),
        Limits::default(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("r.lua:2: recipe must declare an integer parameter 'width'"),
        "{e}"
    );
    let dir = temp_tree(&[("scripts/r.lua", "return {\n  params = {\n    width = { default = 'wide' },\n  },\n  generate = function() end,\n}")]);
    let e = Host::load(
        &dir.path().join("scripts/r.lua"),
        registry(),
        Limits::default(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("r.lua:3:"), "{e}");
}

#[test]
fn state_reuse_leaves_nothing_behind() {
    let host = host("rooms.lua");
    let p = params(&host, &[]);
    let first = generate(&host, 5, &p);
    for seed in 0..20 {
        generate(&host, seed, &p);
    }
    let again = generate(&host, 5, &p);
    assert_eq!(first.terrain_cells(), again.terrain_cells());
    assert_eq!(first.notes, again.notes);
}

#[test]
fn a_map_or_rng_kept_from_an_earlier_run_is_the_current_one() {
    // The recipe keeps the first run's `map` and `ctx.rng` and draws and writes through them
    // in every later run: those handles stand for the run in progress, so every run matches a
    // fresh host's.
    let recipe = format!(
        "local kept_map, kept_rng\n\
         return {{ name = 't', {PARAMS}, generate = function(map, ctx)\n\
           kept_map, kept_rng = kept_map or map, kept_rng or ctx.rng\n\
           kept_map:set(kept_rng:int(1, 6), kept_rng:int(1, 6), 'floor')\n\
           assert(kept_map.width == map.width)\n\
         end }}"
    );
    let dir = temp_tree(&[("scripts/t.lua", recipe.as_str())]);
    let load = || {
        Host::load(
            &dir.path().join("scripts/t.lua"),
            registry(),
            Limits::default(),
        )
    };
    let reused = load().expect("loads");
    let p = reused.resolve_params(&[]).expect("defaults");
    for seed in 0..10 {
        let fresh = load().expect("loads");
        let (a, b) = (generate(&reused, seed, &p), generate(&fresh, seed, &p));
        assert_eq!(a.terrain_cells(), b.terrain_cells(), "seed {seed}");
        assert!(
            a.terrain_cells().iter().any(|&t| t != a.terrain_cells()[0]),
            "a cell was set"
        );
    }
}
