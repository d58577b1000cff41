//! The fast calls' machinery: C closures that answer a declared binding's common case straight
//! from the Lua stack (see `fast/mod.rs` for where they sit), with what their bodies share:
//! reading arguments, telling a userdata's cell, charging the budget as the bindings charge it,
//! and pushing the answer.

use super::read::Read;
use crate::api::decl::Decl;
use crate::api::pool::Pooled;
use crate::api::shared::{Shared, SharedCell};
use crate::budget::refund_call;
use crate::ffi::{lua_warren_charge, lua_warren_setreadonly, lua_warren_udcell, CALL_COST};
use crate::state::{PASSES_ON, PASS_ON_UPVALUE};
use mlua::ffi::{self, lua_State};
use std::ffi::c_int;

/// One method with a fast path, on values of type `T`: made by
/// [`fast_method!`](crate::api::fast::fast_method), which derives its argument reader from
/// its declaration.
pub(in crate::api) struct FastMethod<T: 'static> {
    /// The declaration of the binding it answers for: its name (in the methods table, in the
    /// run map's field table) and its arguments.
    pub decl: &'static Decl,
    /// What its reader reads each declared argument as (checked against the declaration at
    /// compile time; kept for the test that checks every table).
    pub reads: &'static [Read],
    /// The common case: the arguments read as `decl` declares them, then the answer (a
    /// [`Reply`] of `None` for the declared binding to handle the call). Converts no argument,
    /// and never raises or runs Lua code.
    pub body: unsafe fn(*mut lua_State, &SharedCell<T>) -> Reply,
    /// The C function of its closure when it is not the one the installer gives every method:
    /// one that reads its commonest calls itself before it takes the way every method takes
    /// (`map:set`'s, `map/fast.rs`).
    pub closure: Option<ffi::lua_CFunction>,
}

/// Upvalues of a fast closure: what a receiver must be (the run's map itself, or the rngs'
/// metatable), the declared binding, the [`FastMethod`], the cell (the run map's; for rngs, a
/// function that tells an rng's cell) and the mark that it passes calls on
/// (`PASS_ON_UPVALUE`).
pub(in crate::api) const RECEIVER: c_int = ffi::lua_upvalueindex(1);
const DECLARED: c_int = ffi::lua_upvalueindex(2);
const METHOD: c_int = ffi::lua_upvalueindex(3);
pub(in crate::api) const CELL: c_int = ffi::lua_upvalueindex(4);

/// Where the fast closures' objects are numbered (see `lua_warren_setidbase`): apart from
/// what loading a recipe numbers (below) and what runs number (`RUN_ID_BASE`, above), so that
/// installing them moves no other object's id, hence no table order a recipe could see.
pub(in crate::api) const FAST_ID_BASE: u64 = 1 << 39;

/// Makes the userdata `ud` (a `Shared<T>`) point at its cell, as its first user value (a light
/// userdata), where the fast calls find it.
pub fn keep_cell<T: 'static>(lua: &mlua::Lua, ud: &mlua::AnyUserData) -> mlua::Result<()>
where
    Shared<T>: mlua::UserData,
{
    point_at(lua, ud, &*ud.borrow::<Shared<T>>()?)
}

/// Makes `ud` point at the cell of `value`, its payload (see [`keep_cell`]).
fn point_at<T: 'static>(
    lua: &mlua::Lua,
    ud: &mlua::AnyUserData,
    value: &Shared<T>,
) -> mlua::Result<()>
where
    Shared<T>: mlua::UserData,
{
    let cell = value.cell();
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: room for two slots is checked and both are popped; setting a user value
        // cannot raise (mlua makes every userdata with one user value).
        unsafe {
            if ffi::lua_checkstack(l, 2) == 0 {
                return Err(mlua::Error::StackError);
            }
            raw.push(ud)?;
            ffi::lua_pushlightuserdata(l, cell.cast_mut().cast());
            let set = ffi::lua_setiuservalue(l, -2, 1);
            ffi::lua_pop(l, 1);
            if set == 0 {
                return Err(mlua::Error::RuntimeError(
                    "a userdata without a user value".into(),
                ));
            }
        }
        Ok(())
    })
}

