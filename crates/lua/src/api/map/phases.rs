//! Fast calls for the rooms phases on the run's map: `map:carve_rooms`,
//! `warren.gen.scatter_rooms`, `connect_rooms` and `start_and_stairs` (the bodies; `warren.gen`'s
//! table of them is in `gen.rs`), called once or twice a
//! map, where mlua's callback path (converting every argument and option to a handle, borrowing
//! each userdata through its type check) cost more than a small map's phase itself.
//!
//! The common case reads its arguments from the stack: the run's map (the closure's receiver),
//! an rng and a rectangle list that point at their cells (streams and lists are made so), and
//! an options table that is a plain table of known keys with string or integer values. Anything
//! else takes the declared binding. A new list is still made through mlua, as the binding makes
//! it (`push_new_shared`). A fast phase checks everything the binding would reject before
//! it charges or writes anything, then makes the binding's charges, in its order, at its
//! location; when a charge trips a budget (before the phase or in the middle of it) the call
//! is passed on, and the declared binding's call, in fatal mode, raises the budget error at
//! once: the map is left as the binding would have left it.

use crate::api::classes::{
    CARVE_OPTIONS, CONNECT_OPTIONS, ROOM_KIND, SCATTER_OPTIONS, STAIRS_OPTIONS,
};
use crate::api::cost;
use crate::api::decl::Class;
use crate::api::fast::args::TheMap;
use crate::api::fast::options::{default_text, Options, PlainKeys, PlainOptions};
use crate::api::fast::{bytes_charged, charged, push_new_shared, Answer};
use crate::api::meter::RawMeter;
use crate::api::shared::SharedCell;
use crate::api::terrain_names;
use mlua::ffi::lua_State;
use warren_core::gen::rooms::{self, ScatterOptions, Strategy};
use warren_core::map::{Adjacency, Brush, KindName, Map, Rect, TerrainId};
use warren_core::rng::Rng;

/// `map:carve_rooms`' options its fast path reads: `kind`.
pub(super) struct CarveKeys;

impl PlainKeys for CarveKeys {
    const CLASS: &'static Class = &CARVE_OPTIONS;
    const KEYS: &'static [&'static str] = &["kind"];
}

/// `connect_rooms`' options its fast path reads.
pub(in crate::api) struct ConnectKeys;

impl PlainKeys for ConnectKeys {
    const CLASS: &'static Class = &CONNECT_OPTIONS;
    const KEYS: &'static [&'static str] = &["terrain", "strategy", "connectivity"];
}

/// `scatter_rooms`' options its fast path reads.
pub(in crate::api) struct ScatterKeys;

impl PlainKeys for ScatterKeys {
    const CLASS: &'static Class = &SCATTER_OPTIONS;
    const KEYS: &'static [&'static str] = &["attempts", "min_size", "max_size"];
}

/// `start_and_stairs`' options: its fast path reads none (an empty table is still a table).
pub(in crate::api) struct NoKeys;

impl PlainKeys for NoKeys {
    const CLASS: &'static Class = &STAIRS_OPTIONS;
    const KEYS: &'static [&'static str] = &[];
}

/// The terrain `name` names on `map`.
fn terrain(map: &Map, name: &str) -> Option<TerrainId> {
    terrain_names::id(map.terrains(), name.as_bytes())
}

/// Whether every rectangle lies on `map` (the phases' own first check, which the declared
/// binding reports).
fn all_on(map: &Map, rects: &[Rect]) -> bool {
    rects.iter().all(|r| map.rect_in_bounds(r))
}

/// The budget of the state `l` runs in.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn budget<'l>(l: *mut lua_State) -> Option<&'l crate::budget::Budget> {
    unsafe { Some(&*crate::state::data_of(l)?.budget) }
}

/// `map:carve_rooms(rooms, terrain, opts)` with `opts` absent or `{kind=}`.
pub(super) unsafe fn carve_rooms(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (rects, name, options): (
        &SharedCell<Vec<Rect>>,
        &str,
        Options<PlainOptions<CarveKeys>>,
    ),
) -> Option<Answer> {
    unsafe {
        let kind = KindName::named(options.entries.text(0)?, ROOM_KIND);
        let budget = budget(l)?;
        cell.poke(|m| {
            rects.peek(|rects| {
                let terrain = terrain(m, name)?;
                if !all_on(m, rects)
                    || options.table && !charged(l, 1)
                    || !bytes_charged(l, budget, cost::rooms(rects.len(), &kind))
                {
                    return None;
                }
                let mut meter = RawMeter::new(l, budget);
                // Only the meter can stop it now (every room is on the map); stopped, the
                // budget has tripped and the declared binding raises its error.
                rooms::carve_rooms(m, rects, &Brush::new(terrain), &kind, &mut meter)
                    .ok()
                    .map(|n| Answer::Int(n as i64))
            })?
        })?
    }
}

