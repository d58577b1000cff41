//! Fast calls: the map methods a recipe calls once per cell (`map:get(x, y)`,
//! `map:set(x, y, terrain)`, …) as plain Lua C functions on the run's map, without mlua's
//! callback machinery.
//!
//! Each is a C closure in the field table of the run's map (the host puts them there with
//! [`install`]), so `map:priority(x, y)` finds it before the map's methods table. It answers the
//! common case straight from the Lua stack: called on that map, with integers (or floats with
//! no fraction) for the cell and, for `set`, a terrain name and no options, on a map no binding
//! holds. Every other call goes to the declared binding (the method of the same name in the
//! methods table) with the same arguments, so checks, messages, budget charges and results are
//! the binding's own: a fast call is only ever the binding's answer, sooner. Other maps
//! (`ctx.above`) have no fast closures: their methods are the declared bindings.
//!
//! The map is reached through its cell ([`super::shared`]), whose borrow flag the bindings
//! also use, so a fast call made while a binding holds the map (from a callback, an `__index`,
//! a finalizer) takes the declared path and gets the binding's "in use" error.

use super::call::float_as_int;
use super::map::LuaMap;
use super::shared::SharedCell;
use super::terrain_names;
use crate::state::{PASSES_ON, PASS_ON_UPVALUE};
use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, Lua};
use std::ffi::c_int;
use warren_core::map::{Brush, Map, Point};

/// One method with a fast path.
struct FastMethod {
    /// The method's name, in the field table and in the methods table.
    name: &'static str,
    /// The common case: the answer, or `None` for the declared binding to handle the call.
    /// Reads its arguments without converting them, and never raises or runs Lua code.
    body: unsafe fn(*mut lua_State, &SharedCell<Map>) -> Option<Answer>,
}

/// The methods with a fast path.
static FAST_METHODS: [FastMethod; 8] = [
    FastMethod {
        name: "in_bounds",
        body: in_bounds,
    },
    FastMethod {
        name: "is_edge",
        body: is_edge,
    },
    FastMethod {
        name: "get",
        body: get,
    },
    FastMethod {
        name: "priority",
        body: priority,
    },
    FastMethod {
        name: "region",
        body: region,
    },
    FastMethod {
        name: "is_solid",
        body: is_solid,
    },
    FastMethod {
        name: "is_connected",
        body: is_connected,
    },
    FastMethod {
        name: "set",
        body: set,
    },
];

/// Upvalues of a fast closure.
const MAP: c_int = ffi::lua_upvalueindex(1);
const CELL: c_int = ffi::lua_upvalueindex(2);
const DECLARED: c_int = ffi::lua_upvalueindex(3);
const METHOD: c_int = ffi::lua_upvalueindex(4);
// Upvalue 5 marks the closure as one that passes calls on (`PASS_ON_UPVALUE`).

/// Where the fast closures' objects are numbered (see `lua_warren_setidbase`): apart from
/// what loading a recipe numbers (below) and what runs number (`RUN_ID_BASE`, above), so that
/// installing them moves no other object's id, hence no table order a recipe could see.
const FAST_ID_BASE: u64 = 1 << 39;

extern "C" {
    fn lua_warren_setidbase(l: *mut lua_State, base: u64);
    fn lua_warren_getidbase(l: *mut lua_State) -> u64;
    fn lua_warren_getcounter(l: *mut lua_State) -> i64;
    fn lua_warren_setcounter(l: *mut lua_State, n: i64);
    fn lua_warren_charge(l: *mut lua_State, n: i64) -> c_int;
}

