//! `warren.Field`: a number per cell, the map's size, held in Rust. The toolbox's fields
//! (noise, distance maps, field of view) are fields; a recipe reads and changes them a cell at
//! a time or all at once (combine, scale, clamp, normalize), turns a band of values into
//! terrain (`threshold`, through priority writes) or into a mask, smooths a mask with a cellular
//! rule, and shows a field as a debug layer (PNG, `serve`, Tiled, JSON).

use super::area::AREA_WRITE_OPTIONS;
use super::grid::{any_number, wrap, FieldData, LuaField};
use crate::api::call::{Call, Opts};
use crate::api::decl::{arg, key, opt_or, Class, Decl, Default, Owner, Ty};
use crate::api::first_use::{self, Fresh, MetOnFirstUse};
use crate::api::gate;
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::shapes::brush;
use crate::budget::Reservation;
use crate::state::{charge, charge_bytes_for, release_bytes, reserve};
use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::cellular::{self, Rule, MAX_GENERATIONS};
use warren_core::gen::field::{Combine, Field};
use warren_core::map::{Layer, Point};
use warren_core::render::LayerChoice;

impl UserData for LuaField {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(field)` shows (mlua would name the Rust type).
        fields.add_meta_field(MetaMethod::Type, Owner::Field.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        debug_assert!(
            first_use::meeting::<FieldData>(),
            "a field made without `first_use::Fresh`"
        );
        register(methods);
    }
}

/// Fields are met on first use (`warren.toolbox.field` and the calls that make one).
impl MetOnFirstUse for FieldData {
    const SLOT: u32 = 4;
    const METHODS: &'static [&'static [&'static Decl]] = &[METHODS];
    const GATES: u64 = gate::FIELD_GATES;
}

const F: Owner = Owner::Field;

/// What `field:threshold` takes.
pub const THRESHOLD_OPTIONS: Class = Class {
    name: "warren.ThresholdOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `field:threshold`.",
    fields: &[key("terrain", Ty::Terrain, "The terrain written.")],
};
const X: crate::api::decl::Arg = arg("x", Ty::INT);
const Y: crate::api::decl::Arg = arg("y", Ty::INT);
const ANY_NUM: Ty = Ty::Num {
    min: f64::MIN,
    max: f64::MAX,
};
/// A bound of a band: any number, `math.huge` and `-math.huge` included.
const BOUND: Ty = Ty::Num {
    min: f64::NEG_INFINITY,
    max: f64::INFINITY,
};

const GET: Decl = Decl::method(
    F,
    "value",
    "The value at a cell (`math.huge` where a distance map never reached).",
)
.args(&[X, Y])
.returns(&["number"]);
const SET: Decl =
    Decl::method(F, "set_value", "Sets the value at a cell.").args(&[X, Y, arg("value", BOUND)]);
const COMBINE: Decl = Decl::method(
    F,
    "combine",
    "Combines another field of the same size into this one, cell by cell: `add`, `sub`, `mul`, `min` or `max`.",
)
.args(&[
    arg("other", Ty::Object(Owner::Field)),
    arg("op", Ty::Choice(&Combine::NAMES)),
]);
const SCALE: Decl = Decl::method(F, "scale", "Every value `v` becomes `v * k + offset`.").args(&[
    arg("k", ANY_NUM),
    opt_or("offset", ANY_NUM, Default::Num(0.0)),
]);
const CLAMP: Decl = Decl::method(F, "clamp", "Clamps every value to `lo..=hi`.")
    .args(&[arg("lo", BOUND), arg("hi", BOUND)]);
const NORMALIZE: Decl = Decl::method(
    F,
    "normalize",
    "Maps the finite values onto 0..1 (smallest to 0, largest to 1; all 0 when they are equal); infinite values stay.",
);
const RANGE: Decl = Decl::method(
    F,
    "range",
    "The smallest and the largest finite value, or nothing when no value is finite.",
)
.returns(&["number?", "number?"]);
const MASK: Decl = Decl::method(
    F,
    "mask",
    "A new field holding 1 where this one lies in `lo..=hi` and 0 elsewhere: a mask for the toolbox's `mask` option.",
)
.args(&[arg("lo", BOUND), arg("hi", BOUND)])
.returns(&["warren.Field"]);
const COPY: Decl =
    Decl::method(F, "copy", "A new field with the same values.").returns(&["warren.Field"]);
const THRESHOLD: Decl = Decl::method(
    F,
    "threshold",
    "Writes `terrain` (through priority writes) on every cell of the area whose value lies in `lo..=hi`; returns the cells written.",
)
.args(&[
    arg("map", Ty::Map),
    arg("lo", BOUND),
    arg("hi", BOUND),
    arg("opts", Ty::Table(&THRESHOLD_OPTIONS)),
])
.returns(&["integer"]);
const SMOOTH: Decl = Decl::method(
    F,
    "smooth",
    "Smooths the field as a mask: cells above 0 are alive, `rule` (birth/survival, e.g. \"B5678/S45678\") runs `generations` times (cells off the field count as alive), and every cell becomes 1 (alive) or 0.",
)
.args(&[
    arg("rule", Ty::Str),
    arg("generations", Ty::int(0, MAX_GENERATIONS as i64)),
]);
const SHOW: Decl = Decl::method(
    F,
    "show",
    "Attaches the field to `map` as a debug layer named `name` (digits 0-9 on a blue-to-red ramp, unreached cells left clear): `--layer NAME`, PNG, `serve`, Tiled and JSON draw it.",
)
.args(&[arg("map", Ty::Map), arg("name", Ty::Str)]);

methods! {
    /// A field's methods.
    pub METHODS, register for LuaField {
        GET => get,
        SET => set,
        COMBINE => combine,
        SCALE => scale,
        CLAMP => clamp,
        NORMALIZE => normalize,
        RANGE => range,
        MASK => mask,
        COPY => copy,
        THRESHOLD => threshold,
        SMOOTH => smooth,
        SHOW => show,
    }
}

/// Arguments `i` and `i + 1` as a cell of `field`.
fn cell(c: &Call, field: &Field, i: usize, x: &Value, y: &Value) -> mlua::Result<Point> {
    let (x, y) = (c.int(i, x)?, c.int(i + 1, y)?);
    let (w, h) = (field.width() as i64, field.height() as i64);
    if !(0..w).contains(&x) || !(0..h).contains(&y) {
        return Err(c.fail(format!(
            "cell ({x}, {y}) is off the field (0..{w} × 0..{h})"
        )));
    }
    Ok(Point::new(x as i32, y as i32))
}

/// Argument `i` as a band bound (not NaN).
fn bound(c: &Call, i: usize, v: &Value) -> mlua::Result<f32> {
    any_number(c, i, v)
}

fn get(lua: &Lua, this: &LuaField, (x, y): (Value, Value)) -> mlua::Result<f64> {
    let c = Call::gated(lua, &GET);
    let f = c.read(this)?;
    let p = cell(&c, &f.field, 0, &x, &y)?;
    Ok(f.field.get(p).map_err(|e| c.fail(e))? as f64)
}

fn set(lua: &Lua, this: &LuaField, (x, y, v): (Value, Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &SET);
    let mut f = c.write(this)?;
    let p = cell(&c, &f.field, 0, &x, &y)?;
    let v = bound(&c, 2, &v)?;
    f.field.set(p, v).map_err(|e| c.fail(e))
}

fn combine(lua: &Lua, this: &LuaField, (other, op): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &COMBINE);
    let other = c.data::<LuaField>(0, &other)?;
    let op = Combine::from_name(Combine::NAMES[c.choice(1, &op)?]).expect("declared choices");
    let theirs = LuaField::read_ud(&other).map_err(|_| c.busy())?;
    // The same field on both sides: combine with a copy.
    let copy = theirs.field.clone();
    drop(theirs);
    let mut f = c.write(this)?;
    charge(
        lua,
        crate::api::cost::cell_work(f.field.values().len() as u64),
    )?;
    f.field.combine(&copy, op).map_err(|e| c.fail(e))
}

fn scale(lua: &Lua, this: &LuaField, (k, offset): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &SCALE);
    let (k, offset) = (c.num(0, &k)? as f32, c.num(1, &offset)? as f32);
    let mut f = c.write(this)?;
    charge(
        lua,
        crate::api::cost::cell_work(f.field.values().len() as u64),
    )?;
    f.field.scale(k, offset);
    Ok(())
}

fn clamp(lua: &Lua, this: &LuaField, (lo, hi): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &CLAMP);
    let (lo, hi) = (bound(&c, 0, &lo)?, bound(&c, 1, &hi)?);
    if lo > hi {
        return Err(c.fail(format!("lo = {lo} exceeds hi = {hi}")));
    }
    let mut f = c.write(this)?;
    charge(
        lua,
        crate::api::cost::cell_work(f.field.values().len() as u64),
    )?;
    f.field.clamp(lo, hi);
    Ok(())
}

fn normalize(lua: &Lua, this: &LuaField, (): ()) -> mlua::Result<()> {
    let c = Call::gated(lua, &NORMALIZE);
    let mut f = c.write(this)?;
    charge(
        lua,
        2 * crate::api::cost::cell_work(f.field.values().len() as u64),
    )?;
    f.field.normalize();
    Ok(())
}

fn range(lua: &Lua, this: &LuaField, (): ()) -> mlua::Result<(Option<f64>, Option<f64>)> {
    let c = Call::gated(lua, &RANGE);
    let f = c.read(this)?;
    charge(
        lua,
        crate::api::cost::cell_work(f.field.values().len() as u64),
    )?;
    Ok(match f.field.range() {
        Some((lo, hi)) => (Some(lo as f64), Some(hi as f64)),
        None => (None, None),
    })
}

/// A new field userdata holding `field`, whose memory `held` reserves.
fn new_field(lua: &Lua, field: Field, held: Reservation) -> mlua::Result<Fresh<FieldData>> {
    charge(
        lua,
        crate::api::cost::cell_work(field.values().len() as u64),
    )?;
    Ok(Fresh::new(wrap(field, held)))
}

fn mask(lua: &Lua, this: &LuaField, (lo, hi): (Value, Value)) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::gated(lua, &MASK);
    let (lo, hi) = (bound(&c, 0, &lo)?, bound(&c, 1, &hi)?);
    let f = c.read(this)?;
    let (w, h) = (f.field.width(), f.field.height());
    let held = reserve(lua, Field::bytes_for(w, h), &MASK.call_name())?;
    let m = Field::from_mask(&f.field.mask(lo, hi), 1.0, 0.0);
    new_field(lua, m, held)
}

fn copy(lua: &Lua, this: &LuaField, (): ()) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::gated(lua, &COPY);
    let f = c.read(this)?;
    let (w, h) = (f.field.width(), f.field.height());
    let held = reserve(lua, Field::bytes_for(w, h), &COPY.call_name())?;
    new_field(lua, f.field.clone(), held)
}

fn threshold(
    lua: &Lua,
    this: &LuaField,
    (map, lo, hi, opts): (Value, Value, Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &THRESHOLD);
    let map = c.data::<LuaMap>(0, &map)?;
    let (lo, hi) = (bound(&c, 1, &lo)?, bound(&c, 2, &hi)?);
    let o: Opts = c.options(3, &opts)?;
    let area = super::area::read(&o)?;
    let f = c.read(this)?;
    let mut m = LuaMap::write_ud(&map).map_err(|_| c.busy())?;
    let terrain = o.terrain("terrain", &m)?;
    let b = brush(&o, &mut m, terrain)?;
    let mut meter = LuaMeter::new(lua);
    f.field
        .threshold(&mut m, area.area(), (lo, hi), &b, &mut meter)
        .map_err(|e| super::area::error(&c, &mut meter, e))
}

fn smooth(lua: &Lua, this: &LuaField, (rule, generations): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &SMOOTH);
    let rule = c.str(0, &rule)?;
    let generations = c.int(1, &generations)? as u32;
    let rule = Rule::parse(&rule).map_err(|e| c.fail(e))?;
    let mut f = c.write(this)?;
    let (w, h) = (f.field.width(), f.field.height());
    let _held = reserve(
        lua,
        warren_core::gen::area::Mask::bytes_for(w, h),
        &SMOOTH.call_name(),
    )?;
    let mut alive = f.field.mask(f32::MIN_POSITIVE, f32::INFINITY);
    let mut meter = LuaMeter::new(lua);
    cellular::smooth_mask(&mut alive, (w, h), rule, generations, &mut meter)
        .map_err(|e| super::area::error(&c, &mut meter, e))?;
    f.field = Field::from_mask(&alive, 1.0, 0.0);
    Ok(())
}

fn show(lua: &Lua, this: &LuaField, (map, name): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &SHOW);
    let map = c.data::<LuaMap>(0, &map)?;
    let name = c.str(1, &name)?;
    if name.is_empty() || LayerChoice::BUILT_IN.contains(&name.as_str()) {
        return Err(c.fail(format!(
            "name '{name}' is empty or built in ({}); choose another",
            LayerChoice::BUILT_IN.join(", ")
        )));
    }
    let f = c.read(this)?;
    let mut m = LuaMap::write_ud(&map).map_err(|_| c.busy())?;
    if (f.field.width(), f.field.height()) != (m.width(), m.height()) {
        return Err(c.fail(format!(
            "the field is {}×{}, the map {}×{}",
            f.field.width(),
            f.field.height(),
            m.width(),
            m.height()
        )));
    }
    if !m.notes.layers.contains_key(&name)
        && m.notes.layers.len() >= warren_core::map::layer::MAX_LAYERS
    {
        return Err(c.fail(format!(
            "a map may carry at most {} layers",
            warren_core::map::layer::MAX_LAYERS
        )));
    }
    let bytes = Layer::bytes_for(m.width(), m.height());
    charge_bytes_for(lua, bytes, &SHOW.call_name())?;
    charge(lua, crate::api::cost::cell_work(m.len() as u64))?;
    if m.notes.layers.insert(name, f.field.to_layer()).is_some() {
        release_bytes(lua, bytes);
    }
    Ok(())
}
