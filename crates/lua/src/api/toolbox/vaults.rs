//! `warren.toolbox.place_vaults`: the `[[prefab]]` vault templates of the region files, picked
//! by tags, depth and weight, laid down turned, mirrored and substituted, fitted into solid
//! rock (with a corridor dug to them) or inside a room, the level kept in one piece
//! ([`warren_core::gen::prefab::place`]; docs/vaults.md).

use super::area::{self, AREA_WRITE_OPTIONS};
use crate::api::call::{did_you_mean, shown, Call, Extra, Opts};
use crate::api::cost;
use crate::api::decl::{arg, key, key_opt, key_or, Class, Decl, Default, Owner::Toolbox as T, Ty};
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::regions::registry;
use crate::api::rng::LuaRng;
use crate::api::shapes::{brush, list};
use crate::state::{charge_bytes, reserve};
use mlua::{Lua, Table, Value};
use std::collections::BTreeSet;
use std::sync::Arc;
use warren_core::gen::connectivity::map_adjacency;
use warren_core::gen::prefab::{place, Fit, PlaceRequest, PrefabBrushes};
use warren_core::map::{priority, Adjacency, Brush};

/// What `warren.toolbox.place_vaults` takes.
pub const PLACE_VAULTS_OPTIONS: Class = Class {
    name: "warren.PlaceVaultsOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.place_vaults`. `priority` is the vaults' (default VAULT, 100); the corridors dug to them are written at ROOM_FLOOR (70) and stamped with `region`.",
    fields: &[
        key("floor", Ty::Terrain, "What the built-in glyph `.` draws (and the corridors dug to vaults in free space)."),
        key("wall", Ty::Terrain, "What the built-in glyph `#` draws."),
        key_opt("door", Ty::Terrain, "What the built-in glyph `+` draws, recorded as a closed door (default: the floor)."),
        key("depth", Ty::int(1, 1000), "The level's depth (`ctx.depth`): only templates whose `min_depth..=max_depth` holds it are picked."),
        key_opt("tags", Ty::Strings, "Only templates with every one of these tags are picked."),
        key_opt("exclude", Ty::Strings, "Templates with any of these tags are not picked."),
        key_or("count", Ty::int(1, 1000), Default::Int(1), "How many vaults to place."),
        key_or("tries", Ty::int(1, 1000), Default::Int(20), "Attempts per template (an orientation, its substitutions and a spot each) before the next is drawn; a template that never fits is not drawn again."),
        key_or("unique", Ty::Bool, Default::Bool(true), "Place each template at most once per call."),
        key_or("fit", Ty::Choice(&Fit::NAMES), Default::Str("free"), "free: into solid rock of the area (the vault and a ring of one cell round it), then a corridor dug from its entrance to the nearest open cell; inside: inside the area's rectangle (a room), over what is there."),
        key_opt("connectivity", Ty::Choice(&Adjacency::NAMES), "How a walker moves when the level's pieces are counted (default: the map's `connectivity` tag, else \"8\")."),
    ],
};

/// One placed vault.
pub const PLACED_PREFAB: Class = Class {
    name: "warren.PlacedPrefab",
    parent: None,
    doc: "A vault `warren.toolbox.place_vaults` placed: the cells its map covers (a rectangle: pass it as `rect`, or to `map:add_room`) and its template's name.",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::INT, "Width."),
        key("h", Ty::INT, "Height."),
        key("name", Ty::Str, "The `[[prefab]]` placed."),
    ],
};

const PLACE_VAULTS: Decl = Decl::function(
    T,
    "place_vaults",
    "Places up to `count` `[[prefab]]` vault templates, each picked by weight among those whose depth range holds `depth`, with every tag of `tags` and none of `exclude`; turned and mirrored as the template allows, its substitutions drawn; fitted into solid rock (then joined to the level by a corridor) or inside the area's rectangle. A placement that would leave the level's open cells in more pieces than before, or an entrance (`connect`) facing no open cell, is taken back and another tried. Returns the vaults placed, in order: an empty list when none fits.",
)
.args(&[
    arg("map", Ty::Map),
    arg("rng", Ty::Rng),
    arg("opts", Ty::Table(&PLACE_VAULTS_OPTIONS)),
])
.returns(&["warren.PlacedPrefab[]"]);

functions! {
    /// Vault placement.
    pub DECLS, register {
        PLACE_VAULTS => place_vaults,
    }
}

/// The option and report classes of this call.
pub const CLASSES: &[&Class] = &[&PLACE_VAULTS_OPTIONS, &PLACED_PREFAB];

