//! Converting the shapes the API shares — rectangles, cells, cell lists, lists and write
//! options — from Lua values, through a [`Call`] so errors name the argument. (A rectangle
//! list, which may be a `warren.RectList`, is read where that object lives: `rects`.)

use super::call::{as_int, shown, Call, Opts};
use super::cost;
use super::keys::keys;
use crate::state::{charge, charge_bytes};
use mlua::{ffi, Table, Value};
use std::fmt::{self, Display};
use warren_core::map::{Brush, Map, Point, Rect, TerrainId};

/// Clamps a coordinate or size into the range the map model works in: far outside any map, so
/// the map's own checks still reject it, and small enough that a rectangle's far corner
/// (`x + w - 1`) stays an `i32` even grown by the largest margin `rect:intersects` takes (2^30).
pub(super) fn small(v: i64) -> i32 {
    v.clamp(-(1 << 29), 1 << 29) as i32
}

/// A rectangle from a `{x=, y=, w=, h=}` table (or the deprecated positional `{x, y, w, h}`).
/// `what` names it in messages (`argument 1 (rect)`, `item 3 of rooms`); it is written only
/// for a message.
pub fn rect_from(c: &Call, t: &Table, what: impl Display) -> mlua::Result<Rect> {
    let k = keys(c.lua());
    if let [Some(x), Some(y), Some(w), Some(h)] = held_ints(c, t, [&k.x, &k.y, &k.w, &k.h])? {
        return Ok(Rect::new(small(x), small(y), small(w), small(h)));
    }
    let field = |key: &mlua::String, name: &str, pos: i64| -> mlua::Result<i64> {
        let mut v = named(t, key)?;
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

/// The integers `t` itself holds under `keys`, read raw in one visit to the Lua stack (`None`
/// for a key holding anything else, or nothing). Reading raw asks no metamethod, so when every
/// key holds an integer these are the values indexing gives; otherwise the caller reads the
/// keys one by one as indexing does.
fn held_ints<const N: usize>(
    c: &Call,
    t: &Table,
    keys: [&mlua::String; N],
) -> mlua::Result<[Option<i64>; N]> {
    c.lua().exec_raw_lua(|raw| {
        let state = raw.state();
        let mut out = [None; N];
        // SAFETY: the stack is checked to have room for the table, a key and its value;
        // `lua_rawget` with a string key runs no metamethod and cannot fail; everything pushed
        // is popped before returning.
        unsafe {
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(t)?;
            for (key, slot) in keys.into_iter().zip(&mut out) {
                raw.push(key)?;
                if ffi::lua_rawget(state, -2) == ffi::LUA_TNUMBER
                    && ffi::lua_isinteger(state, -1) != 0
                {
                    *slot = Some(ffi::lua_tointeger(state, -1));
                }
                ffi::lua_pop(state, 1);
            }
            ffi::lua_pop(state, 1);
        }
        Ok(out)
    })
}

/// `t[key]`: a key the table holds is what indexing gives (no metamethod is asked), so it is
/// read raw, without the protected call mlua makes for a table with a metatable (a
/// `warren.rect`); only a missing key goes through `__index`.
fn named(t: &Table, key: &mlua::String) -> mlua::Result<Value> {
    match t.raw_get(key)? {
        Value::Nil => t.get(key),
        v => Ok(v),
    }
}

/// Argument `i` as a rectangle.
pub fn rect(c: &Call, i: usize, v: &Value) -> mlua::Result<Rect> {
    match v {
        Value::Table(t) => rect_from(c, t, arg_label(c, i)),
        _ => Err(c.bad(i, v)),
    }
}

/// `argument 1 (rect)`, written only when a message needs it.
pub struct ArgLabel<'c, 'a> {
    c: &'c Call<'a>,
    i: usize,
}

impl Display for ArgLabel<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let name = self.c.decl().args[self.i].name;
        write!(f, "argument {} ({name})", self.i + 1)
    }
}

/// Argument `i`'s label, as [`ArgLabel`].
pub fn arg_label<'c, 'a>(c: &'c Call<'a>, i: usize) -> ArgLabel<'c, 'a> {
    ArgLabel { c, i }
}

