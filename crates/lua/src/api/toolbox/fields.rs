//! The toolbox calls that make fields: an empty field, noise, a distance (Dijkstra) map and a
//! field of view. Each returns a new `warren.Field` of the map's size, its memory reserved from
//! the budget before it is made.

use super::area::{self, AREA_OPTIONS, MOVE_OPTIONS};
use super::grid::{make, reserve_for, wrap, FieldData, LuaField};
use crate::api::call::{Call, Extra, This};
use crate::api::decl::{
    arg, key_opt, key_or, opt, opt_or, Class, Decl, Default, Owner, Owner::Toolbox as T, Ty,
};
use crate::api::first_use::Fresh;
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::rng::LuaRng;
use crate::api::shapes;
use mlua::{Lua, Value};
use warren_core::gen::field::noise::{self, NoiseKind, NoiseOptions, MAX_OCTAVES};
use warren_core::gen::field::{distance, fov as sight, Field};
use warren_core::map::Point;

/// What `warren.toolbox.noise` takes.
pub const NOISE_OPTIONS: Class = Class {
    name: "warren.NoiseOptions",
    parent: Some(&AREA_OPTIONS),
    doc: "Options of `warren.toolbox.noise`: the kind of noise and its fractal Brownian motion.",
    fields: &[
        key_or(
            "kind",
            Ty::Choice(&NoiseKind::NAMES),
            Default::Str("perlin"),
            "\"white\": an independent value per cell; \"value\": random lattice values smoothly interpolated; \"perlin\": Perlin gradient noise.",
        ),
        key_or(
            "frequency",
            Ty::Num { min: 1e-6, max: 1024.0 },
            Default::Num(0.0625),
            "Lattice cells per map cell of the first octave (1/16: features about 16 cells across).",
        ),
        key_or(
            "octaves",
            Ty::int(1, MAX_OCTAVES as i64),
            Default::Int(4),
            "Octaves summed (fractal Brownian motion).",
        ),
        key_or(
            "lacunarity",
            Ty::Num { min: 1.0, max: 16.0 },
            Default::Num(2.0),
            "Each octave's frequency over the one before.",
        ),
        key_or(
            "gain",
            Ty::Num { min: 1e-6, max: 1.0 },
            Default::Num(0.5),
            "Each octave's amplitude over the one before.",
        ),
    ],
};

/// What `warren.toolbox.distance` takes.
pub const DISTANCE_OPTIONS: Class = Class {
    name: "warren.DistanceOptions",
    parent: Some(&MOVE_OPTIONS),
    doc: "Options of `warren.toolbox.distance`.",
    fields: &[key_opt(
        "source_mask",
        Ty::Object(Owner::Field),
        "More sources: every cell where this field is finite and above 0 (the sea, say, as `height:mask(-math.huge, sea_level)`).",
    )],
};

const MAP: crate::api::decl::Arg = arg("map", Ty::Map);

const FIELD: Decl = Decl::function(
    T,
    "field",
    "A new field of the map's size, every cell `value` (default 0).",
)
.args(&[
    MAP,
    opt_or(
        "value",
        Ty::Num {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
        },
        Default::Num(0.0),
    ),
])
.returns(&["warren.Field"]);
const NOISE: Decl = Decl::function(
    T,
    "noise",
    "A new field of noise in 0..1 over the area (0 elsewhere), its tables drawn from `rng`: white, value or Perlin, summed over octaves.",
)
.args(&[MAP, arg("rng", Ty::Rng), opt("opts", Ty::Table(&NOISE_OPTIONS))])
.returns(&["warren.Field"]);
const DISTANCE: Decl = Decl::function(
    T,
    "distance",
    "A distance (Dijkstra) map: for every cell of the area, the cheapest cost of walking there from the nearest source (a source holds 0 whatever its terrain); cells no walk reaches hold `math.huge`.",
)
.args(&[
    MAP,
    opt("sources", Ty::Cells),
    opt("opts", Ty::Table(&DISTANCE_OPTIONS)),
])
.returns(&["warren.Field"]);
const FOV: Decl = Decl::function(
    T,
    "fov",
    "The field of view from a cell within `radius` (symmetric shadowcasting): 1 on the cells seen, 0 elsewhere. Solid terrain and cells outside the area are opaque; a wall is seen when any part of it is lit, an open cell when its centre is (docs/toolbox.md gives the rule).",
)
.args(&[
    MAP,
    arg("x", Ty::INT),
    arg("y", Ty::INT),
    arg("radius", Ty::int(0, 4096)),
    opt("opts", Ty::Table(&AREA_OPTIONS)),
])
.returns(&["warren.Field"]);

const FOV_UNION: Decl = Decl::function(
    T,
    "fov_union",
    "What several viewers see together: 1 on every cell seen (by `fov`'s rule) from any of the `viewers` within `radius`, 0 elsewhere.",
)
.args(&[
    MAP,
    arg("viewers", Ty::Cells),
    arg("radius", Ty::int(0, 4096)),
    opt("opts", Ty::Table(&AREA_OPTIONS)),
])
.returns(&["warren.Field"]);

