//! Gates: the declared methods of every warren object (maps, rngs, rectangle lists, levels,
//! tunnel contexts, towns, status lists) are plain mlua methods (registered with `add_method`,
//! mlua's quickest way from Lua to a Rust method: the receiver is borrowed in place and no
//! value is made for it), each behind a C closure that makes the two checks mlua would
//! otherwise answer in its own words, naming Rust types: that the method is called on its
//! receiver, and with no more arguments than it takes.
//!
//! A gate's upvalues (see `lua_warren_gate` in `crates/lua-src`): mlua's callback (its first
//! upvalue, so that mlua's C function, called from the gate's own frame, finds it), that C
//! function, the most arguments (receiver included; -1 for any number), the receivers'
//! metatable, the pass-on mark (`PASS_ON_UPVALUE`) and the method's [`Decl`]. A call that
//! passes runs mlua's method in the gate's frame, so the binding's errors name the recipe's
//! line as before; a call that does not is passed to one function (`refuse`), which raises
//! the message the binding made before gates: too many arguments first, then a wrong receiver
//! ([`Call::refused`]).

use super::call::Call;
use super::decl::Decl;
use crate::budget::refund_call;
use crate::ffi::lua_warren_gate;
use crate::state::{numbered_from, PASSES_ON, PASS_ON_UPVALUE};
use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, LightUserData, Lua, Value, Variadic};
use std::ffi::c_int;

/// The gate's upvalue holding its method's declaration (a light userdata).
const DECL: c_int = ffi::lua_upvalueindex(6);

/// The registry key (its address) of [`refuse`]'s function.
static REFUSE_KEY: u8 = 0;

/// Where gates are numbered (see `lua_warren_setidbase`): after the fast closures (numbered
/// from 2^39), apart from what loading a recipe and runs number, so that installing them moves
/// no other object's id. [`refuse`]'s function first, then the gates of each type.
const GATE_ID_BASE: u64 = (1 << 39) + 256;
const REFUSE_ID: u64 = GATE_ID_BASE;
/// The first ids of each type's gates (room for 64 map methods, 32 town methods, 16 of the
/// others).
pub const MAP_GATES: u64 = GATE_ID_BASE + 8;
/// See [`MAP_GATES`].
pub const RNG_GATES: u64 = MAP_GATES + 64;
/// See [`MAP_GATES`].
pub const RECTS_GATES: u64 = RNG_GATES + 16;
/// See [`MAP_GATES`].
pub const LEVEL_GATES: u64 = RECTS_GATES + 16;
/// See [`MAP_GATES`].
pub const TUNNELS_GATES: u64 = LEVEL_GATES + 16;
/// See [`MAP_GATES`].
pub const TOWN_GATES: u64 = TUNNELS_GATES + 16;
/// See [`MAP_GATES`].
pub const LISTS_GATES: u64 = TOWN_GATES + 32;
/// See [`MAP_GATES`].
pub const FIELD_GATES: u64 = LISTS_GATES + 16;

// `refuse`'s function and its callback come before the first gate.
const _: () = assert!(REFUSE_ID + 2 <= MAP_GATES);

/// Replaces each method of `lists`, a type's declared methods, in the methods table of
/// `sample`'s type with a gate, numbering the gates from `first_id` (one of [`MAP_GATES`],
/// …). Run while the state loads, before the fast calls are installed (a fast call passes what
/// it does not answer to the gate, so its errors are the gate's), or, for a type met on first
/// use (`first_use`), when a state meets it; methods already behind a gate are passed over.
pub fn install(
    lua: &Lua,
    sample: &AnyUserData,
    lists: &[&'static [&'static Decl]],
    first_id: u64,
) -> mlua::Result<()> {
    let l = lua.exec_raw_lua(|raw| raw.state());
    // SAFETY: `l` is the state's current thread; reading a registry slot pushes one value,
    // popped at once.
    let refuse_made = unsafe {
        let found = ffi::lua_rawgetp(l, ffi::LUA_REGISTRYINDEX, refuse_key()) == ffi::LUA_TFUNCTION;
        ffi::lua_pop(l, 1);
        found
    };
    if !refuse_made {
        // SAFETY: as above; only the function is made while numbering.
        let f = unsafe { numbered_from(l, REFUSE_ID, || lua.create_function(refuse)) }.0?;
        // SAFETY: `exec_raw` runs the closure protected with the function in slot 1.
        unsafe {
            lua.exec_raw::<()>(f, |l| {
                ffi::lua_rawsetp(l, ffi::LUA_REGISTRYINDEX, refuse_key());
            })
        }?;
    }
    let decls = lists.iter().flat_map(|list| list.iter().copied());
    // SAFETY: the closure runs protected with the sample in slot 1 and nil in slot 2; every
    // type relied on is checked first.
    unsafe {
        super::fast::install_protected(
            lua,
            (sample, Value::Nil),
            |l| methods_table(l) && set_gates(l, decls, first_id),
            "a declared method is missing from its type's methods table",
        )
    }
}

/// The registry key of [`refuse`]'s function.
fn refuse_key() -> *const std::ffi::c_void {
    std::ptr::from_ref(&REFUSE_KEY).cast()
}

