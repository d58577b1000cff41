//! A corpus of hostile recipes: each must be stopped (within its budget plus a small margin)
//! with the error it names, and the same host must generate normally right afterwards.
//!
//! Every body runs only for seed 1; seed 2 runs the same recipe with nothing to do, proving that
//! no budget, allocator or library state stays broken after an attack.

use crate::common::*;
use std::time::{Duration, Instant};
use warren_lua::{Host, Limits, Run};

const INSTR: &str = "instruction budget exceeded (5000000 instructions";
const MEMORY: &str = "memory limit exceeded (32 MiB";
const STRING: &str = "string size limit exceeded (a single string may hold at most 16 MiB)";

fn limits() -> Limits {
    Limits {
        instructions: 5_000_000,
        memory: 32 << 20,
        time: Duration::from_millis(500),
    }
}

/// Work that is slow per step (C calls from Rust, Lua stack growth) may meet the clock or the
/// memory limit before the instruction budget; any of them stops it.
const DEEP: &str = "instruction budget exceeded (5000000 instructions|memory limit exceeded (32 MiB|time budget exceeded (0.5 s";

/// Loops whose every step is long C work (sorting 100,000 items, writing a log line) may meet
/// the 0.5 s clock before the instruction budget on a loaded machine; either stops them.
const SLOW_STEPS: &str =
    "instruction budget exceeded (5000000 instructions|time budget exceeded (0.5 s";

