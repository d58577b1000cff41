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
//! code (the per-cell calls read their arguments with the same Lua API calls as the hand-written
//! readers before them).

use super::closures::{bytes_at, cell_at, int_arg, string_at};
pub(in crate::api) use super::read::{agree, Read};
use crate::api::decl::{Arg, Decl, Kind, Ty};
use crate::api::shared::SharedCell;
use mlua::ffi::{self, lua_State};
use std::ffi::c_int;
use warren_core::map::{Rect, TagValue};
use warren_core::rng::Rng;

/// One argument as a fast body takes it.
pub(in crate::api) trait FastArg<'l>: Sized {
    /// What the reader reads.
    const READ: Read;

    /// The argument at stack index `i`, declared as `arg` (`top` the call's top: `i > top` when
    /// an optional argument is left out); `None` when the declared binding must read it.
    ///
    /// # Safety
    /// `l` is running a fast closure with `top` arguments; what is read lives while it stays
    /// on the stack (a fast call runs no Lua code).
    unsafe fn read(l: *mut lua_State, i: c_int, top: c_int, arg: &'static Arg) -> Option<Self>;
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

/// Implements [`FastArgs`] for a tuple of the given arity.
macro_rules! fast_args {
    ($($arg:ident $n:tt),*) => {
        impl<'l, $($arg: FastArg<'l>),*> FastArgs<'l> for ($($arg,)*) {
            const READS: &'static [Read] = &[$($arg::READ),*];

            #[inline(always)]
            #[allow(unused_variables)]
            unsafe fn read(l: *mut lua_State, decl: &'static Decl) -> Option<Self> {
                unsafe {
                    let top = ffi::lua_gettop(l);
                    let (min, max) = tops(decl);
                    if top < min || top > max {
                        return None;
                    }
                    let first = first_slot(decl);
                    Some(($($arg::read(l, first + $n, top, &decl.args[$n])?,)*))
                }
            }
        }
    };
}

fast_args!();
fast_args!(A 0);
fast_args!(A 0, B 1);
fast_args!(A 0, B 1, C 2);
fast_args!(A 0, B 1, C 2, D 3);

impl<'l> FastArg<'l> for i64 {
    const READ: Read = Read::Int;

    #[inline(always)]
    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, arg: &'static Arg) -> Option<i64> {
        arg.ty.int_within(unsafe { int_arg(l, i)? })
    }
}

/// An optional integer: `None` when left out (a nil given is the binding's to read).
impl<'l> FastArg<'l> for Option<i64> {
    const READ: Read = Read::Int;

    #[inline(always)]
    unsafe fn read(l: *mut lua_State, i: c_int, top: c_int, arg: &'static Arg) -> Option<Self> {
        if i > top {
            return Some(None);
        }
        unsafe { i64::read(l, i, top, arg).map(Some) }
    }
}

/// A string in UTF-8.
impl<'l> FastArg<'l> for &'l str {
    const READ: Read = Read::Text;

    #[inline(always)]
    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        unsafe { string_at(l, i) }
    }
}

/// A string's bytes, UTF-8 or not.
impl<'l> FastArg<'l> for &'l [u8] {
    const READ: Read = Read::Text;

    #[inline(always)]
    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        unsafe { bytes_at(l, i) }
    }
}

/// One of the declared choices (`Ty::Choice`): its index in the declared list.
#[derive(Clone, Copy)]
pub(in crate::api) struct Choice(pub usize);

impl<'l> FastArg<'l> for Choice {
    const READ: Read = Read::Choice;

    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, arg: &'static Arg) -> Option<Self> {
        let given = unsafe { bytes_at(l, i)? };
        match arg.ty {
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

    unsafe fn read(_: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        (i == 1).then_some(TheMap)
    }
}

/// An rng that points at its cell.
impl<'l> FastArg<'l> for &'l SharedCell<Rng> {
    const READ: Read = Read::Rng;

    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        unsafe { cell_at(l, i, crate::state::data_of(l)?.rng_metatable.get()) }
    }
}

/// A rectangle list that points at its cell.
impl<'l> FastArg<'l> for &'l SharedCell<Vec<Rect>> {
    const READ: Read = Read::Rects;

    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        unsafe { cell_at(l, i, crate::state::data_of(l)?.rects_metatable.get()) }
    }
}

