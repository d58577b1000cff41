//! Converting the shapes the API shares — rectangles, rectangle lists, cells, cell lists and
//! write options — from Lua values, through a [`Call`] so errors name the argument.

use super::call::{as_int, shown, Call, Opts};
use super::cost;
use super::keys::keys;
use super::rects::LuaRects;
use crate::budget::{charge, charge_bytes};
use mlua::{Table, Value};
use std::borrow::Cow;
use warren_core::map::{Brush, Map, Point, Rect, TerrainId};

/// Clamps a coordinate or size into the range the map model works in (far outside any map, so
/// the map's own checks still reject it).
fn small(v: i64) -> i32 {
    v.clamp(-(1 << 30), 1 << 30) as i32
}

/// A rectangle from a `{x=, y=, w=, h=}` table (or the deprecated positional `{x, y, w, h}`).
/// `what` names it in messages (`argument 1 (rect)`, `item 3 of rooms`).
pub fn rect_from(c: &Call, t: &Table, what: &str) -> mlua::Result<Rect> {
    let k = keys(c.lua());
    let field = |key: &mlua::String, name: &str, pos: i64| -> mlua::Result<i64> {
        let mut v: Value = t.get(key)?;
        if v.is_nil() {
            v = t.get(pos)?;
        }
        as_int(&v).ok_or_else(|| {
            c.fail(format!(
                "{what} must be a rectangle {{x=, y=, w=, h=}} of integers: {name} is {}",
                shown(&v)
            ))
        })
    };
    let (x, y) = (field(&k.x, "x", 1)?, field(&k.y, "y", 2)?);
    let (w, h) = (field(&k.w, "w", 3)?, field(&k.h, "h", 4)?);
    Ok(Rect::new(small(x), small(y), small(w), small(h)))
}

/// Argument `i` as a rectangle.
pub fn rect(c: &Call, i: usize, v: &Value) -> mlua::Result<Rect> {
    match v {
        Value::Table(t) => rect_from(c, t, &arg_label(c, i)),
        _ => Err(c.bad(i, v)),
    }
}

/// `argument 1 (rect)`.
fn arg_label(c: &Call, i: usize) -> String {
    format!("argument {} ({})", i + 1, c.decl().args[i].name)
}

/// Argument `i` as a list of rectangles: a `warren.RectList` (borrowed, not copied) or a Lua
/// list of rectangle tables.
pub fn rects<'v>(c: &Call, i: usize, v: &'v Value) -> mlua::Result<Cow<'v, [Rect]>> {
    match v {
        Value::UserData(ud) if ud.is::<LuaRects>() => {
            let r = ud.borrow::<LuaRects>()?;
            Ok(Cow::Owned(r.0.clone()))
        }
        Value::Table(t) => {
            let label = arg_label(c, i);
            let mut out = Vec::new();
            for (n, item) in list(c, t, &label)?.into_iter().enumerate() {
                let Value::Table(item) = item else {
                    return Err(c.fail(format!(
                        "item {} of {label} must be a rectangle {{x=, y=, w=, h=}}, got {}",
                        n + 1,
                        shown(&item)
                    )));
                };
                out.push(rect_from(c, &item, &format!("item {} of {label}", n + 1))?);
            }
            Ok(Cow::Owned(out))
        }
        _ => Err(c.bad(i, v)),
    }
}

/// The items of a Lua list up to the first nil, like `ipairs` (honouring `__index`, so
/// read-only proxies are lists too). Each item is charged, and lists longer than
/// [`cost::MAX_LIST`] are refused (an `__index` that never returns nil makes an endless one).
pub fn list(c: &Call, t: &Table, what: &str) -> mlua::Result<Vec<Value>> {
    let mut out = Vec::new();
    loop {
        match t.get::<Value>(out.len() as i64 + 1)? {
            Value::Nil => {
                charge(c.lua(), out.len() as u64 % 1024)?;
                return Ok(out);
            }
            _ if out.len() == cost::MAX_LIST => {
                return Err(c.fail(format!(
                    "{what} has more than {} items (the most a list argument may hold)",
                    cost::MAX_LIST
                )))
            }
            v => {
                out.push(v);
                if out.len() % 1024 == 0 {
                    charge(c.lua(), 1024)?;
                }
            }
        }
    }
}

/// Argument `i` (x) and `i + 1` (y) as a cell on `map`.
pub fn cell(c: &Call, map: &Map, i: usize, x: &Value, y: &Value) -> mlua::Result<Point> {
    let (x, y) = (c.int(i, x)?, c.int(i + 1, y)?);
    map.index(x, y).map_err(|e| c.fail(e))?;
    Ok(Point::new(x as i32, y as i32))
}

/// A cell from a `{x=, y=}` table (or the deprecated positional `{x, y}`), on `map`.
pub fn cell_from(c: &Call, map: &Map, v: &Value, what: &str) -> mlua::Result<Point> {
    let Value::Table(t) = v else {
        return Err(c.fail(format!(
            "{what} must be a cell {{x=, y=}}, got {}",
            shown(v)
        )));
    };
    let k = keys(c.lua());
    let coord = |key: &mlua::String, name: &str, pos: i64| -> mlua::Result<i64> {
        let mut v: Value = t.get(key)?;
        if v.is_nil() {
            v = t.get(pos)?;
        }
        as_int(&v).ok_or_else(|| {
            c.fail(format!(
                "{what} must be a cell {{x=, y=}} of integers: {name} is {}",
                shown(&v)
            ))
        })
    };
    let (x, y) = (coord(&k.x, "x", 1)?, coord(&k.y, "y", 2)?);
    map.index(x, y)
        .map_err(|e| c.fail(format!("{what}: {e}")))?;
    Ok(Point::new(x as i32, y as i32))
}

/// Argument `i` as a list of cells on `map`.
pub fn cells(c: &Call, map: &Map, i: usize, v: &Value) -> mlua::Result<Vec<Point>> {
    let Value::Table(t) = v else {
        return Err(c.bad(i, v));
    };
    let label = arg_label(c, i);
    let items = list(c, t, &label)?;
    let mut out = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        out.push(cell_from(
            c,
            map,
            item,
            &format!("item {} of {label}", n + 1),
        )?);
    }
    Ok(out)
}

/// A brush of `terrain` from write options (`priority`, `force`, `region`).
pub fn brush(o: &Opts, map: &mut Map, terrain: TerrainId) -> mlua::Result<Brush> {
    let mut b = Brush::new(terrain);
    b.priority = o.priority("priority")?;
    b.force = o.bool("force")?;
    if let Some(name) = o.opt_str("region")? {
        b.region = Some(region(o.call(), map, &name)?);
    }
    Ok(b)
}

/// The id of region `name` on `map`, adding it if new (charged: the names are searched, and
/// new ones kept until the run ends); at most [`cost::MAX_REGIONS`] names per map.
pub fn region(c: &Call, map: &mut Map, name: &str) -> mlua::Result<u16> {
    let names = map.region_names();
    charge(c.lua(), names.len() as u64)?;
    if !names.iter().any(|n| n == name) {
        if names.len() >= cost::MAX_REGIONS {
            return Err(c.fail(format!(
                "region '{name}' would be region number {}; a map holds at most {}",
                names.len(),
                cost::MAX_REGIONS - 1
            )));
        }
        charge_bytes(c.lua(), cost::text(name))?;
    }
    Ok(map.region_id(name))
}
