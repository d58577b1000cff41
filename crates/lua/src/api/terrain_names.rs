//! Terrain names a recipe writes again and again (`"floor"`, `"rock wall"`), resolved without
//! hashing them each time: the last few ids found are checked first, by name. Names are unique
//! within a table (the registry checks), so an id of that table whose name matches is the id
//! the table's own lookup gives.

use std::cell::Cell;
use warren_core::map::{TerrainId, TerrainTable};

/// How many recent lookups are kept.
const KEPT: usize = 4;

thread_local! {
    /// The most recent lookups, newest first: the table (by address; never 0) and the id found.
    static RECENT: Cell<[(usize, TerrainId); KEPT]> = const { Cell::new([(0, 0); KEPT]) };
}

/// The id of the terrain called `name` (UTF-8 or not: a name that matches is) in `table`, if it
/// has one.
pub fn id(table: &TerrainTable, name: &[u8]) -> Option<TerrainId> {
    let at = std::ptr::from_ref(table) as usize;
    // Entry by entry: a hit (most calls, on the first) copies out only what it looks at.
    let hit = RECENT.with(|recent| {
        let recent: &Cell<[(usize, TerrainId)]> = recent;
        recent.as_slice_of_cells().iter().find_map(|entry| {
            let (t, id) = entry.get();
            let named = t == at && usize::from(id) < table.len();
            (named && table.get(id).name.as_bytes() == name).then_some(id)
        })
    });
    if hit.is_some() {
        return hit;
    }
    let recent = RECENT.get();
    let id = table.id(std::str::from_utf8(name).ok()?)?;
    let mut next = [(at, id); KEPT];
    next[1..].copy_from_slice(&recent[..KEPT - 1]);
    RECENT.set(next);
    Some(id)
}
