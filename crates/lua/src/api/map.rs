//! The `map` object recipes receive: reads, priority writes, shapes and annotations.

use super::args::{self, brush, cell, int, rect};
use super::cost;
use crate::budget::{charge, charge_bytes};
use crate::fail;
use mlua::{AnyUserData, Lua, Table, UserData, UserDataMethods, Value};
use warren_core::map::{
    bresenham, dogleg, Corridor, DogLeg, Door, DoorState, Map, Point, Room, Spawn, TagValue,
    TerrainTable,
};

/// The map as a Lua userdata.
pub struct LuaMap(pub Map);

/// Builds a Lua list of `{x=, y=}` tables.
fn point_list(lua: &Lua, cells: &[Point]) -> mlua::Result<Table> {
    charge(lua, cells.len() as u64)?;
    let t = lua.create_table_with_capacity(cells.len(), 0)?;
    for (i, p) in cells.iter().enumerate() {
        let c = lua.create_table_with_capacity(0, 2)?;
        c.raw_set("x", p.x)?;
        c.raw_set("y", p.y)?;
        t.raw_set(i + 1, c)?;
    }
    Ok(t)
}

/// Reads a Lua list of `{x=, y=}` (or `{x, y}`) cells, all on the map.
fn cells_arg(lua: &Lua, map: &Map, list: &Table, call: &str) -> mlua::Result<Vec<Point>> {
    let items = args::list(lua, list, call)?;
    let mut out = Vec::with_capacity(items.len());
    for v in items {
        let Value::Table(c) = v else {
            return Err(fail(
                lua,
                format!("{call}: cells must be tables {{x=, y=}}"),
            ));
        };
        let x: Value = c.get("x")?;
        let x = if x.is_nil() { c.get(1)? } else { x };
        let y: Value = c.get("y")?;
        let y = if y.is_nil() { c.get(2)? } else { y };
        out.push(cell(lua, map, &x, &y, call)?);
    }
    Ok(out)
}

/// Records a carved path as a corridor when `opts.corridor` is true.
fn maybe_record(
    lua: &Lua,
    map: &mut Map,
    opts: Option<&Table>,
    cells: &[Point],
) -> mlua::Result<()> {
    if let Some(o) = opts {
        if o.raw_get::<Option<bool>>("corridor")?.unwrap_or(false) {
            let corridor = Corridor {
                cells: cells.to_vec(),
                region: o.raw_get::<Option<String>>("region")?,
            };
            charge_bytes(lua, cost::corridor(&corridor))?;
            map.notes.corridors.push(corridor);
        }
    }
    Ok(())
}

/// Sets tag `key` of `map`, charging a new key and a text value against the memory limit.
pub fn record_tag(lua: &Lua, map: &mut Map, key: String, v: TagValue) -> mlua::Result<()> {
    if !map.notes.tags.contains_key(&key) {
        charge_bytes(lua, cost::text(&key) + 16)?;
    }
    if let TagValue::Text(t) = &v {
        charge_bytes(lua, t.len())?;
    }
    map.notes.tags.insert(key, v);
    Ok(())
}

/// The map's fields, answered by [`install_fields`] rather than registered with mlua.
pub const FIELDS: [&str; 2] = ["width", "height"];

/// Makes `map.width` and `map.height` readable (see [`super::index`]: method lookups on the map
/// stay a single table lookup).
pub fn install_fields(lua: &Lua) -> mlua::Result<()> {
    let terrains = std::sync::Arc::new(TerrainTable::plain(&[("rock", '#', true)]));
    let sample = lua.create_userdata(LuaMap(
        Map::new(1, 1, 0, terrains).map_err(mlua::Error::external)?,
    ))?;
    let fallback = lua.create_function(|_, (map, key): (AnyUserData, Value)| {
        let Value::String(key) = key else {
            return Ok(Value::Nil);
        };
        let m = map.borrow::<LuaMap>()?;
        Ok(match &*key.as_bytes() {
            b"width" => Value::Integer(m.0.width() as i64),
            b"height" => Value::Integer(m.0.height() as i64),
            _ => Value::Nil,
        })
    })?;
    super::index::install(lua, &sample, fallback)
}

