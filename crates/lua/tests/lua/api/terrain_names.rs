//! The recent terrain names give each table's own ids (`api/terrain_names.rs`).

use warren_core::map::TerrainTable;
use warren_lua::api::terrain_names::id;

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