/// A new userdata holding `value` (a `Shared<T>`), pointing at its cell ([`keep_cell`]): how
/// the bindings make streams and rectangle lists (the fast calls make them alike, pushed:
/// `push_new_shared`). During a run it is one an earlier run made, when its pool has one free
/// ([`crate::api::pool`]).
pub fn new_pointing<T: Pooled>(lua: &mlua::Lua, value: T) -> mlua::Result<mlua::AnyUserData>
where
    Shared<T>: mlua::UserData,
{
    crate::api::pool::new_userdata(lua, value, |ud, shared| point_at(lua, ud, shared))
}

/// Makes a userdata holding `make()`'s value exactly as a declared binding returning it does
/// ([`new_pointing`]: taken from the pool, or made through mlua with the same protected call,
/// allocation and budget charges; the same object numbering either way) and pushes it:
/// [`Answer::Pushed`]. `None`, with nothing pushed, when `make` declines, or when `l` is not
/// the thread mlua works on (a coroutine), which is checked before `make` runs. A failure to
/// make it after `make` ran can only be the memory budget running out, which trips the budget:
/// the declared call that follows raises its error.
///
/// # Safety
/// `l` is running a fast closure of a state mlua made.
pub(in crate::api) unsafe fn push_new_shared<T: Pooled>(
    l: *mut lua_State,
    make: impl FnOnce() -> Option<T>,
) -> Option<Answer>
where
    Shared<T>: mlua::UserData,
{
    unsafe {
        let lua = crate::state::lua_of(l);
        if lua.exec_raw_lua(|raw| raw.state()) != l || ffi::lua_checkstack(l, 2) == 0 {
            return None;
        }
        let value = make()?;
        crate::api::pool::push_userdata(lua, value, |ud, shared| point_at(lua, ud, shared)).ok()?;
        Some(Answer::Pushed)
    }
}

/// The metatable of the userdata `ud` (`lua_topointer`; null when it has none): what a fast
/// call compares an argument's metatable with to tell its type.
pub fn metatable_of(lua: &mlua::Lua, ud: &mlua::AnyUserData) -> *const std::ffi::c_void {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: room for two slots is checked; everything pushed is popped.
        unsafe {
            if ffi::lua_checkstack(l, 2) == 0 || raw.push(ud).is_err() {
                return std::ptr::null();
            }
            let found = if ffi::lua_getmetatable(l, -1) != 0 {
                let p = ffi::lua_topointer(l, -1);
                ffi::lua_pop(l, 1);
                p
            } else {
                std::ptr::null()
            };
            ffi::lua_pop(l, 1);
            found
        }
    })
}

/// `make` with the objects it creates numbered from `first_id` (see [`FAST_ID_BASE`]).
pub(in crate::api) fn numbered_from<R>(
    lua: &mlua::Lua,
    first_id: u64,
    make: impl FnOnce() -> R,
) -> R {
    let l = lua.exec_raw_lua(|raw| raw.state());
    // SAFETY: `l` is the live state's current thread.
    unsafe { crate::state::numbered_from(l, first_id, make) }.0
}

/// Installs fast closures for `methods`: `locate` runs protected with `args` pushed (slots 1
/// on), pushes what it needs and returns the stack indices [`set_closures`] takes, or `None`
/// when the tables are not there; `problem` is the error then.
pub(in crate::api) fn install_closures<T: 'static>(
    lua: &mlua::Lua,
    args: impl mlua::IntoLuaMulti,
    methods: &'static [FastMethod<T>],
    locate: impl FnOnce(*mut lua_State) -> Option<(c_int, c_int, c_int, c_int)>,
    (trampoline, first_id): (ffi::lua_CFunction, u64),
    problem: &str,
) -> mlua::Result<()> {
    // SAFETY: `set_closures` runs protected, as it needs; `locate` vouches for the indices.
    unsafe {
        install_protected(
            lua,
            args,
            |l| locate(l).is_some_and(|at| set_closures(l, methods, at, trampoline, first_id)),
            problem,
        )
    }
}