impl UserData for LuaMap {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("in_bounds", |lua, m, (x, y): (Value, Value)| {
            let (x, y) = (
                int(lua, &x, "map:in_bounds", "x")?,
                int(lua, &y, "map:in_bounds", "y")?,
            );
            Ok(m.0.in_bounds(x, y))
        });
        methods.add_method("is_edge", |lua, m, (x, y): (Value, Value)| {
            let p = cell(lua, &m.0, &x, &y, "map:is_edge")?;
            Ok(m.0.is_edge(p.x, p.y))
        });
        methods.add_method("get", |lua, m, (x, y): (Value, Value)| {
            let p = cell(lua, &m.0, &x, &y, "map:get")?;
            let t = m.0.terrain_at(p).map_err(mlua::Error::external)?;
            Ok(m.0.terrains().get(t).name.clone())
        });
        methods.add_method("priority", |lua, m, (x, y): (Value, Value)| {
            let p = cell(lua, &m.0, &x, &y, "map:priority")?;
            m.0.priority_at(p).map_err(mlua::Error::external)
        });
        methods.add_method("region", |lua, m, (x, y): (Value, Value)| {
            let p = cell(lua, &m.0, &x, &y, "map:region")?;
            let r = m.0.region_at(p).map_err(mlua::Error::external)?;
            Ok((r != 0).then(|| m.0.region_name(r).to_string()))
        });
        methods.add_method("is_solid", |lua, m, (x, y): (Value, Value)| {
            let p = cell(lua, &m.0, &x, &y, "map:is_solid")?;
            m.0.is_solid(p).map_err(mlua::Error::external)
        });
        methods.add_method_mut(
            "set",
            |lua, m, (x, y, t, opts): (Value, Value, String, Option<Table>)| {
                let p = cell(lua, &m.0, &x, &y, "map:set")?;
                let b = brush(lua, &mut m.0, &t, opts.as_ref(), "map:set", &[])?;
                m.0.write(p, &b).map_err(mlua::Error::external)
            },
        );
        methods.add_method_mut("fill", |lua, m, (t, opts): (String, Option<Table>)| {
            let b = brush(lua, &mut m.0, &t, opts.as_ref(), "map:fill", &[])?;
            charge(lua, cost::cell_work(m.0.len() as u64))?;
            Ok(m.0.fill(&b))
        });
        methods.add_method_mut(
            "fill_rect",
            |lua, m, (r, t, opts): (Table, String, Option<Table>)| {
                let r = rect(lua, &r, "map:fill_rect")?;
                let b = brush(lua, &mut m.0, &t, opts.as_ref(), "map:fill_rect", &[])?;
                m.0.check_rect(&r)
                    .map_err(|e| fail(lua, format!("map:fill_rect: {e}")))?;
                charge(lua, cost::cell_work(r.w as u64 * r.h as u64))?;
                m.0.fill_rect(&r, &b)
                    .map_err(|e| fail(lua, format!("map:fill_rect: {e}")))
            },
        );
        methods.add_method_mut(
            "outline_rect",
            |lua, m, (r, t, opts): (Table, String, Option<Table>)| {
                let r = rect(lua, &r, "map:outline_rect")?;
                let b = brush(lua, &mut m.0, &t, opts.as_ref(), "map:outline_rect", &[])?;
                m.0.check_rect(&r)
                    .map_err(|e| fail(lua, format!("map:outline_rect: {e}")))?;
                charge(lua, cost::cell_work(2 * (r.w as u64 + r.h as u64)))?;
                m.0.outline_rect(&r, &b)
                    .map_err(|e| fail(lua, format!("map:outline_rect: {e}")))
            },
        );
        methods.add_method_mut("write_edge", |lua, m, t: Option<String>| {
            let name = match t {
                Some(n) => n,
                None => m.0.terrains().get(edge_terrain(lua)?).name.clone(),
            };
            let b = brush(lua, &mut m.0, &name, None, "map:write_edge", &[])?.forced();
            let (w, h) = (m.0.width(), m.0.height());
            charge(lua, cost::cell_work(2 * (w as u64 + h as u64)))?;
            let r = warren_core::map::Rect::new(0, 0, w, h);
            m.0.outline_rect(&r, &b).map_err(mlua::Error::external)
        });
        methods.add_method_mut(
            "line",
            |lua, m, (x1, y1, x2, y2, t, opts): (Value, Value, Value, Value, String, Option<Table>)| {
                let a = cell(lua, &m.0, &x1, &y1, "map:line")?;
                let b = cell(lua, &m.0, &x2, &y2, "map:line")?;
                let br = brush(lua, &mut m.0, &t, opts.as_ref(), "map:line", &["corridor"])?;
                let path = bresenham(a, b);
                charge(lua, cost::cell_work(path.len() as u64))?;
                let carved = m.0.carve_path(&path, &br).map_err(mlua::Error::external)?;
                maybe_record(lua, &mut m.0, opts.as_ref(), &carved)?;
                Ok(carved.len())
            },
        );
        methods.add_method_mut(
            "dogleg",
            |lua, m, (x1, y1, x2, y2, t, opts): (Value, Value, Value, Value, String, Option<Table>)| {
                let call = "map:dogleg";
                let a = cell(lua, &m.0, &x1, &y1, call)?;
                let b = cell(lua, &m.0, &x2, &y2, call)?;
                let br = brush(lua, &mut m.0, &t, opts.as_ref(), call, &["corridor", "first"])?;
                let first = match &opts {
                    Some(o) => o.raw_get::<Option<String>>("first")?,
                    None => None,
                };
                let order = match first.as_deref() {
                    None | Some("horizontal") => DogLeg::HorizontalFirst,
                    Some("vertical") => DogLeg::VerticalFirst,
                    Some(other) => {
                        return Err(fail(
                            lua,
                            format!("{call}: first = '{other}' (valid: horizontal, vertical)"),
                        ))
                    }
                };
                let path = dogleg(a, b, order);
                charge(lua, cost::cell_work(path.len() as u64))?;
                let carved = m.0.carve_path(&path, &br).map_err(mlua::Error::external)?;
                maybe_record(lua, &mut m.0, opts.as_ref(), &carved)?;
                Ok(carved.len())
            },
        );
        methods.add_method_mut(
            "carve_rooms",
            |lua, m, (rooms, t, opts): (Value, String, Option<Table>)| {
                let call = "map:carve_rooms";
                let rects = args::rect_list(lua, &rooms, call)?;
                let b = brush(lua, &mut m.0, &t, opts.as_ref(), call, &["kind"])?;
                let kind = match &opts {
                    Some(o) => o.raw_get::<Option<String>>(&args::keys(lua).kind)?,
                    None => None,
                }
                .map_or_else(|| "room".into(), std::sync::Arc::<str>::from);
                for r in &rects {
                    m.0.check_rect(r)
                        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
                }
                for r in &rects {
                    m.0.fill_rect(r, &b).map_err(mlua::Error::external)?;
                    m.0.notes.rooms.push(Room {
                        rect: *r,
                        kind: kind.clone(),
                        doors: Vec::new(),
                    });
                }
                Ok(rects.len())
            },
        );
        methods.add_method_mut("add_room", |lua, m, (r, kind): (Table, Option<String>)| {
            let r = rect(lua, &r, "map:add_room")?;
            m.0.check_rect(&r)
                .map_err(|e| fail(lua, format!("map:add_room: {e}")))?;
            let room = Room {
                rect: r,
                kind: kind.map_or_else(|| "room".into(), Into::into),
                doors: Vec::new(),
            };
            charge_bytes(lua, cost::room(&room))?;
            m.0.notes.rooms.push(room);
            Ok(m.0.notes.rooms.len())
        });
        methods.add_method_mut(
            "add_door",
            |lua, m, (x, y, room, state): (Value, Value, Option<i64>, Option<String>)| {
                let p = cell(lua, &m.0, &x, &y, "map:add_door")?;
                let state = match state.as_deref() {
                    None => DoorState::Closed,
                    Some(name) => DoorState::from_name(name).ok_or_else(|| {
                        fail(
                            lua,
                            format!(
                                "map:add_door: state '{name}' (valid: {})",
                                DoorState::NAMES.join(", ")
                            ),
                        )
                    })?,
                };
                charge_bytes(lua, cost::cells(1) + size_of::<Door>())?;
                if let Some(i) = room {
                    let n = m.0.notes.rooms.len();
                    let r = i
                        .checked_sub(1)
                        .and_then(|i| usize::try_from(i).ok())
                        .and_then(|i| m.0.notes.rooms.get_mut(i))
                        .ok_or_else(|| {
                            fail(
                                lua,
                                format!("map:add_door: room {i} does not exist (1..={n})"),
                            )
                        })?;
                    r.doors.push(p);
                }
                // A second door on a cell is ignored: one door per cell.
                m.0.add_door(Door::new(p, state))
                    .map_err(mlua::Error::external)?;
                Ok(())
            },
        );
        methods.add_method_mut(
            "add_stair",
            |lua, m, (x, y, dir): (Value, Value, String)| {
                let p = cell(lua, &m.0, &x, &y, "map:add_stair")?;
                charge_bytes(lua, cost::cells(1))?;
                match dir.as_str() {
                    "up" => m.0.notes.stairs.up.push(p),
                    "down" => m.0.notes.stairs.down.push(p),
                    other => {
                        return Err(fail(
                            lua,
                            format!("map:add_stair: direction '{other}' (valid: up, down)"),
                        ))
                    }
                }
                Ok(())
            },
        );
        methods.add_method_mut(
            "add_spawn",
            |lua, m, (x, y, what): (Value, Value, String)| {
                let p = cell(lua, &m.0, &x, &y, "map:add_spawn")?;
                let spawn = Spawn {
                    x: p.x,
                    y: p.y,
                    what,
                };
                charge_bytes(lua, cost::spawn(&spawn))?;
                m.0.notes.spawns.push(spawn);
                Ok(())
            },
        );
        methods.add_method_mut(
            "add_corridor",
            |lua, m, (cells, region): (Table, Option<String>)| {
                let cells = cells_arg(lua, &m.0, &cells, "map:add_corridor")?;
                let corridor = Corridor { cells, region };
                charge_bytes(lua, cost::corridor(&corridor))?;
                m.0.notes.corridors.push(corridor);
                Ok(m.0.notes.corridors.len())
            },
        );
        methods.add_method_mut("tag", |lua, m, (key, value): (String, Value)| {
            let v = match value {
                Value::Boolean(b) => TagValue::Bool(b),
                Value::Integer(i) => TagValue::Int(i),
                Value::Number(n) if n.is_finite() => TagValue::Number(n),
                Value::String(s) => TagValue::Text(s.to_str()?.to_string()),
                other => {
                    return Err(fail(
                        lua,
                        format!(
                            "map:tag: value for '{key}' must be a boolean, finite number or string, got {}",
                            other.type_name()
                        ),
                    ))
                }
            };
            record_tag(lua, &mut m.0, key, v)
        });
        methods.add_method("rooms", |lua, m, ()| {
            charge(lua, m.0.notes.rooms.len() as u64)?;
            let t = lua.create_table_with_capacity(m.0.notes.rooms.len(), 0)?;
            for (i, r) in m.0.notes.rooms.iter().enumerate() {
                let room = lua.create_table()?;
                room.raw_set("x", r.rect.x)?;
                room.raw_set("y", r.rect.y)?;
                room.raw_set("w", r.rect.w)?;
                room.raw_set("h", r.rect.h)?;
                room.raw_set("kind", &*r.kind)?;
                room.raw_set("doors", point_list(lua, &r.doors)?)?;
                t.raw_set(i + 1, room)?;
            }
            Ok(t)
        });
        methods.add_method("corridors", |lua, m, ()| {
            let t = lua.create_table_with_capacity(m.0.notes.corridors.len(), 0)?;
            for (i, c) in m.0.notes.corridors.iter().enumerate() {
                t.raw_set(i + 1, point_list(lua, &c.cells)?)?;
            }
            Ok(t)
        });
        methods.add_method("count", |lua, m, t: String| {
            let id = args::terrain(lua, &m.0, &t, "map:count")?;
            charge(lua, cost::cell_work(m.0.len() as u64))?;
            Ok(m.0.terrain_cells().iter().filter(|&&c| c == id).count())
        });
        methods.add_method("open_count", |lua, m, ()| {
            charge(lua, cost::cell_work(m.0.len() as u64))?;
            Ok(m.0.open_count())
        });
        methods.add_method("snapshot", |lua, m, label: Value| {
            super::debug::snapshot(lua, &m.0, label)
        });
        methods.add_method_mut("add_layer", |lua, m, (name, spec): (String, Table)| {
            super::debug::add_layer(lua, &mut m.0, name, spec)
        });
        super::connectivity::add_methods(methods);
    }
}

/// The registry's edge terrain for the running generation.
fn edge_terrain(lua: &Lua) -> mlua::Result<u16> {
    crate::with_run(lua, |r| r.edge)
        .ok_or_else(|| fail(lua, "map:write_edge: no generation is running"))
}
