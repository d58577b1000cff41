//! Reading named fields of Lua tables, including the read-only proxies of `ctx.regions`
//! (fields are read with `get`, so `__index` is honoured). Errors name the call and the field.

use super::args::{self, int};
use crate::fail;
use mlua::{Lua, Table, Value};
use warren_core::map::{DoorKind, Map, Point, TerrainId};

/// `t[key]` as Lua reads it. `__index` tables (the read-only proxies of `ctx.regions`) are
/// followed with raw reads, which avoids a protected call per field; an `__index` function
/// falls back to a full `get`.
pub fn get(t: &Table, key: &str) -> mlua::Result<Value> {
    let mut t = t.clone();
    // Lua itself gives up on `__index` chains after 2000 steps.
    for _ in 0..2000 {
        let v: Value = t.raw_get(key)?;
        if !v.is_nil() {
            return Ok(v);
        }
        let Some(meta) = t.metatable() else {
            return Ok(Value::Nil);
        };
        match meta.raw_get::<Value>("__index")? {
            Value::Table(next) => t = next,
            Value::Nil => return Ok(Value::Nil),
            _ => return t.get(key),
        }
    }
    t.get(key)
}

/// The table holding `t`'s fields: `t` itself, or, when `t` is an empty table whose
/// metatable's `__index` is a table (a read-only proxy of `ctx.regions`), that table, resolved
/// again. Reading a region entry's many fields from the resolved table costs one raw read each.
pub fn resolve(t: &Table) -> mlua::Result<Table> {
    let mut t = t.clone();
    for _ in 0..2000 {
        if !t.is_empty() {
            break;
        }
        let Some(meta) = t.metatable() else { break };
        match meta.raw_get::<Value>("__index")? {
            Value::Table(inner) => t = inner,
            _ => break,
        }
    }
    Ok(t)
}

/// A required integer field.
pub fn int_field(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<i64> {
    match get(t, key)? {
        Value::Nil => Err(fail(lua, format!("{call}: missing '{key}'"))),
        v => int(lua, &v, call, key),
    }
}

/// A required integer field within `lo..=hi`.
pub fn int_req_in(
    lua: &Lua,
    t: &Table,
    key: &str,
    (lo, hi): (i64, i64),
    call: &str,
) -> mlua::Result<i64> {
    let v = int_field(lua, t, key, call)?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(fail(
            lua,
            format!("{call}: {key} = {v} is out of range ({lo}..={hi})"),
        ))
    }
}

/// An integer field within `lo..=hi`, or `default` when absent.
pub fn int_in(
    lua: &Lua,
    t: &Table,
    key: &str,
    (default, lo, hi): (i64, i64, i64),
    call: &str,
) -> mlua::Result<i64> {
    let v = match get(t, key)? {
        Value::Nil => return Ok(default),
        v => int(lua, &v, call, key)?,
    };
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(fail(
            lua,
            format!("{call}: {key} = {v} is out of range ({lo}..={hi})"),
        ))
    }
}

/// A required string field.
pub fn str_field(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<String> {
    opt_str(lua, t, key, call)?.ok_or_else(|| fail(lua, format!("{call}: missing '{key}'")))
}

/// An optional string field.
pub fn opt_str(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<Option<String>> {
    match get(t, key)? {
        Value::Nil => Ok(None),
        Value::String(s) => Ok(Some(s.to_str()?.to_string())),
        other => Err(fail(
            lua,
            format!(
                "{call}: '{key}' must be a string, got {}",
                other.type_name()
            ),
        )),
    }
}

/// A required table field.
pub fn table_field(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<Table> {
    match get(t, key)? {
        Value::Table(t) => Ok(t),
        Value::Nil => Err(fail(lua, format!("{call}: missing '{key}'"))),
        other => Err(fail(
            lua,
            format!("{call}: '{key}' must be a table, got {}", other.type_name()),
        )),
    }
}

/// An optional number field (finite).
pub fn opt_number(lua: &Lua, t: &Table, key: &str, call: &str) -> mlua::Result<Option<f64>> {
    match get(t, key)? {
        Value::Nil => Ok(None),
        Value::Integer(i) => Ok(Some(i as f64)),
        Value::Number(n) if n.is_finite() => Ok(Some(n)),
        other => Err(fail(
            lua,
            format!("{call}: '{key}' must be a finite number, got {other:?}"),
        )),
    }
}

/// The terrain id of the string field `key`.
pub fn terrain_field(
    lua: &Lua,
    map: &Map,
    t: &Table,
    key: &str,
    call: &str,
) -> mlua::Result<TerrainId> {
    let name = str_field(lua, t, key, call)?;
    args::terrain(lua, map, &name, call)
}

/// The kind of door named by the string field `key`: a `[[door]]` kind, or a terrain drawn
/// alike in every state.
pub fn door_field(
    lua: &Lua,
    map: &Map,
    t: &Table,
    key: &str,
    call: &str,
) -> mlua::Result<DoorKind> {
    let name = str_field(lua, t, key, call)?;
    map.terrains().door(&name).ok_or_else(|| {
        let kinds: Vec<String> = map
            .terrains()
            .door_kinds()
            .iter()
            .map(|k| format!("'{}'", k.name))
            .collect();
        fail(
            lua,
            format!(
                "{call}: {key} = '{name}' is neither a [[door]] kind (known: {}) nor a terrain",
                if kinds.is_empty() {
                    "none".into()
                } else {
                    kinds.join(", ")
                }
            ),
        )
    })
}

/// A cell given as `{x=, y=}` or `{x, y}`, on the map.
pub fn cell_value(lua: &Lua, map: &Map, v: &Value, what: &str, call: &str) -> mlua::Result<Point> {
    let Value::Table(c) = v else {
        return Err(fail(
            lua,
            format!(
                "{call}: {what} must be a cell {{x=, y=}}, got {}",
                v.type_name()
            ),
        ));
    };
    let x: Value = c.get("x")?;
    let x = if x.is_nil() { c.get(1)? } else { x };
    let y: Value = c.get("y")?;
    let y = if y.is_nil() { c.get(2)? } else { y };
    args::cell(lua, map, &x, &y, &format!("{call}: {what}"))
}

/// A Lua list of `{x=, y=}` tables.
pub fn point_list(lua: &Lua, cells: &[Point]) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(cells.len(), 0)?;
    for (i, p) in cells.iter().enumerate() {
        t.raw_set(i + 1, point(lua, *p)?)?;
    }
    Ok(t)
}

/// One `{x=, y=}` table.
pub fn point(lua: &Lua, p: Point) -> mlua::Result<Table> {
    let c = lua.create_table_with_capacity(0, 2)?;
    c.raw_set("x", p.x)?;
    c.raw_set("y", p.y)?;
    Ok(c)
}