/// Runs `install` protected (inside `exec_raw`) with `args` pushed in slots 1 on; the error
/// `problem` when it answers false (a table it needs is not there).
///
/// # Safety
/// `install` is sound when run protected with `args` in slots 1 on; it may leave the stack as
/// it likes.
pub(in crate::api) unsafe fn install_protected(
    lua: &mlua::Lua,
    args: impl mlua::IntoLuaMulti,
    install: impl FnOnce(*mut lua_State) -> bool,
    problem: &str,
) -> mlua::Result<()> {
    // SAFETY: `exec_raw` runs the closure protected; see the function's contract.
    let done = unsafe {
        lua.exec_raw::<bool>(args, |l| {
            let done = install(l);
            ffi::lua_settop(l, 0);
            ffi::lua_pushboolean(l, c_int::from(done));
        })
    }?;
    if done {
        Ok(())
    } else {
        Err(mlua::Error::RuntimeError(problem.into()))
    }
}

/// Makes a fast closure for each of `methods` and sets it in the table at stack index `target`
/// (read-only or not: `warren.gen` is) under the method's name; the declared binding is the
/// function of that name in the table at `declared`. The receiver and cell upvalues are the
/// values at `receiver` and `cell` (see [`push_closure`]). False when a declared binding is
/// missing. The closures are numbered from `first_id`.
///
/// # Safety
/// `l` runs protected (inside `exec_raw`); the indices are absolute and hold tables (the
/// receiver anything).
unsafe fn set_closures<T: 'static>(
    l: *mut lua_State,
    methods: &'static [FastMethod<T>],
    (target, declared, receiver, cell): (c_int, c_int, c_int, c_int),
    trampoline: ffi::lua_CFunction,
    first_id: u64,
) -> bool {
    unsafe {
        let sealed = lua_warren_setreadonly(l, target, 0) == 1;
        let set_each = || {
            for (id, method) in (first_id..).zip(methods) {
                if ffi::lua_checkstack(l, 6) == 0 {
                    return false;
                }
                let name = method.decl.name;
                ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
                ffi::lua_pushvalue(l, receiver);
                ffi::lua_pushvalue(l, -2);
                if ffi::lua_rawget(l, declared) != ffi::LUA_TFUNCTION {
                    ffi::lua_pop(l, 3);
                    return false;
                }
                push_closure(l, method, cell, method.closure.unwrap_or(trampoline), id);
                ffi::lua_rawset(l, target);
            }
            true
        };
        let done = set_each();
        if sealed {
            lua_warren_setreadonly(l, target, 1);
        }
        done
    }
}

/// Replaces the receiver and the declared binding on top of the stack with a fast closure for
/// `method` over them and the cell upvalue (the value at stack index `cell`, or nil for 0),
/// numbered `id`.
///
/// # Safety
/// `l` runs protected, with room for three more slots.
pub(in crate::api) unsafe fn push_closure<T: 'static>(
    l: *mut lua_State,
    method: &'static FastMethod<T>,
    cell: c_int,
    trampoline: ffi::lua_CFunction,
    id: u64,
) {
    unsafe {
        ffi::lua_pushlightuserdata(l, std::ptr::from_ref(method).cast_mut().cast());
        if cell == 0 {
            ffi::lua_pushnil(l);
        } else {
            ffi::lua_pushvalue(l, cell);
        }
        ffi::lua_pushlightuserdata(l, std::ptr::from_ref(&PASSES_ON).cast_mut().cast());
        crate::state::numbered_from(l, id, || {
            ffi::lua_pushcclosure(l, trampoline, PASS_ON_UPVALUE)
        });
    }
}

/// The fast path of the method in this closure on `cell`: the answer pushed and counted, or
/// `None` (nothing pushed) when the declared binding must answer.
///
/// # Safety
/// `l` is running a fast closure for values of type `T`.
pub(in crate::api) unsafe fn answer<T: 'static>(
    l: *mut lua_State,
    cell: &SharedCell<T>,
) -> Option<c_int> {
    unsafe {
        answer_with(
            l,
            &*ffi::lua_touserdata(l, METHOD).cast::<FastMethod<T>>(),
            cell,
        )
    }
}