/// (what it tries, recipe body, text the error must contain; `|` separates alternatives).
const CORPUS: &[(&str, &str, &str)] = &[
    // Runaway loops, however they are dressed up.
    ("while", "while true do end", INSTR),
    ("repeat", "repeat until false", INSTR),
    ("numeric for", "for i = 1, math.huge do end", INSTR),
    ("goto", "::top:: goto top", INSTR),
    ("tail calls", "local function f() return f() end f()", INSTR),
    ("pcall", "while true do pcall(function() while true do end end) end", INSTR),
    ("xpcall", "while true do xpcall(function() while true do end end, function(e) return e end) end", INSTR),
    ("xpcall handler", "xpcall(error, function() while true do end end)", INSTR),
    ("nested pcall", "local function n(d) if d == 0 then while true do end end pcall(n, d - 1) end while true do n(150) end", INSTR),
    // A table made per step: on a loaded machine the collector's work can meet the clock first.
    ("error object", "while true do pcall(error, {}) end", SLOW_STEPS),
    ("coroutine.resume", "local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end", INSTR),
    ("coroutine.wrap", "local f = coroutine.wrap(function() while true do end end) while true do pcall(f) end", INSTR),
    ("yield forever", "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end", INSTR),
    // Thread creation is slow enough that a loaded machine may reach the clock first.
    ("coroutine.close", "while true do local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) coroutine.close(co) end", "instruction budget exceeded (5000000 instructions|time budget exceeded (0.5 s"),
    ("recursion", "local function r(n) return r(n + 1) + 1 end while true do pcall(r, 1) end", DEEP),
    ("__index loop", "local t = setmetatable({}, { __index = function() while true do end end }) local _ = t.x", INSTR),
    ("__tostring loop", "tostring(setmetatable({}, { __tostring = function() while true do end end }))", INSTR),
    ("load'ed loop", "load('while true do end')()", INSTR),
    // Patterns: exponential backtracking runs in Rust and pays per step; each step is slow C
    // work, so on a loaded machine the clock may stop it first.
    ("find", "string.find(('a'):rep(30), ('a-'):rep(30) .. 'b')", SLOW_STEPS),
    ("method find", "local s = ('a'):rep(30) s:find(('a-'):rep(30) .. 'b')", SLOW_STEPS),
    ("match", "string.match(('a'):rep(30), ('a-'):rep(30) .. 'b')", SLOW_STEPS),
    ("gmatch", "for _ in (('a'):rep(30)):gmatch(('a-'):rep(30) .. 'b') do end", SLOW_STEPS),
    ("gsub", "string.gsub(('a'):rep(30), ('a-'):rep(30) .. 'b', 'x')", SLOW_STEPS),
    ("star backtracking", "string.find(('a'):rep(5000), ('a*'):rep(40) .. 'b')", INSTR),
    ("plain find", "local s = ('a'):rep(1 << 20) string.find(s, ('a'):rep(1 << 16) .. 'b', 1, true)", INSTR),
    ("balanced", "local s = ('('):rep(1 << 20) for i = 1, 1e6 do s:find('%b()') end", INSTR),
    ("gsub callback", "string.gsub('abc', '%w', function() while true do end end)", INSTR),
    // C loops that no hook could stop, now in Lua or charged Rust.
    ("table.move", "table.move({}, 1, 1 << 50, 2)", INSTR),
    ("table.insert __len", "local t = setmetatable({}, { __len = function() return 1 << 60 end, __index = rawlen, __newindex = function() end }) table.insert(t, 1, 0)", INSTR),
    ("table.remove __len", "local t = setmetatable({}, { __len = function() return 1 << 60 end, __index = rawlen, __newindex = function() end }) table.remove(t, 1)", INSTR),
    ("table.concat __index", "local t = setmetatable({}, { __index = rawlen }) table.concat(t, '', 1, 1 << 50)", INSTR),
    ("table.sort __len", "local t = setmetatable({}, { __len = function() return (1 << 31) - 2 end, __index = rawlen, __newindex = function() end }) table.sort(t)", INSTR),
    ("table.sort comparator", "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function() while true do end end)", INSTR),
    ("table.sort repeated", "local t = {} for i = 1, 1e5 do t[i] = -i end while true do table.sort(t) end", SLOW_STEPS),
    // Refused at the list cap, or stopped by the clock first on a loaded machine.
    ("rng:pick endless list", "ctx.rng:pick(setmetatable({}, { __index = rawlen }))", "t.lua:3: rng:pick: argument 1 (list) has more than 4194304 items|t.lua:3: time budget exceeded (0.5 s|t.lua:3: instruction budget exceeded (5000000 instructions|t.lua:3: memory limit exceeded (32 MiB"),
    ("connect_rooms endless list", "warren.gen.connect_rooms(map, ctx.rng, setmetatable({}, { __index = function() return { x = 1, y = 1, w = 1, h = 1 } end }), { terrain = 'floor' })", DEEP),
    ("map:fill loop", "while true do map:fill('floor') end", INSTR),
    ("map:count loop", "while true do map:count('floor') end", INSTR),
    ("print flood", "while true do print('flood') end", SLOW_STEPS),
    ("region names", "for i = 1, 1e9 do map:set(1, 1, 'floor', { region = 'r' .. i }) end", INSTR),
    // Memory.
    ("table growth", "local t = {} local i = 0 while true do i = i + 1 t[i] = { i } end", MEMORY),
    ("strings in a table", "local t, s = {}, ('x'):rep(1 << 20) for i = 1, 1e6 do t[i] = s .. i end", MEMORY),
    ("closures", "local t = {} for i = 1, 1e8 do t[i] = function() return i end end", MEMORY),
    ("coroutines", "local t = {} for i = 1, 1e8 do t[i] = coroutine.create(print) end", MEMORY),
    // Stock Lua's own size check refuses these before the budget is asked.
    ("string.rep huge", "local s = string.rep('x', 1 << 40)", "resulting string too large"),
    ("string.rep separator", "local s = string.rep('x', 1 << 30, ', ')", "resulting string too large"),
    ("doubling", "local s = 'x' while true do s = s .. s end", STRING),
    // `string.rep` pays per copy: ten million copies cost more than the test's budget.
    ("format", "local s = ('x'):rep(10 << 20) local t = ('%s%s'):format(s, s)", INSTR),
    ("gsub growth", "local s = ('x'):rep(1 << 20) local t = s:gsub('x', ('y'):rep(64))", "string size limit exceeded|memory limit exceeded (32 MiB"),
    ("concat growth", "local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 10):rep(1 << 10) end local s = table.concat(t)", "memory limit exceeded (32 MiB|instruction budget exceeded (5000000 instructions"),
    ("tags", "local s = ('x'):rep(1 << 16) for i = 1, 1e6 do map:tag('k' .. i, s) end", MEMORY),
    ("metrics", "local s = ('x'):rep(1 << 16) for i = 1, 1e6 do ctx.metric(s .. i, 1) end", MEMORY),
    ("spawns", "local s = ('x'):rep(1 << 16) for i = 1, 1e6 do map:add_spawn(1, 1, s) end", MEMORY),
    ("rooms", "local s = ('x'):rep(1 << 16) for i = 1, 1e6 do map:add_room({ x = 1, y = 1, w = 1, h = 1 }, s) end", MEMORY),
    // Work in C proportional to a string's length: charged by the patched Lua.
    ("utf8.len", "local s = ('x'):rep(1 << 10):rep(15 << 10) while true do utf8.len(s) end", INSTR),
    ("tonumber", "local s = ('1'):rep(1 << 10):rep(15 << 10) while true do tonumber(s) end", INSTR),
    ("compare", "local a = ('x'):rep(1 << 10):rep(8 << 10) local b = a:sub(2) .. 'y' while true do local _ = a < b end", INSTR),
    ("upper", "local s = ('x'):rep(1 << 10):rep(4 << 10) while true do local _ = s:upper() end", INSTR),
    // Errors instead of work.
    ("unpack range", "table.unpack({}, 1, 1e8)", "too many results to unpack"),
    ("select unpack", "select('#', table.unpack({}, 1, 1e8))", "too many results to unpack"),
    ("format width", "string.format('%99999d', 1)", "invalid conversion"),
    ("stack overflow", "local function r() return 1 + r() end r()", "stack overflow|memory limit exceeded (32 MiB"),
    ("C stack: gsub", "local function f(s) return (s:gsub('.', f)) end f('abc')", "stack overflow"),
    ("C stack: __tostring", "local t t = setmetatable({}, { __tostring = function() return tostring(t) end }) tostring(t)", "stack overflow"),
    ("C stack: coroutines", "local function nest() return coroutine.wrap(nest)() end nest()", "stack overflow"),
    ("__index loop chain", "local t = {} setmetatable(t, { __index = t }) local _ = t.x", "'__index' chain too long"),
    ("load depth", "assert(load('return ' .. ('{'):rep(1000) .. ('}'):rep(1000)))", "chunk has too many nested levels"),
    ("load size", "assert(load(('-'):rep(1 << 10):rep(2 << 10)))", "chunk is larger than 1048576 bytes"),
    ("load reader", "assert(load(function() return ('x'):rep(1000) end))", "chunk is larger than 1048576 bytes"),
    ("load bytecode", "assert(load('\\27Lua'))", "attempt to load a binary chunk"),
    ("<close> replacing", "do local x <close> = setmetatable({}, { __close = function() error('replaced') end }) while true do end end", INSTR),
    ("__gc", "setmetatable({}, { __gc = function() end })", "__gc metamethods are not available"),
    // Stock Lua would copy nothing 2^62 times.
    ("empty rep", "assert(string.rep('', 1 << 62) == '') error('done')", INSTR),
    // Weights that are each finite but add up past the largest number (they once drew as 0).
    ("weighted total", "ctx.rng:weighted({ { weight = 1.7e308 }, { weight = 1.7e308 } })", "t.lua:3: rng:weighted: item 2 has weight 1.7e308, which takes the total past the largest number"),
    ("weighted key total", "ctx.rng:weighted({ { w = 1e308 }, { w = 0 }, { w = 1e308 } }, 'w')", "t.lua:3: rng:weighted: item 3 has weight 1e308, which takes the total"),
    ("spawn total", "warren.gen.spawn_in_corridors(map, ctx.rng, { table = { { name = 'a', weight = 1.7e308 }, { name = 'b', weight = 1.7e308 } } })", "t.lua:3: warren.gen.spawn_in_corridors: opts.table entry 'b' has weight 1.7e308, which takes the total"),
    ("corridor total", "local c = { name = 'a', weight = 1.7e308, floor = 'floor', walls = 'rock wall', door = 'door' } warren.tunnel.new(map, { dungeon = {}, corridor = { c, { name = 'b', weight = 1.7e308, floor = 'floor', walls = 'rock wall', door = 'door' } } }, {})", "t.lua:3: warren.tunnel.new: corridor 'b' has weight 1.7e308, which takes the total"),
    ("corridor negative", "warren.tunnel.new(map, { dungeon = {}, corridor = { { name = 'a', weight = -1, floor = 'floor', walls = 'rock wall', door = 'door' } } }, {})", "t.lua:3: warren.tunnel.new: argument 2 (regions).corridor[1]: weight = -1 is not a valid weight (a finite number ≥ 0)"),
    ("room total", "local level = warren.dungeon.init_level(map, { width = 16, height = 16, panel_width = 16, panel_height = 16 }) local r = { name = 'a', weight = 1.7e308, kind = 'normal', floor = 'floor', wall = 'rock wall', door = 'door' } warren.dungeon.draw_rooms(map, ctx.rng, level, { r, r }, { min_width = 5, max_width = 8, min_height = 5, max_height = 8 })", "t.lua:3: warren.dungeon.draw_rooms: room 'a' has weight 1.7e308, which takes the total"),
    // Errors that once reached the user without a line.
    ("error with a table", "error({})", "t.lua:3: error({})"),
    ("error with nil", "error(nil)", "t.lua:3: error(nil)"),
    ("error at level 0", "error('no place', 0)", "t.lua:3: no place"),
    ("error in __tostring", "ctx.log(setmetatable({}, { __tostring = function() error({}) end }))", "t.lua:3: error object is a table value"),
    ("error in a coroutine", "coroutine.wrap(function() error({}) end)()", "t.lua:3: error({})"),
    ("dungeon.init_level argument", "warren.dungeon.init_level(5)", "t.lua:3: warren.dungeon.init_level: argument 1 (map) must be a map, got 5"),
    ("dungeon.draw_rooms argument", "warren.dungeon.draw_rooms(map, ctx.rng, 5)", "t.lua:3: warren.dungeon.draw_rooms: argument 3 (level) must be a warren.Level, got 5"),
    ("tunnel.new argument", "warren.tunnel.new(map, 5)", "t.lua:3: warren.tunnel.new: argument 2 (regions) must be a table (warren.Regions), got 5"),
    ("town.new argument", "warren.town.new(5)", "t.lua:3: warren.town.new: argument 1 (opts) must be a table (warren.TownOptions), got 5"),
    ("town method with a dot", "warren.town.new{}.fill(5)", "t.lua:3: town:fill: called on 5 instead of a warren.Town (call it with a colon: town:fill())"),
    // A budget that runs out inside a C function: still the line of the call.
    ("string in a C function", "local s = ('x'):rep(10 << 20) local t = ('%s%s'):format(s, s)", "t.lua:3: instruction budget exceeded|t.lua:3: string size limit exceeded|t.lua:3: memory limit exceeded (32 MiB|t.lua:2: memory limit exceeded (32 MiB"),
    // Reaching past the sandbox.
    ("io", "io.open('/etc/passwd')", "attempt to call a nil value (field 'open')"),
    ("os", "os.exit(1)", "attempt to call a nil value (field 'exit')"),
    ("os.getenv", "os.getenv('HOME')", "attempt to call a nil value (field 'getenv')"),
    ("debug", "debug.sethook()", "attempt to index a nil value (global 'debug')"),
    ("package.loadlib", "package.loadlib('x', 'y')", "attempt to call a nil value (field 'loadlib')"),
    ("package.path", "assert(package.cpath == nil and package.searchers == nil) error('done')", "t.lua:3: done"),
    ("collectgarbage", "collectgarbage('setmemorylimit')", "t.lua:3: bad argument #1 to 'collectgarbage' (invalid option 'setmemorylimit')"),
    ("loadfile outside", "assert(dofile('../../../../../../../../../../etc/passwd'))", "outside the script directory"),
    ("loadfile absolute", "dofile('/etc/passwd')", "outside the script directory"),
    ("string.dump", "string.dump(print)", "attempt to call a nil value (field 'dump')"),
    ("rawset on warren", "rawset(warren, 'gen', nil)", "t.lua:3: cannot modify read-only table 'warren' (key gen)"),
    // `ctx.params` outlives a run (it is rebuilt only when the values change): a raw write
    // would reach the next map.
    ("rawset on ctx.params", "rawset(ctx.params, 'width', 1)", "cannot modify read-only table 'ctx.params' (key width)"),
    ("rawset on a list", "rawset(ctx.regions.spawn, 1, false)", "cannot modify read-only table 'ctx.regions.spawn' (key 1)"),
    ("table.insert read-only", "table.insert(ctx.regions.spawn, 1, 'x')", "cannot modify read-only table 'ctx.regions.spawn'"),
    ("newindex into read-only", "setmetatable({}, { __newindex = warren.gen }).fill = print", "cannot modify read-only table 'warren.gen' (key fill)"),
    ("require path", "require('../secret')", "is not a module name"),
    ("require absolute", "require('/etc/passwd')", "is not a module name"),
    ("string metatable", "getmetatable('').__index = {}", "attempt to index a boolean value"),
    // The run's own string table, which string methods follow (the next run gets a fresh one).
    ("string library", "string.find = nil ('x'):find('x')", "attempt to call a nil value (method 'find')"),
    ("pairs leak", "local _, t = pairs(warren) t.gen = nil", "cannot modify read-only table 'warren' (key gen)"),
    ("next on read-only", "local k = next(warren) warren[k] = nil", "cannot modify read-only table 'warren' (key"),
    ("rect metatable", "warren.rect(1, 1, 1, 1).__index.center = nil", "attempt to index a nil value (field '__index')"),
    ("map metatable", "getmetatable(map).__index = nil", "attempt to index a boolean value"),
    ("shuffle read-only", "ctx.rng:shuffle(ctx.regions.spawn)", "cannot modify read-only table 'ctx.regions.spawn'"),
    ("regions", "ctx.regions.rooms.floor = 'lava'", "cannot modify read-only table 'ctx.regions.rooms'"),
    ("warren", "warren.gen.fill = print", "cannot modify read-only table 'warren.gen'"),
    ("undefined global", "local v = undefined_thing error(tostring(v))", "t.lua:3: nil"),
];

