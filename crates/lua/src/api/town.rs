//! `warren.town`: TownMaze (seed 002) as one Lua object with one method per step of the
//! original, so a recipe reads like `townmain.c`.
//!
//! ```lua
//! local town = warren.town.new { height = 23, width = 77, gates = 4, leftgates = 2 }
//! town:make_unused(ctx.rng); town:make_gates(ctx.rng); town:make_courts(ctx.rng)
//! town:connect_streets(ctx.rng); town:finish_alleys(ctx.rng)
//! town:close_doors(ctx.rng); town:close_gates(ctx.rng); town:cleanup_map()
//! town:write(map, { style = ctx.regions.town })
//! ```
//!
//! Cells are addressed by 0-based `row, col` in the town's cell grid (`town.rows` × `town.cols`);
//! the display grid is `town.height` × `town.width` characters.

use super::args::{self, int, known_keys};
use super::held::{charge, Charge};
use super::map::LuaMap;
use super::rng::LuaRng;
use crate::fail;
use mlua::{AnyUserData, Lua, Table, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::town::params::{MAX_SIDE, MAX_STRAIGHTNESS, MIN_SIDE};
use warren_core::gen::town::{
    CellStatus, DeadStreets, DebugTerrains, Heading, Town, TownParams, TownTerrains,
};
use warren_core::map::{Map, TerrainId};
use warren_core::rng::Rng;

/// A town as a Lua userdata.
pub struct LuaTown {
    town: Town,
    _charge: Charge,
}

/// The parameter keys of `warren.town.new`, in TownMaze's order.
const PARAM_KEYS: [&str; 7] = [
    "height",
    "width",
    "gates",
    "leftgates",
    "courts",
    "unused",
    "straightness",
];

/// The heading names `town:make_street` accepts, in [`Heading::ALL`] order.
const HEADINGS: [&str; 4] = ["north", "east", "south", "west"];

/// Roughly the bytes a town holds: its characters, two sets of status lists, street numbers
/// and directions.
fn town_bytes(p: &TownParams) -> usize {
    let chars = (p.height.max(0) as usize).saturating_mul(p.width.max(0) as usize);
    chars + (chars / 4) * (2 * (1 + 4 + 4) + 4 + 1)
}

/// `warren.town.new{ height =, width =, gates =, leftgates =, courts =, unused =,
/// straightness = }`: checks every rule of TownMaze's `getargs` (all broken rules are reported
/// together), allocates the town and fills it. Missing keys take TownMaze's defaults.
fn new(lua: &Lua, opts: Option<Table>) -> mlua::Result<LuaTown> {
    let call = "warren.town.new";
    let mut p = TownParams::default();
    if let Some(opts) = &opts {
        known_keys(lua, opts, call, &PARAM_KEYS)?;
        let fields = [
            &mut p.height,
            &mut p.width,
            &mut p.gates,
            &mut p.leftgates,
            &mut p.courts,
            &mut p.unused,
            &mut p.straightness,
        ];
        for (key, field) in PARAM_KEYS.iter().zip(fields) {
            let v: Value = opts.get(*key)?;
            if !v.is_nil() {
                *field = int(lua, &v, call, key)?;
            }
        }
    }
    // Check before charging, so that a huge bad size reports its rule, not the memory limit.
    p.validate()
        .map_err(|e| fail(lua, format!("{call}: invalid town parameters: {e}")))?;
    let charge = charge(lua, town_bytes(&p), call)?;
    let town = Town::new(&p).map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(LuaTown {
        town,
        _charge: charge,
    })
}

/// `warren.town.limits(height, width)` → `{ gates =, courts =, unused = }`: the most of each a
/// town of that size accepts.
fn limits(lua: &Lua, (height, width): (Value, Value)) -> mlua::Result<Table> {
    let call = "warren.town.limits";
    let side = |v: &Value, what: &str| -> mlua::Result<i64> {
        let n = int(lua, v, call, what)?;
        if (MIN_SIDE..=MAX_SIDE).contains(&n) {
            Ok(n)
        } else {
            Err(fail(
                lua,
                format!("{call}: {what} = {n} is out of range ({MIN_SIDE}..={MAX_SIDE})"),
            ))
        }
    };
    let (h, w) = (side(&height, "height")?, side(&width, "width")?);
    let t = lua.create_table()?;
    t.raw_set("gates", TownParams::max_gates(h, w))?;
    t.raw_set("courts", TownParams::max_courts(h, w))?;
    t.raw_set("unused", TownParams::max_unused(h, w))?;
    Ok(t)
}

/// Runs `f` with the rng given as argument `v`.
fn with_rng<R>(lua: &Lua, v: &Value, call: &str, f: impl FnOnce(&mut Rng) -> R) -> mlua::Result<R> {
    let bad = || {
        fail(
            lua,
            format!("{call}: expects an rng (ctx.rng or rng:stream(name))"),
        )
    };
    let Value::UserData(ud) = v else {
        return Err(bad());
    };
    let mut rng = ud.borrow_mut::<LuaRng>().map_err(|_| bad())?;
    Ok(f(&mut rng.0))
}

/// A 0-based cell coordinate argument.
fn coord(lua: &Lua, v: &Value, call: &str, what: &str) -> mlua::Result<usize> {
    let n = int(lua, v, call, what)?;
    usize::try_from(n).map_err(|_| fail(lua, format!("{call}: {what} = {n} must be ≥ 0")))
}

/// A name argument: the index of `v` in `valid`.
fn choice(lua: &Lua, v: &Value, valid: &[&str], call: &str, what: &str) -> mlua::Result<usize> {
    let found = match v {
        Value::String(s) => valid.iter().position(|n| s.as_bytes() == n.as_bytes()),
        _ => None,
    };
    found.ok_or_else(|| {
        let shown = match v {
            Value::String(s) => format!("'{}'", s.to_string_lossy()),
            other => other.type_name().to_string(),
        };
        fail(
            lua,
            format!(
                "{call}: unknown {what} {shown} (valid: {})",
                valid.join(", ")
            ),
        )
    })
}

/// The terrain named by `style[key]`.
fn style_terrain(
    lua: &Lua,
    map: &Map,
    style: &Table,
    key: &str,
    call: &str,
) -> mlua::Result<TerrainId> {
    match style.get::<Value>(key)? {
        Value::String(s) => args::terrain(lua, map, &s.to_str()?, call),
        other => Err(fail(
            lua,
            format!(
                "{call}: style.{key} must be a terrain name (see [town] in the region files), got {}",
                other.type_name()
            ),
        )),
    }
}

/// The terrains of a `[town]` style table.
fn town_terrains(lua: &Lua, map: &Map, style: &Table, call: &str) -> mlua::Result<TownTerrains> {
    let get = |key: &str| style_terrain(lua, map, style, key, call);
    Ok(TownTerrains {
        wall: get("wall")?,
        vertical_door: get("vertical_door")?,
        horizontal_door: get("horizontal_door")?,
        vertical_gate: get("vertical_gate")?,
        horizontal_gate: get("horizontal_gate")?,
        street: get("street")?,
        floor: get("floor")?,
        unused: get("unused")?,
    })
}

/// The terrains of a `[town.debug]` style table.
fn debug_terrains(lua: &Lua, map: &Map, style: &Table, call: &str) -> mlua::Result<DebugTerrains> {
    let debug = match style.get::<Value>("debug")? {
        Value::Table(t) => t,
        _ => {
            return Err(fail(
                lua,
                format!(
                    "{call}: view 'debug' needs style.debug (a [town.debug] section in the region files)"
                ),
            ))
        }
    };
    let get = |key: &str| style_terrain(lua, map, &debug, key, &format!("{call}: debug"));
    Ok(DebugTerrains {
        isolated: get("isolated")?,
        live: get("live")?,
        dead: get("dead")?,
        unused: get("unused")?,
        headings: [get("north")?, get("east")?, get("south")?, get("west")?],
        no_heading: get("no_heading")?,
    })
}

/// `town:write(map, { style = ctx.regions.town, view = "map" | "debug" })`.
fn write(lua: &Lua, t: &LuaTown, (map, opts): (AnyUserData, Table)) -> mlua::Result<Table> {
    let call = "town:write";
    known_keys(lua, &opts, call, &["style", "view"])?;
    let style = match opts.get::<Value>("style")? {
        Value::Table(s) => s,
        other => {
            return Err(fail(
                lua,
                format!(
                    "{call}: style must be a table of terrain names (ctx.regions.town), got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let debug = match opts.get::<Value>("view")? {
        Value::Nil => false,
        Value::String(s) if s.as_bytes() == b"map".as_slice() => false,
        Value::String(s) if s.as_bytes() == b"debug".as_slice() => true,
        other => {
            let shown = match &other {
                Value::String(s) => format!("'{}'", s.to_string_lossy()),
                v => v.to_string()?,
            };
            return Err(fail(
                lua,
                format!("{call}: view = {shown} (valid: map, debug)"),
            ));
        }
    };
    let mut m = map
        .borrow_mut::<LuaMap>()
        .map_err(|_| fail(lua, format!("{call}: expects the map")))?;
    let terrains = town_terrains(lua, &m.0, &style, call)?;
    let debug = match debug {
        true => Some(debug_terrains(lua, &m.0, &style, call)?),
        false => None,
    };
    let drawn = t
        .town
        .draw(&mut m.0, &terrains, debug.as_ref())
        .map_err(|e| {
            fail(
                lua,
                format!(
                    "{call}: the {}×{} town does not fit the map: {e}",
                    t.town.width(),
                    t.town.height()
                ),
            )
        })?;
    let out = lua.create_table()?;
    out.raw_set("rooms", drawn.rooms)?;
    out.raw_set("gates", drawn.gates)?;
    out.raw_set("street_cells", drawn.street_cells)?;
    Ok(out)
}

impl UserData for LuaTown {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("height", |_, t| Ok(t.town.height()));
        fields.add_field_method_get("width", |_, t| Ok(t.town.width()));
        fields.add_field_method_get("rows", |_, t| Ok(t.town.rows()));
        fields.add_field_method_get("cols", |_, t| Ok(t.town.cols()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut("fill", |_, t, ()| {
            t.town.fill();
            Ok(())
        });
        methods.add_method_mut("make_unused", |lua, t, rng: Value| {
            with_rng(lua, &rng, "town:make_unused", |r| t.town.make_unused(r))
        });
        methods.add_method_mut("make_gates", |lua, t, rng: Value| {
            with_rng(lua, &rng, "town:make_gates", |r| t.town.make_gates(r))
        });
        methods.add_method_mut("make_courts", |lua, t, rng: Value| {
            with_rng(lua, &rng, "town:make_courts", |r| t.town.make_courts(r))
        });
        methods.add_method_mut(
            "connect_streets",
            |lua, t, (rng, opts): (Value, Option<Table>)| {
                let call = "town:connect_streets";
                let mut dead = DeadStreets::default();
                if let Some(o) = &opts {
                    known_keys(lua, o, call, &["dead_streets"])?;
                    if let Some(name) = o.get::<Option<String>>("dead_streets")? {
                        dead = DeadStreets::from_name(&name).ok_or_else(|| {
                            fail(
                                lua,
                                format!(
                                    "{call}: dead_streets = '{name}' (valid: {})",
                                    DeadStreets::NAMES.join(", ")
                                ),
                            )
                        })?;
                    }
                }
                with_rng(lua, &rng, call, |r| t.town.connect_streets_with(r, dead))?
                    .map_err(|e| fail(lua, format!("{call}: {e}")))
            },
        );
        methods.add_method_mut("finish_alleys", |lua, t, rng: Value| {
            let call = "town:finish_alleys";
            with_rng(lua, &rng, call, |r| t.town.finish_alleys(r))?
                .map_err(|e| fail(lua, format!("{call}: {e}")))
        });
        methods.add_method_mut("close_doors", |lua, t, rng: Value| {
            with_rng(lua, &rng, "town:close_doors", |r| t.town.close_doors(r))
        });
        methods.add_method_mut("close_gates", |lua, t, rng: Value| {
            with_rng(lua, &rng, "town:close_gates", |r| t.town.close_gates(r))
        });
        methods.add_method_mut("cleanup_map", |_, t, ()| Ok(t.town.cleanup_map()));
        methods.add_method_mut(
            "make_street",
            |lua, t, (rng, row, col, heading): (Value, Value, Value, Value)| {
                let call = "town:make_street";
                let (row, col) = (
                    coord(lua, &row, call, "row")?,
                    coord(lua, &col, call, "col")?,
                );
                let heading = match heading {
                    Value::Nil => None,
                    v => Some(Heading::ALL[choice(lua, &v, &HEADINGS, call, "heading")?]),
                };
                with_rng(lua, &rng, call, |r| {
                    t.town.make_street(r, row, col, heading)
                })?
                .map_err(|e| fail(lua, format!("{call}: {e}")))
            },
        );
        methods.add_method("status", |lua, t, (row, col): (Value, Value)| {
            let call = "town:status";
            let (row, col) = (
                coord(lua, &row, call, "row")?,
                coord(lua, &col, call, "col")?,
            );
            let status = t
                .town
                .status(row, col)
                .map_err(|e| fail(lua, format!("{call}: {e}")))?;
            Ok(CellStatus::NAMES[status.index()])
        });
        methods.add_method("heading", |lua, t, (row, col): (Value, Value)| {
            let call = "town:heading";
            let (row, col) = (
                coord(lua, &row, call, "row")?,
                coord(lua, &col, call, "col")?,
            );
            let heading = t
                .town
                .heading(row, col)
                .map_err(|e| fail(lua, format!("{call}: {e}")))?;
            Ok(heading.map(|h| HEADINGS[h as usize]))
        });
        methods.add_method("count", |lua, t, status: Value| {
            let i = choice(lua, &status, &CellStatus::NAMES, "town:count", "status")?;
            let status = CellStatus::from_index(i).unwrap_or(CellStatus::Unused);
            Ok(t.town.count(status))
        });
        methods.add_method("distinct_streets", |_, t, ()| Ok(t.town.distinct_streets()));
        methods.add_method("render", |_, t, ()| Ok(t.town.render()));
        methods.add_method("render_debug", |_, t, ()| Ok(t.town.render_debug()));
        methods.add_method("write", write);
    }
}

/// The `warren.town` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("new", lua.create_function(new)?)?;
    t.set("limits", lua.create_function(limits)?)?;
    t.set("MIN_SIDE", MIN_SIDE)?;
    t.set("MAX_SIDE", MAX_SIDE)?;
    t.set("MAX_STRAIGHTNESS", MAX_STRAIGHTNESS)?;
    Ok(t)
}
