//! A list of rectangles held in Rust (`warren.gen.scatter_rooms` returns one). Phases pass it
//! from one Rust primitive to the next without converting every rectangle to a Lua table and
//! back; Lua still reads it like a list: `#rooms`, `rooms[1].x`, `ipairs(rooms:list())`, and
//! `rooms:center(i)` gives a room's centre without building a table. A binding reads a list
//! argument, held in Rust or a Lua list of rectangles, with [`read_arg`].

mod fast;
mod sort;

use super::call::{shown, Call, This};
use super::decl::{arg, Decl, Owner, Owner::Rects as O, Ty};
use super::keys::keys;
use super::shapes::{self, arg_label, rect_from};
use super::shared::{ReadGuard, Shared};
use sort::{sort_rects, SORT};
use std::ops::Deref;

use mlua::{
    ffi, AnyUserData, Either, Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods,
    Value,
};
use warren_core::map::Rect;

/// Rectangles as a Lua userdata, in a cell of warren's own (see [`super::shared`]).
pub type LuaRects = Shared<Vec<Rect>>;

/// The declarations and argument readers of the lists' fast methods and `#`, for the test that
/// keeps them in step (`tests/lua/api/fast_args.rs`).
pub fn fast_readers() -> Vec<(&'static Decl, &'static [super::fast::args::Read])> {
    fast::METHODS
        .iter()
        .chain(&fast::METAMETHODS)
        .map(|m| (m.decl, m.reads))
        .collect()
}

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

/// The rectangles a list argument gave (see [`read_arg`]).
pub enum RectsArg {
    /// A `warren.RectList`, borrowed from its cell (not copied).
    Held(ReadGuard<Vec<Rect>>),
    /// Rectangles read from a Lua list of tables (or copied from a list in use).
    Read(Vec<Rect>),
}

impl Deref for RectsArg {
    type Target = [Rect];

    fn deref(&self) -> &[Rect] {
        match self {
            RectsArg::Held(r) => r,
            RectsArg::Read(v) => v,
        }
    }
}

/// Argument `i` as a list of rectangles: a `warren.RectList` (borrowed, not copied) or a Lua
/// list of rectangle tables.
pub fn read_arg(c: &Call, i: usize, v: This<LuaRects>) -> mlua::Result<RectsArg> {
    let v = match v {
        Either::Left(held) => return held.read().map(RectsArg::Held).ok_or_else(|| c.busy()),
        Either::Right(v) => v,
    };
    match &v {
        Value::UserData(ud) if ud.is::<LuaRects>() => {
            // A list mlua could not lend: its error.
            Ok(RectsArg::Read(LuaRects::read_ud(ud)?.clone()))
        }
        Value::Table(t) => {
            let label = arg_label(c, i);
            let items = shapes::list(c, t, &label)?;
            let mut out = Vec::with_capacity(items.len());
            for (n, item) in items.iter().enumerate() {
                let item = item?;
                let Value::Table(item) = item else {
                    return Err(c.fail(format!(
                        "item {} of {label} must be a rectangle {{x=, y=, w=, h=}}, got {}",
                        n + 1,
                        shown(&item)
                    )));
                };
                out.push(rect_from(
                    c,
                    &item,
                    format_args!("item {} of {label}", n + 1),
                )?);
            }
            Ok(RectsArg::Read(out))
        }
        _ => Err(c.bad(i, &v)),
    }
}

/// Makes `rooms[i]` read rectangle `i` as a table (see [`super::index`]: method lookups on
/// the list stay a single table lookup), puts the lists' methods behind their gates, and
/// installs their fast calls (`fast.rs`).
pub fn install_items(lua: &Lua) -> mlua::Result<()> {
    let sample = lua.create_userdata(LuaRects::new(Vec::new()))?;
    crate::state::state(lua)
        .rects_metatable
        .set(crate::api::fast::metatable_of(lua, &sample));
    let fallback = lua.create_function(|lua, (list, i): (AnyUserData, Value)| {
        let r = LuaRects::read_ud(&list)?;
        match i {
            Value::Integer(i) if i >= 1 && (i as usize) <= r.len() => {
                Ok(Value::Table(rect_table(lua, &r[i as usize - 1])?))
            }
            _ => Ok(Value::Nil),
        }
    })?;
    super::index::install(lua, &sample, fallback)?;
    super::gate::install(lua, &sample, &[METHODS], super::gate::RECTS_GATES)?;
    fast::install(lua, &sample)
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

methods! {
    /// The list's methods.
    pub METHODS, register for LuaRects {
        LIST => list,
        CENTER => center,
        SORT => sort,
    }
}

impl UserData for LuaRects {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(rooms)` shows (mlua would name the Rust type, `Shared<Vec<Rect>>`).
        fields.add_meta_field(MetaMethod::Type, Owner::Rects.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Len, |_, r, ()| Ok(r.read_or_busy()?.len()));
        register(methods);
    }
}

fn list(lua: &Lua, this: &LuaRects, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &LIST);
    let r = c.read(this)?;
    let t = lua.create_table_with_capacity(r.len(), 0)?;
    for (i, rect) in r.iter().enumerate() {
        t.raw_set(i + 1, rect_table(lua, rect)?)?;
    }
    Ok(t)
}

fn center(lua: &Lua, this: &LuaRects, i: Value) -> mlua::Result<(i32, i32)> {
    let c = Call::gated(lua, &CENTER);
    let r = c.read(this)?;
    let n = r.len();
    let at = match &i {
        Value::Integer(i) if *i >= 1 && (*i as usize) <= n => *i as usize - 1,
        other => {
            return Err(c.fail(format!(
                "argument 1 (i) = {} is not a rectangle of the list (1..={n})",
                shown(other)
            )))
        }
    };
    let p = r[at].center();
    Ok((p.x, p.y))
}

fn sort(lua: &Lua, this: &LuaRects, order: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &SORT);
    let order = c.choice(0, &order)?;
    sort_rects(&mut c.write(this)?, order);
    Ok(())
}
