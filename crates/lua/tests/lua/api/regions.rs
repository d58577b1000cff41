//! `ctx.regions`' classes are the region schema's sections (`api/regions.rs`).

use warren_core::region::schema::MIN_DEPTH;
use warren_core::region::shape::{KeyKind, Section};
use warren_core::region::RegistryData;
use warren_lua::api::decl::{Class, Default, Ty};
use warren_lua::api::regions::{CLASSES, REGIONS, ROOM_REGION};

/// Checks that `class` declares `section`'s keys, and that each class it names for a nested
/// table is the one declaring that table's section; returns the classes reached.
fn walk(class: &'static Class, section: &Section, seen: &mut Vec<&'static str>) {
    seen.push(class.name);
    if class.name != REGIONS.name {
        assert_eq!(class.doc, section.doc, "{}", class.name);
    }
    assert_eq!(class.fields.len(), section.keys.len(), "{}", class.name);
    for (f, k) in class.fields.iter().zip(section.keys) {
        assert_eq!((f.key, f.doc), (k.name, k.doc), "{}", class.name);
        match (f.ty, k.spec.kind) {
            (Ty::Table(c), KeyKind::Table(s)) | (Ty::TableList(c), KeyKind::List(s)) => {
                walk(c, s, seen)
            }
            (Ty::Table(_) | Ty::TableList(_), _) | (_, KeyKind::Table(_) | KeyKind::List(_)) => {
                panic!(
                    "{}.{}: the class and the schema disagree on its table",
                    class.name, f.key
                )
            }
            _ => {}
        }
    }
}

/// Every class is the schema's section it names, down to the nested tables, and every
/// class of `ctx.regions` is reached from it.
#[test]
fn the_classes_are_the_schemas_sections() {
    let mut seen = Vec::new();
    walk(&REGIONS, &RegistryData::SHAPE, &mut seen);
    let mut all: Vec<&str> = CLASSES.iter().map(|c| c.name).collect();
    all.sort_unstable();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(all, seen);
    let room = ROOM_REGION.field("min_depth").unwrap();
    assert_eq!(room.default, Default::Int(MIN_DEPTH.default_value()));
    assert!(matches!(room.ty, Ty::Int { min: 1, max: 1000 }));
    assert!(!room.required && ROOM_REGION.field("kind").unwrap().required);
}
