//! A list of rectangles held in Rust (`warren.gen.scatter_rooms` returns one). Phases pass it
//! from one Rust primitive to the next without converting every rectangle to a Lua table and
//! back; Lua still reads it like a list: `#rooms`, `rooms[1].x`, `ipairs(rooms:list())`, and
//! `rooms:center(i)` gives a room's centre without building a table.

use super::call::{Call, Extra, This, ThisMut};
use super::decl::{arg, Decl, Owner::Rects as O, Ty};
use super::keys::keys;

use mlua::{ffi, AnyUserData, Lua, MetaMethod, Table, UserData, UserDataMethods, Value};
use warren_core::map::Rect;

/// Rectangles as a Lua userdata.
#[derive(Clone, Debug, Default)]
pub struct LuaRects(pub Vec<Rect>);

/// A rectangle as a Lua table `{x=, y=, w=, h=}`.
pub fn rect_table(lua: &Lua, r: &Rect) -> mlua::Result<Table> {
    rect_table_with_room(lua, r, 0)
}

/// [`rect_table`] with room for `more` keys besides `x`, `y`, `w` and `h` (set in that order).
pub fn rect_table_with_room(lua: &Lua, r: &Rect, more: usize) -> mlua::Result<Table> {
    let k = keys(lua);
    // The table is made (a protected allocation) with room for its keys; putting a new key
    // into a free slot of a table cannot allocate or fail, so the fields are set without a
    // protected call each.
    let t = lua.create_table_with_capacity(0, 4 + more)?;
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: the stack is checked to have room for the table, a key and a value; the keys
        // are existing strings and the values integers (pushing them allocates nothing);
        // everything pushed is set or popped before returning.
        unsafe {
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(&t)?;
            for (key, v) in [(&k.x, r.x), (&k.y, r.y), (&k.w, r.w), (&k.h, r.h)] {
                raw.push(key)?;
                ffi::lua_pushinteger(state, v.into());
                ffi::lua_rawset(state, -3);
            }
            ffi::lua_pop(state, 1);
        }
        Ok(())
    })?;
    Ok(t)
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

const LIST: Decl = Decl::method(
    O,
    "list",
    "The rectangles as plain Lua tables `{x=, y=, w=, h=}`.",
)
.returns(&["warren.RectLike[]"]);
const CENTER: Decl = Decl::method(
    O,
    "center",
    "The centre cell `x, y` of rectangle `i` (rounded towards the top left), without building a table.",
)
.args(&[arg("i", Ty::int(1, i64::MAX))])
.returns(&["integer", "integer"]);
const SORT: Decl = Decl::method(
    O,
    "sort",
    "Sorts the list in place: by left column, by top row, or largest area first (ties by position).",
)
.args(&[arg("order", Ty::Choice(&["leftmost", "topmost", "largest"]))]);

methods! {
    /// The list's methods.
    pub METHODS, register for LuaRects {
        LIST => list,
        CENTER => center,
        SORT => sort,
    }
}

impl UserData for LuaRects {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Len, |_, r, ()| Ok(r.0.len()));
        register(methods);
    }
}

fn list(lua: &Lua, (this, extra): (This<LuaRects>, Extra)) -> mlua::Result<Table> {
    let c = Call::new(lua, &LIST, &extra)?;
    let r = c.receiver(this)?;
    let t = lua.create_table_with_capacity(r.0.len(), 0)?;
    for (i, rect) in r.0.iter().enumerate() {
        t.raw_set(i + 1, rect_table(lua, rect)?)?;
    }
    Ok(t)
}

fn center(lua: &Lua, (this, i, extra): (This<LuaRects>, Value, Extra)) -> mlua::Result<(i32, i32)> {
    let c = Call::new(lua, &CENTER, &extra)?;
    let r = c.receiver(this)?;
    let n = r.0.len();
    let at = match &i {
        Value::Integer(i) if *i >= 1 && (*i as usize) <= n => *i as usize - 1,
        other => {
            return Err(c.fail(format!(
                "argument 1 (i) = {} is not a rectangle of the list (1..={n})",
                super::call::shown(other)
            )))
        }
    };
    let p = r.0[at].center();
    Ok((p.x, p.y))
}

fn sort(lua: &Lua, (this, order, extra): (ThisMut<LuaRects>, Value, Extra)) -> mlua::Result<()> {
    let c = Call::new(lua, &SORT, &extra)?;
    let order = c.choice(0, &order)?;
    let mut r = c.receiver_mut(this)?;
    match order {
        0 => r.0.sort_by_key(|a| (a.x, a.y)),
        1 => r.0.sort_by_key(|a| (a.y, a.x)),
        _ => r.0.sort_by_key(|a| (-(a.w * a.h), a.x, a.y)),
    }
    Ok(())
}
