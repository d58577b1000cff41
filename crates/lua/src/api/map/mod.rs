//! The `map` object recipes receive, one child per kind of method: reading cells ([`reads`]),
//! priority writes and shapes ([`writes`]), bulk reads and writes ([`bulk`]), annotations
//! ([`notes`]), connectivity ([`connectivity`]), snapshots and layers ([`debug`]), and the
//! fast paths on the run's map (`fast.rs`, [`install_fast`]; the rooms phases' in `phases.rs`).
//! This file makes map userdata and assembles the children's methods; the children name no
//! parent (a method's receiver is a `Shared<Map>`, which is what [`LuaMap`] stands for).

pub mod bulk;
pub mod connectivity;
pub mod debug;
mod fast;
pub mod notes;
pub mod phases;
pub mod reads;
pub mod writes;

pub use fast::install as install_fast;
pub(in crate::api) use fast::map_call;

/// The declarations and argument readers of the map's fast methods, for the test
/// that keeps them in step (`tests/lua/api/fast_args.rs`).
pub fn fast_readers() -> Vec<(&'static Decl, &'static [crate::api::fast::args::Read])> {
    fast::METHODS.iter().map(|m| (m.decl, m.reads)).collect()
}

use crate::api::decl::{Decl, Owner, Owner::Map as M};
use crate::api::shared::Shared;
use crate::ffi::lua_warren_setfields;
use mlua::{AnyUserData, Lua, MetaMethod, UserData, UserDataFields, UserDataMethods};
use warren_core::map::Map;

/// The map as a Lua userdata's payload.
pub type LuaMap = Shared<Map>;

/// The map's fields, kept in each map userdata's field table (see [`new_userdata`]) rather than
/// registered with mlua.
pub const FIELDS: &[&Decl] = &[&WIDTH, &HEIGHT];

const WIDTH: Decl = Decl::field(M, "width", &["integer"], "Map width in cells.");
const HEIGHT: Decl = Decl::field(M, "height", &["integer"], "Map height in cells.");

/// A map userdata, the only way one is made: its field table (`lua_warren_setfields`, see
/// `crates/lua-src/WARREN.md`) answers `map.width` and `map.height` inside the VM, at the speed
/// of a table's field, while its methods stay mlua's plain methods table.
pub fn new_userdata(lua: &Lua, map: Map) -> mlua::Result<AnyUserData> {
    // Room for the fast methods the run's map gets (`fast::install`), twice over: in a hash
    // part of 16 slots for its 14 keys, `map:set` shared its main slot with two other keys and
    // every call walked that chain (12% of a loop of `map:set` calls); in 32, it and
    // `map:get` are each found in their own slot (string hashes are seeded by a constant).
    let fields = lua.create_table_with_capacity(0, 2 * (2 + fast::METHODS.len()))?;
    fields.raw_set("width", map.width())?;
    fields.raw_set("height", map.height())?;
    let ud = lua.create_userdata(LuaMap::new(map))?;
    // SAFETY: `exec_raw` pushes the userdata and the table (slots 1 and 2) and runs the
    // closure protected; `lua_warren_setfields` pops the table and cannot raise (slot 1 of an
    // mlua userdata exists: mlua makes every userdata with one user value).
    unsafe {
        lua.exec_raw::<()>((&ud, fields), |state| {
            lua_warren_setfields(state, 1);
            mlua::ffi::lua_settop(state, 0);
        })?;
    }
    Ok(ud)
}

/// Brings `ud`'s field table up to its map's size. Whoever changes the size of a map in a
/// userdata calls this (the host when a run's map goes in, `warren.dungeon.init_level`). This
/// is the host's bookkeeping, like the map's cells: it leaves the state's dirty flag as it was.
pub fn publish_size(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    let size = {
        let m = LuaMap::read_ud(ud)?;
        (m.width(), m.height())
    };
    publish(lua, ud, size)
}

/// [`publish_size`] for a caller that knows the size of `ud`'s map (the host, which has just
/// put it there).
pub fn publish(lua: &Lua, ud: &AnyUserData, (width, height): (i32, i32)) -> mlua::Result<()> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: room for four slots is checked and everything pushed is popped. Nothing here
        // can raise: both keys are already in the field table (set by `new_userdata`; their
        // strings are interned, so pushing them allocates nothing), so each raw write replaces
        // a value in place.
        unsafe {
            if mlua::ffi::lua_checkstack(state, 4) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(ud)?;
            if mlua::ffi::lua_getiuservalue(state, -1, 1) != mlua::ffi::LUA_TTABLE {
                mlua::ffi::lua_pop(state, 2);
                return Err(mlua::Error::RuntimeError(
                    "a map userdata without its field table (made outside new_userdata)".into(),
                ));
            }
            crate::state::keeping_clean(state, || {
                for (key, value) in [("width", width), ("height", height)] {
                    mlua::ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                    mlua::ffi::lua_pushinteger(state, value.into());
                    mlua::ffi::lua_rawset(state, -3);
                }
            });
            mlua::ffi::lua_pop(state, 2);
        }
        Ok(())
    })
}

impl UserData for LuaMap {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(map)` shows (mlua would name the Rust type, `Shared<Map>`).
        fields.add_meta_field(MetaMethod::Type, Owner::Map.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        reads::register(methods);
        writes::register(methods);
        bulk::register(methods);
        notes::register(methods);
        connectivity::register(methods);
        debug::register(methods);
    }
}

/// The map's methods, as the children that implement them list them, in the order their gates
/// are numbered (see [`crate::api::gate`]): a new list goes last.
pub const METHOD_LISTS: [&[&Decl]; 6] = [
    reads::METHODS,
    writes::METHODS,
    bulk::METHODS,
    notes::METHODS,
    connectivity::METHODS,
    debug::METHODS,
];

/// Every declaration of the map object.
pub fn decls() -> Vec<&'static Decl> {
    [&[FIELDS][..], &METHOD_LISTS].concat().concat()
}
