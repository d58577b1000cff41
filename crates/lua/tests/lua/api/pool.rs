//! A clean run hands the userdata it made to the next as new ones (`api/pool.rs`).

use warren_core::rng::Rng;
use warren_lua::api::fast::new_pointing;
use warren_lua::api::pool::{end_run, Pooled, Pools, KEPT};
use warren_lua::api::rng::LuaRng;
use warren_lua::state;

/// The pointer and the stable id of `ud`, and the seed of the rng it holds.
fn seen(lua: &mlua::Lua, ud: &mlua::AnyUserData) -> (*const std::ffi::c_void, u64, u64) {
    let id = lua.exec_raw_lua(|raw| unsafe {
        raw.push(ud).unwrap();
        let id = warren_lua::ffi::lua_warren_id(raw.state(), -1);
        mlua::ffi::lua_pop(raw.state(), 1);
        id
    });
    (ud.to_pointer(), id, LuaRng::read_ud(ud).unwrap().seed())
}

#[test]
fn a_clean_run_hands_what_it_made_to_the_next_as_new() {
    let (lua, _) =
        warren_lua::sandbox::new_state(vec![], Default::default(), warren_lua::api::install)
            .unwrap();
    let data = state::state(&lua);
    let free = || {
        Rng::pool(&lua.app_data_ref::<Pools>().unwrap())
            .free
            .borrow()
            .len()
    };
    new_pointing(&lua, Rng::new(1)).unwrap();
    end_run(&lua, true);
    assert_eq!(free(), 0, "outside a run nothing is kept");

    data.running.set(true);
    let first = new_pointing(&lua, Rng::new(3)).unwrap();
    let (at, id, _) = seen(&lua, &first);
    end_run(&lua, true);
    assert_eq!(free(), 1);
    let again = new_pointing(&lua, Rng::new(4)).unwrap();
    assert_eq!(
        seen(&lua, &again),
        (at, id + 1, 4),
        "the same userdata, renumbered, new value"
    );
    let other = new_pointing(&lua, Rng::new(5)).unwrap();
    assert_ne!(
        seen(&lua, &other).0,
        at,
        "a run never hands out one object twice"
    );

    end_run(&lua, false);
    assert_eq!(free(), 0, "a dirty run's objects are let go");
    for seed in 0..2 * KEPT as u64 {
        new_pointing(&lua, Rng::new(seed)).unwrap();
    }
    end_run(&lua, true);
    assert_eq!(free(), KEPT, "at most KEPT are kept");
}