/// Puts the fast methods into `ud`'s field table. `ud` is a map userdata made by
/// [`super::map::new_userdata`]; its methods table must hold every fast method's binding.
pub fn install(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    let cell = ud.borrow::<LuaMap>()?.cell();
    // SAFETY: `exec_raw` runs the closure protected with the userdata in slot 1; the closure
    // checks every type it relies on before using it and leaves the stack as it found it.
    let state = lua.exec_raw_lua(|raw| raw.state());
    let ids = unsafe { lua_warren_getidbase(state) };
    unsafe { lua_warren_setidbase(state, FAST_ID_BASE) };
    let installed = unsafe {
        lua.exec_raw::<bool>(ud, |l| {
            let fields = ffi::lua_getiuservalue(l, 1, 1) == ffi::LUA_TTABLE;
            if ffi::lua_getmetatable(l, 1) == 0 {
                ffi::lua_pushnil(l);
            }
            let methods = ffi::lua_type(l, 3) == ffi::LUA_TTABLE
                && ffi::lua_getfield(l, 3, c"__index".as_ptr()) == ffi::LUA_TTABLE;
            if !(fields && methods) {
                ffi::lua_settop(l, 0);
                ffi::lua_pushboolean(l, 0);
                return;
            }
            // Stack: 1 the map, 2 its field table, 3 its metatable, 4 its methods table.
            for method in &FAST_METHODS {
                ffi::lua_pushvalue(l, 1);
                ffi::lua_pushlightuserdata(l, cell.cast_mut().cast());
                ffi::lua_pushlstring(l, method.name.as_ptr().cast(), method.name.len());
                if ffi::lua_rawget(l, 4) != ffi::LUA_TFUNCTION {
                    ffi::lua_settop(l, 0);
                    ffi::lua_pushboolean(l, 0);
                    return;
                }
                ffi::lua_pushlightuserdata(l, std::ptr::from_ref(method).cast_mut().cast());
                ffi::lua_pushlightuserdata(l, std::ptr::from_ref(&PASSES_ON).cast_mut().cast());
                ffi::lua_pushcclosure(l, fast_call, PASS_ON_UPVALUE);
                ffi::lua_pushlstring(l, method.name.as_ptr().cast(), method.name.len());
                ffi::lua_insert(l, -2);
                ffi::lua_rawset(l, 2);
            }
            ffi::lua_settop(l, 0);
            ffi::lua_pushboolean(l, 1);
        })
    };
    unsafe { lua_warren_setidbase(state, ids) };
    match installed? {
        true => Ok(()),
        false => Err(mlua::Error::RuntimeError(
            "a map userdata without its field table or methods (made outside new_userdata)".into(),
        )),
    }
}

/// Every fast method: its fast path when the call is on the closure's own map, else the
/// declared binding.
unsafe extern "C-unwind" fn fast_call(l: *mut lua_State) -> c_int {
    // SAFETY: `install` made this closure with these upvalues; the method is a static and the
    // cell lives as long as the map userdata in upvalue 1.
    unsafe {
        if ffi::lua_rawequal(l, 1, MAP) != 0 {
            let method = &*ffi::lua_touserdata(l, METHOD).cast::<FastMethod>();
            let cell = &*ffi::lua_touserdata(l, CELL).cast::<SharedCell<Map>>();
            let body = std::panic::AssertUnwindSafe(|| (method.body)(l, cell));
            // A panic is a bug in a body; the declared binding still answers the call.
            if let Ok(Some(answer)) = std::panic::catch_unwind(body) {
                if answer.charge(l) {
                    return answer.push(l);
                }
            }
        }
        declared(l)
    }
}

/// Calls the declared binding with this call's arguments and returns what it returns. The
/// budget charged this call once on entering it; the nested call is refunded, so a call costs
/// the same either way.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn declared(l: *mut lua_State) -> c_int {
    unsafe {
        let args = ffi::lua_gettop(l);
        lua_warren_setcounter(l, lua_warren_getcounter(l).saturating_add(CALL_COST));
        ffi::lua_pushvalue(l, DECLARED);
        ffi::lua_insert(l, 1);
        ffi::lua_call(l, args, ffi::LUA_MULTRET);
        ffi::lua_gettop(l)
    }
}

/// What the budget charges for a call (`LUA_WARREN_CALLCOST`).
const CALL_COST: i64 = 5;

/// What a fast path answers, pushed once the body has returned (pushing can raise a memory
/// error, which must not cross Rust frames).
enum Answer {
    Bool(bool),
    Int(i64),
    /// A name the map keeps (a terrain's or a region's); nothing runs between reading it and
    /// pushing it, and pushing copies it before anything can.
    Name(*const str),
    Nil,
}

impl Answer {
    /// Charges what the binding's answer would cost beyond the call: mlua makes a returned
    /// string in a protected call, which the budget charges as a call. False when that ran the
    /// budget out (the declared binding then raises its error).
    ///
    /// # Safety
    /// `l` is running a fast closure.
    unsafe fn charge(&self, l: *mut lua_State) -> bool {
        !matches!(self, Answer::Name(_)) || unsafe { lua_warren_charge(l, CALL_COST) } == 0
    }

