//! `warren.tunnel`: Incursion's tunnel for recipes. A context holds one level's corridor
//! styles (from `ctx.regions.corridor`), constants, panel size and doors, and the state that
//! lasts for the level (rooms touched, styles used), so every tunnel of a level shares it.
//!
//! ```lua
//! local tunnels = warren.tunnel.context(map, ctx.regions)
//! local t = tunnels:dig(map, rng, { from = { x = 3, y = 4 }, to = { x = 60, y = 40 },
//!                                   flags = { "direct", "wander" } })
//! print(t.x, t.y, t.stop, t.style, #t.carved)
//! local report = tunnels:fixup(map, rng, { trials = 26 })
//! ```

use super::args::{self, connectivity, known_keys};
use super::fields::{
    cell_value, door_field, get, int_in, opt_number, opt_str, point, point_list, resolve,
    str_field, table_field, terrain_field,
};
use super::map::LuaMap;
use super::rng::LuaRng;
use crate::fail;
use mlua::{AnyUserData, Lua, Table, UserData, UserDataMethods, Value};
use std::collections::BTreeMap;
use warren_core::gen::dungeon::{fixup_level, FixupOptions, Join};
use warren_core::gen::tunnel::{
    tunnel, ConstantOverrides, CorridorStyle, DoorTable, StopReason, TunnelConfig, TunnelConstants,
    TunnelFlags, TunnelLevel, TunnelRequest, MAX_CORRIDOR_LENGTH,
};
use warren_core::map::{Dir, DoorKind, Map};

/// One level's tunnel settings and state, as a Lua userdata.
pub struct LuaTunnels {
    /// Styles, constants, panel size and doors.
    pub config: TunnelConfig,
    /// Rooms touched and styles used so far on the level.
    pub level: TunnelLevel,
}

/// The name of a stop reason, as recipes see it.
pub fn stop_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Arrived => "arrived",
        StopReason::Exact => "exact",
        StopReason::Connected => "connected",
        StopReason::Wandered => "wandered",
        StopReason::LengthLimit => "length_limit",
        StopReason::StepLimit => "step_limit",
    }
}

/// Tunnel flags from a Lua list of names (`{ "direct", "wander" }`).
pub fn flags(lua: &Lua, list: Option<Table>, call: &str) -> mlua::Result<TunnelFlags> {
    let Some(list) = list else {
        return Ok(TunnelFlags::default());
    };
    let mut names = Vec::new();
    for v in args::list(lua, &list, call)? {
        match v {
            Value::String(s) => names.push(s.to_str()?.to_string()),
            other => {
                return Err(fail(
                    lua,
                    format!(
                        "{call}: flags must be strings ({}), got {}",
                        TunnelFlags::NAMES.join(", "),
                        other.type_name()
                    ),
                ))
            }
        }
    }
    TunnelFlags::from_names(&names).map_err(|e| fail(lua, format!("{call}: {e}")))
}

/// A percentage or length constant (an unsigned value up to the longest corridor).
fn constant(lua: &Lua, t: &Table, key: &str, default: i64, call: &str) -> mlua::Result<u32> {
    Ok(int_in(lua, t, key, (default, 0, MAX_CORRIDOR_LENGTH as i64), call)? as u32)
}