/// [`answer`] with the closure's method, read already.
///
/// # Safety
/// As [`answer`]; `method` is the closure's.
pub(in crate::api) unsafe fn answer_with<T: 'static>(
    l: *mut lua_State,
    method: &FastMethod<T>,
    cell: &SharedCell<T>,
) -> Option<c_int> {
    unsafe {
        let body = std::panic::AssertUnwindSafe(|| (method.body)(l, cell));
        // A panic is a bug in a body; the declared binding still answers the call.
        let answer = std::panic::catch_unwind(body).ok()?.answer()?;
        answer.charge(l).then(|| answer.push(l))
    }
}

/// Calls the declared binding with this call's arguments and returns what it returns. The
/// budget charged this call once on entering it; the nested call is refunded, so a call costs
/// the same either way.
///
/// # Safety
/// `l` is running a fast closure.
pub(in crate::api) unsafe fn declared(l: *mut lua_State) -> c_int {
    unsafe {
        let args = ffi::lua_gettop(l);
        refund_call(l);
        ffi::lua_pushvalue(l, DECLARED);
        ffi::lua_insert(l, 1);
        ffi::lua_call(l, args, ffi::LUA_MULTRET);
        ffi::lua_gettop(l)
    }
}

/// What a fast path answers, pushed once the body has returned (pushing can raise a memory
/// error, which must not cross Rust frames).
pub(in crate::api) enum Answer {
    Bool(bool),
    Int(i64),
    Num(f64),
    /// A name the map keeps (a terrain's or a region's); nothing runs between reading it and
    /// pushing it, and pushing copies it before anything can.
    Name(*const str),
    Nil,
    /// No value (a method that returns nothing).
    Nothing,
    /// Four integers (`x, y, x, y`).
    Four([i64; 4]),
    /// One value the body pushed itself (a userdata made through mlua).
    Pushed,
}

/// An [`Answer`] (or `None`) as a body hands it back: `catch_unwind` takes it through memory,
/// and an `Option<Answer>` written there a byte at a time (a tag, a boolean) and read back a
/// word at a time cannot be forwarded from the processor's store buffer, so every fast call
/// waited for its own answer to reach the cache (`perf annotate` of `map:set`: two thirds of
/// `map_call`'s samples on that read). Whole words only, written and read as words.
#[derive(Clone, Copy)]
pub(in crate::api) struct Reply {
    /// Which answer: one of the `Reply` kind constants.
    kind: u64,
    /// Its values, as the variant's bits.
    words: [u64; 4],
}

impl Reply {
    /// No answer: the declared binding handles the call.
    const DECLINE: u64 = 0;
    /// [`Answer::Bool`]: 0 or 1 in the first word.
    const BOOL: u64 = 1;
    /// [`Answer::Int`]: its bits in the first word.
    const INT: u64 = 2;
    /// [`Answer::Num`]: its bits in the first word.
    const NUM: u64 = 3;
    /// [`Answer::Name`]: its address and length in the first two words.
    const NAME: u64 = 4;
    /// [`Answer::Nil`].
    const NIL: u64 = 5;
    /// [`Answer::Nothing`].
    const NOTHING: u64 = 6;
    /// [`Answer::Four`]: its four values' bits.
    const FOUR: u64 = 7;
    /// [`Answer::Pushed`].
    const PUSHED: u64 = 8;

    /// The reply carrying `answer`.
    #[inline(always)]
    pub(in crate::api) fn of(answer: Option<Answer>) -> Reply {
        let (kind, words) = match answer {
            None => (Reply::DECLINE, [0; 4]),
            Some(Answer::Bool(b)) => (Reply::BOOL, [u64::from(b), 0, 0, 0]),
            Some(Answer::Int(n)) => (Reply::INT, [n as u64, 0, 0, 0]),
            Some(Answer::Num(n)) => (Reply::NUM, [n.to_bits(), 0, 0, 0]),
            Some(Answer::Name(name)) => {
                let bytes = name as *const [u8];
                (
                    Reply::NAME,
                    [bytes.cast::<u8>() as u64, bytes.len() as u64, 0, 0],
                )
            }
            Some(Answer::Nil) => (Reply::NIL, [0; 4]),
            Some(Answer::Nothing) => (Reply::NOTHING, [0; 4]),
            Some(Answer::Four(values)) => (Reply::FOUR, values.map(|v| v as u64)),
            Some(Answer::Pushed) => (Reply::PUSHED, [0; 4]),
        };
        Reply { kind, words }
    }

