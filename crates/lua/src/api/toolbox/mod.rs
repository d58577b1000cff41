//! `warren.toolbox`: the designer's toolbox (docs/toolbox.md) — fields (noise, distance maps,
//! field of view) as `warren.Field` objects, paths, cellular automata, drunkard's walks, BSP
//! rooms and interiors, mazes, diffusion-limited aggregation, Voronoi regions, Brogue's loops
//! and lakes, vault templates placed from region data, and wave function collapse from a
//! `[[sample]]`. Each call converts its arguments and runs one primitive of
//! [`warren_core::gen`]: on the whole map or inside a rectangle, room or mask, writing
//! terrains named in region data through priority writes, drawing from the `rng` stream it is
//! given, its work charged to the instruction budget and its grids to the memory budget.

pub mod area;
pub mod brogue;
pub mod field;
pub mod fields;
pub mod generators;
pub mod grid;
pub mod growth;
pub mod paths;
pub mod vaults;
pub mod wfc;

pub use grid::LuaField;

use super::decl::{Class, Decl};
use mlua::{Lua, Table};

/// Every function of `warren.toolbox`.
pub fn functions() -> Vec<&'static Decl> {
    [
        fields::DECLS,
        paths::DECLS,
        generators::DECLS,
        growth::DECLS,
        brogue::DECLS,
        vaults::DECLS,
        wfc::DECLS,
    ]
    .concat()
}

/// The option and report classes of `warren.toolbox` and of the field's methods.
pub fn classes() -> Vec<&'static Class> {
    let mut out: Vec<&'static Class> = vec![
        &area::AREA_OPTIONS,
        &area::AREA_WRITE_OPTIONS,
        &field::THRESHOLD_OPTIONS,
    ];
    out.extend(fields::CLASSES);
    out.extend(paths::CLASSES);
    out.extend(generators::CLASSES);
    out.extend(growth::CLASSES);
    out.extend(brogue::CLASSES);
    out.extend(vaults::CLASSES);
    out.extend(wfc::CLASSES);
    out
}

/// The `warren.toolbox` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    fields::register(lua, &t)?;
    paths::register(lua, &t)?;
    generators::register(lua, &t)?;
    growth::register(lua, &t)?;
    brogue::register(lua, &t)?;
    vaults::register(lua, &t)?;
    wfc::register(lua, &t)?;
    Ok(t)
}
