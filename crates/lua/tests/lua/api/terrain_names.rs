//! The recent terrain names give each table's own ids (`api/terrain_names.rs`).

use std::sync::Arc;
use warren_core::map::TerrainTable;
use warren_lua::api::terrain_names::{by_string, id};

#[test]
fn recent_names_give_the_tables_own_ids() {
    let a = TerrainTable::plain(&[("rock", '#', true), ("floor", '.', false)]);
    let b = TerrainTable::plain(&[("floor", '.', false), ("rock", '#', true)]);
    for _ in 0..3 {
        for (table, names) in [
            (&a, ["rock", "floor", "lava"]),
            (&b, ["floor", "rock", "x"]),
        ] {
            for name in names {
                assert_eq!(id(table, name.as_bytes()), table.id(name), "{name}");
            }
        }
    }
}

/// A name given as a Lua string is found by the string's address while the state's count of
/// strings freed stays the same (the same string, so the same name), and by its bytes once the
/// count moves (the address may now hold another string); each table keeps its own ids.
#[test]
fn a_string_names_its_terrain_by_address_until_a_string_is_freed() {
    let a = Arc::new(TerrainTable::plain(&[
        ("floor", '.', false),
        ("water", '~', false),
    ]));
    let b = Arc::new(TerrainTable::plain(&[
        ("water", '~', false),
        ("floor", '.', false),
    ]));
    // One address holding one name, then another: a string freed and its memory reused.
    let mut string = *b"floor";
    assert_eq!(by_string(&a, &string, 7), a.id("floor"));
    assert_eq!(by_string(&b, &string, 7), b.id("floor"), "b's own id");
    string.copy_from_slice(b"water");
    assert_eq!(
        by_string(&a, &string, 7),
        a.id("floor"),
        "the same count: the same string, found by its address"
    );
    assert_eq!(
        by_string(&a, &string, 8),
        a.id("water"),
        "a string was freed"
    );
    assert_eq!(by_string(&b, &string, 8), b.id("water"));
    assert_eq!(by_string(&a, b"lava!", 8), None);
}