    /// The answer it carries; `None` for a decline.
    #[inline(always)]
    fn answer(self) -> Option<Answer> {
        let [a, b, ..] = self.words;
        Some(match self.kind {
            Reply::BOOL => Answer::Bool(a != 0),
            Reply::INT => Answer::Int(a as i64),
            Reply::NUM => Answer::Num(f64::from_bits(a)),
            Reply::NAME => Answer::Name(
                std::ptr::slice_from_raw_parts(a as *const u8, b as usize) as *const str
            ),
            Reply::NIL => Answer::Nil,
            Reply::NOTHING => Answer::Nothing,
            Reply::FOUR => Answer::Four(self.words.map(|v| v as i64)),
            Reply::PUSHED => Answer::Pushed,
            _ => return None,
        })
    }
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

    /// Pushes the answer: one value, none for [`Answer::Nothing`], four for [`Answer::Four`].
    ///
    /// # Safety
    /// `l` is running a fast closure; a `Name` is still live.
    unsafe fn push(self, l: *mut lua_State) -> c_int {
        unsafe {
            match self {
                Answer::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
                Answer::Int(n) => ffi::lua_pushinteger(l, n),
                Answer::Num(n) => ffi::lua_pushnumber(l, n),
                Answer::Name(name) => {
                    let name = &*name;
                    ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
                }
                Answer::Nil => ffi::lua_pushnil(l),
                Answer::Nothing => return 0,
                Answer::Pushed => {}
                Answer::Four(values) => {
                    // A C function is called with LUA_MINSTACK (20) free slots, and a body
                    // leaves the stack as it found it.
                    for v in values {
                        ffi::lua_pushinteger(l, v);
                    }
                    return 4;
                }
            }
        }
        1
    }
}

/// A charge of `cost`, as the bindings charge: false when it ran a budget out. Charged to the
/// Lua counter, as a script's own instructions and the bindings' charges are: the budget's
/// checks (and the location of a trip, the calling script line) come when the counter runs
/// out, which it does exactly at the instruction limit, so a run stops where the binding's
/// charge stops it; a per-cell call pays one call into the interpreter instead of every check.
///
/// # Safety
/// `l` is running a fast closure.
pub(in crate::api) unsafe fn charged(l: *mut lua_State, cost: u64) -> bool {
    let cost = i64::try_from(cost).unwrap_or(i64::MAX);
    // SAFETY: see the function's contract; the charge never raises.
    unsafe { lua_warren_charge(l, cost) == 0 }
}

/// `charge_bytes` as the bindings make it, located at the calling script line.
///
/// # Safety
/// `l` is running a fast closure.
pub(in crate::api) unsafe fn bytes_charged(
    l: *mut lua_State,
    budget: &crate::budget::Budget,
    bytes: usize,
) -> bool {
    budget
        .charge_bytes_for(bytes, "", || unsafe {
            crate::budget::raw_script_location(l)
        })
        .is_ok()
}

/// The cell of the userdata at stack index `i` when its metatable is the one at `metatable`
/// (`lua_topointer` of a type's metatable) and it points at its cell.
///
/// # Safety
/// `l` is running a fast closure; `metatable` is the metatable of userdata holding a
/// `Shared<T>`, whose first user value, when a light userdata, is that value's cell.
pub unsafe fn cell_at<'l, T>(
    l: *mut lua_State,
    i: c_int,
    metatable: *const std::ffi::c_void,
) -> Option<&'l SharedCell<T>> {
    if metatable.is_null() {
        return None;
    }
    // SAFETY: `i` is a valid index of the running call; a cell the userdata points at lives as
    // long as the userdata, an argument of the running call.
    unsafe {
        lua_warren_udcell(l, i, metatable)
            .cast_const()
            .cast::<SharedCell<T>>()
            .as_ref()
    }
}
