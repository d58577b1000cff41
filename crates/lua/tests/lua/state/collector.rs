//! The collector held while the host builds a state, then settled: every object made old
//! without marking (`Sandbox::hold_collector`, `Sandbox::settle_collector`,
//! `lua_warren_oldenall`). What it must keep: a collector that runs again, and the
//! generational invariants, so that no collection frees an object still reachable, whatever
//! holds it (a suspended coroutine's stack, an open upvalue, an old table written since, a
//! weak table, an object with a finalizer).

use mlua::{Function, Lua, Table, UserData};
use std::cell::Cell;
use std::rc::Rc;
use warren_lua::sandbox::{new_state, Sandbox};

/// A userdata (collected through mlua's finalizer) that counts its drops.
struct Counted(Rc<Cell<u32>>);

impl UserData for Counted {}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// A fresh sandboxed state (its collector settled once, as every new state's is).
fn state() -> Sandbox {
    let (lua, _) = new_state(vec![], Default::default(), warren_lua::api::install).unwrap();
    lua
}

/// What the host holds of the objects built while the collector was held: a suspended
/// coroutine whose stack alone keeps tables, a closure over one of its locals (an open
/// upvalue), a weak-valued table and a plain table.
const BUILD: &str = r#"
local held = ...
held.plain = { 1, 2, 3 }
held.weak = setmetatable({}, { __mode = "v" })
held.weak.kept = held.plain
held.worker = coroutine.create(function()
  local mine = { tag = "built" }
  held.peek = function() return mine.tag end   -- `mine` stays an open upvalue
  while true do
    -- Young tables only the coroutine's stack holds, across the collections the host makes
    -- while the coroutine is suspended.
    local young = {}
    for i = 1, 200 do young[i] = { i } end
    mine = { tag = "young" }
    coroutine.yield("made")
    for i = 1, 200 do
      if young[i][1] ~= i then return "lost " .. i end
    end
    if mine.tag ~= "young" then return "lost the upvalue" end
  end
end)
assert(coroutine.resume(held.worker) == true)
"#;

/// Resumes the worker `rounds` times with collections in between, and writes young tables
/// into the old ones; returns what went wrong, if anything.
const CHURN: &str = r#"
local held, collect = ...
for round = 1, 40 do
  local ok, said = coroutine.resume(held.worker)
  if not ok or said ~= "made" then return "round " .. round .. ": " .. tostring(said) end
  if held.peek() ~= "young" then return "the upvalue went" end
  held.plain[round + 3] = { round }            -- young into an old table
  held.weak["t" .. round] = { round }          -- young into an old weak table
  collect(round)
end
for round = 1, 40 do
  if held.plain[round + 3][1] ~= round then return "the old table lost " .. round end
end
if held.plain[1] ~= 1 or held.weak.kept ~= held.plain then return "old entries went" end
return "ok"
"#;

/// `collect(round)`: a minor step, and every fifth round a full collection.
fn collector(lua: &Lua) -> Function {
    lua.create_function(|lua, round: i64| {
        if round % 5 == 0 {
            lua.gc_collect()?;
        } else {
            lua.gc_step()?;
        }
        Ok(())
    })
    .unwrap()
}

/// Builds [`BUILD`] and churns ([`CHURN`]) with collections of every kind: minor steps, and
/// every fifth round a full one.
fn build_and_churn(lua: &Lua) -> String {
    let held = lua.create_table().unwrap();
    let build: Function = lua.load(BUILD).into_function().unwrap();
    build.call::<()>(held.clone()).unwrap();
    let collect = collector(lua);
    let churn: Function = lua.load(CHURN).into_function().unwrap();
    churn.call::<String>((held, collect)).unwrap()
}

#[test]
fn a_new_state_hands_over_a_running_collector() {
    let lua = state();
    assert!(lua.gc_is_running());
}

