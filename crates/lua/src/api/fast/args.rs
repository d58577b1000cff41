//! The fast calls' argument readers, derived from the declarations: a fast method names the
//! [`Decl`] its binding answers for and the Rust type of each argument it takes
//! (`fast_method!`); the arity it accepts, where its arguments
//! sit on the stack and each integer's range come from the declaration, and each argument is
//! read by the reader of its type (`FastArg`), which tells what declared types it reads
//! (`Read`: a test checks every fast method's readers against its declaration). A reader
//! declines (`None`, for the declared binding to read, check and report) whatever it does not
//! read as the binding would.
//!
//! Nothing is looked up per call: the declaration is a `const`, and the reader of each method is
//! generated for its argument types, so the arity, the slots and the ranges are constants of the
//! code. The values are read in one call into the interpreter (`lua_warren_values`), and each
//! reader takes its argument from what that gave (`Given`).

use super::closures::cell_at;
pub(in crate::api) use super::read::{agree, Read};
use crate::api::call::float_as_int;
use crate::api::decl::{Arg, Decl, Kind, Ty};
use crate::api::shared::SharedCell;
use crate::ffi::{lua_warren_values, WarrenValue};
use mlua::ffi::{self, lua_State};
use std::ffi::c_int;
use std::marker::PhantomData;
use warren_core::map::{Rect, TagValue};
use warren_core::rng::Rng;

/// A value as the interpreter read it for a fast call (an argument, or an options table's
/// entry); its strings live while the value stays where it was read (a fast call runs no Lua
/// code, so its arguments and their tables do not change).
#[derive(Clone, Copy)]
pub(in crate::api) struct Given<'l> {
    value: WarrenValue,
    read_from: PhantomData<&'l ()>,
}

impl<'l> Given<'l> {
    /// The value `lua_warren_values` or `lua_warren_fields` read into `value`.
    ///
    /// Its fields are read one by one, so that no read straddles two of the interpreter's
    /// writes (it writes a value field by field): a copy of the whole value moved it in wider
    /// pieces that did, which the processor cannot forward from its store buffer, so each
    /// waited for the writes to reach the cache (`perf annotate` of `map:set`: a third of the
    /// reader's samples on one such load). Volatile reads, so that the compiler does not merge
    /// them back.
    ///
    /// # Safety
    /// A string's bytes live for `'l`.
    #[inline(always)]
    pub(in crate::api) unsafe fn new(value: &WarrenValue) -> Given<'l> {
        // SAFETY: each pointer is to a field of `value`, a valid, initialised value; the
        // payload is read whole, so a string's pointer stays a pointer.
        let value = unsafe {
            WarrenValue {
                type_: std::ptr::read_volatile(&value.type_),
                isinteger: std::ptr::read_volatile(&value.isinteger),
                u: std::ptr::read_volatile(&value.u),
                len: std::ptr::read_volatile(&value.len),
            }
        };
        Given {
            value,
            read_from: PhantomData,
        }
    }

    /// Its type, as `lua_type` answers (`LUA_TNONE`: no value).
    pub(in crate::api) fn kind(self) -> c_int {
        self.value.type_
    }

    /// A string's bytes, UTF-8 or not (no conversion of numbers).
    pub(in crate::api) fn bytes(self) -> Option<&'l [u8]> {
        (self.value.type_ == ffi::LUA_TSTRING).then(|| {
            // SAFETY: the interpreter gave a string's bytes and length, living for `'l`.
            unsafe { std::slice::from_raw_parts(self.value.u.s.cast::<u8>(), self.value.len) }
        })
    }

    /// A string in UTF-8.
    pub(in crate::api) fn text(self) -> Option<&'l str> {
        let bytes = self.bytes()?;
        if bytes.is_ascii() {
            // The names a recipe passes ("rooms", "leftmost") are ASCII, which a word-wise
            // test tells sooner than the UTF-8 decoder's byte-wise walk over a short string.
            // SAFETY: ASCII is UTF-8.
            return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        std::str::from_utf8(bytes).ok()
    }

    /// An integer, or a float without a fraction (as the bindings read integers).
    pub(in crate::api) fn int(self) -> Option<i64> {
        self.integer().or_else(|| float_as_int(self.float()?))
    }

    /// An integer (a float is not one, whatever its value).
    fn integer(self) -> Option<i64> {
        let integer = self.value.type_ == ffi::LUA_TNUMBER && self.value.isinteger == 1;
        // SAFETY: every field is initialised and any bits are an i64; an integer's is its value.
        integer.then_some(unsafe { self.value.u.i })
    }

    /// A float (an integer is not one).
    fn float(self) -> Option<f64> {
        let float = self.value.type_ == ffi::LUA_TNUMBER && self.value.isinteger == 0;
        // SAFETY: every field is initialised and any bits are an f64; a float's is its value.
        float.then_some(unsafe { self.value.u.n })
    }

    /// A finite float (an integer is not one).
    fn finite(self) -> Option<f64> {
        self.float().filter(|n| n.is_finite())
    }

    /// A boolean.
    pub(in crate::api) fn boolean(self) -> Option<bool> {
        // SAFETY: every field is initialised and any bits are an i64; a boolean's is 0 or 1.
        (self.value.type_ == ffi::LUA_TBOOLEAN).then_some(unsafe { self.value.u.i } != 0)
    }
}

