//! Wave function collapse (the overlapping model) from a `[[sample]]` of the region files.

use super::area::{self, AREA_WRITE_OPTIONS};
use crate::api::call::{Call, Extra, This};
use crate::api::decl::{arg, key, key_or, Class, Decl, Default, Owner::Toolbox as T, Ty};
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::regions::registry;
use crate::api::rng::LuaRng;
use crate::api::shapes::brush;
use crate::state::{charge, reserve};
use mlua::{Lua, Table, Value};
use std::sync::Arc;
use warren_core::gen::wfc::{self, Symmetry, MAX_RETRIES};
use warren_core::map::Brush;
use warren_core::region::explain::unknown;

/// What `warren.toolbox.wfc` takes.
pub const WFC_OPTIONS: Class = Class {
    name: "warren.WfcOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.wfc`.",
    fields: &[
        key(
            "sample",
            Ty::Str,
            "The name of a `[[sample]]` of the region files: the map whose windows the output is made of.",
        ),
        key_or(
            "n",
            Ty::int(2, 3),
            Default::Int(3),
            "The side of a window: 2 copies less of the sample's structure and contradicts less, 3 copies more.",
        ),
        key_or(
            "rotate",
            Ty::Bool,
            Default::Bool(false),
            "Also use each window turned by a quarter, a half and three quarters.",
        ),
        key_or(
            "reflect",
            Ty::Bool,
            Default::Bool(false),
            "Also use each window (and its turns) mirrored.",
        ),
        key_or(
            "retries",
            Ty::int(0, MAX_RETRIES as i64),
            Default::Int(10),
            "Attempts after the first when one meets a contradiction (a cell no window fits); then the call fails naming the sample.",
        ),
    ],
};

/// What `warren.toolbox.wfc` returns.
pub const COLLAPSED: Class = Class {
    name: "warren.Collapsed",
    parent: None,
    doc: "What a wave function collapse did.",
    fields: &[
        key(
            "attempts",
            Ty::INT,
            "Attempts made (1: the first succeeded).",
        ),
        key("patterns", Ty::INT, "Distinct windows the sample gave."),
        key("written", Ty::INT, "Cells written."),
    ],
};

const WFC: Decl = Decl::function(
    T,
    "wfc",
    "Wave function collapse, the overlapping model: fills the area's bounding rectangle so that every n×n window is a window of the sample (with its turns and mirrors when asked), writing the cells inside the area with the sample's terrains; retries a contradiction up to `retries` times, drawing on from `rng`. Nothing is written unless an attempt succeeds.",
)
.args(&[
    arg("map", Ty::Map),
    arg("rng", Ty::Rng),
    arg("opts", Ty::Table(&WFC_OPTIONS)),
])
.returns(&["warren.Collapsed"]);

functions! {
    /// Wave function collapse.
    pub DECLS, register {
        WFC => collapse,
    }
}

/// The option and report classes of this call.
pub const CLASSES: &[&Class] = &[&WFC_OPTIONS, &COLLAPSED];

fn collapse(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &WFC, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let name = o.str("sample")?;
    let reg = registry(&c)?;
    if !Arc::ptr_eq(reg.terrains(), m.terrains()) {
        return Err(c.fail("the map was made with other region files than the samples'"));
    }
    let samples = &reg.resolved.samples;
    charge(lua, samples.len() as u64)?;
    let Some(sample) = samples.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = samples.iter().map(|s| s.name.as_str()).collect();
        return Err(c.fail(if names.is_empty() {
            format!("unknown sample '{name}': the region files have no [[sample]]")
        } else {
            unknown("sample", &name, &names)
        }));
    };
    let symmetry = Symmetry {
        rotate: o.bool("rotate")?,
        reflect: o.bool("reflect")?,
    };
    let n = o.int("n")? as usize;
    let retries = o.int("retries")? as u32;
    let brushes = sample
        .terrains
        .iter()
        .map(|&t| brush(&o, &mut m, t))
        .collect::<mlua::Result<Vec<Brush>>>()?;
    let at = area::read(&o)?;
    let mut meter = LuaMeter::new(lua);
    let fail = |meter: &mut LuaMeter, e| area::error(&c, meter, e);
    let bounds = at
        .area()
        .on(&m)
        .map_err(|e| fail(&mut meter, e.into()))?
        .bounds;
    let patterns = wfc::patterns(sample, n, symmetry).map_err(|e| fail(&mut meter, e))?;
    // Finding the patterns took a look at every window and its copies, and a comparison of
    // every pair of patterns in each direction.
    let copies = (1 + 3 * symmetry.rotate as u64) * (1 + symmetry.reflect as u64);
    let count = patterns.len() as u64;
    charge(
        lua,
        (sample.width * sample.height) as u64 * copies + 4 * count * count,
    )?;
    let _held = reserve(
        lua,
        wfc::bytes_for(&patterns, bounds.w, bounds.h),
        &c.decl().call_name(),
    )?;
    let done = wfc::collapse(
        &mut m,
        at.area(),
        &patterns,
        retries,
        &mut r,
        &brushes,
        &mut meter,
    )
    .map_err(|e| fail(&mut meter, e))?;
    let out = lua.create_table_with_capacity(0, 3)?;
    out.raw_set("attempts", done.attempts)?;
    out.raw_set("patterns", done.patterns)?;
    out.raw_set("written", done.written)?;
    Ok(out)
}
