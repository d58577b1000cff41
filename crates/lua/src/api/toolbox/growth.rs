//! The toolbox's growths and partitions: diffusion-limited aggregation (its three walks, brush
//! and mirrors) and Voronoi regions (a field of region ids, and the `mapgen` hive drawn from
//! it).

use super::area::{self, AREA_OPTIONS, AREA_WRITE_OPTIONS};
use super::grid::{reserve_for, wrap, FieldData, LuaField};
use super::paths::cell_list;
use crate::api::call::{Call, Extra, This};
use crate::api::classes::CELL;
use crate::api::decl::{
    arg, key, key_opt, key_or, Class, Decl, Default, Owner, Owner::Toolbox as T, Ty,
};
use crate::api::first_use::Fresh;
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::rng::LuaRng;
use crate::api::shapes::{self, brush};
use mlua::{Lua, Table, Value};
use warren_core::gen::dla::{self, Dla, DlaMode};
use warren_core::gen::drunkard::Symmetry;
use warren_core::gen::voronoi::{self, HiveBrushes, HiveRule, Metric, MAX_SEEDS};

/// What `warren.toolbox.dla` takes.
pub const DLA_OPTIONS: Class = Class {
    name: "warren.DlaOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.dla`.",
    fields: &[
        key("terrain", Ty::Terrain, "What the particles carve."),
        key_or(
            "mode",
            Ty::Choice(&DlaMode::NAMES),
            Default::Str("walk_inwards"),
            "walk_inwards: particles stagger in from random cells and stick where they touch the open cells; walk_outwards: they stagger out from the seed over the open cells and stick where they step off; central_attractor: they walk straight from random cells towards the seed.",
        ),
        key_or(
            "floor_percent",
            Ty::int(1, 100),
            Default::Int(25),
            "Grow until this percent of the area is open.",
        ),
        key_or(
            "brush",
            Ty::int(1, 9),
            Default::Int(1),
            "Side of the square each particle carves.",
        ),
        key_or(
            "symmetry",
            Ty::Choice(&Symmetry::NAMES),
            Default::Str("none"),
            "Mirror every carved cell about the area's centre.",
        ),
        key_opt(
            "start",
            Ty::Table(&CELL),
            "The seed's centre (default the centre of the area's bounding rectangle).",
        ),
    ],
};

/// What `warren.toolbox.dla` returns.
pub const GROWN: Class = Class {
    name: "warren.Grown",
    parent: None,
    doc: "What a diffusion-limited aggregation did.",
    fields: &[
        key("particles", Ty::INT, "Particles that stuck."),
        key("open", Ty::INT, "Open cells in the area at the end."),
        key(
            "wanted",
            Ty::INT,
            "Open cells wanted (more than `open` when writes lost to higher priorities or the step limit was reached).",
        ),
    ],
};

/// What `warren.toolbox.voronoi` takes.
pub const VORONOI_OPTIONS: Class = Class {
    name: "warren.VoronoiOptions",
    parent: Some(&AREA_OPTIONS),
    doc: "Options of `warren.toolbox.voronoi`.",
    fields: &[
        key_or(
            "seeds",
            Ty::int(1, MAX_SEEDS as i64),
            Default::Int(64),
            "Seeds scattered over the area (distinct cells; fewer when the area has fewer cells).",
        ),
        key_or(
            "metric",
            Ty::Choice(&Metric::NAMES),
            Default::Str("euclidean"),
            "How the nearest seed is measured: euclidean (round regions), manhattan (diamonds), chebyshev (squares).",
        ),
    ],
};

/// What `warren.toolbox.hive` takes.
pub const HIVE_OPTIONS: Class = Class {
    name: "warren.HiveOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.hive`.",
    fields: &[
        key("wall", Ty::Terrain, "Written where regions meet."),
        key("floor", Ty::Terrain, "Written inside the regions."),
        key_or(
            "border",
            Ty::int(1, 4),
            Default::Int(2),
            "A cell becomes wall when at least this many of its four neighbours lie in another region (or off the area): 2 is the `mapgen` hive (regions open into each other), 1 walls every region in.",
        ),
        key_or(
            "thin",
            Ty::Bool,
            Default::Bool(false),
            "Count only the neighbours in a region of a larger id, so each border is walled from one side: one-cell walls, which `loops` can open into doors.",
        ),
    ],
};

const MAP: crate::api::decl::Arg = arg("map", Ty::Map);
const RNG: crate::api::decl::Arg = arg("rng", Ty::Rng);

