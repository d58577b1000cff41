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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::region::schema::*;
    use schemars::JsonSchema;
    use serde_json::Value as J;

    /// Checks `S::SHAPE` against the JSON Schema schemars makes of `S` from its serde and
    /// schemars attributes: the same keys, and per key the same requiredness, default, range
    /// and choices.
    fn check<S: JsonSchema>(shape: &Section) {
        let schema = schemars::generate::SchemaSettings::draft07()
            .into_generator()
            .into_root_schema_for::<S>()
            .to_value();
        let name = S::schema_name();
        let props = schema["properties"].as_object().expect("properties");
        let names: Vec<&str> = shape.keys.iter().map(|k| k.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        let listed: Vec<&str> = props.keys().map(String::as_str).collect();
        assert_eq!(sorted, listed, "{name}");
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(J::as_str).collect())
            .unwrap_or_default();
        for k in shape.keys {
            let p = &props[k.name];
            let at = format!("{name}.{}", k.name);
            assert_eq!(
                k.spec.presence == Presence::Required,
                required.contains(&k.name),
                "{at}: required"
            );
            // The default serde fills in, where the schema states one.
            let stated = p.get("default").filter(|d| !d.is_null() && !d.is_object());
            let stated = stated.filter(|d| !d.as_array().is_some_and(|a| a.is_empty()));
            match (k.spec.presence, stated) {
                (Presence::Default(v), Some(d)) => {
                    let want = match v {
                        Value::Int(i) => J::from(i),
                        Value::Num(n) => J::from(n),
                        Value::Bool(b) => J::from(b),
                        Value::Text(s) => J::from(s),
                    };
                    assert!(
                        d == &want || d.as_f64() == want.as_f64() && want.is_number(),
                        "{at}: default {d} in the schema, {want} in the shape"
                    );
                }
                (Presence::Default(_), None) => {
                    // Only `#[serde(default)]` on a field, which schemars does not state: the
                    // type's own default, checked here.
                    assert!(
                        matches!(
                            k.spec.presence,
                            Presence::Default(Value::Bool(false) | Value::Text(""))
                        ),
                        "{at}: a default the schema does not state"
                    );
                }
                (_, Some(d)) => panic!("{at}: the schema states default {d}"),
                _ => {}
            }
            let n = |key: &str| p.get(key).and_then(J::as_f64);
            match k.spec.kind {
                KeyKind::Int { min, max } => {
                    assert_eq!(n("minimum"), Some(min as f64), "{at}: minimum");
                    let max = (max != i64::MAX).then_some(max as f64);
                    assert_eq!(n("maximum"), max, "{at}: maximum");
                }
                KeyKind::Weight => assert_eq!(n("minimum"), Some(0.0), "{at}: minimum"),
                KeyKind::Choice(names) => {
                    if let Some(e) = p.get("enum") {
                        assert_eq!(e, &J::from(names.to_vec()), "{at}: choices");
                    }
                }
                _ => assert_eq!((n("minimum"), n("maximum")), (None, None), "{at}: range"),
            }
        }
    }

    #[test]
    fn each_sections_shape_is_what_serde_and_the_schema_say() {
        check::<TerrainDef>(&TerrainDef::SHAPE);
        check::<DoorDef>(&DoorDef::SHAPE);
        check::<DoorWeightsDef>(&DoorWeightsDef::SHAPE);
        check::<DungeonDef>(&DungeonDef::SHAPE);
        check::<CorridorConstants>(&CorridorConstants::SHAPE);
        check::<CorridorDef>(&CorridorDef::SHAPE);
        check::<RoomDef>(&RoomDef::SHAPE);
        check::<StreamerDef>(&StreamerDef::SHAPE);
        check::<VaultDef>(&VaultDef::SHAPE);
        check::<PrefabDef>(&PrefabDef::SHAPE);
        check::<SubstDef>(&SubstDef::SHAPE);
        check::<SampleDef>(&SampleDef::SHAPE);
        check::<RoomsDef>(&RoomsDef::SHAPE);
        check::<CaveDef>(&CaveDef::SHAPE);
        check::<TownDef>(&TownDef::SHAPE);
        check::<TownDebugDef>(&TownDebugDef::SHAPE);
        check::<SpawnDef>(&SpawnDef::SHAPE);
    }

    #[test]
    fn the_registry_data_has_a_key_per_section() {
        let data = serde_json::to_value(crate::region::RegistryData::default()).unwrap();
        let keys: Vec<&str> = data
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names: Vec<&str> = crate::region::RegistryData::SHAPE
            .keys
            .iter()
            .map(|k| k.name)
            .collect();
        names.sort_unstable();
        assert_eq!(keys, names);
    }

    #[test]
    fn docs_are_the_doc_comments() {
        let k = DungeonDef::SHAPE.key("turn_chance").unwrap();
        assert_eq!(
            k.doc,
            "Percent chance per step that a corridor turns once its segment is longer than \
             `segment_minlen`. 0..=100. Default 10."
        );
        assert!(SpawnDef::SHAPE
            .doc
            .starts_with(" `[[spawn]]` — something that may be spawned"));
        assert!(DoorDef::SHAPE.doc.contains("\n\n ```toml\n [[door]]\n"));
    }
}