    /// Pushes the answer: one value.
    ///
    /// # Safety
    /// `l` is running a fast closure; a `Name` is still live.
    unsafe fn push(self, l: *mut lua_State) -> c_int {
        unsafe {
            match self {
                Answer::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
                Answer::Int(n) => ffi::lua_pushinteger(l, n),
                Answer::Name(name) => {
                    let name = &*name;
                    ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
                }
                Answer::Nil => ffi::lua_pushnil(l),
            }
        }
        1
    }
}

/// Arguments 2 and 3 as a cell on `map`, when they are integers naming one.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn cell_at(l: *mut lua_State, map: &Map) -> Option<Point> {
    let (x, y) = unsafe { xy(l)? };
    map.index(x, y).ok()?;
    Some(Point::new(x as i32, y as i32))
}

/// Arguments 2 and 3, when the call passed exactly those after its receiver and both are
/// integers as the binding reads them (a string or anything else takes the declared path).
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn xy(l: *mut lua_State) -> Option<(i64, i64)> {
    unsafe {
        if ffi::lua_gettop(l) != 3 {
            return None;
        }
        Some((int_arg(l, 2)?, int_arg(l, 3)?))
    }
}

/// Argument `i` as an integer: a Lua integer, or a float with no fractional part, as
/// [`super::call::as_int`] reads one. Strings are not numbers here (no conversion).
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn int_arg(l: *mut lua_State, i: c_int) -> Option<i64> {
    unsafe {
        if ffi::lua_isinteger(l, i) != 0 {
            Some(ffi::lua_tointeger(l, i))
        } else if ffi::lua_type(l, i) == ffi::LUA_TNUMBER {
            float_as_int(ffi::lua_tonumber(l, i))
        } else {
            None
        }
    }
}

/// A method `(x, y)` answering from the cell it names.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn at_cell(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    f: impl FnOnce(&Map, Point) -> Option<Answer>,
) -> Option<Answer> {
    cell.peek(|m| f(m, unsafe { cell_at(l, m) }?))?
}

unsafe fn in_bounds(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    let (x, y) = unsafe { xy(l)? };
    cell.peek(|m| Answer::Bool(m.in_bounds(x, y)))
}

unsafe fn is_edge(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe { at_cell(l, cell, |m, p| Some(Answer::Bool(m.is_edge(p.x, p.y)))) }
}

unsafe fn is_solid(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe { at_cell(l, cell, |m, p| m.is_solid(p).ok().map(Answer::Bool)) }
}

unsafe fn is_connected(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe { at_cell(l, cell, |m, p| m.is_connected(p).ok().map(Answer::Bool)) }
}

unsafe fn priority(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        at_cell(l, cell, |m, p| {
            Some(Answer::Int(m.priority_at(p).ok()?.into()))
        })
    }
}

unsafe fn get(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        at_cell(l, cell, |m, p| {
            let t = m.terrain_at(p).ok()?;
            Some(Answer::Name(std::ptr::from_ref(
                m.terrains().get(t).name.as_str(),
            )))
        })
    }
}

unsafe fn region(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        at_cell(l, cell, |m, p| {
            Some(match m.region_at(p).ok()? {
                0 => Answer::Nil,
                r => Answer::Name(std::ptr::from_ref(m.region_name(r))),
            })
        })
    }
}

/// `map:set(x, y, terrain)` (options absent or nil): a priority write with the terrain's own
/// brush, as the binding makes it without options.
unsafe fn set(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        let top = ffi::lua_gettop(l);
        if !(top == 4 || top == 5 && ffi::lua_type(l, 5) == ffi::LUA_TNIL)
            || ffi::lua_type(l, 4) != ffi::LUA_TSTRING
        {
            return None;
        }
        let (x, y) = (int_arg(l, 2)?, int_arg(l, 3)?);
        let mut len = 0;
        let bytes = ffi::lua_tolstring(l, 4, &mut len);
        let name = std::str::from_utf8(std::slice::from_raw_parts(bytes.cast::<u8>(), len)).ok()?;
        cell.poke(|m| {
            m.index(x, y).ok()?;
            let terrain = terrain_names::id(m.terrains(), name)?;
            let written = m
                .write(Point::new(x as i32, y as i32), &Brush::new(terrain))
                .ok()?;
            Some(Answer::Bool(written))
        })?
    }
}
