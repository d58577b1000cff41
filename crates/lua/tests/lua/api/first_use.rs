//! The types met on first use (`api/first_use.rs`): numbered apart from a recipe's objects,
//! gated before a script holds a value of them, their gates installed once.

use std::collections::BTreeSet;
use std::sync::Arc;
use warren_core::map::{Map, TerrainTable};
use warren_lua::api::decl::Decl;
use warren_lua::api::first_use::MetOnFirstUse;
use warren_lua::api::gate::FIELD_GATES;
use warren_lua::api::{dungeon, status, toolbox, town, tunnel};
use warren_lua::Limits;

use crate::common;

/// Makes a different set of the five types each run (none, one, several; a field in a
/// coroutine on some), after and before tables and a stream, and tags what a script sees of
/// them: their ids, the order of a table keyed by them, and the instructions run.
const MEETS: &str = r##"
local warren = require "warren"
return {
  name = "meets",
  params = { width = { default = 64, min = 16 }, height = { default = 64, min = 16 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    local seen, keyed = {}, {}
    local function show(v) seen[#seen + 1] = tostring(v); keyed[v] = #seen end
    show({})
    local s = ctx.seed
    if s % 2 == 1 then show(warren.toolbox.field(map, 0.5)) end
    if s % 3 == 1 then show(warren.town.new {}) end
    if s % 5 == 1 then
      show(warren.status_lists { cells = 4, statuses = { "a", "b" }, initial = "a" })
    end
    if s % 4 == 1 then
      show(warren.dungeon.init_level(map, {
        width = 64, height = 64, panel_width = 32, panel_height = 32,
      }))
    end
    if s % 7 == 1 then show(warren.tunnel.new(map)) end
    if s % 6 == 4 then
      show(coroutine.wrap(function() return warren.toolbox.field(map, 1) end)())
    end
    show(ctx.rng:stream("after"))
    show({})
    local order = {}
    for v, k in pairs(keyed) do order[#order + 1] = tostring(v) .. "@" .. k end
    map:tag("seen", table.concat(seen, " "))
    map:tag("order", table.concat(order, " "))
    -- The instructions run so far (os.clock counts them): meeting a type charges the run none.
    map:tag("clock", ("%.9f"):format(os.clock()))
  end,
}
"##;

#[test]
fn a_type_met_in_an_earlier_run_leaves_later_runs_numbered_as_in_a_fresh_state() {
    let dir = tempfile::tempdir().unwrap();
    let reused = common::host_for(dir.path(), "meets", MEETS, Limits::default());
    // Each type is first met at seed 1; later seeds make it again, or not at all.
    for seed in (0..30).chain([1, 0, 9]) {
        let fresh = common::host_for(dir.path(), "meets", MEETS, Limits::default());
        let tags = |h: &warren_lua::Host| {
            let map = common::generate_at(h, seed, &[], 1, None).unwrap();
            format!("{:?}", map.notes.tags)
        };
        assert_eq!(
            tags(&reused),
            tags(&fresh),
            "seed {seed}: a state that met the types earlier numbers differently"
        );
    }
    assert_eq!(reused.reloads(), 0, "the recipe keeps no state");
}

/// A call of each type's first method that takes a fixed number of arguments, with one too
/// many: `(constructor, method, arguments it takes)`.
fn one_argument_too_many() -> Vec<(&'static str, &'static str, usize)> {
    let first_fixed = |methods: &[&'static Decl]| {
        let d = methods
            .iter()
            .find(|d| !d.variadic)
            .expect("a fixed method");
        (d.name, d.args.len())
    };
    let made = [
        ("warren.toolbox.field(map, 0)", toolbox::field::METHODS),
        ("warren.town.new {}", town::METHODS),
        (
            "warren.status_lists { cells = 1, statuses = { 'a' }, initial = 'a' }",
            status::METHODS,
        ),
        (
            "warren.dungeon.init_level(map, { width = 64, height = 64 })",
            dungeon::METHODS,
        ),
        ("warren.tunnel.new(map)", tunnel::METHODS),
    ];
    made.into_iter()
        .map(|(make, methods)| {
            let (name, args) = first_fixed(methods);
            (make, name, args)
        })
        .collect()
}

#[test]
fn the_first_value_of_each_type_a_script_holds_has_its_methods_behind_gates() {
    let dir = tempfile::tempdir().unwrap();
    for (make, method, args) in one_argument_too_many() {
        let extra = vec!["0"; args + 1].join(", ");
        let recipe = format!(
            r#"local warren = require "warren"
return {{
  name = "first",
  params = {{ width = {{ default = 64 }}, height = {{ default = 64 }} }},
  generate = function(map, ctx)
    local v = {make}
    v:{method}({extra})
  end,
}}"#
        );
        let fresh = common::host_for(dir.path(), "first", &recipe, Limits::default());
        let e = common::generate_at(&fresh, 1, &[], 1, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("takes at most {args} argument"))
                && e.contains(&format!("got {}", args + 1)),
            "{make}, :{method}: {e}"
        );
    }
}

#[test]
fn gates_installed_again_keep_one_gate_a_method() {
    // A gate over a gate would call itself for ever: the calls run on a thread of their own,
    // and the test fails if they have not answered within a minute.
    let (answered, answers) = std::sync::mpsc::channel();
    std::thread::spawn(move || answered.send(call_a_field_gated_twice()));
    let (value, refused) = answers
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a method gated twice never returned");
    assert_eq!(value, Ok(2.0));
    let e = refused.unwrap_err();
    assert!(e.contains("takes at most 2 arguments"), "{e}");
}

/// Makes a field, installs its type's gates a second time (what an install cut short and
/// finished by the next value's does, every method already behind its gate), then calls a
/// method rightly and with one argument too many.
fn call_a_field_gated_twice() -> (Result<f64, String>, Result<f64, String>) {
    let (lua, _) =
        warren_lua::sandbox::new_state(vec![], Default::default(), warren_lua::api::install)
            .unwrap();
    let terrains = Arc::new(TerrainTable::plain(&[("rock", '#', true)]));
    let map =
        warren_lua::api::map::new_userdata(&lua, Map::new(4, 4, 0, terrains).unwrap()).unwrap();
    let field: mlua::AnyUserData = lua
        .load("local map = ... return warren.toolbox.field(map, 2)")
        .call(&map)
        .unwrap();
    warren_lua::api::gate::install(&lua, &field, &[toolbox::field::METHODS], FIELD_GATES).unwrap();
    let call = |code: &str| {
        lua.load(code)
            .set_name("=test")
            .call::<f64>(&field)
            .map_err(|e| e.to_string())
    };
    (
        call("local f = ... return f:value(1, 1)"),
        call("local f = ... return f:value(1, 1, 1)"),
    )
}

#[test]
fn each_type_has_a_slot_of_its_own() {
    let slots = [
        toolbox::grid::FieldData::SLOT,
        town::TownState::SLOT,
        status::Lists::SLOT,
        dungeon::DungeonLevel::SLOT,
        tunnel::TunnelState::SLOT,
    ];
    let distinct: BTreeSet<u32> = slots.iter().copied().collect();
    assert_eq!(distinct.len(), slots.len(), "{slots:?}");
    assert!(
        slots.iter().all(|&s| s < 8),
        "a bit each in a u8: {slots:?}"
    );
}