/// Whether `msg` starts with `file:line: `.
fn located(msg: &str) -> bool {
    msg.split_once(": ")
        .and_then(|(head, _)| head.rsplit_once(':'))
        .is_some_and(|(file, line)| {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        })
}

fn host_for(body: &str) -> (tempfile::TempDir, Host) {
    let recipe = format!(
        "return {{ name = 't', params = {{ width = {{ default = 16 }}, height = {{ default = 16 }} }},\n\
         generate = function(map, ctx) if ctx.seed ~= 1 then return end\n{body}\nend }}"
    );
    let dir = temp_tree(&[("scripts/t.lua", recipe.as_str())]);
    let host = Host::load(&dir.path().join("scripts/t.lua"), registry(), limits())
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    (dir, host)
}

#[test]
fn every_hostile_recipe_is_stopped_with_its_error_and_the_host_recovers() {
    assert!(CORPUS.len() >= 50, "{} cases", CORPUS.len());
    let mut failures = Vec::new();
    for (what, body, expected) in CORPUS {
        let (_dir, host) = host_for(body);
        let p = host.resolve_params(&[]).unwrap();
        let run = |seed| {
            host.generate(&Run {
                seed,
                params: &p,
                depth: 1,
                above: None,
            })
        };
        let started = Instant::now();
        let outcome = run(1);
        let took = started.elapsed();
        match outcome {
            Ok(_) => failures.push(format!("{what}: not stopped")),
            Err(e) if !located(&e.to_string()) => {
                failures.push(format!("{what}: no file:line in: {e}"))
            }
            Err(e) if !expected.split('|').any(|x| e.to_string().contains(x)) => {
                failures.push(format!("{what}: expected '{expected}', got: {e}"))
            }
            Err(e) if e.exit_code() != 1 => failures.push(format!("{what}: exit code of {e}")),
            Err(_) => {}
        }
        // The time budget plus a margin for the test machine being busy.
        if took > Duration::from_millis(2500) {
            failures.push(format!("{what}: took {took:?}"));
        }
        if let Err(e) = run(2) {
            failures.push(format!("{what}: the host did not recover: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn budget_errors_name_the_recipe_line_and_limit() {
    let (_dir, host) = host_for("local x = 0\nwhile true do x = x + 1 end");
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
    assert!(e.contains("t.lua:4: instruction budget exceeded (5000000 instructions; raise it with --max-instructions)"), "{e}");
}

#[test]
fn close_attributes_work_as_in_stock_lua() {
    // Fatal mode keeps `<close>` handlers from catching or replacing a budget error (see
    // lua_runtime.rs), so to-be-closed variables are allowed again.
    let dir = temp_tree(&[(
        "scripts/t.lua",
        "return { params = { width = { default = 8 }, height = { default = 8 } },\n  generate = function(map)\n    do local x <close> = setmetatable({}, { __close = function() map:tag('closed', 'yes') end }) end\n  end }",
    )]);
    let host = Host::load(&dir.path().join("scripts/t.lua"), registry(), limits()).unwrap();
    let params = host.resolve_params(&[]).unwrap();
    let map = host
        .generate(&Run {
            seed: 1,
            params: &params,
            depth: 1,
            above: None,
        })
        .unwrap();
    assert!(matches!(
        map.notes.tags.get("closed"),
        Some(warren_core::map::TagValue::Text(t)) if t == "yes"
    ));
}

#[test]
fn runaway_top_level_code_is_a_budget_error_at_load() {
    let dir = temp_tree(&[("scripts/t.lua", "while true do end")]);
    let e = Host::load(&dir.path().join("scripts/t.lua"), registry(), limits())
        .err()
        .unwrap();
    assert!(matches!(e, warren_lua::Error::Budget(_)), "{e}");
    assert!(
        e.to_string()
            .contains("t.lua:1: instruction budget exceeded"),
        "{e}"
    );
}
