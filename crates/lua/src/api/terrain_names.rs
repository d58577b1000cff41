//! Terrain names a recipe writes again and again (`"floor"`, `"rock wall"`), resolved without
//! hashing them each time: the last few ids found are checked first, by name. Names are unique
//! within a table (the registry checks), so an id of that table whose name matches is the id
//! the table's own lookup gives. A name handed over cell by cell as a Lua string is checked
//! before that by the string's address ([`by_string`]).

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

/// Which strings a Lua state has freed so far: the state's id ([`crate::state::StateData::id`],
/// which no other state of the process has had) and its count of strings freed
/// (`lua_warren_stringsfreed`). While it is the same, no string of that state has been freed.
pub type Freed = (u64, u64);

/// A terrain name a Lua string gave, remembered by the string's address ([`by_string`]).
#[derive(Clone, Copy)]
struct Seen {
    /// The strings its state had freed when it was looked up.
    freed: Freed,
    /// The string's bytes: their address and length.
    bytes: (*const u8, usize),
    /// The serial of the table the name was found in ([`TerrainTable::serial`]).
    table: u64,
    /// The id found.
    id: TerrainId,
}

thread_local! {
    /// The most recent lookups by string, newest first.
    static SEEN: Cell<[Option<Seen>; KEPT]> = const { Cell::new([None; KEPT]) };
}

/// The id of the terrain called `name` in `table`, where `name` is the bytes of a live Lua
/// string of a state that has freed `freed` strings. A string looked up before, while its state
/// has freed no string since, is the same string (no other has taken its address), so it names
/// the same terrain: it is found by its address, without reading the name. Others are looked up
/// by name ([`id`]).
#[inline]
pub fn by_string(table: &TerrainTable, name: &[u8], freed: Freed) -> Option<TerrainId> {
    let (bytes, serial) = ((name.as_ptr(), name.len()), table.serial());
    // Entry by entry: a hit copies out only what it looks at.
    let hit = SEEN.with(|seen| {
        let seen: &Cell<[Option<Seen>]> = seen;
        seen.as_slice_of_cells().iter().find_map(|entry| {
            let s = entry.get()?;
            (s.bytes == bytes && s.freed == freed && s.table == serial).then_some(s.id)
        })
    });
    if hit.is_some() {
        return hit;
    }
    let id = id(table, name)?;
    let mut next = SEEN.get();
    next.rotate_right(1);
    next[0] = Some(Seen {
        freed,
        bytes,
        table: serial,
        id,
    });
    SEEN.set(next);
    Some(id)
}