/// `connect_rooms`' arguments as its fast path takes them.
type ConnectArgs<'l> = (
    TheMap,
    &'l SharedCell<Rng>,
    &'l SharedCell<Vec<Rect>>,
    Options<PlainOptions<'l, ConnectKeys>>,
);

/// `warren.gen.connect_rooms(map, rng, rooms, opts)` with `opts` a plain table of `terrain`,
/// `strategy` and `connectivity`.
pub(in crate::api) unsafe fn connect_rooms(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (_, rng, rects, options): ConnectArgs,
) -> Option<Answer> {
    unsafe {
        let options = options.entries;
        let name = options.text(0);
        let strategy = Strategy::from_name(options.text(1)?)?;
        let adjacency = Adjacency::from_name(options.text(2)?)?;
        let budget = budget(l)?;
        cell.poke(|m| {
            rng.poke(|r| {
                rects.peek(|rects| {
                    let terrain = terrain(m, name?)?;
                    if !all_on(m, rects) || !charged(l, 1) {
                        return None;
                    }
                    let corridors = m.notes.corridors.len();
                    let mut meter = RawMeter::new(l, budget);
                    let brush = Brush::new(terrain);
                    // Only the meter can stop it now: with every room on the map, so is every
                    // corridor (each stays inside the box of its ends).
                    let drawn = rooms::connect_rooms(
                        m,
                        r,
                        rects,
                        strategy,
                        (&brush, adjacency),
                        &mut meter,
                    )
                    .ok()?;
                    let added: usize = m.notes.corridors[corridors..]
                        .iter()
                        .map(cost::corridor)
                        .sum();
                    bytes_charged(l, budget, added).then_some(Answer::Int(drawn as i64))
                })?
            })?
        })?
    }
}

/// `warren.gen.start_and_stairs(map, rooms)` (no options: the first and last rooms, the
/// stairs in `down stairs`).
pub(in crate::api) unsafe fn start_and_stairs(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (_, rects, options): (
        TheMap,
        &SharedCell<Vec<Rect>>,
        Options<PlainOptions<NoKeys>>,
    ),
) -> Option<Answer> {
    if options.table {
        return None;
    }
    unsafe {
        let budget = budget(l)?;
        cell.poke(|m| {
            rects.peek(|rects| {
                let stairs = terrain(m, default_text(&STAIRS_OPTIONS, "terrain")?)?;
                let (first, last) = (rects.first()?, rects.last()?);
                if !all_on(m, &[*first, *last])
                    || !bytes_charged(l, budget, cost::start_and_stairs())
                {
                    return None;
                }
                let mut meter = RawMeter::new(l, budget);
                let placed =
                    rooms::start_and_stairs(m, rects, 1, rects.len(), stairs, &mut meter).ok()?;
                let (s, d) = (placed.start, placed.stairs);
                Some(Answer::Four([s.x, s.y, d.x, d.y].map(i64::from)))
            })?
        })?
    }
}

/// `warren.gen.scatter_rooms(map, rng, opts)` with `opts` absent or a plain table of integer
/// `attempts`, `min_size` and `max_size`: the list is made through mlua, as the binding makes
/// it (see [`push_new_shared`]).
pub(in crate::api) unsafe fn scatter_rooms(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (_, rng, options): (TheMap, &SharedCell<Rng>, Options<PlainOptions<ScatterKeys>>),
) -> Option<Answer> {
    unsafe {
        let (given, table) = (options.entries, options.table);
        let (attempts, min_size, max_size) = (given.int(0)?, given.int(1)?, given.int(2)?);
        if min_size > max_size {
            return None;
        }
        let opts = ScatterOptions {
            attempts: attempts as u32,
            min_size: min_size as i32,
            max_size: max_size as i32,
        };
        let budget = budget(l)?;
        push_new_shared(l, || {
            let (w, h) = cell.peek(|m| (m.width(), m.height()))?;
            rng.poke(|r| {
                if table && !charged(l, 1) {
                    return None;
                }
                let mut meter = RawMeter::new(l, budget);
                let mut rooms = crate::api::pool::spare_rects(crate::state::lua_of(l));
                rooms::scatter_rooms_into(w, h, r, &opts, &mut meter, &mut rooms).ok()?;
                Some(rooms)
            })?
        })
    }
}
