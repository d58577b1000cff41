//! `warren.rect(x, y, w, h)`: a rectangle as a plain Lua table `{x=, y=, w=, h=}` whose
//! metatable gives it helper methods. Its fields stay ordinary table fields (a recipe may move
//! or resize it), and every call that takes a rectangle takes it.

use super::call::{Call, Extra};
use super::classes::RECT_LIKE;
use super::decl::{arg, opt, opt_or, Decl, Default, Owner, Ty};

use super::shapes::{rect_from, small};
use mlua::{Lua, Table, Value};
use warren_core::map::Rect;

/// `warren.rect`.
pub const RECT: Decl = Decl::function(
    Owner::Warren,
    "rect",
    "A rectangle with helper methods, from four integers or a `{x=, y=, w=, h=}` table.",
)
.args(&[
    arg("x", Ty::Any),
    opt("y", Ty::INT),
    opt("w", Ty::INT),
    opt("h", Ty::INT),
])
.returns(&["warren.Rect"]);

/// The rectangle's fields.
pub const FIELDS: &[&Decl] = &[
    &Decl::field(Owner::Rect, "x", &["integer"], "Left column."),
    &Decl::field(Owner::Rect, "y", &["integer"], "Top row."),
    &Decl::field(Owner::Rect, "w", &["integer"], "Width in cells."),
    &Decl::field(Owner::Rect, "h", &["integer"], "Height in cells."),
];

const X2: Decl = Decl::method(Owner::Rect, "x2", "Right column (inclusive).").returns(&["integer"]);
const Y2: Decl = Decl::method(Owner::Rect, "y2", "Bottom row (inclusive).").returns(&["integer"]);
const CENTER: Decl = Decl::method(
    Owner::Rect,
    "center",
    "The centre cell `x, y` (rounded towards the top left).",
)
.returns(&["integer", "integer"]);
const CONTAINS: Decl = Decl::method(Owner::Rect, "contains", "Whether the cell lies inside.")
    .args(&[arg("x", Ty::INT), arg("y", Ty::INT)])
    .returns(&["boolean"]);
const INTERSECTS: Decl = Decl::method(
    Owner::Rect,
    "intersects",
    "Whether the rectangles overlap, or come within `margin` cells of each other.",
)
.args(&[
    arg("other", Ty::Table(&RECT_LIKE)),
    opt_or("margin", Ty::int(0, 1 << 30), Default::Int(0)),
])
.returns(&["boolean"]);

functions! {
    /// The rectangle's methods.
    pub METHODS, register_methods {
        X2 => x2,
        Y2 => y2,
        CENTER => center,
        CONTAINS => contains,
        INTERSECTS => intersects,
    }
}

/// The metatable every `warren.rect` shares (kept in the state's app data). Its methods live
/// in a table of their own, and the metatable is hidden (`__metatable = false`), so a script
/// cannot reach and change what every later rectangle sees.
pub struct RectMeta(pub Table);

/// Creates the shared metatable (once per state).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let methods = lua.create_table()?;
    register_methods(lua, &methods)?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", methods)?;
    meta.raw_set("__metatable", false)?;
    lua.set_app_data(RectMeta(meta));
    Ok(())
}

/// `warren.rect(x, y, w, h)` or `warren.rect{x=, y=, w=, h=}`.
pub fn rect(
    lua: &Lua,
    (x, y, w, h, extra): (Value, Value, Value, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &RECT, &extra)?;
    let r = match &x {
        Value::Table(t) => rect_from(&c, t, "argument 1 (x)")?,
        _ => {
            let x = super::call::as_int(&x).ok_or_else(|| {
                c.fail(format!(
                    "argument 1 (x) must be an integer or a rectangle table {{x=, y=, w=, h=}}, got {}",
                    super::call::shown(&x)
                ))
            })?;
            let y = c.int(1, &y)?;
            let w = c.int(2, &w)?;
            let h = c.int(3, &h)?;
            Rect::new(small(x), small(y), small(w), small(h))
        }
    };
    let meta = lua
        .app_data_ref::<RectMeta>()
        .map(|m| m.0.clone())
        .ok_or_else(|| c.fail("no rectangle metatable (a bug in warren)"))?;
    let t = super::rects::rect_table(lua, &r)?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

/// The rectangle a method was called on.
fn this(c: &Call, v: &Value) -> mlua::Result<Rect> {
    rect_from(c, &c.this_table(v)?, "the rectangle")
}

fn x2(lua: &Lua, (this_, extra): (Value, Extra)) -> mlua::Result<i32> {
    let c = Call::new(lua, &X2, &extra)?;
    Ok(this(&c, &this_)?.x2())
}

fn y2(lua: &Lua, (this_, extra): (Value, Extra)) -> mlua::Result<i32> {
    let c = Call::new(lua, &Y2, &extra)?;
    Ok(this(&c, &this_)?.y2())
}

fn center(lua: &Lua, (this_, extra): (Value, Extra)) -> mlua::Result<(i32, i32)> {
    let c = Call::new(lua, &CENTER, &extra)?;
    let p = this(&c, &this_)?.center();
    Ok((p.x, p.y))
}

fn contains(lua: &Lua, (this_, x, y, extra): (Value, Value, Value, Extra)) -> mlua::Result<bool> {
    let c = Call::new(lua, &CONTAINS, &extra)?;
    let r = this(&c, &this_)?;
    let (x, y) = (c.int(0, &x)?, c.int(1, &y)?);
    Ok(x >= r.x as i64 && x <= r.x2() as i64 && y >= r.y as i64 && y <= r.y2() as i64)
}

fn intersects(
    lua: &Lua,
    (this_, other, margin, extra): (Value, Value, Value, Extra),
) -> mlua::Result<bool> {
    let c = Call::new(lua, &INTERSECTS, &extra)?;
    let r = this(&c, &this_)?;
    let o = super::shapes::rect(&c, 0, &other)?;
    let m = c.int(1, &margin)? as i32;
    Ok(r.intersects(&o, m))
}
