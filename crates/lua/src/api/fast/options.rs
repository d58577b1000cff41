//! Options tables as the fast phases read them: a plain table of known keys with string or
//! integer values, read straight from the Lua stack, with the declared option class's defaults
//! and ranges; any other table is the declared binding's to read.

use super::args::FastArg;
use super::closures::{bytes_at, int_arg, string_at};
use super::read::Read;
use crate::api::decl::Arg;
use crate::api::decl::{Class, Default};
use crate::ffi::lua_warren_next;
use mlua::ffi::{self, lua_State};
use std::ffi::{c_int, c_uint};
use std::marker::PhantomData;

/// An option's value as a fast phase takes it.
#[derive(Clone, Copy)]
enum Plain<'l> {
    /// A UTF-8 string.
    Text(&'l str),
    /// An integer, or a float without a fraction (as the bindings read integers).
    Int(i64),
}

/// The entries of an options table a fast body reads, one at a time ([`Options`]).
pub(in crate::api) trait OptionEntries: std::default::Default {
    /// The declared class of the table.
    const CLASS: &'static Class;
    /// The keys read; a table with any other key is the binding's to read.
    const KEYS: &'static [&'static str];

    /// Reads the key at stack index -2 and its value at -1; `None` when they are not one of
    /// [`Self::KEYS`] with a value the reader takes.
    ///
    /// # Safety
    /// As [`walk`]'s `read`.
    unsafe fn entry(&mut self, l: *mut lua_State) -> Option<()>;
}

/// An options argument: the entries read (none when the argument is absent or nil) and
/// whether a table was given (the bindings charge one for it).
pub(in crate::api) struct Options<O> {
    /// What the table gave.
    pub entries: O,
    /// Whether a table was given.
    pub table: bool,
}

impl<'l, O: OptionEntries> FastArg<'l> for Options<O> {
    const READ: Read = Read::Options {
        class: O::CLASS,
        keys: O::KEYS,
    };

    // Inlined: `map:set`'s options are read per cell; out of line, the options come back
    // through memory.
    #[inline(always)]
    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        let mut entries = O::default();
        // SAFETY: see the trait's contract.
        let table = unsafe { walk(l, i, |l| entries.entry(l))? };
        Some(Options { entries, table })
    }
}

/// The keys of an options class a fast phase reads ([`PlainOptions`]).
pub(in crate::api) trait PlainKeys {
    /// The declared class.
    const CLASS: &'static Class;
    /// The keys read, at most [`MAX_KEYS`]; a table with any other is the binding's to read.
    const KEYS: &'static [&'static str];
}

/// The most keys [`PlainOptions`] reads.
pub(in crate::api) const MAX_KEYS: usize = 4;

/// Options a fast phase reads: the value of each of `K`'s keys (`None` when absent), read as
/// options of its class (its defaults and ranges). Every key of the table must be one of them,
/// with a string or integer value.
pub(in crate::api) struct PlainOptions<'l, K> {
    given: [Option<Plain<'l>>; MAX_KEYS],
    keys: PhantomData<K>,
}

impl<K> std::default::Default for PlainOptions<'_, K> {
    fn default() -> Self {
        PlainOptions {
            given: [None; MAX_KEYS],
            keys: PhantomData,
        }
    }
}

impl<K: PlainKeys> OptionEntries for PlainOptions<'_, K> {
    const CLASS: &'static Class = K::CLASS;
    const KEYS: &'static [&'static str] = K::KEYS;

    unsafe fn entry(&mut self, l: *mut lua_State) -> Option<()> {
        const { assert!(K::KEYS.len() <= MAX_KEYS) };
        // SAFETY: see the trait's contract; the strings live while the table stays on the
        // stack unchanged (a fast phase runs no Lua code).
        unsafe {
            let key = bytes_at(l, -2)?;
            let slot = K::KEYS.iter().position(|known| known.as_bytes() == key)?;
            self.given[slot] = Some(match string_at(l, -1) {
                Some(s) => Plain::Text(s),
                None => Plain::Int(int_arg(l, -1)?),
            });
        }
        Some(())
    }
}

impl<'l, K: PlainKeys> PlainOptions<'l, K> {
    /// String option `slot` (of `K::KEYS`), or its declared default; `None` for anything else.
    pub(in crate::api) fn text(&self, slot: usize) -> Option<&'l str> {
        match self.given[slot] {
            Some(Plain::Text(s)) => Some(s),
            Some(Plain::Int(_)) => None,
            None => default_text(K::CLASS, K::KEYS[slot]),
        }
    }

    /// Integer option `slot` within its declared range, or its declared default; `None` for
    /// anything else.
    pub(in crate::api) fn int(&self, slot: usize) -> Option<i64> {
        let field = K::CLASS.field(K::KEYS[slot])?;
        let n = match (self.given[slot], field.default) {
            (Some(Plain::Int(n)), _) => n,
            (None, Default::Int(d)) => d,
            _ => return None,
        };
        field.ty.int_within(n)
    }
}

/// Reads the options table at stack index `i` entry by entry: `read` gets each key at stack
/// index -2 and its value at -1 (it pushes nothing, or pops what it pushes). Some(false) when
/// the argument is absent or nil, Some(true) when a table without a metatable was read to the
/// end; `None` for anything else, and as soon as `read` declines an entry (a frozen table, an
/// unknown key, a value of another type: the declared binding reads and reports those). The
/// one options reader of the fast calls.
///
/// # Safety
/// `l` is running a fast closure; the strings `read` keeps live while the table stays on the
/// stack unchanged (a fast call runs no Lua code).
// Inlined: `map:set` reads its options per cell; left out of line (as LLVM left it once the
// readers were generated) it cost about 25 instructions a call under callgrind.
#[inline(always)]
pub(in crate::api) unsafe fn walk(
    l: *mut lua_State,
    i: c_int,
    mut read: impl FnMut(*mut lua_State) -> Option<()>,
) -> Option<bool> {
    unsafe {
        match ffi::lua_type(l, i) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => return Some(false),
            ffi::LUA_TTABLE => {}
            _ => return None,
        }
        if ffi::lua_getmetatable(l, i) != 0 {
            ffi::lua_pop(l, 1);
            return None;
        }
        // A walk by position (the table does not change: no Lua code runs meanwhile); a C
        // function has LUA_MINSTACK (20) free slots, two are used at a time.
        let mut cursor: c_uint = 0;
        while lua_warren_next(l, i, &mut cursor) != 0 {
            let read = read(l);
            ffi::lua_pop(l, 2);
            read?;
        }
    }
    Some(true)
}

/// The declared default of the string option `key` of `class` (what the binding reads when
/// the key is absent).
pub(in crate::api) fn default_text(class: &'static Class, key: &str) -> Option<&'static str> {
    match class.field(key)?.default {
        Default::Str(d) => Some(d),
        _ => None,
    }
}