/// Pushes the metatable of the userdata in slot 1 (slot 3) and its methods table (slot 4):
/// the metatable's `__index`, or the table a function there looks methods up in — the first
/// upvalue of `api::index`'s C function, the `__index` upvalue of the function mlua makes for
/// a type with fields.
///
/// # Safety
/// `l` runs protected with the userdata in slot 1 and one other value above it.
unsafe fn methods_table(l: *mut lua_State) -> bool {
    unsafe {
        if ffi::lua_getmetatable(l, 1) == 0 {
            return false;
        }
        match ffi::lua_getfield(l, 3, c"__index".as_ptr()) {
            ffi::LUA_TTABLE => true,
            ffi::LUA_TFUNCTION => {
                for n in 1..=4 {
                    let name = ffi::lua_getupvalue(l, 4, n);
                    if name.is_null() {
                        break;
                    }
                    let name = std::ffi::CStr::from_ptr(name).to_bytes();
                    if matches!(name, b"" | b"__index") && ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                        ffi::lua_remove(l, 4);
                        return true;
                    }
                    ffi::lua_pop(l, 1);
                }
                false
            }
            _ => false,
        }
    }
}

/// Sets a gate for each of `decls` in the methods table (slot 4), over the mlua function it
/// holds under that name; false when one is missing.
///
/// # Safety
/// `l` runs protected with the metatable in slot 3 and the methods table in slot 4.
unsafe fn set_gates(
    l: *mut lua_State,
    decls: impl Iterator<Item = &'static Decl>,
    first_id: u64,
) -> bool {
    unsafe {
        for (id, decl) in (first_id..).zip(decls) {
            if ffi::lua_checkstack(l, 8) == 0 {
                return false;
            }
            ffi::lua_pushlstring(l, decl.name.as_ptr().cast(), decl.name.len());
            ffi::lua_pushvalue(l, -1);
            let method = ffi::lua_rawget(l, 4) == ffi::LUA_TFUNCTION;
            if method && is_gate(l) {
                // Put there by an install cut short (`first_use`): kept, with its id.
                ffi::lua_pop(l, 2);
                continue;
            }
            let Some(call) = method.then(|| ffi::lua_tocfunction(l, -1)).flatten() else {
                return false;
            };
            // The callback: mlua's C function reads it as its first upvalue.
            if ffi::lua_getupvalue(l, -1, 1).is_null() {
                return false;
            }
            ffi::lua_remove(l, -2);
            ffi::lua_pushcfunction(l, call);
            let most = if decl.variadic {
                -1
            } else {
                decl.args.len() as i64 + 1
            };
            ffi::lua_pushinteger(l, most);
            ffi::lua_pushvalue(l, 3);
            ffi::lua_pushlightuserdata(l, std::ptr::from_ref(&PASSES_ON).cast_mut().cast());
            ffi::lua_pushlightuserdata(l, std::ptr::from_ref(decl).cast_mut().cast());
            debug_assert_eq!(PASS_ON_UPVALUE, 5);
            numbered_from(l, id, || ffi::lua_pushcclosure(l, gate, 6));
            ffi::lua_rawset(l, 4);
        }
        true
    }
}

/// Whether the function on top of the stack is a gate (its [`PASS_ON_UPVALUE`] marked).
///
/// # Safety
/// `l` has a function on top and room for one more value.
unsafe fn is_gate(l: *mut lua_State) -> bool {
    // SAFETY: the caller's contract; the upvalue pushed is popped.
    unsafe {
        if ffi::lua_getupvalue(l, -1, PASS_ON_UPVALUE).is_null() {
            return false;
        }
        let marked =
            ffi::lua_touserdata(l, -1).cast_const() == std::ptr::from_ref(&PASSES_ON).cast();
        ffi::lua_pop(l, 1);
        marked
    }
}

/// A gate: the method's mlua function when the call passes the checks, else [`refuse`].
unsafe extern "C-unwind" fn gate(l: *mut lua_State) -> c_int {
    // SAFETY: only `set_gates` makes closures of this function, with the upvalues
    // `lua_warren_gate` and `refused` read; mlua's function runs in this frame, as it would
    // in its own closure, and finds its callback as upvalue 1.
    unsafe {
        match lua_warren_gate(l) {
            Some(call) => call(l),
            None => refused(l),
        }
    }
}

/// Calls [`refuse`] with the method's declaration and this call's arguments (refunding the
/// nested call, so a refused call costs the budget what it did before gates).
///
/// # Safety
/// `l` is running a gate.
unsafe fn refused(l: *mut lua_State) -> c_int {
    unsafe {
        // A C function is called with `LUA_MINSTACK` free slots: two are pushed.
        let args = ffi::lua_gettop(l);
        refund_call(l);
        ffi::lua_rawgetp(l, ffi::LUA_REGISTRYINDEX, refuse_key());
        ffi::lua_pushvalue(l, DECL);
        ffi::lua_rotate(l, 1, 2);
        ffi::lua_call(l, args + 1, ffi::LUA_MULTRET);
        ffi::lua_gettop(l)
    }
}

/// Raises the error for a method call a gate refused (see [`Call::refused`]).
fn refuse(lua: &Lua, (decl, args): (LightUserData, Variadic<Value>)) -> mlua::Result<()> {
    // SAFETY: only gates call this function (it is reachable from the registry alone), with
    // the `&'static Decl` they were made for.
    let decl: &'static Decl = unsafe { &*decl.0.cast_const().cast::<Decl>() };
    Err(Call::refused(lua, decl, &args))
}
