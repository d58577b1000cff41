//! A list of rectangles held in Rust (`warren.gen.scatter_rooms` returns one). Phases pass it
//! from one Rust primitive to the next without converting every rectangle to a Lua table and
//! back; Lua still reads it like a list: `#rooms`, `rooms[1].x`, `ipairs(rooms:list())`, and
//! `rooms:center(i)` gives a room's centre without building a table.

use super::keys::keys;
use crate::fail;
use mlua::{AnyUserData, Lua, MetaMethod, Table, UserData, UserDataMethods, Value};
use warren_core::map::Rect;

/// Rectangles as a Lua userdata.
#[derive(Clone, Debug, Default)]
pub struct LuaRects(pub Vec<Rect>);

/// A rectangle as a Lua table `{x=, y=, w=, h=}`.
pub fn rect_table(lua: &Lua, r: &Rect) -> mlua::Result<Table> {
    let k = keys(lua);
    lua.create_table_from([(&k.x, r.x), (&k.y, r.y), (&k.w, r.w), (&k.h, r.h)])
}

/// Makes `rooms[i]` read rectangle `i` as a table (see [`super::index`]: method lookups on
/// the list stay a single table lookup).
pub fn install_items(lua: &Lua) -> mlua::Result<()> {
    let sample = lua.create_userdata(LuaRects::default())?;
    let fallback = lua.create_function(|lua, (list, i): (AnyUserData, Value)| {
        let r = list.borrow::<LuaRects>()?;
        match i {
            Value::Integer(i) if i >= 1 && (i as usize) <= r.0.len() => {
                Ok(Value::Table(rect_table(lua, &r.0[i as usize - 1])?))
            }
            _ => Ok(Value::Nil),
        }
    })?;
    super::index::install(lua, &sample, fallback)
}

impl UserData for LuaRects {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Len, |_, r, ()| Ok(r.0.len()));
        methods.add_method("list", |lua, r, ()| {
            let t = lua.create_table_with_capacity(r.0.len(), 0)?;
            for (i, rect) in r.0.iter().enumerate() {
                t.raw_set(i + 1, rect_table(lua, rect)?)?;
            }
            Ok(t)
        });
        methods.add_method("center", |lua, r, i: Value| {
            let n = r.0.len();
            let c = match i {
                Value::Integer(i) if i >= 1 && (i as usize) <= n => r.0[i as usize - 1].center(),
                other => {
                    let shown = match other {
                        Value::Integer(i) => i.to_string(),
                        other => other.type_name().to_string(),
                    };
                    return Err(fail(
                        lua,
                        format!(
                            "rects:center: index {shown} is not a rectangle of the list (1..={n})"
                        ),
                    ));
                }
            };
            Ok((c.x, c.y))
        });
        methods.add_method_mut("sort", |lua, r, order: String| {
            match order.as_str() {
                "leftmost" => r.0.sort_by_key(|a| (a.x, a.y)),
                "topmost" => r.0.sort_by_key(|a| (a.y, a.x)),
                "largest" => r.0.sort_by_key(|a| (-(a.w * a.h), a.x, a.y)),
                other => {
                    return Err(fail(
                        lua,
                        format!("rects:sort: order '{other}' (valid: leftmost, topmost, largest)"),
                    ))
                }
            }
            Ok(())
        });
    }
}
