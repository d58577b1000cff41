//! The fast calls' machinery: telling a userdata's cell (`api/fast/closures.rs`).

use mlua::ffi;
use warren_core::map::Rect;
use warren_core::rng::Rng;
use warren_lua::api::fast::closures::{cell_at, keep_cell, metatable_of};
use warren_lua::api::shared::Shared;

/// `cell_at` at the top of the stack, with `metatable`.
fn found(lua: &mlua::Lua, v: &mlua::Value, metatable: *const std::ffi::c_void) -> usize {
    lua.exec_raw_lua(|raw| {
        // SAFETY: one value is pushed and popped; `cell_at` pushes nothing.
        unsafe {
            assert!(ffi::lua_checkstack(raw.state(), 1) != 0);
            raw.push(v).unwrap();
            let cell = cell_at::<Rng>(raw.state(), -1, metatable);
            ffi::lua_pop(raw.state(), 1);
            cell.map_or(0, |c| std::ptr::from_ref(c) as usize)
        }
    })
}

#[test]
fn cell_at_finds_the_cell_of_a_pointing_userdata_of_its_type_only() {
    let lua = mlua::Lua::new();
    let rng = Shared::new(Rng::new(7));
    let cell = rng.cell() as usize;
    let pointing = lua.create_userdata(rng).unwrap();
    keep_cell::<Rng>(&lua, &pointing).unwrap();
    let not_pointing = lua.create_userdata(Shared::new(Rng::new(8))).unwrap();
    let list = lua
        .create_userdata(Shared::new(Vec::<Rect>::new()))
        .unwrap();
    keep_cell::<Vec<Rect>>(&lua, &list).unwrap();
    let rngs = metatable_of(&lua, &pointing);
    assert!(!rngs.is_null());
    assert_eq!(metatable_of(&lua, &not_pointing), rngs);

    let ud = mlua::Value::UserData;
    assert_eq!(found(&lua, &ud(pointing.clone()), rngs), cell);
    // Not pointing at its cell yet, another type (pointing at its own), no metatable given,
    // and values that are not userdata: none.
    assert_eq!(found(&lua, &ud(not_pointing), rngs), 0);
    assert_eq!(found(&lua, &ud(list), rngs), 0);
    assert_eq!(found(&lua, &ud(pointing), std::ptr::null()), 0);
    let table = mlua::Value::Table(lua.create_table().unwrap());
    for v in [mlua::Value::Nil, mlua::Value::Integer(1), table] {
        assert_eq!(found(&lua, &v, rngs), 0);
    }
}
