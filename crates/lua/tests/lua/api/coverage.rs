//! Keeps the API declarations and the registered bindings in step: every method, field and
//! function registered in Lua has a declaration (`api::decls`), and every declaration is
//! registered.

use mlua::{
    FromLuaMulti, IntoLua, IntoLuaMulti, Lua, MaybeSend, UserData, UserDataFields, UserDataMethods,
};
use std::collections::BTreeSet;
use warren_lua::api::decl::Owner;
use warren_lua::api::map::LuaMap;
use warren_lua::api::rng::LuaRng;
use warren_lua::sandbox;

/// Records the names a userdata type registers, without building anything.
#[derive(Default)]
struct Names(BTreeSet<String>);

impl<T> UserDataMethods<T> for Names {
    fn add_method<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.0.insert(name.into());
    }
    fn add_method_mut<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.0.insert(name.into());
    }
    fn add_function<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.0.insert(name.into());
    }
    fn add_function_mut<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.0.insert(name.into());
    }
    fn add_meta_method<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_method_mut<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function_mut<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + MaybeSend + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
}

impl<T> UserDataFields<T> for Names {
    fn add_field<V: IntoLua + 'static>(&mut self, name: impl Into<String>, _: V) {
        self.0.insert(name.into());
    }
    fn add_field_method_get<M, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T) -> mlua::Result<R> + MaybeSend + 'static,
        R: IntoLua,
    {
        self.0.insert(name.into());
    }
    fn add_field_method_set<M, A>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<()> + MaybeSend + 'static,
        A: mlua::FromLua,
    {
        self.0.insert(name.into());
    }
    fn add_field_function_get<F, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, mlua::AnyUserData) -> mlua::Result<R> + MaybeSend + 'static,
        R: IntoLua,
    {
        self.0.insert(name.into());
    }
    fn add_field_function_set<F, A>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, mlua::AnyUserData, A) -> mlua::Result<()> + MaybeSend + 'static,
        A: mlua::FromLua,
    {
        self.0.insert(name.into());
    }
    fn add_meta_field<V: IntoLua + 'static>(&mut self, _: impl Into<String>, _: V) {}
    fn add_meta_field_with<F, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnOnce(&Lua) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
    }
}

/// The names a userdata type registers (methods and fields).
fn userdata_names<T: UserData>() -> BTreeSet<String> {
    let mut names = Names::default();
    T::add_fields(&mut names);
    T::add_methods(&mut names);
    names.0
}

/// The fields and methods of a type met on first use (its `add_methods` checks that it is
/// being met).
fn met_names<T: 'static>() -> BTreeSet<String>
where
    warren_lua::api::shared::Shared<T>: UserData,
{
    warren_lua::api::first_use::as_if_meeting::<T, _>(
        userdata_names::<warren_lua::api::shared::Shared<T>>,
    )
}

/// A rectangle's fields and methods. Its metatable is hidden from Lua, so it is read from Rust.
fn rect_keys() -> BTreeSet<String> {
    let (lua, _) =
        sandbox::new_state(vec![], Default::default(), warren_lua::api::install).unwrap();
    let rect: mlua::Table = lua.load("return warren.rect(0, 0, 1, 1)").eval().unwrap();
    let mut keys = BTreeSet::new();
    let mut add = |t: &mlua::Table| {
        for pair in t.pairs::<mlua::Value, mlua::Value>() {
            if let Ok((mlua::Value::String(k), _)) = pair {
                keys.insert(k.to_string_lossy());
            }
        }
    };
    add(&rect);
    if let Some(methods) = rect
        .metatable()
        .and_then(|mt| mt.raw_get::<Option<mlua::Table>>("__index").ok().flatten())
    {
        add(&methods);
    }
    keys.retain(|k| !k.starts_with("__"));
    keys
}

/// The keys of the table `expr` evaluates to in a fresh sandbox. Read-only proxies (which
/// hide their metatable from Lua) are looked through to the table they guard.
fn lua_keys(expr: &str) -> BTreeSet<String> {
    let (lua, _) =
        sandbox::new_state(vec![], Default::default(), warren_lua::api::install).unwrap();
    let table: mlua::Table = lua.load(format!("return {expr}")).eval().unwrap();
    let guarded = table
        .metatable()
        .and_then(|mt| mt.raw_get::<Option<mlua::Table>>("__index").ok().flatten())
        .filter(|_| {
            table.raw_len() == 0 && table.pairs::<mlua::Value, mlua::Value>().next().is_none()
        });
    guarded
        .unwrap_or(table)
        .pairs::<String, mlua::Value>()
        .map(|kv| kv.unwrap().0)
        .collect()
}

