//! What a recipe says about its map beyond terrain: rooms, corridors, doors, stairs, spawns, tags
//! and statistics. Renderers export these; tests check invariants against them.

use super::door::DoorState;
use super::geom::{Point, Rect};
use super::layer::Layer;
use super::tags::Tags;
use super::terrain::TerrainId;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A room: its rectangle and what kind of room it is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Room {
    /// The room's bounds (floor area, walls excluded unless the recipe says otherwise).
    #[serde(flatten)]
    pub rect: Rect,
    /// Free-form kind (`"normal"`, `"cave"`, `"entrance"`, …): a primitive's own, or one shared
    /// by the rooms of one call.
    pub kind: KindName,
    /// Doors that belong to this room.
    pub doors: Vec<Point>,
}

/// A room's kind, as text: a primitive's own kind (`"interior"`, `"bsp"`), fixed in the code,
/// or a name given at run time, shared by the rooms one call made. A copy of the first is a
/// copy of a reference; of the second, a count raised (an atomic instruction: at 1,600 rooms a
/// map, about a sixth of BSP interior's time, with the counts lowered at the next reset).
#[derive(Clone, Debug)]
pub enum KindName {
    /// Text fixed in the code.
    Fixed(&'static str),
    /// Text made at run time, shared.
    Shared(Arc<str>),
}

impl KindName {
    /// The kind named `text`: `usual`, held as fixed text, when `text` is it (a binding's
    /// default kind), else `text` made shared.
    pub fn named(text: &str, usual: &'static str) -> KindName {
        if text == usual {
            KindName::Fixed(usual)
        } else {
            KindName::Shared(Arc::from(text))
        }
    }
}

impl std::ops::Deref for KindName {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            KindName::Fixed(s) => s,
            KindName::Shared(s) => s,
        }
    }
}

impl PartialEq for KindName {
    /// Kinds are equal when their texts are, however each is held.
    fn eq(&self, other: &KindName) -> bool {
        **self == **other
    }
}

impl Eq for KindName {}

impl PartialEq<str> for KindName {
    fn eq(&self, other: &str) -> bool {
        &**self == other
    }
}

impl PartialEq<&str> for KindName {
    fn eq(&self, other: &&str) -> bool {
        &**self == *other
    }
}

impl std::fmt::Display for KindName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl Serialize for KindName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl From<&'static str> for KindName {
    fn from(s: &'static str) -> KindName {
        KindName::Fixed(s)
    }
}

impl From<Arc<str>> for KindName {
    fn from(s: Arc<str>) -> KindName {
        KindName::Shared(s)
    }
}

/// A corridor: the cells it carved, in the order it carved them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Corridor {
    /// Carved cells.
    pub cells: Vec<Point>,
    /// The corridor region (theme) it was drawn with, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// A door: a feature standing on a cell (see [`super::door`]), in one of five states.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Door {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Closed, open, locked, secret or broken. Doors are made closed (or secret) and get their
    /// final state when the level is finished.
    pub state: DoorState,
    /// The kind of door (a `[[door]]` name, or the terrain a region names as its door), when
    /// the door was made from region data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Arc<str>>,
    /// The terrain of the cell before the door was made on it (the wall a tunnel or a room put
    /// it in): when the level's doors are finished, a door that must go and that no corridor
    /// floored is drawn back with it. Not exported.
    #[serde(skip)]
    pub made_on: Option<TerrainId>,
}

impl Door {
    /// A door at `p` in `state`, of no particular kind.
    pub fn new(p: Point, state: DoorState) -> Door {
        Door {
            x: p.x,
            y: p.y,
            state,
            kind: None,
            made_on: None,
        }
    }

    /// The door's cell.
    pub fn at(&self) -> Point {
        Point::new(self.x, self.y)
    }
}

/// A spawn point: what appears where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spawn {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// What spawns (a monster, item or feature name).
    pub what: String,
}

/// Up and down stairs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stairs {
    /// Stairs leading to the level above.
    pub up: Vec<Point>,
    /// Stairs leading to the level below.
    pub down: Vec<Point>,
}

/// A free-form tag value set by a recipe.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TagValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
}

/// Everything a recipe recorded about its map.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Annotations {
    /// Rooms, in the order they were added.
    pub rooms: Vec<Room>,
    /// Corridors, in the order they were carved.
    pub corridors: Vec<Corridor>,
    /// Every door on the map, at most one per cell, in the order they were made. Add doors with
    /// [`Map::add_door`](super::Map::add_door), which also marks the cell.
    pub doors: Vec<Door>,
    /// Stairs up and down.
    pub stairs: Stairs,
    /// Spawn points.
    pub spawns: Vec<Spawn>,
    /// Free-form tags, sorted by key.
    pub tags: Tags,
    /// Numeric statistics, sorted by key.
    pub stats: BTreeMap<String, f64>,
    /// Debug layers by name (shown with `--layer NAME`; not part of the JSON contract).
    #[serde(skip)]
    pub layers: BTreeMap<String, Layer>,
    /// The cell lists of the corridors [`Annotations::clear`] forgot, emptied, for the next
    /// corridors ([`Annotations::corridor_cells`]): a reused map carves its corridors without
    /// allocating.
    #[serde(skip)]
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub spare_cells: SpareCells,
}

