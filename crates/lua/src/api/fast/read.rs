//! What a fast method's argument readers read (`Read`), and whether they are the readers of
//! a declaration's arguments (`agree`), in `const fn`s: `fast_method!` checks every fast
//! method at compile time.

use crate::api::decl::{same_text, Class, Decl, Ty};

/// What a fast reader reads an argument as, and so which declared types it may stand for.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)] // reached by the crate's tests (tests/lua/), not API
pub enum Read {
    /// An integer as the bindings read one ([`Given::int`](super::args::Given::int)), in its
    /// declared range: `Ty::Int`.
    Int,
    /// A string, without converting numbers: `Ty::Str` and `Ty::Terrain` (also `Ty::Choice`,
    /// read as its bytes).
    Text,
    /// One of the declared choices, as its index: `Ty::Choice`.
    Choice,
    /// The run's map, which the closure has checked is its receiver: `Ty::Map`.
    Map,
    /// An rng that points at its cell: `Ty::Rng`.
    Rng,
    /// A rectangle list that points at its cell: `Ty::Rects`.
    Rects,
    /// A plain options table of `class` with only `keys` (absent or nil: none): a
    /// `Ty::Table` of that class, whose keys `keys` are.
    Options {
        /// The declared class.
        class: &'static Class,
        /// The keys the reader reads (any other key: the declared binding's).
        keys: &'static [&'static str],
    },
    /// A boolean, an integer, a finite float or a UTF-8 string: `Ty::Any`.
    Any,
}

impl Read {
    /// Whether this reader reads arguments of the declared type `ty` (what a binding with
    /// that declaration accepts it reads as the binding does, or declines). A `const fn`:
    /// [`fast_method!`](crate::api::fast::fast_method) checks every reader at compile time.
    pub(in crate::api) const fn reads(&self, ty: &Ty) -> bool {
        match (self, ty) {
            (Read::Int, Ty::Int { .. })
            | (Read::Text, Ty::Str | Ty::Terrain | Ty::Choice(_))
            | (Read::Choice, Ty::Choice(_))
            | (Read::Map, Ty::Map)
            | (Read::Rng, Ty::Rng)
            | (Read::Rects, Ty::Rects)
            | (Read::Any, Ty::Any) => true,
            (Read::Options { class, keys }, Ty::Table(declared)) => {
                same_text(class.name, declared.name) && declares_all(class, keys)
            }
            _ => false,
        }
    }
}

/// Whether `reads` are the readers of `decl`'s arguments: one per declared argument, each
/// reading its declared type ([`Read::reads`]).
#[doc(hidden)] // reached by the crate's tests (tests/lua/), not API
pub const fn agree(decl: &Decl, reads: &[Read]) -> bool {
    if reads.len() != decl.args.len() {
        return false;
    }
    let mut i = 0;
    while i < reads.len() {
        if !reads[i].reads(&decl.args[i].ty) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `class` (or a parent) declares every one of `keys`.
const fn declares_all(class: &Class, keys: &[&str]) -> bool {
    let mut i = 0;
    while i < keys.len() {
        if !declares(class, keys[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `class` (or a parent) declares `key`.
const fn declares(class: &Class, key: &str) -> bool {
    let mut class = Some(class);
    while let Some(c) = class {
        let mut i = 0;
        while i < c.fields.len() {
            if same_text(c.fields[i].key, key) {
                return true;
            }
            i += 1;
        }
        class = c.parent;
    }
    false
}
