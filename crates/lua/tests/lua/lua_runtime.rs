//! The patched Lua 5.4 in `crates/lua-src` (see its WARREN.md), tested through mlua and the raw
//! `lua_warren_*` API: deterministic iteration and ids across processes, no weak tables, the
//! hookless instruction budget, fatal mode, pristine tracking, userdata field tables, and the
//! fast calls' one-call readers of arguments, options tables and their receiver.

use mlua::{ffi, IntoLuaMulti, Lua};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CString};
use std::process::Command;
use std::time::{Duration, Instant};
use warren_lua::ffi::*;

/// Runs `f` on the raw state.
fn raw<R>(lua: &Lua, f: impl FnOnce(*mut ffi::lua_State) -> R) -> R {
    let mut out = None;
    // SAFETY: the closures below only use the `lua_warren_*` API and balanced stack operations.
    unsafe { lua.exec_raw::<()>((), |l| out = Some(f(l))).unwrap() };
    out.unwrap()
}

/// A budget: `limit` instructions in chunks of `CHUNK`; past the limit, fatal mode and an error.
struct Budget {
    limit: i64,
    used: Cell<i64>,
    given: Cell<i64>,
    calls: Cell<u64>,
    /// The current line of the running function when the budget ran out.
    line: Cell<i32>,
    msg: CString,
}

const CHUNK: i64 = 10_000;

unsafe extern "C" fn on_budget(l: *mut ffi::lua_State, ud: *mut c_void) -> *const c_char {
    let b = &*(ud as *const Budget);
    b.calls.set(b.calls.get() + 1);
    let counter = lua_warren_getcounter(l);
    b.used.set(b.used.get() + b.given.get() - counter);
    b.given.set(0);
    if b.used.get() >= b.limit || lua_warren_getfatal(l) != 0 {
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        if b.line.get() == 0 && ffi::lua_getstack(l, 0, &mut ar) != 0 {
            ffi::lua_getinfo(l, c"l".as_ptr(), &mut ar);
            b.line.set(ar.currentline);
        }
        lua_warren_setfatal(l, 1);
        return b.msg.as_ptr();
    }
    b.given.set(CHUNK);
    lua_warren_setcounter(l, CHUNK);
    std::ptr::null()
}

