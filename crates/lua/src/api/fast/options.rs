//! Options tables as the fast phases read them: a plain table of known keys with string or
//! integer values, read in one call into the patched Lua (`lua_warren_fields`), with the
//! declared option class's defaults and ranges; any other table is the declared binding's to
//! read.

use super::args::{FastArg, Given, Slot};
use super::read::Read;
use crate::api::decl::{Class, Default};
use crate::ffi::{lua_warren_fields, WarrenKey, WarrenValue};
use mlua::ffi;
use std::ffi::c_int;
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
pub(in crate::api) trait OptionEntries<'l>: std::default::Default {
    /// The declared class of the table.
    const CLASS: &'static Class;
    /// The keys read, at most [`MAX_KEYS`]; a table with any other key is the binding's to
    /// read.
    const KEYS: &'static [&'static str];

    /// Reads the value `given` for key `slot` (of [`Self::KEYS`]); `None` when the reader does
    /// not take it.
    fn entry(&mut self, slot: usize, given: Given<'l>) -> Option<()>;
}

/// An options argument: the entries read (none when the argument is absent or nil) and
/// whether a table was given (the bindings charge one for it).
pub(in crate::api) struct Options<O> {
    /// What the table gave.
    pub entries: O,
    /// Whether a table was given.
    pub table: bool,
}

impl<'l, O: OptionEntries<'l>> FastArg<'l> for Options<O> {
    const READ: Read = Read::Options {
        class: O::CLASS,
        keys: O::KEYS,
    };

    // Inlined: a per-cell method's options are read at every call; out of line, the options
    // come back through memory.
    #[inline(always)]
    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        let mut entries = O::default();
        // SAFETY: see the trait's contract.
        let table = unsafe { read_table(at, &mut entries)? };
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

impl<'l, K: PlainKeys> OptionEntries<'l> for PlainOptions<'l, K> {
    const CLASS: &'static Class = K::CLASS;
    const KEYS: &'static [&'static str] = K::KEYS;

    fn entry(&mut self, slot: usize, given: Given<'l>) -> Option<()> {
        self.given[slot] = Some(match given.text() {
            Some(s) => Plain::Text(s),
            None => Plain::Int(given.int()?),
        });
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

/// An options class's keys as `lua_warren_fields` takes them, built at compile time.
struct Keys([WarrenKey; MAX_KEYS]);

// SAFETY: the keys point at `'static` string constants, never written.
unsafe impl Sync for Keys {}

impl Keys {
    /// The keys `names`, at most [`MAX_KEYS`].
    const fn of(names: &[&'static str]) -> Keys {
        assert!(names.len() <= MAX_KEYS);
        let mut keys = [WarrenKey::new(""); MAX_KEYS];
        let mut k = 0;
        while k < names.len() {
            keys[k] = WarrenKey::new(names[k]);
            k += 1;
        }
        Keys(keys)
    }
}

/// Reads the options argument `at` into `entries`: each key the table has, as its slot in
/// `O::KEYS`, and its value. Some(false) when the argument is absent or nil, Some(true) when a
/// plain table (no metatable) of those keys only was read; `None` for anything else, and as
/// soon as `entries` declines a value (a frozen table, an unknown key, a value of another
/// type: the declared binding reads and reports those). The fast calls' options reader, but
/// for `map:set`'s commonest form, read by `lua_warren_xyname` and [`decode`]d alike.
///
/// # Safety
/// `at.l` is running a fast closure; the strings `entries` keeps live while the table stays on
/// the stack unchanged (a fast call runs no Lua code).
// Inlined: a per-cell method reads its options at every call.
#[inline(always)]
unsafe fn read_table<'l, O: OptionEntries<'l>>(at: Slot<'l>, entries: &mut O) -> Option<bool> {
    let mut values = [WarrenValue::NONE; MAX_KEYS];
    // SAFETY: `at.i` is a slot of the running call; the keys and `values` hold `n` entries.
    unsafe {
        match at.given.kind() {
            ffi::LUA_TNONE | ffi::LUA_TNIL => return Some(false),
            _ => {
                let (keys, n) = keys_of::<O>();
                if lua_warren_fields(at.l, at.i, keys, n, values.as_mut_ptr()) == 0 {
                    return None;
                }
            }
        }
        // `lua_warren_fields` answered 1.
        decode(&values, entries)?;
    }
    Some(true)
}

/// `O`'s keys as `lua_warren_fields` takes them, and how many. The interpreter keeps its reading
/// of a constant table for one array, and two calls of this need not give the same one (the
/// compiler may keep two copies of the constant: the test profile does), so a caller that asks
/// about one table twice, as `map:set`'s does, takes the array once and passes it on.
#[inline(always)]
pub(in crate::api) fn keys_of<'l, O: OptionEntries<'l>>() -> (*const WarrenKey, c_int) {
    let keys: &'static Keys = &const { Keys::of(O::KEYS) };
    (keys.0.as_ptr(), O::KEYS.len() as c_int)
}

/// Reads into `entries` what `lua_warren_fields` read with [`keys_of`]: the value of each key
/// the table has (its type and the fields the type uses; the others still `LUA_TNONE`), in
/// `values`. `None` as soon as `entries` declines a value.
///
/// # Safety
/// The table's strings live for `'l` (it stays on the stack, unchanged).
#[inline(always)]
pub(in crate::api) unsafe fn decode<'l, O: OptionEntries<'l>>(
    values: &[WarrenValue; MAX_KEYS],
    entries: &mut O,
) -> Option<()> {
    for (slot, value) in values.iter().take(O::KEYS.len()).enumerate() {
        // SAFETY: see the function's contract.
        let given = unsafe { Given::new(value) };
        if given.kind() != ffi::LUA_TNONE {
            entries.entry(slot, given)?;
        }
    }
    Some(())
}

/// The declared default of the string option `key` of `class` (what the binding reads when
/// the key is absent).
pub(in crate::api) fn default_text(class: &'static Class, key: &str) -> Option<&'static str> {
    match class.field(key)?.default {
        Default::Str(d) => Some(d),
        _ => None,
    }
}