/// An argument as its reader gets it: where it is and what it holds.
#[derive(Clone, Copy)]
pub(in crate::api) struct Slot<'l> {
    /// The running state.
    pub l: *mut lua_State,
    /// The argument's stack index.
    pub i: c_int,
    /// The call's top: `i > top` when an optional argument is left out.
    pub top: c_int,
    /// The argument's declaration.
    pub arg: &'static Arg,
    /// Its value.
    pub given: Given<'l>,
}

/// One argument as a fast body takes it.
pub(in crate::api) trait FastArg<'l>: Sized {
    /// What the reader reads.
    const READ: Read;

    /// The argument `at`; `None` when the declared binding must read it.
    ///
    /// # Safety
    /// `at.l` is running a fast closure with `at.top` arguments; what is read lives while it
    /// stays on the stack (a fast call runs no Lua code).
    unsafe fn read(at: Slot<'l>) -> Option<Self>;
}

/// Every argument of a call, as a tuple of [`FastArg`]s, one per declared argument.
pub(in crate::api) trait FastArgs<'l>: Sized {
    /// What each argument's reader reads, in order.
    const READS: &'static [Read];

    /// The call's arguments as `decl` declares them: `None` when the call passes fewer than
    /// the required arguments or more than all of them, or when a reader declines.
    ///
    /// # Safety
    /// `l` is running a fast closure for `decl`'s binding.
    unsafe fn read(l: *mut lua_State, decl: &'static Decl) -> Option<Self>;
}

/// The stack index of `decl`'s first argument: after a method's receiver.
pub(in crate::api) const fn first_slot(decl: &Decl) -> c_int {
    match decl.kind {
        Kind::Method => 2,
        Kind::Function | Kind::Field => 1,
    }
}

/// The stack tops a call of `decl` may have: from its required arguments to all of them.
#[inline(always)]
fn tops(decl: &'static Decl) -> (c_int, c_int) {
    let before = first_slot(decl) - 1;
    let max = match decl.max_args() {
        Some(n) => before + n as c_int,
        None => c_int::MAX,
    };
    (before + decl.min_args() as c_int, max)
}

/// Implements [`FastArgs`] for a tuple of `$count` arguments.
macro_rules! fast_args {
    ($count:literal; $($arg:ident $n:tt),*) => {
        impl<'l, $($arg: FastArg<'l>),*> FastArgs<'l> for ($($arg,)*) {
            const READS: &'static [Read] = &[$($arg::READ),*];

            #[inline(always)]
            #[allow(unused_variables)]
            unsafe fn read(l: *mut lua_State, decl: &'static Decl) -> Option<Self> {
                let first = first_slot(decl);
                let mut values = [WarrenValue::NONE; $count];
                // SAFETY: `l` is running a fast closure; `values` holds `$count` values; the
                // strings live while the arguments stay on the stack.
                unsafe {
                    let top = lua_warren_values(l, first, $count, values.as_mut_ptr());
                    let (min, max) = tops(decl);
                    if top < min || top > max {
                        return None;
                    }
                    Some(($($arg::read(Slot {
                        l,
                        i: first + $n,
                        top,
                        arg: &decl.args[$n],
                        given: Given::new(&values[$n]),
                    })?,)*))
                }
            }
        }
    };
}

fast_args!(0;);
fast_args!(1; A 0);
fast_args!(2; A 0, B 1);
fast_args!(3; A 0, B 1, C 2);
fast_args!(4; A 0, B 1, C 2, D 3);

impl<'l> FastArg<'l> for i64 {
    const READ: Read = Read::Int;

    #[inline(always)]
    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        at.arg.ty.int_within(at.given.int()?)
    }
}

/// An optional integer: `None` when left out (a nil given is the binding's to read).
impl<'l> FastArg<'l> for Option<i64> {
    const READ: Read = Read::Int;

    #[inline(always)]
    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        if at.i > at.top {
            return Some(None);
        }
        unsafe { i64::read(at).map(Some) }
    }
}