#[test]
fn a_settled_state_keeps_every_reachable_object_through_collections() {
    let lua = state();
    lua.hold_collector();
    assert!(!lua.gc_is_running());
    let held = lua.create_table().unwrap();
    let dropped = Rc::new(Cell::new(0));
    held.set("with_gc", Counted(dropped.clone())).unwrap();
    lua.load(BUILD)
        .into_function()
        .unwrap()
        .call::<()>(held.clone())
        .unwrap();
    // Many more objects made while held, as `ctx.regions` is.
    let filler: Table = lua
        .load("local t = {} for i = 1, 5000 do t[i] = { i, tostring(i) } end return t")
        .eval()
        .unwrap();
    lua.settle_collector();
    assert!(lua.gc_is_running());
    let collect = collector(&lua);
    let churn: Function = lua.load(CHURN).into_function().unwrap();
    assert_eq!(churn.call::<String>((held.clone(), collect)).unwrap(), "ok");
    let n: i64 = filler.get::<Table>(4321).unwrap().get(1).unwrap();
    assert_eq!(n, 4321);
    // Garbage made while held is collected by a full collection, finalizers included.
    held.set("with_gc", mlua::Value::Nil).unwrap();
    lua.gc_collect().unwrap();
    lua.gc_collect().unwrap();
    assert_eq!(dropped.get(), 1);
}

#[test]
fn a_settled_collector_collects_garbage_again() {
    let lua = state();
    lua.hold_collector();
    lua.settle_collector();
    let before = lua.used_memory();
    // About 40 MB of garbage: with the collector left stopped the state would hold all of it.
    lua.load("for i = 1, 400000 do local t = { i, i + 1, i + 2, i + 3 } end")
        .exec()
        .unwrap();
    assert!(
        lua.used_memory() < before + (8 << 20),
        "{} bytes after, {before} before",
        lua.used_memory()
    );
}

#[test]
fn the_same_churn_passes_in_a_state_never_held() {
    // The test's own check: the churn passes where nothing was settled but the state's start.
    let lua = state();
    assert_eq!(build_and_churn(&lua), "ok");
}

/// Region edits (`Host::set_registry`, as `warren watch` makes them) leave the memory the state
/// holds where it was: each rebuild's `ctx.regions` replaces the last, and the collector frees
/// the last (made old by a settle, every rebuild's garbage would raise the base of the next
/// major collection, and none would ever come: about 43 KB more at each edit).
#[test]
fn region_edits_do_not_pile_up_old_region_tables() {
    use crate::common::{host, registry};
    let mut host = host("rooms.lua");
    let params = host.resolve_params(&[]).unwrap();
    let run = |host: &warren_lua::Host| {
        host.generate(&warren_lua::Run {
            seed: 1,
            params: &params,
            depth: 1,
            above: None,
        })
        .unwrap();
        host.last_usage().peak_memory
    };
    let mut peaks = Vec::new();
    for _ in 0..60 {
        host.set_registry(registry()).unwrap();
        peaks.push(run(&host));
    }
    let early = *peaks[..10].iter().max().unwrap();
    let late = *peaks[50..].iter().max().unwrap();
    assert!(
        late < early * 3 / 2,
        "peak {early} bytes early, {late} late"
    );
}

/// The most Lua keeps of freed small blocks (`LUAI_WSPAREBYTES`, crates/lua-src/lua-5.4.8/lmem.h).
const KEPT_AT_MOST: i64 = 128 * 1024;

#[test]
fn small_blocks_lua_keeps_for_reuse_stay_in_the_account_until_a_full_collection() {
    let lua = state();
    let budget = warren_lua::state::state(&lua).budget.clone();
    lua.gc_collect().unwrap();
    // What the host's account holds of the Lua heap beyond what Lua counts itself (besides
    // the few bytes it counted differently before it started).
    let before = budget.lua_bytes() as i64 - lua.used_memory() as i64;
    let kept = || budget.lua_bytes() as i64 - lua.used_memory() as i64 - before;
    // Options tables made and dropped, one a call as a recipe makes them: the collector
    // frees them into Lua's kept blocks (lmem.c), which the allocator still holds for it.
    let churn = "for i = 1, 20000 do local options = { a = i, b = -i } end";
    lua.load(churn).exec().unwrap();
    let after_churn = kept();
    assert!(
        after_churn > 0 && after_churn <= KEPT_AT_MOST,
        "{after_churn} bytes kept"
    );
    // Taken again for the next tables: the same churn keeps no more.
    lua.load(churn).exec().unwrap();
    assert!(kept() <= KEPT_AT_MOST, "{} bytes kept", kept());
    lua.gc_collect().unwrap();
    assert_eq!(kept(), 0, "a full collection gives every kept block back");
}
