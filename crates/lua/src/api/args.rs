//! Converting Lua arguments into Rust values, with errors that name the call, the argument and
//! what would be valid.

use super::cost;
pub use super::keys::keys;
use crate::budget::{charge, charge_bytes};
use crate::fail;
use mlua::{Lua, String as LuaString, Table, Value};
use warren_core::map::{priority, Brush, Map, Point, Rect};
use warren_core::rng::{check_weights, WeightProblem};

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
            let items = list(lua, t, call)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let Value::Table(item) = item? else {
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

/// The items in order, each fetched as the loop reaches it.
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

/// The items of a Lua list up to the first nil, like `ipairs`, honouring `__index` (read-only
/// proxies such as `ctx.regions.spawn` are lists too). Each item is charged, and lists longer
/// than [`cost::MAX_LIST`] are refused (an `__index` that never returns nil makes an endless
/// one).
pub fn list(lua: &Lua, t: &Table, call: &str) -> mlua::Result<List> {
    list_with(lua, t, || {
        fail(
            lua,
            format!(
                "{call}: the list has more than {} items (the most a list argument may hold)",
                cost::MAX_LIST
            ),
        )
    })
}

/// [`list`], with `too_long` making the error for a list past [`cost::MAX_LIST`].
pub fn list_with(
    lua: &Lua,
    t: &Table,
    too_long: impl FnOnce() -> mlua::Error,
) -> mlua::Result<List> {
    if t.metatable().is_none() {
        // A plain table: count its items; they are read back from it.
        let mut len = 0usize;
        while !t.raw_get::<Value>(len as i64 + 1)?.is_nil() {
            if len == cost::MAX_LIST {
                return Err(too_long());
            }
            len += 1;
            if len % 1024 == 0 {
                charge(lua, 1024)?;
            }
        }
        charge(lua, len as u64 % 1024)?;
        return Ok(List {
            items: t.clone(),
            len,
        });
    }
    // `__index` may compute every item (and never stop): keep what it returned.
    let items = lua.create_table()?;
    let mut len = 0usize;
    loop {
        match t.get::<Value>(len as i64 + 1)? {
            Value::Nil => {
                charge(lua, len as u64 % 1024)?;
                return Ok(List { items, len });
            }
            _ if len == cost::MAX_LIST => return Err(too_long()),
            v => {
                items.raw_set(len as i64 + 1, v)?;
                len += 1;
                if len % 1024 == 0 {
                    charge(lua, 1024)?;
                }
            }
        }
    }
}

/// What is wrong with weights read for a weighted draw, if anything: each must be finite and
/// ≥ 0, and all of them must add up to a finite total (weights of 1.7e308 are each finite, but
/// two of them made the draw treat every weight as zero). `item(i)` names the i-th (0-based)
/// entry.
pub fn weight_problem(weights: &[f64], item: impl Fn(usize) -> String) -> Option<String> {
    match check_weights(weights) {
        Ok(_) => None,
        Err(WeightProblem::Invalid(i)) => Some(format!(
            "{} has weight {}; weights must be finite and ≥ 0",
            item(i),
            weights[i]
        )),
        Err(WeightProblem::Overflow(i)) => Some(format!(
            "{} has weight {:e}, which takes the total past the largest number (about \
             1.8e308); weights must add up to a finite total",
            item(i),
            weights[i]
        )),
    }
}

/// [`weight_problem`] as an error of `call` at the recipe line.
pub fn weights(
    lua: &Lua,
    weights: &[f64],
    call: &str,
    item: impl Fn(usize) -> String,
) -> mlua::Result<()> {
    match weight_problem(weights, item) {
        None => Ok(()),
        Some(m) => Err(fail(lua, format!("{call}: {m}"))),
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
