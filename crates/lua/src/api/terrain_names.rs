//! Terrain names a recipe writes again and again (`"floor"`, `"rock wall"`), resolved without
//! hashing them each time: the last few ids found are checked first, by name. Names are unique
//! within a table (the registry checks), so an id of that table whose name matches is the id
//! the table's own lookup gives. A name handed over cell by cell as a Lua string is checked
//! before that by the string's address ([`by_string`]).

use std::cell::{Cell, RefCell};
use std::sync::Arc;
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

/// A terrain name a Lua string gave, remembered by the string's address ([`by_string`]).
struct Seen {
    /// The count of strings freed of the string's state when it was looked up.
    freed: u64,
    /// The string's bytes: their address and length.
    bytes: (*const u8, usize),
    /// The table the name was found in, held so that no other table takes its address while
    /// it is remembered.
    table: Arc<TerrainTable>,
    /// The id found.
    id: TerrainId,
}

thread_local! {
    /// The most recent lookups by string, newest first.
    static SEEN: RefCell<[Option<Seen>; KEPT]> = const { RefCell::new([const { None }; KEPT]) };
}

/// The id of the terrain called `name` in `table`, where `name` is the bytes of a Lua string of
/// a state whose count of strings freed is `freed` now (counted on from the state's own base,
/// [`crate::state::strings_freed_base`]). A string looked up before, while that count has not
/// moved, is the same string (none has been freed, so no other has taken its address; and no
/// other state's count is the same), so it names the same terrain: it is found
/// by its address, without reading the name. Others are looked up by name ([`id`]).
pub fn by_string(table: &Arc<TerrainTable>, name: &[u8], freed: u64) -> Option<TerrainId> {
    let bytes = (name.as_ptr(), name.len());
    let hit = SEEN.with_borrow(|seen| {
        seen.iter()
            .flatten()
            .find(|s| s.bytes == bytes && s.freed == freed && Arc::ptr_eq(&s.table, table))
            .map(|s| s.id)
    });
    if hit.is_some() {
        return hit;
    }
    let id = id(table, name)?;
    SEEN.with_borrow_mut(|seen| {
        seen.rotate_right(1);
        seen[0] = Some(Seen {
            freed,
            bytes,
            table: table.clone(),
            id,
        });
    });
    Some(id)
}
