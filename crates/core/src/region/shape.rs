//! The shape of region files as data: for each section of [`schema`](super::schema), its keys
//! with their kind, range, default and doc text, as bindings and tools outside serde read them
//! (the Lua API's classes of `ctx.regions`, its stubs and `warren check`).
//!
//! A section is written once, with [`section!`]: the macro defines the serde struct exactly as
//! written (doc comments, derives, attributes) and, from the same listing, the struct's
//! [`SHAPE`](Section) constant: its doc comment, and per field its name, its doc comment and
//! the [`Spec`] written after the field's type (`pub turn_chance: i64 => int(TURN_CHANCE),`).
//! Nothing here restates a key; a test holds each spec to what serde and the JSON Schema say
//! about the field (required or not, default, range, choices).

use super::schema::IntKey;

/// A section of a region file (`[dungeon]`, `[[corridor]]`, `[door.weights]`, …): its doc
/// comment and its keys in declaration order.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// The struct's doc comment, one line of it per line, each as written after `///` (so
    /// most start with a space).
    pub doc: &'static str,
    /// Its keys, in declaration order.
    pub keys: &'static [Key],
}

impl Section {
    /// The key named `name`.
    pub fn key(&self, name: &str) -> Option<&'static Key> {
        self.keys.iter().find(|k| k.name == name)
    }
}

/// One key of a section.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key, as region files spell it.
    pub name: &'static str,
    /// What it holds, and whether it may be left out.
    pub spec: Spec,
    /// The field's doc comment (the modder's reference) on one line.
    pub doc: &'static str,
}

impl Key {
    /// A key named `name` with `spec`; `doc` is the field's doc comment, its lines joined as
    /// written after `///` (each starting with a space, which is dropped at the start).
    pub const fn new(name: &'static str, spec: Spec, doc: &'static str) -> Key {
        Key {
            name,
            spec,
            doc: doc.trim_ascii_start(),
        }
    }
}

/// What a key holds and whether it may be left out.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// What it holds.
    pub kind: KeyKind,
    /// Whether it may be left out, and what it is then.
    pub presence: Presence,
}

/// What a key holds.
#[derive(Clone, Copy, Debug)]
pub enum KeyKind {
    /// Text (a name, a grid of glyphs, …).
    Text,
    /// The name of a `[[terrain]]`.
    Terrain,
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest valid value.
        min: i64,
        /// Largest valid value.
        max: i64,
    },
    /// A weight: a finite number ≥ 0.
    Weight,
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
    /// A list of strings.
    Texts,
    /// A table from single glyphs to names (a legend).
    Legend,
    /// A nested table of the given section (`[door.weights]`).
    Table(&'static Section),
    /// A list of tables of the given section (`[[prefab.subst]]`, or the entries of a list
    /// section).
    List(&'static Section),
}

/// Whether a key may be left out, and what it is then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Presence {
    /// It must be given.
    Required,
    /// It may be left out; its absence means what its doc says.
    Optional,
    /// It may be left out and is then this value.
    Default(Value),
}

/// A key's default value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// Text.
    Text(&'static str),
}

/// A required key of `kind`.
pub const fn required(kind: KeyKind) -> Spec {
    Spec {
        kind,
        presence: Presence::Required,
    }
}

/// An optional key of `kind` with no default.
pub const fn optional(kind: KeyKind) -> Spec {
    Spec {
        kind,
        presence: Presence::Optional,
    }
}

/// An optional key of `kind` that is `value` when left out.
pub const fn or(kind: KeyKind, value: Value) -> Spec {
    Spec {
        kind,
        presence: Presence::Default(value),
    }
}

/// A required name or text.
pub const fn text() -> Spec {
    required(KeyKind::Text)
}

/// A required terrain name.
pub const fn terrain() -> Spec {
    required(KeyKind::Terrain)
}

/// A required weight.
pub const fn weight() -> Spec {
    required(KeyKind::Weight)
}

/// A boolean that is `default` when left out.
pub const fn flag(default: bool) -> Spec {
    or(KeyKind::Bool, Value::Bool(default))
}

/// The integer key `k`: its range, and its default (required when it has none).
pub const fn int(k: IntKey) -> Spec {
    let kind = KeyKind::Int {
        min: k.min,
        max: k.max,
    };
    match k.default {
        Some(d) => or(kind, Value::Int(d)),
        None => required(kind),
    }
}

/// The integer key `k`'s range, optional with no default (an override, or a key whose absence
/// means something).
pub const fn opt_int(k: IntKey) -> Spec {
    optional(KeyKind::Int {
        min: k.min,
        max: k.max,
    })
}

/// The doc comment of a field or a struct from its attributes (each as `[…]`): the `doc`
/// lines, in order, each followed by `$sep`.
#[doc(hidden)]
#[macro_export]
macro_rules! __region_doc {
    ($sep:literal; [$($line:literal)*];) => { concat!($($line, $sep),*) };
    ($sep:literal; [$($line:literal)*]; [doc = $d:literal] $($rest:tt)*) => {
        $crate::__region_doc!($sep; [$($line)* $d]; $($rest)*)
    };
    ($sep:literal; [$($line:literal)*]; [$($other:tt)*] $($rest:tt)*) => {
        $crate::__region_doc!($sep; [$($line)*]; $($rest)*)
    };
}

/// Defines a region-file section: the struct as written, and its [`Section`] as the
/// associated constant `SHAPE`. Each field is written `pub name: Type => spec,` where `spec` is
/// a [`Spec`] expression (the builders of this module are in scope).
#[doc(hidden)]
#[macro_export]
macro_rules! __region_section {
    (
        $(#[$($attr:tt)*])*
        pub struct $name:ident {
            $(
                $(#[$($fattr:tt)*])*
                pub $field:ident: $ty:ty => $spec:expr,
            )*
        }
    ) => {
        $(#[$($attr)*])*
        pub struct $name {
            $(
                $(#[$($fattr)*])*
                pub $field: $ty,
            )*
        }

        impl $name {
            /// The section's doc comment and keys, as data (see
            /// [`region::shape`](crate::region::shape)).
            pub const SHAPE: $crate::region::shape::Section = {
                #[allow(unused_imports)]
                use $crate::region::shape::*;
                Section {
                    doc: $crate::__region_doc!("\n"; []; $([$($attr)*])*),
                    keys: &[$(Key::new(
                        stringify!($field),
                        $spec,
                        $crate::__region_doc!(""; []; $([$($fattr)*])*),
                    )),*],
                }
            };
        }
    };
}

pub use crate::__region_section as section;