/// Bytes a placement keeps while it runs, per map cell: the summed-area table of free cells
/// (4), the component labels (4), the distance map and the mask of cells a corridor may
/// carve (5), and the connectivity scratch (about 4).
const SCRATCH_PER_CELL: usize = 17;

/// The tags of option `key`, each one some template has (else an error with the nearest).
fn tags(o: &Opts, key: &str, known: &BTreeSet<&str>) -> mlua::Result<Vec<String>> {
    let Some(t) = o.opt_table(key)? else {
        return Ok(Vec::new());
    };
    let c = o.call();
    let mut out = Vec::new();
    for (i, v) in list(c, &t, format_args!("opts.{key}"))?
        .into_iter()
        .enumerate()
    {
        let v = v?;
        let Value::String(s) = &v else {
            return Err(c.fail(format!(
                "opts.{key}[{}] must be a tag (a string), got {}",
                i + 1,
                shown(&v)
            )));
        };
        let tag = s.to_string_lossy();
        if !known.contains(tag.as_str()) {
            let names: Vec<&str> = known.iter().copied().collect();
            return Err(c.fail(format!(
                "opts.{key}[{}] = '{tag}' is no [[prefab]]'s tag{}",
                i + 1,
                did_you_mean(&tag, &names)
            )));
        }
        out.push(tag);
    }
    Ok(out)
}

fn place_vaults(
    lua: &Lua,
    (map, rng, opts, extra): (
        crate::api::call::This<LuaMap>,
        crate::api::call::This<LuaRng>,
        Value,
        Extra,
    ),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &PLACE_VAULTS, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let reg = registry(&c)?;
    if !Arc::ptr_eq(reg.terrains(), m.terrains()) {
        return Err(c.fail(
            "this map was not made with the region files' terrains; vault templates name them",
        ));
    }
    let known: BTreeSet<&str> = reg
        .resolved
        .prefabs
        .iter()
        .flat_map(|p| p.tags.iter().map(String::as_str))
        .collect();
    let include = tags(&o, "tags", &known)?;
    let exclude = tags(&o, "exclude", &known)?;
    let vault = |b: Brush| Brush {
        priority: b.priority.or(Some(priority::VAULT)),
        ..b
    };
    let (floor, wall) = (o.terrain("floor", &m)?, o.terrain("wall", &m)?);
    let floor = brush(&o, &mut m, floor)?;
    let wall = vault(brush(&o, &mut m, wall)?);
    let door = match o.opt_terrain("door", &m)? {
        Some(t) => vault(brush(&o, &mut m, t)?),
        None => vault(floor),
    };
    let corridor = Brush {
        priority: Some(priority::ROOM_FLOOR),
        ..floor
    };
    let floor = vault(floor);
    let adjacency = match o.has("connectivity") {
        true => Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
            .expect("declared choices are adjacency names"),
        false => map_adjacency(&m),
    };
    let req = PlaceRequest {
        depth: o.int("depth")? as u32,
        include: &include,
        exclude: &exclude,
        count: o.int("count")? as usize,
        tries: o.int("tries")? as u32,
        unique: o.bool("unique")?,
        fit: [Fit::Free, Fit::Inside][o.choice("fit")?],
        adjacency,
    };
    let at = area::read(&o)?;
    let _scratch = reserve(lua, m.len() * SCRATCH_PER_CELL, &c.decl().call_name())?;
    let corridors = m.notes.corridors.len();
    let mut meter = LuaMeter::new(lua);
    let brushes = PrefabBrushes {
        floor: &floor,
        wall: &wall,
        door: &door,
        corridor: &corridor,
    };
    let placed = place(
        &mut m,
        at.area(),
        &reg.resolved.prefabs,
        &req,
        brushes,
        &mut r,
        &mut meter,
    )
    .map_err(|e| area::error(&c, &mut meter, e))?;
    let dug: usize = m.notes.corridors[corridors..]
        .iter()
        .map(cost::corridor)
        .sum();
    charge_bytes(lua, dug)?;
    let out = lua.create_table_with_capacity(placed.len(), 0)?;
    for p in placed {
        let t = lua.create_table_with_capacity(0, 5)?;
        t.raw_set("x", p.rect.x)?;
        t.raw_set("y", p.rect.y)?;
        t.raw_set("w", p.rect.w)?;
        t.raw_set("h", p.rect.h)?;
        t.raw_set("name", p.name)?;
        out.raw_push(t)?;
    }
    Ok(out)
}