/// A state, the budget its callback reads (kept alive here) and the raw state: the callback is
/// unregistered before the budget goes.
struct Budgeted(Lua, #[allow(dead_code)] Box<Budget>, *mut ffi::lua_State);

impl Drop for Budgeted {
    fn drop(&mut self) {
        // Straight on the pointer: calling through mlua would be a Lua call, which fatal mode
        // refuses.
        unsafe {
            lua_warren_setbudget(self.2, None, std::ptr::null_mut());
            lua_warren_setfatal(self.2, 0);
        }
    }
}

impl std::ops::Deref for Budgeted {
    type Target = Lua;
    fn deref(&self) -> &Lua {
        &self.0
    }
}

/// A fresh state with `limit` instructions of budget.
fn budgeted(limit: i64) -> (Budgeted, &'static Budget) {
    let lua = Lua::new();
    let b = Box::new(Budget {
        limit,
        used: Cell::new(0),
        given: Cell::new(CHUNK),
        calls: Cell::new(0),
        line: Cell::new(0),
        msg: CString::new("budget exceeded").unwrap(),
    });
    let ud = &*b as *const Budget as *mut c_void;
    let state = raw(&lua, |l| unsafe {
        lua_warren_setbudget(l, Some(on_budget), ud);
        lua_warren_setcounter(l, CHUNK);
        l
    });
    // SAFETY: the box lives in `Budgeted`, which unregisters the callback before it goes; the
    // reference handed out is only used while the state lives.
    let r = unsafe { &*(&*b as *const Budget) };
    (Budgeted(lua, b, state), r)
}

/// Runs `code` under a budget of `limit`; the error message (if any) and the time it took.
fn run_budgeted(
    limit: i64,
    code: &str,
) -> (Result<(), String>, Duration, Budgeted, &'static Budget) {
    let (lua, b) = budgeted(limit);
    let start = Instant::now();
    let r = lua.load(code).exec().map_err(|e| e.to_string());
    (r, start.elapsed(), lua, b)
}

fn assert_stopped(code: &str) {
    let (r, took, _lua, b) = run_budgeted(5_000_000, code);
    let err = r.expect_err(&format!("not stopped: {code}"));
    assert!(err.contains("budget exceeded"), "{code}: {err}");
    assert!(b.used.get() >= 5_000_000, "{code}: used {}", b.used.get());
    assert!(took < Duration::from_secs(2), "{code}: {took:?}");
}

// ---- determinism across processes ------------------------------------------------------------

/// What a child process prints: iteration orders and ids that stock Lua varies per process.
const DUMP: &str = r#"
local out = {}
local t = {}
for i = 1, 40 do t["key" .. i] = i end
local ks = {}
for k in pairs(t) do ks[#ks + 1] = k end
out[#out + 1] = table.concat(ks, ",")
local k, n = next(t), 0
out[#out + 1] = "next " .. k
local keys = {}
for i = 1, 30 do keys[i] = {} end
local tk = {}
for i, key in ipairs(keys) do tk[key] = i end
for i = 1, 5 do tk[function() return i end] = -i end
tk[print] = "print"; tk[string.rep] = "rep"; tk[coroutine.create(print)] = "co"
local vs = {}
for _, v in pairs(tk) do vs[#vs + 1] = tostring(v) end
out[#out + 1] = table.concat(vs, ",")
out[#out + 1] = tostring({}) .. " " .. tostring(print) .. " " .. string.format("%p", {})
return table.concat(out, "\n")
"#;

#[test]
fn child_dump() {
    if std::env::var_os("WARREN_LUA_RUNTIME_CHILD").is_none() {
        return;
    }
    let lua = Lua::new();
    raw(&lua, |l| unsafe { lua_warren_setidbase(l, 1000) });
    let s: String = lua.load(DUMP).eval().unwrap();
    println!("<<<\n{s}\n>>>");
}

fn dump_in_child() -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "lua_runtime::child_dump",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("WARREN_LUA_RUNTIME_CHILD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = text.find("<<<\n").expect("child printed its dump") + 4;
    let end = text.find("\n>>>").unwrap();
    text[start..end].to_string()
}

#[test]
fn iteration_order_and_ids_are_the_same_in_every_process() {
    let a = dump_in_child();
    let b = dump_in_child();
    assert_eq!(a, b);
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 4, "{a}");
    assert!(
        lines[3].starts_with("table: 0x000000000"),
        "ids, not addresses: {}",
        lines[3]
    );
    // The same run in this process, with the same id base, agrees too.
    let lua = Lua::new();
    raw(&lua, |l| unsafe { lua_warren_setidbase(l, 1000) });
    let here: String = lua.load(DUMP).eval().unwrap();
    assert_eq!(here, a);
}

#[test]
fn ids_count_from_the_base_and_tostring_shows_them() {
    let lua = Lua::new();
    let show = || {
        raw(&lua, |l| unsafe { lua_warren_setidbase(l, 0x17) });
        lua.load("return tostring({})").eval::<String>().unwrap()
    };
    let s = show();
    let id = u64::from_str_radix(s.strip_prefix("table: 0x").unwrap(), 16).unwrap();
    assert!((0x18..0x30).contains(&id), "{s}");
    assert_eq!(s.len(), "table: 0x".len() + 14);
    assert_eq!(show(), s, "the same base numbers objects the same way");
    let t = lua.create_table().unwrap();
    lua.globals().set("t", &t).unwrap();
    let id = raw(&lua, |l| unsafe {
        ffi::lua_getglobal(l, c"t".as_ptr());
        let id = lua_warren_id(l, -1);
        ffi::lua_pop(l, 1);
        id
    });
    let shown: String = lua
        .load("return string.format('%p|%20p', t, 1)")
        .eval()
        .unwrap();
    assert_eq!(shown, format!("0x{id:014x}|{:>20}", "(null)"));
}

#[test]
fn a_sort_makes_the_same_comparisons_every_time() {
    // Stock Lua picks the pivot a badly imbalanced partition tries next from the clock: the
    // comparisons of sorting these arrays (and so `os.clock`, the budget, and the order of
    // equal elements) changed from one sort to the next. Each array is sorted four times, by
    // value and then, with ties, by the value's tens (a pair's second field says where it was).
    let lua = Lua::new();
    let counts: String = lua
        .load(
            r#"
local function zigzag(n) local a = {} for i = 1, n do a[i] = (i % 2 == 0) and i or n - i end return a end
local function killer(n)  -- Musser's median-of-3 killer
  local a, k = {}, n // 2
  for i = 1, k do a[i] = (i % 2 == 1) and i or k + i - 1 end
  for i = 1, k do a[k + i] = 2 * i end
  return a
end
local out = {}
for _, a in ipairs({ zigzag(500), zigzag(2000), killer(2000) }) do
  local seen = {}
  for _ = 1, 4 do
    local b, n = {}, 0
    for i = 1, #a do b[i] = { a[i] // 10, i } end
    table.sort(b, function(x, y) n = n + 1 return x[1] < y[1] end)
    local order = {}
    for i = 1, #b do order[i] = b[i][2] end
    seen[#seen + 1] = n .. ":" .. table.concat(order, ",")
  end
  out[#out + 1] = table.concat(seen, " | ")
end
return table.concat(out, "\n")
"#,
        )
        .eval()
        .unwrap();
    for line in counts.lines() {
        let runs: Vec<&str> = line.split(" | ").collect();
        assert_eq!(runs.len(), 4);
        assert!(runs.iter().all(|r| *r == runs[0]), "{line}");
    }
}

// ---- weak tables -------------------------------------------------------------------------------

#[test]
fn weak_tables_are_strong() {
    let lua = Lua::new();
    let n: i64 = lua
        .load(
            r#"
            local wk = setmetatable({}, { __mode = "k" })
            local wv = setmetatable({}, { __mode = "v" })
            local kv = setmetatable({}, { __mode = "kv" })
            for i = 1, 100 do wk[{}] = i; wv[i] = {}; kv[{}] = {} end
            collectgarbage(); collectgarbage()
            local n = 0
            for _ in pairs(wk) do n = n + 1 end
            for _ in pairs(wv) do n = n + 1 end
            for _ in pairs(kv) do n = n + 1 end
            return n
        "#,
        )
        .eval()
        .unwrap();
    assert_eq!(n, 300);
}

// ---- the budget --------------------------------------------------------------------------------

#[test]
fn the_budget_stops_runaway_code() {
    for code in [
        "while true do end",
        "repeat until false",
        "::top:: goto top",
        "local x = 0 while x >= 0 do x = x + 1 end",
        "for i = 1, math.maxinteger do end",
        "for i = 1, math.huge do end",
        "for i = 1.0, 1e300 do local x = i * 2 end",
        "local t = setmetatable({}, { __index = function(t, k) return k end }) for k, v in next, t do end while true do local _ = t.x end",
        "local function f() return f() end f()",
        "local function f(n) if n > 0 then return f(n - 1) + 1 end return 0 end while true do f(100) end",
        "while true do coroutine.wrap(function() end)() end",
        "local co = coroutine.wrap(function() while true do end end) co()",
        "while true do pcall(function() while true do end end) end",
        "while true do pcall(error) end",
        "for _ in function() return 1 end do end",
        "local s = ('x'):rep(100) while true do s:upper() end",
    ] {
        assert_stopped(code);
    }
}

#[test]
fn c_library_bombs_are_charged() {
    for code in [
        "string.find(('a'):rep(30000), '.-.-.-.-.-b')",
        "string.match(('a'):rep(30000), '(.-)%1(.-)%2b')",
        "string.find(('a'):rep(5000000), ('a'):rep(100000) .. 'b', 1, true)",
        "string.find(('('):rep(100000), '%b()')",
        "local _ = (''):rep(1e15)",
        "local _ = (''):rep(1e15, '')",
        "table.move({}, 1, math.maxinteger // 2, 2)",
        "local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end }) table.insert(t, 1, 'x')",
        "local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end }) table.remove(t, 1)",
        "local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end }) table.concat(t)",
        "table.concat({}, '', 1, math.maxinteger)",
        "local s = ('x'):rep(16000000) while true do s:reverse() end",
        "local a, b = ('x'):rep(1 << 20), ('x'):rep(1 << 20) while true do local _ = a == b end",
        "local a, b = ('x'):rep(1 << 20), ('x'):rep(1 << 20) local t = { [a] = 1 } while true do local _ = t[b] end",
        "local a, b = ('x'):rep(1 << 20), ('x'):rep(1 << 20) while true do local _ = a < b end",
        "local s = ('é'):rep(1 << 20) while true do utf8.len(s) end",
        "local t = {} for i = 1, 1000 do t[i] = 1000 - i end while true do table.sort(t) end",
    ] {
        assert_stopped(code);
    }
}

#[test]
fn budget_errors_name_the_running_line() {
    for (code, line) in [
        ("local x = 1\nlocal y = 2\nwhile true do\n  x = x + 1\nend", 4),
        ("local x = 1\nfor i = 1, math.maxinteger do\n  x = x + i\nend", 2),
        ("local x = 1\nrepeat\n  x = x + 1\nuntil x < 0", 4),
        ("local function f()\n  return 1\nend\nwhile true do f() end", 4),
        ("local t = {}\nfor i = 1, 10 do t[i] = i end\n\nfor k, v in pairs(t) do\n  t[k] = v\n  if k == 10 then while true do end end\nend", 6),
    ] {
        let (lua, b) = budgeted(100_000);
        let err = lua.load(code).exec().unwrap_err().to_string();
        assert!(err.contains("budget exceeded"), "{err}");
        assert_eq!(b.line.get(), line, "{code}");
    }
}

#[test]
fn the_budget_counts_about_one_per_instruction_in_loops() {
    // An empty numeric loop of 1e6 turns costs its jump length (1) per turn.
    let (r, _, lua, b) = run_budgeted(i64::MAX / 4, "for i = 1, 1000000 do end");
    r.unwrap();
    let used = b.used.get() + b.given.get() - raw(&lua, |l| unsafe { lua_warren_getcounter(l) });
    assert!((1_000_000..1_100_000).contains(&used), "{used}");
    // A call costs a small constant.
    let (r, _, lua, b) = run_budgeted(
        i64::MAX / 4,
        "local function f() end for i = 1, 100000 do f() end",
    );
    r.unwrap();
    let used = b.used.get() + b.given.get() - raw(&lua, |l| unsafe { lua_warren_getcounter(l) });
    assert!((500_000..1_000_000).contains(&used), "{used}");
}

#[test]
fn charges_from_rust_run_the_callback_without_raising() {
    let (lua, b) = budgeted(50_000);
    let stopped = raw(&lua, |l| unsafe {
        (0..100)
            .map(|_| lua_warren_charge(l, 1000))
            .position(|r| r != 0)
    });
    assert_eq!(stopped, Some(49));
    assert!(b.calls.get() >= 5);
    // Fatal mode refuses Lua calls, mlua's `exec_raw` among them: straight on the pointer.
    assert_eq!(unsafe { lua_warren_getfatal(lua.2) }, 1);
}

// ---- fatal mode --------------------------------------------------------------------------------

#[test]
fn fatal_errors_cannot_be_caught() {
    for code in [
        "local ok = pcall(function() while true do end end) swallowed = true",
        "local ok = xpcall(function() while true do end end, function(e) handled = true return e end) swallowed = true",
        "for i = 1, 10 do pcall(pcall, pcall, function() while true do end end) end swallowed = true",
        "local co = coroutine.create(function() while true do end end) local ok = coroutine.resume(co) swallowed = true",
        "local co = coroutine.wrap(function() while true do end end) pcall(co) swallowed = true",
        "local co = coroutine.create(function() local x <close> = setmetatable({}, { __close = function() while true do end end }) coroutine.yield() end) coroutine.resume(co) local ok = coroutine.close(co) swallowed = true",
        "do local x <close> = setmetatable({}, { __close = function() handled = true error('replaced') end }) while true do end end",
        "local ok = pcall(function() local x <close> = setmetatable({}, { __close = function() handled = true return 'nothing' end }) while true do end end) swallowed = true",
        "local ok, e = pcall(string.gsub, ('a'):rep(30000), '.-.-.-.-.-b', '') swallowed = true",
        "local ok, e = pcall(table.sort, {3, 2, 1}, function(a, b) while true do end end) swallowed = true",
    ] {
        let (r, _, lua, _b) = run_budgeted(1_000_000, code);
        let err = r.expect_err(code);
        assert!(err.contains("budget exceeded"), "{code}: {err}");
        let g = lua.globals();
        assert_eq!(g.get::<Option<bool>>("swallowed").unwrap(), None, "{code}");
        assert_eq!(g.get::<Option<bool>>("handled").unwrap(), None, "{code}");
    }
}

#[test]
fn clearing_fatal_mode_gives_a_usable_state() {
    let (lua, b) = budgeted(1_000_000);
    assert!(lua.load("while true do end").exec().is_err());
    unsafe { lua_warren_setfatal(lua.2, 0) };
    b.used.set(0);
    let ok: bool = lua
        .load("return select(1, pcall(error, 'x')) == false")
        .eval()
        .unwrap();
    assert!(ok, "pcall catches ordinary errors again");
    let s: String = lua
        .load("local r do local x <close> = setmetatable({}, { __close = function() r = 'closed' end }) end return r")
        .eval()
        .unwrap();
    assert_eq!(s, "closed", "<close> works as in stock Lua");
}

#[test]
fn fatal_unwinding_leaves_the_call_records_for_the_host() {
    // A recursion that runs out of budget a hundred thousand calls deep: unwinding in fatal
    // mode frees none of its call records (one free each kept the run going past its clock),
    // and lua_warren_freeci frees them all at once afterwards.
    let code = "local function r(n) if n > 100000 then while true do end end return r(n + 1) + 1 end pcall(r, 1)";
    let (r, _, lua, _b) = run_budgeted(5_000_000, code);
    assert!(r.expect_err(code).contains("budget exceeded"));
    let freed = unsafe { lua_warren_freeci(lua.2) };
    assert!(freed > 100_000, "the records were left: {freed}");
    assert_eq!(unsafe { lua_warren_freeci(lua.2) }, 0, "and are gone");
    // Outside fatal mode, unwinding gives them back as in stock Lua: half of the free ones at
    // the protected call.
    let (lua, _b) = budgeted(i64::MAX);
    let deep = "local function r(n) if n > 100000 then error('deep') end return r(n + 1) + 1 end pcall(r, 1)";
    lua.load(deep).exec().unwrap();
    let left = unsafe { lua_warren_freeci(lua.2) };
    assert!((40_000..60_000).contains(&left), "{left}");
}

// ---- pristine tracking -------------------------------------------------------------------------

/// A state with module-level objects made before marking: returns it marked pristine.
fn pristine() -> Lua {
    let lua = Lua::new();
    lua.load(
        r#"
        T = { a = 1, list = { 1, 2, 3 }, holes = { 1, 2, nil, 4, nil, nil, nil, 8 } }
        MT = {}
        local n = 0
        function bump() n = n + 1 return n end
        function peek() return n end
        CO = coroutine.create(function() coroutine.yield(1) coroutine.yield(2) end)
        CO2 = coroutine.create(function() coroutine.yield(1) end)
        coroutine.resume(CO2)
        IT = ("a b c"):gmatch("%a")
        "#,
    )
    .exec()
    .unwrap();
    raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
    assert!(!dirty(&lua));
    lua
}

fn dirty(lua: &Lua) -> bool {
    raw(lua, |l| unsafe { lua_warren_dirty(l) != 0 })
}

/// What the objects `pristine` made hold, as a script sees them (every key and value, the
/// metatables, the upvalue behind `peek`, the string metatable's `__index`).
const DESCRIBE: &str = r#"
local out = {}
local function walk(name, t, depth)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    local v = t[k]
    if type(v) == "table" and depth < 2 and k ~= "_G" and k ~= "package" then
      walk(name .. "." .. tostring(k), v, depth + 1)
    else
      out[#out + 1] = name .. "." .. tostring(k) .. "=" .. tostring(v)
    end
  end
  out[#out + 1] = name .. " mt=" .. tostring(getmetatable(t)) .. " #=" .. #t
end
walk("T", T, 0)
walk("MT", MT, 0)
walk("string", string, 0)
local g = {}
for k in pairs(_G) do g[#g + 1] = tostring(k) end
table.sort(g)
out[#out + 1] = table.concat(g, ",")
out[#out + 1] = "n=" .. peek() .. " index=" .. tostring(getmetatable("").__index)
return table.concat(out, "\n")
"#;

fn describe(lua: &Lua) -> String {
    lua.load(DESCRIBE).eval().unwrap()
}

fn reset(lua: &Lua) -> u64 {
    raw(lua, |l| unsafe { lua_warren_reset(l) })
}

#[test]
fn writes_to_pristine_objects_are_saved_and_put_back() {
    let before = describe(&pristine());
    for code in [
        "T.a = 2",
        "T.new = 1",
        "T.list[2] = 5",
        "T.list[4] = 4",
        "T[1.5] = 1",
        "rawset(T, 'a', 3)",
        "table.insert(T.list, 9)",
        "table.remove(T.list)",
        "table.sort(T.list, function(a, b) return a > b end)",
        "table.move({ 7 }, 1, 1, 1, T.list)",
        "for i = 1, 1000 do T[i] = i end T.holes = nil",
        "setmetatable(T, MT)",
        "getmetatable('').__index = nil",
        "newglobal = 1",
        "print = nil",
        "bump()",
        "local s = string s.x = 1",
    ] {
        let lua = pristine();
        lua.load(code).exec().unwrap();
        assert!(!dirty(&lua), "dirty after: {code}");
        assert!(
            raw(&lua, |l| unsafe { lua_warren_savedbytes(l) }) > 0 || code == "bump()",
            "nothing copied for: {code}"
        );
        assert_ne!(describe(&lua), before, "no change seen after: {code}");
        assert!(reset(&lua) > 0, "nothing saved after: {code}");
        assert_eq!(describe(&lua), before, "not put back after: {code}");
        assert_eq!(reset(&lua), 0, "a second reset has nothing to do");
        // The state goes on: a second run's writes are saved and put back as well.
        lua.load(code).exec().unwrap();
        assert!(reset(&lua) > 0);
        assert_eq!(
            describe(&lua),
            before,
            "not put back after a second run of: {code}"
        );
    }
}

#[test]
fn writes_that_cannot_be_saved_make_the_state_dirty() {
    for code in [
        "coroutine.resume(CO)",
        "coroutine.close(CO2)",
        "coroutine.wrap(function() end)() coroutine.resume(CO)",
        "IT()",
        "math.random()",
    ] {
        let lua = pristine();
        lua.load(code).exec().unwrap();
        assert!(dirty(&lua), "not dirty after: {code}");
    }
}

#[test]
fn what_only_the_copies_hold_survives_full_collections_in_both_modes() {
    // The run removes pre-run tables from the only tables that held them, churns through enough
    // garbage and full collections (generational and incremental) to free anything unmarked,
    // and then the reset puts them back: they must be whole, with their ids.
    for mode in ["generational", "incremental"] {
        let lua = Lua::new();
        lua.load(format!(
            r#"
            collectgarbage("{mode}")
            T = {{ kept = {{ deep = {{ "x", "y" }} }}, list = {{}} }}
            for i = 1, 100 do T.list[i] = {{ i, tostring(i) .. "s" }} end
            T.str = ("long string "):rep(10)
            local n = {{ "upvalue's table" }}
            function get() return n end
            function set(v) n = v end
            IDS = tostring(T.kept) .. tostring(T.kept.deep) .. tostring(get())
            "#
        ))
        .exec()
        .unwrap();
        raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
        let before = lua
            .load("return IDS .. T.kept.deep[2] .. #T.list .. T.list[50][2] .. T.str .. get()[1]")
            .eval::<String>()
            .unwrap();
        lua.load(
            r#"
            local kept = T.kept
            T.kept = nil
            kept.deep = nil
            T.list = nil
            T.str = nil
            set(nil)
            for round = 1, 3 do
              local junk = {}
              for i = 1, 20000 do junk[i] = { i } end
              collectgarbage("collect")
              collectgarbage("step", 100)
            end
            "#,
        )
        .exec()
        .unwrap();
        assert!(!dirty(&lua));
        assert_eq!(reset(&lua), 3, "{mode}: T, T.kept and the upvalue");
        lua.load("collectgarbage('collect') collectgarbage('collect')")
            .exec()
            .unwrap();
        let after = lua
            .load("return IDS .. T.kept.deep[2] .. #T.list .. T.list[50][2] .. T.str .. get()[1]")
            .eval::<String>()
            .unwrap();
        assert_eq!(after, before, "{mode}");
        let ids: String = lua
            .load("return tostring(T.kept) .. tostring(T.kept.deep) .. tostring(get())")
            .eval()
            .unwrap();
        assert_eq!(ids, lua.load("return IDS").eval::<String>().unwrap());
    }
}

#[test]
fn the_hosts_own_writes_are_neither_saved_nor_dirty() {
    let lua = pristine();
    raw(&lua, |l| unsafe {
        assert_eq!(lua_warren_sethost(l, 1), 0);
        ffi::lua_getglobal(l, c"T".as_ptr());
        ffi::lua_pushinteger(l, 9);
        ffi::lua_setfield(l, -2, c"host".as_ptr());
        ffi::lua_pop(l, 1);
        lua_warren_markdirty(l);
        assert_eq!(lua_warren_sethost(l, 0), 1);
    });
    assert!(!dirty(&lua));
    assert_eq!(reset(&lua), 0);
    assert_eq!(lua.load("return T.host").eval::<i64>().unwrap(), 9);
}

#[test]
fn reads_and_new_objects_leave_the_state_clean() {
    let lua = pristine();
    lua.load(
        r#"
        local t = { 1, 2, 3 }
        t.x = T.a; t[4] = #T.list; t[5] = #T.holes; t[6] = T.holes[8]
        setmetatable(t, MT)
        for k, v in pairs(T) do t[#t + 1] = k end
        for i, v in ipairs(T.list) do t[#t + 1] = v end
        table.insert(t, 1, 0) table.remove(t, 1) table.sort(t, function(a, b) return tostring(a) < tostring(b) end)
        local n = 0
        local function f() n = n + 1 end
        f()
        local co = coroutine.wrap(function() coroutine.yield() end) co() co()
        for w in ("x y"):gmatch("%a") do t[#t + 1] = w end
        local _ = peek(), tostring(T), string.format("%p", T), coroutine.status(CO)
        local s = ("abc"):upper() .. ("x"):rep(10)
        "#,
    )
    .exec()
    .unwrap();
    assert!(!dirty(&lua));
    assert_eq!(reset(&lua), 0, "nothing to put back");
}

#[test]
fn reading_a_pristine_table_keeps_its_length() {
    // `#t` on a table with holes may pick any border; reads of a pristine table must not move
    // the hint that chooses it.
    let fresh: Vec<i64> = {
        let lua = pristine();
        lua.load("return #T.holes, #T.holes")
            .eval::<(i64, i64)>()
            .map(|(a, b)| vec![a, b])
            .unwrap()
    };
    let lua = pristine();
    let after: (i64, i64) = lua
        .load("local _ = T.holes[8], T.holes[7], T.holes[5] return #T.holes, #T.holes")
        .eval()
        .unwrap();
    assert_eq!(vec![after.0, after.1], fresh);
    assert!(!dirty(&lua));
}

#[test]
fn api_writes_are_saved_and_markdirty_is_explicit() {
    let lua = pristine();
    let ud = lua.create_any_userdata(0u8).unwrap();
    raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
    ud.set_nth_user_value(1, 5).unwrap();
    assert!(!dirty(&lua), "user value of a pristine userdata");
    assert_eq!(reset(&lua), 1, "user value of a pristine userdata");
    assert_eq!(
        ud.nth_user_value::<mlua::Value>(1).unwrap(),
        mlua::Value::Nil
    );

    let lua = pristine();
    raw(&lua, |l| unsafe {
        ffi::lua_getglobal(l, c"bump".as_ptr());
        assert_eq!(lua_warren_ispristine(l, -1), 1);
        ffi::lua_pushinteger(l, 7);
        assert!(!ffi::lua_setupvalue(l, -2, 1).is_null());
        ffi::lua_pop(l, 1);
    });
    assert_eq!(lua.load("return peek()").eval::<i64>().unwrap(), 7);
    assert_eq!(reset(&lua), 1, "lua_setupvalue");
    assert_eq!(lua.load("return peek()").eval::<i64>().unwrap(), 0);

    let lua = pristine();
    raw(&lua, |l| unsafe {
        lua_warren_markdirty(l);
    });
    assert!(dirty(&lua));
    raw(&lua, |l| unsafe { lua_warren_cleardirty(l) });
    assert!(!dirty(&lua));
}

#[test]
fn setting_the_metatable_a_userdata_has_is_counted_not_a_write() {
    // mlua does it to each error object it preallocated when it raises one; the host refills
    // its pool when the count says errors were raised.
    let lua = pristine();
    let ud = lua.create_any_userdata(0u8).unwrap();
    let other = lua.create_table().unwrap();
    raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
    let set_again = |l| unsafe {
        ffi::lua_getmetatable(l, -1);
        ffi::lua_setmetatable(l, -2);
    };
    // SAFETY: `exec_raw` pushes the userdata (slot 1); the closures pop what they push.
    unsafe {
        lua.exec_raw::<()>(&ud, |l| {
            lua_warren_takeresetmetas(l);
            set_again(l);
            set_again(l);
            assert_eq!(lua_warren_takeresetmetas(l), 2);
            assert_eq!(
                lua_warren_takeresetmetas(l),
                0,
                "taking counts again from 0"
            );
        })
        .unwrap();
    }
    assert!(!dirty(&lua), "the metatable it had");
    // SAFETY: as above, with the table in slot 2.
    unsafe {
        lua.exec_raw::<()>((&ud, &other), |l| {
            ffi::lua_setmetatable(l, 1);
            assert_eq!(lua_warren_takeresetmetas(l), 0);
        })
        .unwrap();
    }
    assert_eq!(reset(&lua), 1, "another metatable");
}

/// A userdata type with one method, for the field-table tests.
struct Probe;

impl mlua::UserData for Probe {
    fn add_methods<M: mlua::UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("kind", |_, _, ()| Ok("method"));
    }
}

#[test]
fn a_field_table_answers_reads_before_the_methods() {
    let lua = Lua::new();
    let marked = lua.create_userdata(Probe).unwrap();
    let fields = lua.create_table().unwrap();
    fields.raw_set("width", 80).unwrap();
    fields.raw_set("kind", "field").unwrap();
    // SAFETY: `exec_raw` pushed the userdata and the table; setfields pops the table.
    let set = unsafe {
        let mut set = 0;
        lua.exec_raw::<()>((&marked, &fields), |l| {
            set = lua_warren_setfields(l, 1);
            ffi::lua_settop(l, 0);
        })
        .unwrap();
        set
    };
    assert_eq!(set, 1);
    // mlua's own user values are tables too (`set_named_user_value` keeps a table of them):
    // without the mark they are never read as fields.
    let plain = lua.create_userdata(Probe).unwrap();
    plain.set_named_user_value("width", 7).unwrap();
    lua.globals().set("marked", &marked).unwrap();
    lua.globals().set("plain", &plain).unwrap();
    // `u.k` (OP_GETFIELD's own path) and `u[k]` (luaV_finishget) alike.
    let seen: (i64, String, Option<i64>, String, Option<i64>, i64) = lua
        .load(
            "local k = 'width'\n\
             return marked.width, marked.kind, plain.width, plain:kind(), marked.height, marked[k]",
        )
        .eval()
        .unwrap();
    assert_eq!(seen, (80, "field".into(), None, "method".into(), None, 80));
    // The owner's later writes show at once; a field set to nil falls back to the methods.
    fields.raw_set("width", 96).unwrap();
    fields.raw_set("kind", mlua::Value::Nil).unwrap();
    let seen: (i64, String) = lua
        .load("return marked.width, marked:kind()")
        .eval()
        .unwrap();
    assert_eq!(seen, (96, "method".into()));
    // Only reads: a write still goes to the metatable, which has no `__newindex`.
    assert!(lua.load("marked.width = 1").exec().is_err());
}

/// What `lua_warren_fields` answers for the value `lua` makes of `code` (a chunk returning it)
/// with the keys `force`, `priority` and a 45-byte one (a long string): 0, or each key's
/// `type:value` (`-1` for absent).
fn fields_of(lua: &Lua, code: &str) -> String {
    const LONG: &str = "a_key_longer_than_forty_bytes_so_a_long_one__";
    let value: mlua::Value = lua.load(code).eval().unwrap();
    let keys = [
        WarrenKey::new("force"),
        WarrenKey::new("priority"),
        WarrenKey::new(LONG),
    ];
    let mut out = [WarrenValue::NONE; 3];
    // SAFETY: `exec_raw` pushed the value in slot 1; `out` holds the three values read.
    let found = unsafe {
        let mut found = 0;
        lua.exec_raw::<()>(&value, |l| {
            found = lua_warren_fields(l, 1, keys.as_ptr(), 3, out.as_mut_ptr());
            ffi::lua_settop(l, 0);
        })
        .unwrap();
        found
    };
    if found == 0 {
        return "0".into();
    }
    out.iter().map(shown).collect::<Vec<_>>().join(" ")
}

/// A value `lua_warren_fields` or `lua_warren_values` read, as `type:value`.
fn shown(v: &WarrenValue) -> String {
    // SAFETY: each type's value is in the field read for it.
    unsafe {
        match (v.type_, v.isinteger) {
            (ffi::LUA_TNUMBER, 1) => format!("int:{}", v.u.i),
            (ffi::LUA_TNUMBER, _) => format!("float:{}", v.u.n),
            (ffi::LUA_TBOOLEAN, _) => format!("bool:{}", v.u.i),
            (ffi::LUA_TSTRING, _) => {
                let bytes = std::slice::from_raw_parts(v.u.s.cast::<u8>(), v.len);
                format!("str:{}", String::from_utf8_lossy(bytes))
            }
            (t, _) => t.to_string(),
        }
    }
}

#[test]
fn an_options_table_is_read_in_one_call_when_it_holds_only_the_keys_asked_for() {
    let lua = Lua::new();
    for (code, read) in [
        (
            "return { force = true, priority = 7.5 }",
            "bool:1 float:7.5 -1",
        ),
        (
            "return { priority = 'room', force = false }",
            "bool:0 str:room -1",
        ),
        ("return { priority = 3 }", "-1 int:3 -1"),
        ("return {}", "-1 -1 -1"),
        (
            "return { a_key_longer_than_forty_bytes_so_a_long_one__ = {} }",
            "-1 -1 5",
        ),
        // An emptied array slot is no key.
        (
            "local t = { 1, force = true } t[1] = nil return t",
            "bool:1 -1 -1",
        ),
        // Any other key, a metatable, or no table: the caller's to read another way.
        ("return { force = true, region = 'x' }", "0"),
        ("return { 1 }", "0"),
        ("return { [true] = 1 }", "0"),
        ("return { forc = true }", "0"),
        ("return setmetatable({}, {})", "0"),
        ("return 'force'", "0"),
        ("return nil", "0"),
    ] {
        assert_eq!(fields_of(&lua, code), read, "{code}");
    }
}

#[test]
fn a_c_functions_arguments_are_read_in_one_call() {
    let lua = Lua::new();
    let args = (1, 2.5, "name", mlua::Value::Nil, true);
    let mut out = [WarrenValue::NONE; 7];
    // SAFETY: `exec_raw` runs with the five arguments in slots 1-5; `out` holds seven values.
    let top = unsafe {
        let mut top = 0;
        lua.exec_raw::<()>(args, |l| {
            top = lua_warren_values(l, 2, 6, out.as_mut_ptr());
            ffi::lua_settop(l, 0);
        })
        .unwrap();
        top
    };
    assert_eq!(top, 5);
    let read: Vec<String> = out[..6].iter().map(shown).collect();
    assert_eq!(read, ["float:2.5", "str:name", "0", "bool:1", "-1", "-1"]);
}

/// A fast closure's test of its receiver (`lua_warren_fastself`): returns whether it passed and
/// the two pointers it gave.
unsafe extern "C-unwind" fn fastself_probe(l: *mut ffi::lua_State) -> std::ffi::c_int {
    let (mut method, mut cell) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: `l` runs this C closure.
    unsafe {
        let passed = lua_warren_fastself(l, &mut method, &mut cell);
        ffi::lua_pushboolean(l, passed);
        ffi::lua_pushinteger(l, method as isize as i64);
        ffi::lua_pushinteger(l, cell as isize as i64);
    }
    3
}

/// `f` as a fast closure's C function, for a receiver of its own (`own`) and another
/// (`other`): its upvalues are the receiver, nil, and two light userdata (16 as the method,
/// 32 as the cell).
fn fast_probe(
    lua: &Lua,
    f: ffi::lua_CFunction,
) -> (mlua::Function, mlua::AnyUserData, mlua::AnyUserData) {
    let own = lua.create_userdata(Probe).unwrap();
    let other = lua.create_userdata(Probe).unwrap();
    // SAFETY: `exec_raw` runs with the receiver in slot 1, and pushes the closure over it.
    let probe = unsafe {
        lua.exec_raw(&own, |l| {
            ffi::lua_pushnil(l);
            ffi::lua_pushlightuserdata(l, 16 as *mut c_void);
            ffi::lua_pushlightuserdata(l, 32 as *mut c_void);
            ffi::lua_pushcclosure(l, f, 4);
        })
        .unwrap()
    };
    (probe, own, other)
}

#[test]
fn a_fast_closure_knows_its_own_receiver_in_one_call() {
    let lua = Lua::new();
    let (probe, own, other) = fast_probe(&lua, fastself_probe);
    let call = |args: mlua::MultiValue| -> (bool, i64, i64) { probe.call(args).unwrap() };
    assert_eq!(
        call((&own, 1).into_lua_multi(&lua).unwrap()),
        (true, 16, 32)
    );
    for args in [
        (&other, 1).into_lua_multi(&lua).unwrap(),
        ("own", 1).into_lua_multi(&lua).unwrap(),
        ().into_lua_multi(&lua).unwrap(),
    ] {
        assert_eq!(call(args), (false, 0, 0));
    }
}

/// The option keys `xyname_probe` reads: one array, as a fast method's (a kept reading is
/// kept for one array).
struct ProbeKeys([WarrenKey; 1]);

// SAFETY: the key points at a `'static` string constant, never written.
unsafe impl Sync for ProbeKeys {}

static PROBE_KEYS: ProbeKeys = ProbeKeys([WarrenKey::new("force")]);

/// `map:set`'s reading of its call (`lua_warren_xyname`), with one option key, `force`: returns
/// whether it read the call, and what it read (x, y, the name, whether a table was given, the
/// number of a kept reading of it, the type of its `force` as `lua_warren_fields` reads it
/// then (-1 when absent or declined), and whether `counter` points at the budget counter);
/// sets the global `RESULTS` to the results the caller keeps.
unsafe extern "C-unwind" fn xyname_probe(l: *mut ffi::lua_State) -> std::ffi::c_int {
    let keys = &PROBE_KEYS.0;
    let mut call = WarrenXYName::EMPTY;
    let mut options = [WarrenValue::NONE];
    // SAFETY: `l` runs this C closure; `keys` and `options` hold one entry each; the options
    // are read before the stack is cleared.
    unsafe {
        let read = lua_warren_xyname(l, keys.as_ptr(), 1, &mut call);
        if read != 0 && call.options != 0 {
            // A table it declines (a metatable, another key) leaves `force` absent.
            lua_warren_fields(l, 5, keys.as_ptr(), 1, options.as_mut_ptr());
        }
        ffi::lua_settop(l, 0);
        ffi::lua_pushboolean(l, read);
        if read == 0 {
            return 1;
        }
        ffi::lua_pushinteger(l, call.results.into());
        ffi::lua_setglobal(l, c"RESULTS".as_ptr());
        ffi::lua_pushinteger(l, call.x);
        ffi::lua_pushinteger(l, call.y);
        ffi::lua_pushlstring(l, call.name, call.len);
        ffi::lua_pushboolean(l, call.options);
        ffi::lua_pushinteger(l, call.kept as i64);
        ffi::lua_pushinteger(l, options[0].type_.into());
        let counter = lua_warren_getcounter(l);
        *call.counter = counter - 1;
        let the_counter = lua_warren_getcounter(l) == counter - 1;
        *call.counter = counter;
        ffi::lua_pushboolean(l, c_int::from(the_counter));
    }
    8
}

/// A state with `probe` (a fast closure reading its call as `map:set`'s) and two receivers,
/// `own` (the closure's) and `other`, and `read(args)`, which gives what `probe(args)` read
/// as one string.
fn xyname_state() -> (Lua, impl Fn(&Lua, &str) -> String) {
    let lua = Lua::new();
    let (probe, own, other) = fast_probe(&lua, xyname_probe);
    lua.globals().set("probe", probe).unwrap();
    lua.globals().set("own", own).unwrap();
    lua.globals().set("other", other).unwrap();
    let read = |lua: &Lua, args: &str| -> String {
        lua.load(format!(
            "local t = table.pack(probe({args})) for i = 1, t.n do t[i] = tostring(t[i]) end \
             return table.concat(t, ' ')"
        ))
        .eval()
        .unwrap()
    };
    (lua, read)
}

#[test]
fn the_commonest_fast_call_is_read_in_one_call() {
    let (lua, read) = xyname_state();
    // Nothing is kept in a state never marked pristine: every table reads as kept 0. Tables
    // of any content are the caller's to read (with `lua_warren_fields`).
    for (args, answer) in [
        ("own, 3, -4, 'floor'", "true 3 -4 floor false 0 -1 true"),
        ("own, 3, 4, 'floor', nil", "true 3 4 floor false 0 -1 true"),
        ("own, 3, 4, 'floor', {}", "true 3 4 floor true 0 -1 true"),
        (
            "own, 3, 4, 'floor', { force = true }",
            "true 3 4 floor true 0 1 true",
        ),
        (
            "own, 3, 4, 'floor', setmetatable({}, {})",
            "true 3 4 floor true 0 -1 true",
        ),
    ] {
        assert_eq!(read(&lua, args), answer, "{args}");
    }
    for declined in [
        "other, 3, 4, 'floor'",
        "'own', 3, 4, 'floor'",
        "own, 3.0, 4, 'floor'",
        "own, 3, '4', 'floor'",
        "own, 3, 4, 5",
        "own, 3, 4",
        "own, 3, 4, 'floor', {}, 1",
        "own, 3, 4, 'floor', false",
    ] {
        assert_eq!(read(&lua, declined), "false", "{declined}");
    }
    // The results the caller keeps: all (`table.pack`), one, none (a statement).
    assert_eq!(lua.load("return RESULTS").eval::<i64>().unwrap(), -1);
    for (call, kept) in [
        ("local a = probe(own, 1, 2, 'x')", 1),
        ("probe(own, 1, 2, 'x')", 0),
    ] {
        lua.load(call).exec().unwrap();
        assert_eq!(
            lua.load("return RESULTS").eval::<i64>().unwrap(),
            kept,
            "{call}"
        );
    }
}

/// A table whose reading the interpreter keeps reads as kept, with one number while the
/// reading stays kept, until the table is written, and another number for the next reading
/// kept; the values read are the same either way.
#[test]
fn a_kept_reading_of_the_options_has_a_number_of_its_own() {
    let (lua, read) = xyname_state();
    lua.load("F = { force = true } G = { force = false }")
        .exec()
        .unwrap();
    raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
    let kept = |args: &str| -> (i64, String) {
        let answer = read(&lua, args);
        let words: Vec<&str> = answer.split(' ').collect();
        (words[5].parse().unwrap(), words[6].to_string())
    };
    // The first reading is kept; the next calls find it kept, under one number.
    assert_eq!(kept("own, 1, 2, 'floor', F"), (0, "1".into()));
    let (first, ty) = kept("own, 1, 2, 'floor', F");
    assert!(first != 0);
    assert_eq!(ty, "1");
    assert_eq!(kept("own, 1, 2, 'wall', F"), (first, "1".into()));
    // Another table: its own reading, kept under a new number; F's is no longer kept.
    assert_eq!(kept("own, 1, 2, 'floor', G").0, 0);
    let (second, _) = kept("own, 1, 2, 'floor', G");
    assert!(second != 0 && second != first);
    assert_eq!(kept("own, 1, 2, 'floor', F").0, 0);
    let (third, _) = kept("own, 1, 2, 'floor', F");
    assert!(third != 0 && third != first && third != second);
    // A table made since the marking, or written since, is never kept.
    lua.load("H = { force = true }").exec().unwrap();
    for _ in 0..2 {
        assert_eq!(kept("own, 1, 2, 'floor', H").0, 0);
    }
    lua.load("F.force = nil").exec().unwrap();
    assert_eq!(kept("own, 1, 2, 'floor', F"), (0, "-1".into()));
    assert_eq!(kept("own, 1, 2, 'floor', F"), (0, "-1".into()));
}

/// A C function that leaves a variable to close (`lua_toclose` on what the global `MAKE`
/// returns) and returns nothing.
unsafe extern "C-unwind" fn leaves_a_variable_to_close(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: `l` runs this C function; `MAKE` is a function returning a closable value.
    unsafe {
        ffi::lua_getglobal(l, c"MAKE".as_ptr());
        ffi::lua_call(l, 0, 1);
        ffi::lua_toclose(l, -1);
    }
    0
}

/// A C function called as a statement returns without `luaD_poscall` only when it has no
/// variable to close: one it leaves open is closed as stock Lua closes it, however it is called.
#[test]
fn a_c_function_called_as_a_statement_closes_its_variables() {
    let lua = Lua::new();
    // SAFETY: the function keeps to the C API's rules for a C function.
    let f = unsafe { lua.create_c_function(leaves_a_variable_to_close) }.unwrap();
    lua.globals().set("f", f).unwrap();
    lua.load(
        r#"
        CLOSED = 0
        function MAKE()
          return setmetatable({}, { __close = function() CLOSED = CLOSED + 1 end })
        end
        local kept = f()
        f()
        f()
        do local x <close> = MAKE() end
        "#,
    )
    .exec()
    .unwrap();
    assert_eq!(lua.globals().get::<i64>("CLOSED").unwrap(), 4);
}

/// The state counts the strings it frees, short and long, and nothing else moves the count:
/// while it stays, no string's memory has been handed to another.
#[test]
fn the_state_counts_the_strings_it_frees() {
    let lua = Lua::new();
    lua.gc_stop();
    let freed = || raw(&lua, |l| unsafe { lua_warren_stringsfreed(l) });
    lua.load(r#"kept = {} for i = 1, 100 do kept[i] = "short " .. i end"#)
        .exec()
        .unwrap();
    // Loading a chunk frees strings of its own (its source's): all are loaded first.
    let chunk = |source: &str| lua.load(source).into_function().unwrap();
    let tables = chunk("for i = 1, 100 do local t = { i } end");
    let let_go = chunk("kept = nil");
    let longs = chunk(r#"for i = 1, 10 do local s = string.rep("long ", 20 + i) end"#);
    // The strings a chunk's run and a full collection after it free.
    let freed_by = |f: &mlua::Function| {
        lua.gc_collect().unwrap();
        let before = freed();
        f.call::<()>(()).unwrap();
        lua.gc_collect().unwrap();
        freed() - before
    };
    assert_eq!(freed_by(&tables), 0, "only tables were freed");
    assert_eq!(freed_by(&let_go), 100, "the short strings");
    assert_eq!(freed_by(&longs), 10, "the long strings");
}

#[test]
fn the_hosts_integer_write_keeps_a_table_pristine_and_only_replaces() {
    // `lua_warren_hostsetint` (`ctx.seed` before each run): written as the host flag's raw set
    // would, nothing saved or dirty, so the reset leaves it; a key without a node, a long key
    // or a table with a metatable is refused, writing nothing.
    let lua = pristine();
    let t = lua
        .load("local t = { seed = 1, other = 'x' } T2 = t return t")
        .eval::<mlua::Table>()
        .unwrap();
    let meta = lua
        .load("return setmetatable({ seed = 1 }, {})")
        .eval::<mlua::Table>()
        .unwrap();
    raw(&lua, |l| unsafe { lua_warren_markpristine(l) });
    let (seed, absent) = (
        lua.create_string("seed").unwrap(),
        lua.create_string("nope").unwrap(),
    );
    let long = lua.create_string("k".repeat(60)).unwrap();
    let set = |table: &mlua::Table, key: &mlua::String, v: i64| {
        raw(&lua, |l| unsafe {
            lua_warren_hostsetint(l, table.to_pointer(), key.to_pointer(), v)
        })
    };
    assert_eq!(set(&t, &seed, 42), 1);
    assert_eq!(t.raw_get::<i64>("seed").unwrap(), 42);
    assert_eq!(set(&t, &absent, 7), 0);
    assert_eq!(t.raw_get::<mlua::Value>("nope").unwrap(), mlua::Value::Nil);
    assert_eq!(set(&t, &long, 7), 0);
    assert_eq!(set(&meta, &seed, 7), 0);
    assert_eq!(meta.raw_get::<i64>("seed").unwrap(), 1);
    raw(&lua, |l| unsafe {
        ffi::lua_getglobal(l, c"T2".as_ptr());
        assert_eq!(
            lua_warren_ispristine(l, -1),
            1,
            "the write kept the table pristine"
        );
        ffi::lua_pop(l, 1);
    });
    assert!(!dirty(&lua));
    assert_eq!(raw(&lua, |l| unsafe { lua_warren_savedbytes(l) }), 0);
    // A script's write is put back by the reset; the host's, made before it, stays.
    lua.load("T2.seed = 5").exec().unwrap();
    assert_eq!(reset(&lua), 1);
    assert_eq!(t.raw_get::<i64>("seed").unwrap(), 42);
    // A key whose value a script set to nil still has its node: it is written again.
    lua.load("T2.seed = nil").exec().unwrap();
    assert_eq!(set(&t, &seed, 9), 1);
    assert_eq!(t.raw_get::<i64>("seed").unwrap(), 9);
}