/// A string in UTF-8.
impl<'l> FastArg<'l> for &'l str {
    const READ: Read = Read::Text;

    #[inline(always)]
    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        at.given.text()
    }
}

/// A string's bytes, UTF-8 or not.
impl<'l> FastArg<'l> for &'l [u8] {
    const READ: Read = Read::Text;

    #[inline(always)]
    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        at.given.bytes()
    }
}

/// One of the declared choices (`Ty::Choice`): its index in the declared list.
#[derive(Clone, Copy)]
pub(in crate::api) struct Choice(pub usize);

impl<'l> FastArg<'l> for Choice {
    const READ: Read = Read::Choice;

    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        let given = at.given.bytes()?;
        match at.arg.ty {
            Ty::Choice(names) => names.iter().position(|n| n.as_bytes() == given).map(Choice),
            _ => None,
        }
    }
}

/// The run's map as an argument of a function (`warren.gen`'s phases): the fast closure has
/// checked that argument 1 is its map before the body runs, so there is nothing to read.
pub(in crate::api) struct TheMap;

impl<'l> FastArg<'l> for TheMap {
    const READ: Read = Read::Map;

    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        (at.i == 1).then_some(TheMap)
    }
}

/// An rng that points at its cell.
impl<'l> FastArg<'l> for &'l SharedCell<Rng> {
    const READ: Read = Read::Rng;

    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        unsafe { cell_at(at.l, at.i, crate::state::data_of(at.l)?.rng_metatable.get()) }
    }
}

/// A rectangle list that points at its cell.
impl<'l> FastArg<'l> for &'l SharedCell<Vec<Rect>> {
    const READ: Read = Read::Rects;

    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        unsafe {
            cell_at(
                at.l,
                at.i,
                crate::state::data_of(at.l)?.rects_metatable.get(),
            )
        }
    }
}

/// A tag's value as `map:tag` reads it: text stays the Lua string's until the map stores it
/// (in a string it kept, see [`Tags`](warren_core::map::Tags)).
pub(in crate::api) enum TagArg<'l> {
    /// A boolean, an integer or a finite float.
    Value(TagValue),
    /// A UTF-8 string.
    Text(&'l str),
}

/// A tag's value (`map:tag`): a boolean, an integer, a finite float or a UTF-8 string.
impl<'l> FastArg<'l> for TagArg<'l> {
    const READ: Read = Read::Any;

    unsafe fn read(at: Slot<'l>) -> Option<Self> {
        let given = at.given;
        Some(TagArg::Value(match given.kind() {
            ffi::LUA_TBOOLEAN => TagValue::Bool(given.boolean()?),
            ffi::LUA_TNUMBER => match given.integer() {
                Some(n) => TagValue::Int(n),
                None => TagValue::Number(given.finite()?),
            },
            ffi::LUA_TSTRING => return Some(TagArg::Text(given.text()?)),
            _ => return None,
        }))
    }
}

/// A [`FastMethod`](super::closures::FastMethod) on values of type `$t` answering for the declaration
/// `$decl` (the `const` its binding uses) with `$body`, which takes the call's arguments as
/// the tuple of `$arg`s, one per declared argument: the reader
/// ([`FastArgs::read`]) is generated for these types and that declaration, and a reader that
/// does not read its argument's declared type ([`agree`]) does not compile.
/// `$body(l, cell, args)` returns the answer, or `None` for the declared binding.
macro_rules! fast_method {
    ($decl:path => $body:ident($($arg:ty),* $(,)?) on $t:ty) => {{
        const _: () = assert!(
            $crate::api::fast::args::agree(
                &$decl,
                <($($arg,)*) as $crate::api::fast::args::FastArgs>::READS,
            ),
            "a fast method's argument types disagree with its declaration",
        );
        /// Reads the arguments as the declaration declares them, then answers.
        unsafe fn read_then_answer(
            l: *mut ::mlua::ffi::lua_State,
            cell: &$crate::api::shared::SharedCell<$t>,
        ) -> $crate::api::fast::closures::Reply {
            const DECL: &$crate::api::decl::Decl = &$decl;
            // SAFETY: the closure answering for `$decl` runs this body.
            let answer = || unsafe {
                let args =
                    <($($arg,)*) as $crate::api::fast::args::FastArgs>::read(l, DECL)?;
                $body(l, cell, args)
            };
            $crate::api::fast::closures::Reply::of(answer())
        }
        $crate::api::fast::closures::FastMethod {
            decl: &$decl,
            reads: <($($arg,)*) as $crate::api::fast::args::FastArgs>::READS,
            body: read_then_answer,
            closure: None,
        }
    }};
}
pub(in crate::api) use fast_method;
