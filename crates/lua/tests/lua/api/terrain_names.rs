//! The recent terrain names give each table's own ids (`api/terrain_names.rs`).

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
    // An id found in a longer table is never tried in a shorter one.
    let long = TerrainTable::plain(&[("a", 'a', true), ("b", 'b', true), ("lava", '~', false)]);
    let short = TerrainTable::plain(&[("rock", '#', true)]);
    assert_eq!(id(&long, b"lava"), Some(2));
    assert_eq!(id(&short, b"rock"), Some(0));
}

/// A name given as a Lua string is found by the string's address while its state has freed no
/// string, and by its bytes once the state's count moves (the address may now hold another
/// string) or for another state (whose count says nothing of this one's strings); each table
/// keeps its own ids.
#[test]
fn a_string_names_its_terrain_by_address_until_a_string_is_freed() {
    let a = TerrainTable::plain(&[("floor", '.', false), ("water", '~', false)]);
    let b = TerrainTable::plain(&[("water", '~', false), ("floor", '.', false)]);
    let (state, other) = (3, 4);
    // One address holding one name, then another: a string freed and its memory reused.
    let mut string = *b"floor";
    assert_eq!(by_string(&a, &string, (state, 7)), a.id("floor"));
    assert_eq!(
        by_string(&b, &string, (state, 7)),
        b.id("floor"),
        "b's own id"
    );
    string.copy_from_slice(b"water");
    assert_eq!(
        by_string(&a, &string, (state, 7)),
        a.id("floor"),
        "the same count: the same string, found by its address"
    );
    assert_eq!(
        by_string(&a, &string, (other, 7)),
        a.id("water"),
        "another state's count"
    );
    assert_eq!(
        by_string(&a, &string, (state, 8)),
        a.id("water"),
        "a string was freed"
    );
    assert_eq!(by_string(&b, &string, (state, 8)), b.id("water"));
    assert_eq!(by_string(&a, b"lava!", (state, 8)), None);
}

/// Every sandboxed state has an id of its own, which `by_string` keys on.
#[test]
fn every_state_has_an_id_of_its_own() {
    let ids: Vec<u64> = (0..3)
        .map(|_| {
            let (lua, _) = warren_lua::sandbox::new_state(
                vec![],
                Default::default(),
                warren_lua::api::install,
            )
            .unwrap();
            warren_lua::state::state(&lua).id
        })
        .collect();
    assert!(
        ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2],
        "{ids:?}"
    );
}
