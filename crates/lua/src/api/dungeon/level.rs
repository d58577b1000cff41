//! A dungeon level's panel grid (`warren.dungeon.init_level` makes one): which panels are
//! taken, as recipes read it and the phases use it.

use crate::api::call::Call;
use crate::api::decl::{arg, Decl, Owner, Ty};
use crate::api::first_use::{self, MetOnFirstUse};
use crate::api::gate;
use crate::api::shared::Shared;
use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::dungeon::{LevelPanels, Panels};
use warren_core::map::Point;

/// One level's panel grid and which panels are taken, as a Lua userdata.
pub struct DungeonLevel(pub LevelPanels);

/// A dungeon level's panel grid as a Lua userdata: a [`DungeonLevel`] in a cell of warren's
/// own.
pub type LuaLevel = Shared<DungeonLevel>;

const L: Owner = Owner::Level;

const PANELS: Decl = Decl::method(L, "panels", "Every panel, column by column, with `used`.")
    .returns(&["warren.Panel[]"]);
const FREE_PANELS: Decl = Decl::method(L, "free_panels", "The panels not taken, column by column.")
    .returns(&["warren.Panel[]"]);
const USE_PANEL: Decl = Decl::method(
    L,
    "use_panel",
    "Marks panel (`px`, `py`) taken (0-based panel column and row), so no room is drawn there.",
)
.args(&[
    arg("px", Ty::int(0, i64::MAX)),
    arg("py", Ty::int(0, i64::MAX)),
]);

methods! {
    /// A level's methods.
    pub METHODS, register_methods for LuaLevel {
        PANELS => panels,
        FREE_PANELS => free_panels,
        USE_PANEL => use_panel,
    }
}

impl UserData for LuaLevel {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(level)` shows (mlua would name the Rust type, `Shared<DungeonLevel>`).
        fields.add_meta_field(MetaMethod::Type, Owner::Level.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        debug_assert!(
            first_use::meeting::<DungeonLevel>(),
            "a level made without `first_use::Fresh`"
        );
        register_methods(methods);
    }
}

/// Levels are met on first use (`warren.dungeon.init_level`).
impl MetOnFirstUse for DungeonLevel {
    const SLOT: u32 = 0;
    const METHODS: &'static [&'static [&'static Decl]] = &[METHODS];
    const GATES: u64 = gate::LEVEL_GATES;
}

/// A panel as a Lua table `{ x, y, w, h, px, py }`.
pub(super) fn panel_table(lua: &Lua, panels: &Panels, p: Point) -> mlua::Result<Table> {
    let r = panels.rect(p);
    let t = lua.create_table_with_capacity(0, 7)?;
    t.raw_set("x", r.x)?;
    t.raw_set("y", r.y)?;
    t.raw_set("w", r.w)?;
    t.raw_set("h", r.h)?;
    t.raw_set("px", p.x)?;
    t.raw_set("py", p.y)?;
    Ok(t)
}

fn panels(lua: &Lua, this: &LuaLevel, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &PANELS);
    let l = c.read(this)?;
    let all = l.0.panels.all();
    crate::state::charge(lua, all.len() as u64)?;
    let out = lua.create_table_with_capacity(all.len(), 0)?;
    for (i, &p) in all.iter().enumerate() {
        let t = panel_table(lua, &l.0.panels, p)?;
        t.raw_set("used", l.0.used[i])?;
        out.raw_set(i + 1, t)?;
    }
    Ok(out)
}

fn free_panels(lua: &Lua, this: &LuaLevel, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &FREE_PANELS);
    let l = c.read(this)?;
    let free = l.0.free_panels();
    crate::state::charge(lua, free.len() as u64)?;
    let out = lua.create_table_with_capacity(free.len(), 0)?;
    for (i, &p) in free.iter().enumerate() {
        out.raw_set(i + 1, panel_table(lua, &l.0.panels, p)?)?;
    }
    Ok(out)
}

fn use_panel(lua: &Lua, this: &LuaLevel, (px, py): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &USE_PANEL);
    let (px, py) = (c.int(0, &px)?, c.int(1, &py)?);
    let mut l = c.write(this)?;
    let p = Point::new(
        px.min(i32::MAX as i64) as i32,
        py.min(i32::MAX as i64) as i32,
    );
    l.0.use_panel(p).map_err(|e| c.fail(e))
}