/// A tag's value (`map:tag`): a boolean, an integer, a finite float or a UTF-8 string.
impl<'l> FastArg<'l> for TagValue {
    const READ: Read = Read::Any;

    unsafe fn read(l: *mut lua_State, i: c_int, _: c_int, _: &'static Arg) -> Option<Self> {
        unsafe {
            Some(match ffi::lua_type(l, i) {
                ffi::LUA_TBOOLEAN => TagValue::Bool(ffi::lua_toboolean(l, i) != 0),
                ffi::LUA_TNUMBER if ffi::lua_isinteger(l, i) != 0 => {
                    TagValue::Int(ffi::lua_tointeger(l, i))
                }
                ffi::LUA_TNUMBER => Some(ffi::lua_tonumber(l, i))
                    .filter(|n| n.is_finite())
                    .map(TagValue::Number)?,
                ffi::LUA_TSTRING => TagValue::Text(string_at(l, i)?.to_owned()),
                _ => return None,
            })
        }
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
        ) -> Option<$crate::api::fast::closures::Answer> {
            const DECL: &$crate::api::decl::Decl = &$decl;
            // SAFETY: the closure answering for `$decl` runs this body.
            unsafe {
                let args =
                    <($($arg,)*) as $crate::api::fast::args::FastArgs>::read(l, DECL)?;
                $body(l, cell, args)
            }
        }
        $crate::api::fast::closures::FastMethod {
            decl: &$decl,
            #[cfg(test)]
            reads: <($($arg,)*) as $crate::api::fast::args::FastArgs>::READS,
            body: read_then_answer,
        }
    }};
}
pub(in crate::api) use fast_method;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::decl::{arg, opt, Owner};
    use crate::api::{decls, gen, map, rects, rng};

    /// The fast methods that answer for no declaration of warren's API, but for Lua's own
    /// signature: `math.random` and the lists' `#`.
    const LUA_OWN: [(Owner, &str); 2] = [(Owner::Warren, "random"), (Owner::Rects, "__len")];

    #[test]
    fn every_fast_method_reads_the_arguments_its_binding_declares() {
        let fast = [
            map::fast_readers(),
            gen::fast_readers(),
            rng::fast_readers(),
            rects::fast_readers(),
        ]
        .concat();
        assert!(fast.len() >= 23, "{} fast methods", fast.len());
        let declared = decls();
        for (decl, reads) in fast {
            let name = decl.call_name();
            let binding = declared
                .iter()
                .find(|d| (d.owner, d.kind, d.name) == (decl.owner, decl.kind, decl.name));
            match binding {
                // The binding's own declaration (the same const, so the same arguments).
                Some(binding) => assert_eq!(format!("{binding:?}"), format!("{decl:?}")),
                None => assert!(
                    LUA_OWN.contains(&(decl.owner, decl.name)),
                    "{name} has a fast path but no declaration"
                ),
            }
            assert!(
                agree(decl, reads),
                "{name} reads {reads:?}: not its declared arguments"
            );
        }
    }

    #[test]
    fn a_reader_that_disagrees_with_its_declaration_is_told() {
        const D: Decl = Decl::method(Owner::Map, "set", "").args(&[
            arg("x", Ty::INT),
            arg("t", Ty::Terrain),
            opt("n", Ty::INT),
        ]);
        assert!(agree(&D, &[Read::Int, Read::Text, Read::Int]));
        // A reader short, or one of another type.
        assert!(!agree(&D, &[Read::Int, Read::Text]));
        assert!(!agree(&D, &[Read::Text, Read::Text, Read::Int]));
        assert!(!agree(&D, &[Read::Int, Read::Int, Read::Int]));
        assert!(!agree(&D, &[Read::Int, Read::Choice, Read::Int]));
        // Options of another class, or with a key the class does not declare (a parent's
        // key is the class's own).
        use crate::api::classes::{CARVE_OPTIONS, WRITE_OPTIONS};
        const O: Decl =
            Decl::method(Owner::Map, "carve", "").args(&[opt("o", Ty::Table(&CARVE_OPTIONS))]);
        let options = |class, keys| [Read::Options { class, keys }];
        assert!(agree(&O, &options(&CARVE_OPTIONS, &["kind", "force"])));
        assert!(!agree(&O, &options(&WRITE_OPTIONS, &["force"])));
        assert!(!agree(&O, &options(&CARVE_OPTIONS, &["kinds"])));
    }
}