/// At most this many cell lists that no corridor took stay kept past a map's reset
/// ([`Annotations::clear`]).
pub const KEPT_UNTAKEN_LISTS: usize = 32;

/// The largest cell list (in points, 8 bytes each) kept past a map's reset when no corridor took
/// it: with [`KEPT_UNTAKEN_LISTS`], at most 256 KiB stays held for maps that may not need it.
pub const KEPT_UNTAKEN_POINTS: usize = 1024;

/// Emptied cell lists kept for reuse. Not part of what a map says: every two are equal, and a
/// clone starts with none.
#[derive(Debug, Default)]
pub struct SpareCells(pub Vec<Vec<Point>>);

impl Clone for SpareCells {
    fn clone(&self) -> Self {
        SpareCells::default()
    }
}

impl PartialEq for SpareCells {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Annotations {
    /// The doors of `room`: those recorded with it (`map:add_door(x, y, room)`, TownMaze) or,
    /// for a room without any, every door of the map within two cells of its rectangle (in its
    /// wall, or just outside it where Incursion's tunnels make their doors), in the map's door
    /// order. Phases that make doors without knowing the room are covered this way.
    pub fn doors_of(&self, room: &Room) -> Vec<Point> {
        if !room.doors.is_empty() {
            return room.doors.clone();
        }
        let reach = room.rect.inset(-2);
        self.doors
            .iter()
            .map(Door::at)
            .filter(|&d| reach.contains(d))
            .collect()
    }

    /// Records a corridor of `cells` drawn with no region, its fields written where it goes
    /// rather than built whole and copied (a copy that waited on the store buffer; see
    /// `push_in_place` in this module's source).
    #[inline(always)]
    pub fn push_plain_corridor(&mut self, cells: Vec<Point>) {
        // SAFETY: both fields are written.
        unsafe {
            push_in_place(&mut self.corridors, |slot| {
                std::ptr::addr_of_mut!((*slot).cells).write(cells);
                std::ptr::addr_of_mut!((*slot).region).write(None);
            });
        }
    }

    /// Records a room of `kind` over `rect`, with no doors yet, its fields written where it goes
    /// rather than built whole and copied (as [`Annotations::push_plain_corridor`]).
    #[inline(always)]
    pub fn push_doorless_room(&mut self, rect: Rect, kind: KindName) {
        // SAFETY: every field is written.
        unsafe {
            push_in_place(&mut self.rooms, |slot| {
                std::ptr::addr_of_mut!((*slot).rect).write(rect);
                std::ptr::addr_of_mut!((*slot).kind).write(kind);
                std::ptr::addr_of_mut!((*slot).doors).write(Vec::new());
            });
        }
    }

    /// An empty list for a new corridor's cells, with room for at least `capacity`: one a
    /// cleared corridor left, when there is one.
    pub fn corridor_cells(&mut self, capacity: usize) -> Vec<Point> {
        let mut cells = self.spare_cells.0.pop().unwrap_or_default();
        cells.reserve(capacity);
        cells
    }

    /// Forgets everything (used when a map buffer is reused). The corridors' cell lists are
    /// kept, emptied, for [`Annotations::corridor_cells`], whoever made them. Of the lists kept
    /// before and not taken since, the small ones stay too (up to [`KEPT_UNTAKEN_LISTS`] of at
    /// most [`KEPT_UNTAKEN_POINTS`] points each): a batch's maps carve a few corridors more or
    /// fewer from map to map, and a map with more than the last made its extra lists anew.
    pub fn clear(&mut self) {
        self.rooms.clear();
        let spare = &mut self.spare_cells.0;
        spare.retain(|cells| cells.capacity() <= KEPT_UNTAKEN_POINTS);
        spare.truncate(KEPT_UNTAKEN_LISTS);
        spare.extend(self.corridors.drain(..).map(|c| {
            let mut cells = c.cells;
            cells.clear();
            cells
        }));
        self.doors.clear();
        self.stairs.up.clear();
        self.stairs.down.clear();
        self.spawns.clear();
        self.tags.clear();
        self.stats.clear();
        self.layers.clear();
    }
}

/// Appends to `list` an element that `fill` writes field by field at the slot it is given. A
/// record made whole on the stack and then pushed is copied in 16-byte pieces over its fields'
/// narrower writes just made, which the processor cannot forward from its store buffer, and the
/// copy waits for them: a third of `carve_rooms`' time, and of a dog-leg corridor's bookkeeping.
///
/// # Safety
/// `fill` writes every field of the element (the slot is uninitialised, room for one element
/// past `list`'s length).
#[inline(always)]
unsafe fn push_in_place<T>(list: &mut Vec<T>, fill: impl FnOnce(*mut T)) {
    list.reserve(1);
    let len = list.len();
    // SAFETY: `reserve` left room for one more element at `len`; the caller's `fill` writes all
    // of it before the length takes it in, and nothing reads it before.
    unsafe {
        fill(list.as_mut_ptr().add(len));
        list.set_len(len + 1);
    }
}