/// A Lua list argument, read like `ipairs`: its items up to the first nil. However long it
/// is, it holds a single Lua reference (mlua's auxiliary stack has room for about a million;
/// a `Vec<Value>` of a million tables or strings ran out of it). Items are fetched one at a
/// time with raw reads; each is released when the caller drops it.
pub struct List {
    /// The items: the list itself when it is a plain table, else a snapshot of what `__index`
    /// returned (so each item is asked for once, and reading it back runs no Lua).
    items: Table,
    len: usize,
}

impl List {
    /// How many items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Item `i` (0-based; `Nil` past the end).
    pub fn get(&self, i: usize) -> mlua::Result<Value> {
        if i < self.len {
            self.items.raw_get(i as i64 + 1)
        } else {
            Ok(Value::Nil)
        }
    }

    /// The items in order.
    pub fn iter(&self) -> impl Iterator<Item = mlua::Result<Value>> + '_ {
        (0..self.len).map(|i| self.get(i))
    }
}

/// The items of a [`List`] in order, each fetched as the loop reaches it.
pub struct ListItems {
    list: List,
    next: usize,
}

impl Iterator for ListItems {
    type Item = mlua::Result<Value>;

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        (i < self.list.len).then(|| {
            self.next += 1;
            self.list.get(i)
        })
    }
}

impl IntoIterator for List {
    type Item = mlua::Result<Value>;
    type IntoIter = ListItems;

    fn into_iter(self) -> ListItems {
        ListItems {
            list: self,
            next: 0,
        }
    }
}

/// The items of a Lua list up to the first nil, like `ipairs` (honouring `__index`, so
/// read-only proxies are lists too). Each item is charged, and lists longer than
/// [`cost::MAX_LIST`] are refused (an `__index` that never returns nil makes an endless one).
pub fn list(c: &Call, t: &Table, what: impl Display) -> mlua::Result<List> {
    let too_long = || {
        c.fail(format!(
            "{what} has more than {} items (the most a list argument may hold)",
            cost::MAX_LIST
        ))
    };
    if t.metatable().is_none() {
        // A plain table: count its items; they are read back from it.
        let mut len = 0usize;
        while !t.raw_get::<Value>(len as i64 + 1)?.is_nil() {
            if len == cost::MAX_LIST {
                return Err(too_long());
            }
            len += 1;
            if len % 1024 == 0 {
                charge(c.lua(), 1024)?;
            }
        }
        charge(c.lua(), len as u64 % 1024)?;
        return Ok(List {
            items: t.clone(),
            len,
        });
    }
    // `__index` may compute every item (and never stop): keep what it returned.
    let items = c.lua().create_table()?;
    let mut len = 0usize;
    loop {
        match t.get::<Value>(len as i64 + 1)? {
            Value::Nil => {
                charge(c.lua(), len as u64 % 1024)?;
                return Ok(List { items, len });
            }
            _ if len == cost::MAX_LIST => return Err(too_long()),
            v => {
                items.raw_set(len as i64 + 1, v)?;
                len += 1;
                if len % 1024 == 0 {
                    charge(c.lua(), 1024)?;
                }
            }
        }
    }
}

/// Argument `i` (x) and `i + 1` (y) as a cell on `map`.
pub fn cell(c: &Call, map: &Map, i: usize, x: &Value, y: &Value) -> mlua::Result<Point> {
    let (x, y) = (c.int(i, x)?, c.int(i + 1, y)?);
    map.locate(x, y).map_err(|e| c.fail(e))
}

/// A cell from a `{x=, y=}` table (or the deprecated positional `{x, y}`), on `map`.
pub fn cell_from(c: &Call, map: &Map, v: &Value, what: impl Display) -> mlua::Result<Point> {
    let Value::Table(t) = v else {
        return Err(c.fail(format!(
            "{what} must be a cell {{x=, y=}}, got {}",
            shown(v)
        )));
    };
    let k = keys(c.lua());
    if let [Some(x), Some(y)] = held_ints(c, t, [&k.x, &k.y])? {
        return map.locate(x, y).map_err(|e| c.fail(format!("{what}: {e}")));
    }
    let coord = |key: &mlua::String, name: &str, pos: i64| -> mlua::Result<i64> {
        let mut v = named(t, key)?;
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
    map.locate(x, y).map_err(|e| c.fail(format!("{what}: {e}")))
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
            &item?,
            format_args!("item {} of {label}", n + 1),
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
