//! The C API of warren's patched Lua (`crates/lua-src/lua-5.4.8/lwarren.h`, explained feature by
//! feature in `crates/lua-src/WARREN.md`): every `lua_warren_*` function this crate calls,
//! declared once, and the constants the header defines that Rust needs. The rest of the Lua C
//! API is `mlua::ffi`'s. Public for embedders and tests that drive the patched state directly.

use mlua::ffi::{lua_CFunction, lua_Debug, lua_State};
use std::ffi::{c_char, c_int, c_uint, c_void};

/// What the budget charges for every function call, Lua or C (`LUA_WARREN_CALLCOST`): about
/// the instructions a call and its return execute besides the callee's body.
pub const CALL_COST: i64 = 5;

/// The budget counter of a state with no callback (`LUA_WARREN_UNLIMITED`): set for a while,
/// nothing charged meanwhile reaches the callback.
pub const UNLIMITED: i64 = 1 << 61;

/// The budget callback (`lua_WarrenBudgetF`): called at a safe point when the counter has run
/// down; refills it and returns null to go on, or returns an error message to raise.
pub type BudgetF = unsafe extern "C" fn(*mut lua_State, *mut c_void) -> *const c_char;

/// The collection gate (`lua_WarrenGCGateF`): called before a step of the collector with the
/// bytes it goes through and `done` 0, returning 0 to postpone it; called again with `done` 1
/// when a step it let through has ended.
pub type GcGateF = unsafe extern "C" fn(*mut lua_State, *mut c_void, usize, c_int) -> c_int;

/// A key [`lua_warren_fields`] looks for (`lua_WarrenKey`): its bytes and their length.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct WarrenKey {
    /// The key's bytes.
    pub s: *const c_char,
    /// How many.
    pub len: usize,
}

impl WarrenKey {
    /// The key `name`.
    pub const fn new(name: &'static str) -> WarrenKey {
        WarrenKey {
            s: name.as_ptr().cast(),
            len: name.len(),
        }
    }
}

/// A value as [`lua_warren_fields`] and [`lua_warren_values`] read it (`lua_WarrenValue`).
/// They set `type_` and the fields the type uses; the others keep what they held, so a
/// caller starts from [`WarrenValue::NONE`].
#[repr(C)]
#[derive(Clone, Copy)]
pub struct WarrenValue {
    /// `lua_type`'s answer; `LUA_TNONE` for a key the table has not got.
    pub type_: c_int,
    /// For a number: 1 when it is an integer (`u.i`), 0 for a float (`u.n`).
    pub isinteger: c_int,
    /// The value.
    pub u: WarrenPayload,
    /// A string's length.
    pub len: usize,
}

impl WarrenValue {
    /// No value (`LUA_TNONE`), every other field zero: what a reader starts from.
    pub const NONE: WarrenValue = WarrenValue {
        type_: mlua::ffi::LUA_TNONE,
        isinteger: 0,
        u: WarrenPayload { i: 0 },
        len: 0,
    };
}

/// A [`WarrenValue`]'s value: which field holds it follows from its type.
#[repr(C)]
#[derive(Clone, Copy)]
pub union WarrenPayload {
    /// An integer, or a boolean as 0 or 1.
    pub i: i64,
    /// A float.
    pub n: f64,
    /// A string's bytes (living while the value stays where it was read).
    pub s: *const c_char,
}

/// A call `u:m(x, y, name[, options])` as [`lua_warren_xyname`] reads it
/// (`lua_WarrenXYName`).
#[repr(C)]
pub struct WarrenXYName {
    /// The fast closure's cell (its upvalue 4).
    pub cell: *mut c_void,
    /// The first coordinate.
    pub x: i64,
    /// The second.
    pub y: i64,
    /// The name's bytes, living while the call's arguments do.
    pub name: *const c_char,
    /// How many.
    pub len: usize,
    /// 1 when an options table was given.
    pub options: c_int,
    /// For an options table whose reading [`lua_warren_fields`] keeps for the keys asked
    /// about (and that has not changed since), the reading's number: the same while the
    /// reading stays kept, and no other reading's. 0 otherwise. The table's values are read
    /// with `lua_warren_fields` either way.
    pub kept: u64,
    /// The strings the state has freed so far ([`lua_warren_stringsfreed`]).
    pub freed: u64,
    /// How many results the caller keeps (`LUA_MULTRET`: all of them, and while a hook is
    /// set, for a return hook sees how many a call returned): a call made as a statement keeps
    /// none.
    pub results: c_int,
    /// The budget counter ([`lua_warren_getcounter`]): a charge that leaves it above 0 may be
    /// made by subtracting in place (what [`lua_warren_charge`] does then); any other goes
    /// through `lua_warren_charge`.
    pub counter: *mut i64,
}