/// The `ctx` keys a recipe's `generate` receives (with `ctx.above` from a two-level run).
fn ctx_keys() -> BTreeSet<String> {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("ctx.lua");
    std::fs::write(
        &script,
        "return { params = { width = { default = 3 }, height = { default = 3 } },\n\
         generate = function(map, ctx) for k in pairs(ctx) do map:tag(k, true) end end }",
    )
    .unwrap();
    let terrain =
        "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n";
    let registry = warren_core::region::Registry::from_sources(vec![warren_core::region::Source {
        path: "t.toml".into(),
        text: terrain.into(),
    }])
    .unwrap();
    let host =
        warren_lua::Host::load(&script, std::sync::Arc::new(registry), Default::default()).unwrap();
    let params = host.resolve_params(&[]).unwrap();
    let levels = warren_lua::run::generate_levels(&host, 1, &params, 2).unwrap();
    levels[1].map.notes.tags.keys().cloned().collect()
}

/// The declared names for one owner.
fn declared(owner: Owner) -> BTreeSet<String> {
    warren_lua::api::decls()
        .into_iter()
        .filter(|d| d.owner == owner)
        .map(|d| d.name.to_string())
        .collect()
}

#[test]
fn every_binding_is_declared_and_every_declaration_bound() {
    let registered = [
        (Owner::Map, {
            let mut names = userdata_names::<LuaMap>();
            names.extend(
                warren_lua::api::map::FIELDS
                    .iter()
                    .map(|d| d.name.to_string()),
            );
            names
        }),
        (Owner::Rng, userdata_names::<LuaRng>()),
        (
            Owner::Rects,
            userdata_names::<warren_lua::api::rects::LuaRects>(),
        ),
        (
            Owner::StatusLists,
            met_names::<warren_lua::api::status::Lists>(),
        ),
        (Owner::Warren, {
            // A debug-build test hook, not part of the API.
            let mut k = lua_keys("warren");
            k.remove("debug_panic");
            k
        }),
        (Owner::Gen, lua_keys("warren.gen")),
        (Owner::Toolbox, lua_keys("warren.toolbox")),
        (
            Owner::Field,
            met_names::<warren_lua::api::toolbox::grid::FieldData>(),
        ),
        (Owner::Tunnel, lua_keys("warren.tunnel")),
        (Owner::Dungeon, lua_keys("warren.dungeon")),
        (Owner::Town, lua_keys("warren.town")),
        (
            Owner::Tunnels,
            met_names::<warren_lua::api::tunnel::TunnelState>(),
        ),
        (
            Owner::Level,
            met_names::<warren_lua::api::dungeon::DungeonLevel>(),
        ),
        (
            Owner::TownMap,
            met_names::<warren_lua::api::town::TownState>(),
        ),
        (Owner::Rect, rect_keys()),
        (Owner::Ctx, ctx_keys()),
    ];
    for (owner, names) in registered {
        let decls = declared(owner);
        let missing: Vec<_> = names.difference(&decls).collect();
        let stale: Vec<_> = decls.difference(&names).collect();
        assert!(
            missing.is_empty() && stale.is_empty(),
            "{owner:?}: bindings without a declaration: {missing:?}; declarations without a \
             binding: {stale:?}"
        );
    }
}

#[test]
fn declarations_are_well_formed_and_unique() {
    let mut seen = BTreeSet::new();
    for d in warren_lua::api::decls() {
        assert!(
            seen.insert((d.owner, d.name)),
            "duplicate declaration {d:?}"
        );
        assert!(!d.doc.is_empty(), "{d:?} has no doc");
        let mut optional = false;
        for a in d.args {
            assert!(
                !optional || a.optional,
                "{}: required argument {} after an optional one",
                d.call_name(),
                a.name
            );
            optional |= a.optional;
        }
    }
    let classes = warren_lua::api::classes();
    let names: BTreeSet<&str> = classes.iter().map(|c| c.name).collect();
    assert_eq!(names.len(), classes.len(), "duplicate class");
    for c in classes {
        assert!(
            c.all_fields().len() <= warren_lua::api::call::MAX_KEYS,
            "{} has more keys than an options table may",
            c.name
        );
    }
}

#[test]
fn every_owner_is_covered() {
    for owner in Owner::ALL {
        assert!(
            warren_lua::api::decls().iter().any(|d| d.owner == owner),
            "{owner:?} declares nothing"
        );
    }
}
