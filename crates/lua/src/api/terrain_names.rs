//! Terrain names a recipe writes again and again (`"floor"`, `"rock wall"`), resolved without
//! hashing them each time: the last few ids found are checked first, by name. Names are unique
//! within a table (the registry checks), so an id of that table whose name matches is the id
//! the table's own lookup gives. A name handed over cell by cell as a Lua string is checked
//! before that by the string's address ([`by_string`]).

use crate::short_text::same_bytes;
use std::cell::Cell;
use std::thread::LocalKey;
use warren_core::map::{TerrainId, TerrainTable};

/// How many recent lookups each cache keeps.
const KEPT: usize = 4;

/// A cache of recent lookups, newest first.
type Recent<E> = Cell<[Option<E>; KEPT]>;

thread_local! {
    /// Lookups by name: the serial of the table ([`TerrainTable::serial`]) and the id found.
    static RECENT: Recent<(u64, TerrainId)> = const { Cell::new([None; KEPT]) };
    /// Lookups by string ([`by_string`]).
    static SEEN: Recent<Seen> = const { Cell::new([None; KEPT]) };
}

/// The first id `hit` gives for an entry of `cache`; on a miss, the id `find` gives, whose
/// entry becomes the newest.
#[inline]
fn remembered<E: Copy + 'static>(
    cache: &'static LocalKey<Recent<E>>,
    hit: impl Fn(E) -> Option<TerrainId>,
    find: impl FnOnce() -> Option<(E, TerrainId)>,
) -> Option<TerrainId> {
    // Entry by entry: a hit (most calls, on the first) copies out only what it looks at.
    let found = cache.with(|entries| {
        let entries: &Cell<[Option<E>]> = entries;
        entries
            .as_slice_of_cells()
            .iter()
            .find_map(|entry| hit(entry.get()?))
    });
    if found.is_some() {
        return found;
    }
    let (entry, id) = find()?;
    let mut next = cache.get();
    next.rotate_right(1);
    next[0] = Some(entry);
    cache.set(next);
    Some(id)
}

/// The id of the terrain called `name` (UTF-8 or not: a name that matches is) in `table`, if it
/// has one.
pub fn id(table: &TerrainTable, name: &[u8]) -> Option<TerrainId> {
    let serial = table.serial();
    remembered(
        &RECENT,
        // The same serial, the same ids: `id` is one of this table's.
        |(s, id)| (s == serial && same_bytes(table.get(id).name.as_bytes(), name)).then_some(id),
        || {
            let id = table.id(std::str::from_utf8(name).ok()?)?;
            Some(((serial, id), id))
        },
    )
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

/// The id of the terrain called `name` in `table`, where `name` is the bytes of a live Lua
/// string of a state that has freed `freed` strings. A string looked up before, while its state
/// has freed no string since, is the same string (no other has taken its address), so it names
/// the same terrain: it is found by its address, without reading the name. Others are looked up
/// by name ([`id`]).
#[inline]
pub fn by_string(table: &TerrainTable, name: &[u8], freed: Freed) -> Option<TerrainId> {
    let (bytes, serial) = ((name.as_ptr(), name.len()), table.serial());
    remembered(
        &SEEN,
        |s| (s.bytes == bytes && s.freed == freed && s.table == serial).then_some(s.id),
        || {
            let id = id(table, name)?;
            let seen = Seen {
                freed,
                bytes,
                table: serial,
                id,
            };
            Some((seen, id))
        },
    )
}
