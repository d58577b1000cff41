//! Converting Lua arguments into Rust values, with errors that name the call, the argument and
//! what would be valid.

use super::cost;
pub use super::keys::keys;
use crate::budget::{charge, charge_bytes};
use crate::fail;
use mlua::{Lua, String as LuaString, Table, Value};
use warren_core::map::{priority, Adjacency, Brush, Map, Point, Rect};

/// An integer argument: Lua integers, or floats with no fractional part.
pub fn int(lua: &Lua, v: &Value, call: &str, what: &str) -> mlua::Result<i64> {
    match v {
        Value::Integer(i) => Ok(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(*n as i64),
        Value::Number(n) => Err(fail(
            lua,
            format!("{call}: {what} must be an integer, got {n}"),
        )),
        other => Err(fail(
            lua,
            format!(
                "{call}: {what} must be an integer, got {}",
                other.type_name()
            ),
        )),
    }
}

/// A cell on the map (checked against its bounds).
pub fn cell(lua: &Lua, map: &Map, x: &Value, y: &Value, call: &str) -> mlua::Result<Point> {
    let (x, y) = (int(lua, x, call, "x")?, int(lua, y, call, "y")?);
    map.index(x, y)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(Point::new(x as i32, y as i32))
}

/// A rectangle given as `{x=, y=, w=, h=}` (or `{x, y, w, h}`).
pub fn rect(lua: &Lua, t: &Table, call: &str) -> mlua::Result<Rect> {
    let k = keys(lua);
    let field = |key: &LuaString, name: &str, idx: i64| -> mlua::Result<i64> {
        let mut v: Value = t.get(key)?;
        if v.is_nil() {
            v = t.get(idx)?;
        }
        match v {
            Value::Integer(i) => Ok(i),
            Value::Nil => Err(fail(lua, format!("{call}: rectangle has no '{name}'"))),
            other => int(lua, &other, call, name),
        }
    };
    let (x, y) = (field(&k.x, "x", 1)?, field(&k.y, "y", 2)?);
    let (w, h) = (field(&k.w, "w", 3)?, field(&k.h, "h", 4)?);
    let small = |v: i64| v.clamp(-(1 << 30), 1 << 30) as i32;
    Ok(Rect::new(small(x), small(y), small(w), small(h)))
}

/// A list of rectangles: a `rects` userdata or a Lua list of `{x=, y=, w=, h=}` tables.
pub fn rect_list(lua: &Lua, v: &Value, call: &str) -> mlua::Result<Vec<Rect>> {
    match v {
        Value::UserData(ud) => {
            if let Ok(r) = ud.borrow::<super::rects::LuaRects>() {
                return Ok(r.0.clone());
            }
        }
        Value::Table(t) => {
            let mut out = Vec::new();
            for (i, item) in list(lua, t, call)?.into_iter().enumerate() {
                let Value::Table(item) = item else {
                    return Err(fail(
                        lua,
                        format!(
                            "{call}: item {} is not a rectangle {{x=, y=, w=, h=}}",
                            i + 1
                        ),
                    ));
                };
                out.push(rect(lua, &item, call)?);
            }
            return Ok(out);
        }
        _ => {}
    }
    Err(fail(
        lua,
        format!(
            "{call}: expected a list of rectangles, got {}",
            v.type_name()
        ),
    ))
}

/// The items of a Lua list up to the first nil, like `ipairs`, honouring `__index` (read-only
/// proxies such as `ctx.regions.spawn` are lists too). Each item is charged, and lists longer
/// than [`cost::MAX_LIST`] are refused (an `__index` that never returns nil makes an endless one).
pub fn list(lua: &Lua, t: &Table, call: &str) -> mlua::Result<Vec<Value>> {
    let mut out = Vec::new();
    loop {
        match t.get::<Value>(out.len() as i64 + 1)? {
            Value::Nil => {
                charge(lua, out.len() as u64 % 1024)?;
                return Ok(out);
            }
            _ if out.len() == cost::MAX_LIST => {
                return Err(fail(
                    lua,
                    format!("{call}: the list has more than {} items", cost::MAX_LIST),
                ))
            }
            v => {
                out.push(v);
                if out.len() % 1024 == 0 {
                    charge(lua, 1024)?;
                }
            }
        }
    }
}

/// A priority given as a number 0..=255 or a name (`"room_floor"`).
pub fn priority_value(lua: &Lua, v: &Value, call: &str) -> mlua::Result<u8> {
    match v {
        Value::String(s) => {
            let s = s.to_str()?;
            priority::by_name(&s).ok_or_else(|| {
                fail(
                    lua,
                    format!(
                        "{call}: unknown priority '{}' (valid: {})",
                        &*s,
                        priority::NAMED
                            .iter()
                            .map(|(n, _)| n.to_ascii_lowercase())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
        }
        other => {
            let n = int(lua, other, call, "priority")?;
            u8::try_from(n).map_err(|_| {
                fail(
                    lua,
                    format!("{call}: priority {n} is out of range (0..=255)"),
                )
            })
        }
    }
}

/// Checks that an options table has only known keys.
pub fn known_keys(lua: &Lua, opts: &Table, call: &str, valid: &[&str]) -> mlua::Result<()> {
    check_keys(lua, opts, call, valid, &[])
}

/// Checks that every key of `opts` is in `valid` or `more`, in one pass over the table.
fn check_keys(
    lua: &Lua,
    opts: &Table,
    call: &str,
    valid: &[&str],
    more: &[&str],
) -> mlua::Result<()> {
    let mut unknown = None;
    let mut entries = 0;
    // Values are read as booleans: that conversion never fails and makes no Lua reference.
    opts.for_each::<Value, bool>(|k, _| {
        entries += 1;
        if unknown.is_none() {
            let known = match &k {
                Value::String(s) => {
                    let b = s.as_bytes();
                    valid.iter().chain(more).any(|v| *b == *v.as_bytes())
                }
                _ => false,
            };
            if !known {
                unknown = Some(k);
            }
        }
        Ok(())
    })?;
    // Charged once: the table was built (and paid for) by the script.
    charge(lua, entries)?;
    match unknown {
        None => Ok(()),
        Some(k) => {
            let shown = match &k {
                Value::String(s) => s.to_string_lossy(),
                other => format!("{other:?}"),
            };
            let names: Vec<&str> = valid.iter().chain(more).copied().collect();
            Err(fail(
                lua,
                format!(
                    "{call}: unknown option '{shown}' (valid: {})",
                    names.join(", ")
                ),
            ))
        }
    }
}

/// The `connectivity` option of `opts`: `"4"` or `"8"` (or the integers), 8 when absent.
pub fn connectivity(lua: &Lua, opts: Option<&Table>, call: &str) -> mlua::Result<Adjacency> {
    let Some(o) = opts else {
        return Ok(Adjacency::Eight);
    };
    let v: Value = o.raw_get("connectivity")?;
    let name = match &v {
        Value::Nil => return Ok(Adjacency::Eight),
        Value::String(s) => s.to_string_lossy(),
        Value::Integer(n) => n.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.type_name().to_string(),
    };
    Adjacency::from_name(&name).ok_or_else(|| {
        fail(
            lua,
            format!("{call}: connectivity = '{name}' (valid: \"4\" or \"8\")"),
        )
    })
}

/// A terrain name on this map's terrain table.
pub fn terrain(lua: &Lua, map: &Map, name: &str, call: &str) -> mlua::Result<u16> {
    map.terrains().id(name).ok_or_else(|| {
        fail(
            lua,
            format!(
                "{call}: {}",
                warren_core::region::unknown_terrain(name, map.terrains())
            ),
        )
    })
}

/// The id of region `name` on `map`, adding it if new (charged: the names are searched, and
/// new ones kept until the run ends); at most [`cost::MAX_REGIONS`] names per map.
pub fn region(lua: &Lua, map: &mut Map, name: &str, call: &str) -> mlua::Result<u16> {
    let names = map.region_names();
    charge(lua, names.len() as u64)?;
    if !names.iter().any(|n| n == name) {
        if names.len() >= cost::MAX_REGIONS {
            return Err(fail(
                lua,
                format!(
                    "{call}: region '{name}' would be region number {}; a map holds at most {}",
                    names.len(),
                    cost::MAX_REGIONS - 1
                ),
            ));
        }
        charge_bytes(lua, cost::text(name))?;
    }
    Ok(map.region_id(name))
}

/// The keys a write-options table may hold.
pub const WRITE_KEYS: [&str; 3] = ["priority", "force", "region"];

/// A brush from a terrain name and an optional `{priority=, force=, region=}` table.
pub fn brush(
    lua: &Lua,
    map: &mut Map,
    name: &str,
    opts: Option<&Table>,
    call: &str,
    extra_keys: &[&str],
) -> mlua::Result<Brush> {
    let mut b = Brush::new(terrain(lua, map, name, call)?);
    if let Some(o) = opts {
        check_keys(lua, o, call, &WRITE_KEYS, extra_keys)?;
        let k = keys(lua);
        let p: Value = o.raw_get(&k.priority)?;
        if !p.is_nil() {
            b.priority = Some(priority_value(lua, &p, call)?);
        }
        b.force = o.raw_get::<Option<bool>>(&k.force)?.unwrap_or(false);
        if let Some(r) = o.raw_get::<Option<String>>(&k.region)? {
            b.region = Some(region(lua, map, &r, call)?);
        }
    }
    Ok(b)
}