functions! {
    /// The calls that make fields.
    pub DECLS, register {
        FIELD => field,
        NOISE => noise_field,
        DISTANCE => distance_field,
        FOV => fov,
        FOV_UNION => fov_union,
    }
}

/// The option classes of these calls.
pub const CLASSES: &[&Class] = &[&NOISE_OPTIONS, &DISTANCE_OPTIONS];

fn field(
    lua: &Lua,
    (map, value, extra): (This<LuaMap>, Value, Extra),
) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::new(lua, &FIELD, &extra)?;
    let m = c.arg_held(0, map)?;
    let value = super::grid::any_number(&c, 1, &value)?;
    Ok(Fresh::new(make(&c, &m, value)?))
}

fn noise_field(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::new(lua, &NOISE, &extra)?;
    let m = c.arg_held(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let options = NoiseOptions {
        kind: NoiseKind::from_name(NoiseKind::NAMES[o.choice("kind")?])
            .expect("declared choices are noise kinds"),
        frequency: o.num("frequency")?,
        octaves: o.int("octaves")? as u32,
        lacunarity: o.num("lacunarity")?,
        gain: o.num("gain")?,
    };
    let at = area::read(&o)?;
    let held = reserve_for(&c, &m)?;
    let mut f = Field::like(&m, 0.0);
    let mut meter = LuaMeter::new(lua);
    noise::fill(&mut f, at.area(), &options, &mut r, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    Ok(Fresh::new(wrap(f, held)))
}

fn distance_field(
    lua: &Lua,
    (map, sources, opts, extra): (This<LuaMap>, Value, Value, Extra),
) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::new(lua, &DISTANCE, &extra)?;
    let m = c.arg_held(0, map)?;
    let mut sources = match sources {
        Value::Nil => Vec::new(),
        v => shapes::cells(&c, &m, 1, &v)?,
    };
    let o = c.options(2, &opts)?;
    // The memory the sources a mask adds take, held while the search runs.
    let mut _held_sources = None;
    match o.value("source_mask") {
        Value::Nil => {}
        Value::UserData(ud) if ud.is::<LuaField>() => {
            let f = LuaField::read_ud(&ud).map_err(|_| c.busy())?;
            if (f.field.width(), f.field.height()) != (m.width(), m.height()) {
                return Err(c.fail(format!(
                    "opts.source_mask is {}×{}, the map {}×{}",
                    f.field.width(),
                    f.field.height(),
                    m.width(),
                    m.height()
                )));
            }
            crate::state::charge(lua, crate::api::cost::cell_work(m.len() as u64))?;
            let w = m.width() as usize;
            let marked = f.field.values().iter().enumerate();
            let added: Vec<Point> = marked
                .filter(|(_, v)| v.is_finite() && **v > 0.0)
                .map(|(i, _)| Point::new((i % w) as i32, (i / w) as i32))
                .collect();
            let bytes = crate::api::cost::cells(added.len());
            _held_sources = Some(crate::state::reserve(lua, bytes, &DISTANCE.call_name())?);
            sources.extend(added);
        }
        _ => return Err(o.bad("source_mask")),
    }
    let rules = area::move_rules(&o, &m)?;
    let at = area::read(&o)?;
    let held = reserve_for(&c, &m)?;
    let _search = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let f = distance::distance_map(&m, at.area(), &sources, &rules, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    Ok(Fresh::new(wrap(f, held)))
}

fn fov(
    lua: &Lua,
    (map, x, y, radius, opts, extra): (This<LuaMap>, Value, Value, Value, Value, Extra),
) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::new(lua, &FOV, &extra)?;
    let m = c.arg_held(0, map)?;
    let origin: Point = shapes::cell(&c, &m, 1, &x, &y)?;
    let radius = c.int(3, &radius)? as i32;
    let o = c.options(4, &opts)?;
    let at = area::read(&o)?;
    let held = reserve_for(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let seen = sight::fov(&m, at.area(), origin, radius, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    Ok(Fresh::new(wrap(Field::from_mask(&seen, 1.0, 0.0), held)))
}

fn fov_union(
    lua: &Lua,
    (map, viewers, radius, opts, extra): (This<LuaMap>, Value, Value, Value, Extra),
) -> mlua::Result<Fresh<FieldData>> {
    let c = Call::new(lua, &FOV_UNION, &extra)?;
    let m = c.arg_held(0, map)?;
    let viewers = shapes::cells(&c, &m, 1, &viewers)?;
    let radius = c.int(2, &radius)? as i32;
    let o = c.options(3, &opts)?;
    let at = area::read(&o)?;
    let held = reserve_for(&c, &m)?;
    let _seen = crate::state::reserve(
        lua,
        warren_core::gen::area::Mask::bytes_for(m.width(), m.height()),
        &FOV_UNION.call_name(),
    )?;
    let mut meter = LuaMeter::new(lua);
    let mut seen = warren_core::gen::area::Mask::new(m.width(), m.height(), false);
    for &p in &viewers {
        sight::fov_into(&mut seen, &m, at.area(), p, radius, &mut meter)
            .map_err(|e| area::error(&c, &mut meter, e))?;
    }
    Ok(Fresh::new(wrap(Field::from_mask(&seen, 1.0, 0.0), held)))
}