impl WarrenXYName {
    /// Nothing read yet.
    pub const EMPTY: WarrenXYName = WarrenXYName {
        cell: std::ptr::null_mut(),
        x: 0,
        y: 0,
        name: std::ptr::null(),
        len: 0,
        options: 0,
        kept: 0,
        freed: 0,
        results: 0,
        counter: std::ptr::null_mut(),
    };
}

extern "C" {
    // The instruction budget.
    /// Registers the budget callback and its data (none: `None`).
    pub fn lua_warren_setbudget(l: *mut lua_State, f: Option<BudgetF>, ud: *mut c_void);
    /// Registers the collection gate and its data (none: `None`).
    pub fn lua_warren_setgcgate(l: *mut lua_State, f: Option<GcGateF>, ud: *mut c_void);
    /// The budget counter.
    pub fn lua_warren_getcounter(l: *mut lua_State) -> i64;
    /// Sets the budget counter.
    pub fn lua_warren_setcounter(l: *mut lua_State, n: i64);
    /// Charges `n`, running the callback when the counter runs out; 1 when that raised (or
    /// fatal mode is on), 0 to go on. Never raises.
    pub fn lua_warren_charge(l: *mut lua_State, n: i64) -> c_int;
    /// Restarts the generational collector the host stopped while it built objects that stay
    /// alive, making every object old without marking any (garbage among them waits for the
    /// next major collection); 1 if it did, 0 if the collector was not between collections of
    /// generational mode (then it is only restarted).
    pub fn lua_warren_oldenall(l: *mut lua_State) -> c_int;

    // Fatal mode.
    /// Turns fatal mode on or off: on, no Lua mechanism can catch the error in flight.
    pub fn lua_warren_setfatal(l: *mut lua_State, fatal: c_int);
    /// Whether fatal mode is on.
    pub fn lua_warren_getfatal(l: *mut lua_State) -> c_int;
    /// Frees the thread's call records past the one in use (fatal mode's unwinding leaves
    /// them); how many.
    pub fn lua_warren_freeci(l: *mut lua_State) -> c_int;

    // Object ids.
    /// Where the ids of the objects made from now on start.
    pub fn lua_warren_setidbase(l: *mut lua_State, base: u64);
    /// The id the next object made gets.
    pub fn lua_warren_getidbase(l: *mut lua_State) -> u64;
    /// The id of the object at `idx` (0 for a value without one).
    pub fn lua_warren_id(l: *mut lua_State, idx: c_int) -> u64;
    /// Gives the full userdata at `idx` the next id, as if it were made now; 0 when the value
    /// is not a full userdata.
    pub fn lua_warren_renumber(l: *mut lua_State, idx: c_int) -> c_int;

    // Pristine tracking and the reset.
    /// Marks every live object pristine and the state clean.
    pub fn lua_warren_markpristine(l: *mut lua_State);
    /// Puts back every pristine object written since the last reset; returns how many.
    pub fn lua_warren_reset(l: *mut lua_State) -> u64;
    /// Bytes the copies of the objects to put back take now.
    pub fn lua_warren_savedbytes(l: *mut lua_State) -> u64;
    /// While on, writes are the host's own bookkeeping (nothing saved, nothing dirty); returns
    /// whether it was on.
    pub fn lua_warren_sethost(l: *mut lua_State, on: c_int) -> c_int;
    /// Sets the short-string key `key` of `table` (both as `lua_topointer` gives them, kept
    /// alive by the caller) to the integer `v`, as `lua_rawset` with the host flag on would,
    /// when the table has no metatable and a live node for the key (its value may be nil); 0,
    /// writing nothing, otherwise (and for a long key).
    pub fn lua_warren_hostsetint(
        l: *mut lua_State,
        table: *const c_void,
        key: *const c_void,
        v: i64,
    ) -> c_int;
    /// 0 while every write since the last mark can be put back; else what could not be.
    pub fn lua_warren_dirty(l: *mut lua_State) -> c_int;
    /// Marks the state clean again (the host has put back what made it dirty).
    pub fn lua_warren_cleardirty(l: *mut lua_State);
    /// Marks the state dirty: it must be loaded again.
    pub fn lua_warren_markdirty(l: *mut lua_State);
    /// Whether the object at `idx` is pristine.
    pub fn lua_warren_ispristine(l: *mut lua_State, idx: c_int) -> c_int;
    /// How many times a userdata was given the metatable it had since the last call.
    pub fn lua_warren_takeresetmetas(l: *mut lua_State) -> u64;
    /// The most nested C calls reached since the last call (a Rust callback is entered no
    /// deeper), and starts again from none.
    pub fn lua_warren_takedeepestccall(l: *mut lua_State) -> c_uint;
    /// Marks the state dirty if the object at `idx` is pristine (for C code that changes an
    /// object's memory, which is never saved).
    pub fn lua_warren_touch(l: *mut lua_State, idx: c_int);

    // Options tables and userdata cells.
    /// Reads the table at `idx` (an argument of the running C function) in one call when it
    /// is a plain table (no metatable) of the `nkeys` keys at `keys` and no other: `out[k]`
    /// gets key k's value ([`WarrenValue`]) when the table has the key (the others keep what
    /// they held: start from [`WarrenValue::NONE`]) and 1 is returned; 0 for any other value
    /// or table. Pushes nothing, runs no Lua code.
    pub fn lua_warren_fields(
        l: *mut lua_State,
        idx: c_int,
        keys: *const WarrenKey,
        nkeys: c_int,
        out: *mut WarrenValue,
    ) -> c_int;
    /// The count of strings the state has freed: while it stays the same, a string's address
    /// names that string and no other.
    pub fn lua_warren_stringsfreed(l: *mut lua_State) -> u64;
    /// Reads the running C function's arguments `first..first + n` (stack indices) into `out`
    /// as [`lua_warren_fields`] reads values (`LUA_TNONE` past the last argument); returns the
    /// number of arguments.
    pub fn lua_warren_values(
        l: *mut lua_State,
        first: c_int,
        n: c_int,
        out: *mut WarrenValue,
    ) -> c_int;
    /// Reads `t[first..first + n]` of the table `t` at `idx` (raw reads) into `out` as
    /// [`lua_warren_fields`] reads values (`LUA_TNIL` for an absent one); 1, or 0 (nothing
    /// read) when the value at `idx` is not a table. Pushes nothing, raises no error.
    pub fn lua_warren_items(
        l: *mut lua_State,
        idx: c_int,
        first: i64,
        n: c_int,
        out: *mut WarrenValue,
    ) -> c_int;
    /// For a fast closure whose upvalue 1 is the full userdata it answers for and whose
    /// upvalues 3 and 4 are light userdata: when argument 1 is that userdata, sets `*method`
    /// and `*cell` to upvalues 3 and 4 and returns 1; else 0.
    pub fn lua_warren_fastself(
        l: *mut lua_State,
        method: *mut *mut c_void,
        cell: *mut *mut c_void,
    ) -> c_int;
    /// For a fast closure (see [`lua_warren_fastself`]) called as `u:m(x, y, name)` or
    /// `u:m(x, y, name, options)` on its own userdata, with integers `x` and `y`, a string
    /// `name` and `options` nil or a table: fills `out` and returns 1 (for a table, see
    /// [`WarrenXYName::kept`]); 0 for any other call. One call where `lua_warren_fastself`,
    /// `lua_warren_values` and `lua_warren_fields` took three.
    pub fn lua_warren_xyname(
        l: *mut lua_State,
        keys: *const WarrenKey,
        nkeys: c_int,
        out: *mut WarrenXYName,
    ) -> c_int;
    /// The first user value (a light userdata) of the full userdata at `idx` when its
    /// metatable is `mt`; null otherwise. Pushes nothing.
    pub fn lua_warren_udcell(l: *mut lua_State, idx: c_int, mt: *const c_void) -> *mut c_void;
    /// For a gate closure whose call passes its checks, the C function it passes calls to.
    pub fn lua_warren_gate(l: *mut lua_State) -> Option<lua_CFunction>;

    // Stack walks one frame at a time.
    /// Fills `ar` with the outermost frame; 0 when the stack has none.
    pub fn lua_warren_outermost(l: *mut lua_State, ar: *mut lua_Debug) -> c_int;
    /// Moves `ar` one frame older (`older` ≠ 0) or newer; 0 past either end.
    pub fn lua_warren_stepstack(l: *mut lua_State, ar: *mut lua_Debug, older: c_int) -> c_int;
    /// Whether `a` and `b` stand for the same frame.
    pub fn lua_warren_samestack(a: *const lua_Debug, b: *const lua_Debug) -> c_int;

    // Read-only tables and userdata fields.
    /// Makes the table at `idx` read-only (or writable); whether it was read-only before, -1
    /// when it is not a table with a metatable.
    pub fn lua_warren_setreadonly(l: *mut lua_State, idx: c_int, readonly: c_int) -> c_int;
    /// Pops the table on top and makes it the field table of the full userdata at `idx`; 0
    /// when the userdata has no user value.
    pub fn lua_warren_setfields(l: *mut lua_State, idx: c_int) -> c_int;
}

extern "C-unwind" {
    /// A C function (to call protected: it raises a memory error) that makes the metatable of
    /// the boxes holding a buffer that outgrew the C stack (`_UBOX*`), as the first such buffer
    /// would.
    pub fn luaL_warren_boxmetatable(l: *mut lua_State) -> c_int;
}