/// An optional constant override.
fn override_of(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<Option<u32>> {
    match get(t, key)? {
        Value::Nil => Ok(None),
        _ => constant(lua, t, key, 0, call).map(Some),
    }
}

/// One `[[corridor]]` entry as a corridor style.
fn style(lua: &Lua, map: &Map, c: &Table, call: &str) -> mlua::Result<(CorridorStyle, DoorKind)> {
    let c = &resolve(c)?;
    let name = str_field(lua, c, "name", call)?;
    let at = format!("{call}: corridor '{name}'");
    let weight = opt_number(lua, c, "weight", &at)?.unwrap_or(1.0);
    let staple = matches!(get(c, "staple")?, Value::Boolean(true));
    let constants = match get(c, "constants")? {
        Value::Table(k) => ConstantOverrides {
            turn_chance: override_of(lua, &k, "turn_chance", &at)?,
            stubborn_corridor: override_of(lua, &k, "stubborn_corridor", &at)?,
            segment_minlen: override_of(lua, &k, "segment_minlen", &at)?,
            segment_maxlen: override_of(lua, &k, "segment_maxlen", &at)?,
        },
        _ => ConstantOverrides::default(),
    };
    let door = door_field(lua, map, c, "door", &at)?;
    let floor = terrain_field(lua, map, c, "floor", &at)?;
    if map.terrains().get(floor).solid {
        return Err(fail(
            lua,
            format!(
                "{at}: floor terrain '{}' is solid; a corridor floor must be open",
                map.terrains().get(floor).name
            ),
        ));
    }
    Ok((
        CorridorStyle {
            name,
            weight,
            staple,
            floor,
            walls: terrain_field(lua, map, c, "walls", &at)?,
            constants,
        },
        door,
    ))
}

/// `warren.tunnel.context(map, regions, { panel_width =, panel_height =, corridor = })`.
fn context(
    lua: &Lua,
    (map, regions, opts): (AnyUserData, Table, Option<Table>),
) -> mlua::Result<LuaTunnels> {
    let call = "warren.tunnel.context";
    let opts = match opts {
        Some(o) => o,
        None => lua.create_table()?,
    };
    known_keys(
        lua,
        &opts,
        call,
        &["panel_width", "panel_height", "corridor"],
    )?;
    let m = map.borrow::<LuaMap>()?;
    let regions = resolve(&regions)?;
    let dungeon = match get(&regions, "dungeon")? {
        Value::Table(t) => resolve(&t)?,
        _ => lua.create_table()?,
    };
    let constants = TunnelConstants {
        turn_chance: constant(lua, &dungeon, "turn_chance", 10, call)?,
        stubborn_corridor: constant(lua, &dungeon, "stubborn_corridor", 30, call)?,
        segment_minlen: constant(lua, &dungeon, "segment_minlen", 4, call)?,
        segment_maxlen: constant(lua, &dungeon, "segment_maxlen", 10, call)?,
    };
    let panel = |key: &str| -> mlua::Result<i32> {
        let default = int_in(lua, &dungeon, key, (32, 1, 4096), call)?;
        Ok(int_in(lua, &opts, key, (default, 1, 4096), call)? as i32)
    };
    let (panel_width, panel_height) = (panel("panel_width")?, panel("panel_height")?);
    let mut styles = Vec::new();
    let mut doors = BTreeMap::new();
    for v in args::list(
        lua,
        &resolve(&table_field(lua, &regions, "corridor", call)?)?,
        call,
    )? {
        let Value::Table(c) = v else {
            return Err(fail(
                lua,
                format!("{call}: corridor entries must be tables"),
            ));
        };
        let (s, door) = style(lua, &m.0, &c, call)?;
        doors.insert(s.name.clone(), door);
        styles.push(s);
    }
    if styles.is_empty() {
        return Err(fail(
            lua,
            format!("{call}: no corridor regions; add a [[corridor]] to the region files"),
        ));
    }
    if let Value::Table(rooms) = get(&regions, "room")? {
        for v in args::list(lua, &resolve(&rooms)?, call)? {
            if let Value::Table(r) = v {
                let r = resolve(&r)?;
                let name = str_field(lua, &r, "name", call)?;
                let at = format!("{call}: room '{name}'");
                doors.insert(name, door_field(lua, &m.0, &r, "door", &at)?);
            }
        }
    }
    let wanted = match opt_str(lua, &opts, "corridor", call)? {
        Some(name) => Some(name),
        None => opt_str(lua, &dungeon, "corridor", call)?,
    };
    let default_style = match wanted {
        None => 0,
        Some(name) => styles.iter().position(|s| s.name == name).ok_or_else(|| {
            let known: Vec<String> = styles.iter().map(|s| format!("'{}'", s.name)).collect();
            fail(
                lua,
                format!(
                    "{call}: corridor = '{name}' names no corridor region (known: {})",
                    known.join(", ")
                ),
            )
        })?,
    };
    let default_door = doors[&styles[default_style].name].clone();
    let config = TunnelConfig {
        styles,
        default_style,
        constants,
        panel_width,
        panel_height,
        doors: DoorTable {
            default: default_door,
            by_region: doors,
        },
    };
    config
        .validate(&m.0)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(LuaTunnels {
        config,
        level: TunnelLevel::default(),
    })
}

/// The run's seed, for error messages.
fn run_seed(lua: &Lua) -> String {
    crate::with_run(lua, |d| d.rng.borrow::<LuaRng>().ok().map(|r| r.0.seed()))
        .flatten()
        .map_or_else(|| "unknown".into(), |s| s.to_string())
}

impl UserData for LuaTunnels {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut(
            "dig",
            |lua, t, (map, rng, opts): (AnyUserData, AnyUserData, Table)| {
                let call = "tunnels:dig";
                known_keys(
                    lua,
                    &opts,
                    call,
                    &["from", "to", "flags", "start_dir", "length"],
                )?;
                let mut m = map.borrow_mut::<LuaMap>()?;
                let from = cell_value(lua, &m.0, &opts.get("from")?, "from", call)?;
                let to = cell_value(lua, &m.0, &opts.get("to")?, "to", call)?;
                let mut req = TunnelRequest::new(from, to, flags(lua, opts.get("flags")?, call)?);
                if let Some(d) = opt_str(lua, &opts, "start_dir", call)? {
                    req.start_dir = Some(Dir::from_name(&d).ok_or_else(|| {
                        fail(
                            lua,
                            format!("{call}: start_dir = '{d}' (valid: north, south, east, west)"),
                        )
                    })?);
                }
                if !get(&opts, "length")?.is_nil() {
                    let n = int_in(
                        lua,
                        &opts,
                        "length",
                        (0, 1, MAX_CORRIDOR_LENGTH as i64),
                        call,
                    )?;
                    req.length_limit = Some(n as u32);
                }
                let mut r = rng.borrow_mut::<LuaRng>()?;
                let out = tunnel(&mut m.0, &t.config, &mut t.level, &req, &mut r.0)
                    .map_err(|e| fail(lua, format!("{call}: {e}")))?;
                let res = lua.create_table()?;
                res.raw_set("x", out.end.x)?;
                res.raw_set("y", out.end.y)?;
                res.raw_set("stop", stop_name(out.stop))?;
                res.raw_set("style", t.config.styles[out.style].name.as_str())?;
                res.raw_set("carved", point_list(lua, &out.carved)?)?;
                res.raw_set("doors", point_list(lua, &out.doors)?)?;
                res.raw_set("steps", out.steps)?;
                Ok(res)
            },
        );
        methods.add_method_mut(
            "fixup",
            |lua, t, (map, rng, opts): (AnyUserData, AnyUserData, Option<Table>)| {
                let call = "tunnels:fixup";
                let opts = match opts {
                    Some(o) => o,
                    None => lua.create_table()?,
                };
                known_keys(lua, &opts, call, &["trials", "connectivity", "bridge"])?;
                let trials = int_in(lua, &opts, "trials", (26, 0, 100_000), call)? as u32;
                let adjacency = connectivity(lua, Some(&opts), call)?;
                let result = {
                    let mut m = map.borrow_mut::<LuaMap>()?;
                    let bridge = match opt_str(lua, &opts, "bridge", call)? {
                        Some(name) => {
                            let id = args::terrain(lua, &m.0, &name, call)?;
                            let t = m.0.terrains().get(id);
                            if t.solid || t.hazard {
                                return Err(fail(
                                    lua,
                                    format!(
                                        "{call}: bridge = '{name}' must be open and no hazard \
                                         (a walker crosses the hazard on it)"
                                    ),
                                ));
                            }
                            Some(id)
                        }
                        None => None,
                    };
                    let fix = FixupOptions {
                        trials,
                        adjacency,
                        bridge,
                    };
                    let mut r = rng.borrow_mut::<LuaRng>()?;
                    fixup_level(&mut m.0, &t.config, &mut t.level, &mut r.0, &fix)
                };
                let report = result
                    .map_err(|e| fail(lua, format!("{call}: seed {}: {e}", run_seed(lua))))?;
                let list = lua.create_table()?;
                for (i, step) in report.tunnels.iter().enumerate() {
                    let e = lua.create_table()?;
                    e.raw_set("trial", step.trial)?;
                    e.raw_set("from", point(lua, step.from)?)?;
                    e.raw_set("to", point(lua, step.to)?)?;
                    e.raw_set("distance", step.distance)?;
                    let area = point(lua, step.component.representative)?;
                    area.raw_set("size", step.component.size)?;
                    e.raw_set("area", area)?;
                    e.raw_set("why", step.to_string())?;
                    match &step.drawn {
                        Join::Already => e.raw_set("how", "already joined")?,
                        Join::Tunnel {
                            style,
                            stop,
                            carved,
                        } => {
                            e.raw_set("how", "tunnel")?;
                            e.raw_set("style", t.config.styles[*style].name.as_str())?;
                            e.raw_set("stop", stop_name(*stop))?;
                            e.raw_set("carved", *carved)?;
                        }
                        Join::Path {
                            tunnel_stop,
                            carved,
                        } => {
                            e.raw_set("how", "path")?;
                            e.raw_set("stop", stop_name(*tunnel_stop))?;
                            e.raw_set("carved", *carved)?;
                        }
                    }
                    list.raw_set(i + 1, e)?;
                }
                let out = lua.create_table()?;
                out.raw_set("areas_before", report.components_before)?;
                out.raw_set("trials", report.trials)?;
                out.raw_set("tunnels", list)?;
                Ok(out)
            },
        );
    }
}

/// The `warren.tunnel` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("context", lua.create_function(context)?)?;
    Ok(t)
}