const DLA: Decl = Decl::function(
    T,
    "dla",
    "Diffusion-limited aggregation: from a seed (a plus around `start`), particles wander until they touch the open cells and stick, carving, until `floor_percent` of the area is open (or 2,000 steps per cell were taken). Without mirrors the open cells stay one 4-connected area.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&DLA_OPTIONS))])
.returns(&["warren.Grown"]);
const VORONOI: Decl = Decl::function(
    T,
    "voronoi",
    "Voronoi regions: scatters `seeds` distinct cells of the area (drawn from `rng`) and returns a field holding, on every cell of the area, the number (0, 1, …) of its nearest seed under `metric` (a tie goes to the smaller number), -1 elsewhere; and the seeds, seed 0 first.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&VORONOI_OPTIONS))])
.returns(&["warren.Field", "warren.Cell[]"]);
const HIVE: Decl = Decl::function(
    T,
    "hive",
    "Draws a Voronoi hive from a field of region ids (such as `voronoi` returns): `wall` where regions meet (see `border`), `floor` inside; returns the cells written.",
)
.args(&[
    MAP,
    arg("ids", Ty::Object(Owner::Field)),
    arg("opts", Ty::Table(&HIVE_OPTIONS)),
])
.returns(&["integer"]);

functions! {
    /// The growth and partition calls.
    pub DECLS, register {
        DLA => dla_grow,
        VORONOI => voronoi_regions,
        HIVE => hive,
    }
}

/// The option and report classes of these calls.
pub const CLASSES: &[&Class] = &[&DLA_OPTIONS, &GROWN, &VORONOI_OPTIONS, &HIVE_OPTIONS];

fn dla_grow(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &DLA, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let terrain = o.terrain("terrain", &m)?;
    let floor = brush(&o, &mut m, terrain)?;
    let mut d = Dla {
        mode: DlaMode::from_name(DlaMode::NAMES[o.choice("mode")?])
            .expect("declared choices are DLA modes"),
        floor_percent: o.int("floor_percent")? as u32,
        brush: o.int("brush")? as u32,
        symmetry: Symmetry::from_name(Symmetry::NAMES[o.choice("symmetry")?])
            .expect("declared choices are symmetries"),
        start: None,
    };
    if let Some(t) = o.opt_table("start")? {
        d.start = Some(shapes::cell_from(&c, &m, &Value::Table(t), "opts.start")?);
    }
    let at = area::read(&o)?;
    // The area's cells and its open cells, a number each.
    let _cells = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let grown = dla::grow(&mut m, at.area(), &d, &mut r, &floor, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    let out = lua.create_table_with_capacity(0, 3)?;
    out.raw_set("particles", grown.particles)?;
    out.raw_set("open", grown.open)?;
    out.raw_set("wanted", grown.wanted)?;
    Ok(out)
}

fn voronoi_regions(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<(Fresh<FieldData>, Table)> {
    let c = Call::new(lua, &VORONOI, &extra)?;
    let m = c.arg_held(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let count = o.int("seeds")? as u32;
    let metric = Metric::from_name(Metric::NAMES[o.choice("metric")?])
        .expect("declared choices are metrics");
    let at = area::read(&o)?;
    // The area's cells, drawn from while the seeds are scattered.
    let _cells = area::reserve_search(&c, &m)?;
    let held = reserve_for(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    crate::state::charge(lua, crate::api::cost::cell_work(m.len() as u64))?;
    let seeds = voronoi::scatter(&m, at.area(), count, &mut r).map_err(|e| c.fail(e))?;
    if seeds.is_empty() {
        return Err(c.fail("the area has no cells to scatter seeds on"));
    }
    let ids = voronoi::regions(&m, at.area(), &seeds, metric, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    Ok((Fresh::new(wrap(ids, held)), cell_list(lua, &seeds)?))
}

fn hive(
    lua: &Lua,
    (map, ids, opts, extra): (This<LuaMap>, Value, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &HIVE, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let ids = c.data::<LuaField>(1, &ids)?;
    let o = c.options(2, &opts)?;
    let wall = o.terrain("wall", &m)?;
    let wall = brush(&o, &mut m, wall)?;
    let floor = o.terrain("floor", &m)?;
    let floor = brush(&o, &mut m, floor)?;
    let rule = HiveRule {
        border: o.int("border")? as u32,
        thin: o.bool("thin")?,
    };
    let at = area::read(&o)?;
    let f = LuaField::read_ud(&ids).map_err(|_| c.busy())?;
    let mut meter = LuaMeter::new(lua);
    let brushes = HiveBrushes {
        wall: &wall,
        floor: &floor,
    };
    voronoi::hive(&mut m, at.area(), &f.field, rule, brushes, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))
}
