//! The value cells: readers share, writers are alone, through mlua's borrows and the fast calls'
//! (`api/shared.rs`).

use std::sync::Arc;
use warren_core::map::{Map, TerrainTable};
use warren_lua::api::map::LuaMap;

fn sample() -> LuaMap {
    let terrains = Arc::new(TerrainTable::plain(&[("rock", '#', true)]));
    LuaMap::new(Map::new(2, 2, 0, terrains).unwrap())
}

#[test]
fn readers_share_and_writers_are_alone() {
    let m = sample();
    let (a, b) = (m.read().unwrap(), m.read().unwrap());
    assert!(m.write().is_none(), "no writer beside readers");
    let cell = unsafe { &*m.cell() };
    assert_eq!(cell.peek(|map| map.width()), Some(2));
    assert_eq!(cell.poke(|_| ()), None, "no fast write beside readers");
    drop((a, b));
    let w = m.write().unwrap();
    assert!(m.read().is_none() && m.write().is_none());
    assert_eq!(cell.peek(|_| ()), None, "no fast read beside a writer");
    drop(w);
    assert_eq!(cell.poke(|map| map.height()), Some(2));
    assert!(m.write().is_some(), "every borrow was given back");
}
