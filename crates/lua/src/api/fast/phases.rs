//! Fast calls for the rooms phases on the run's map: `map:carve_rooms`,
//! `warren.gen.connect_rooms` and `warren.gen.start_and_stairs`, called once or twice a map,
//! where mlua's callback path (converting every argument and option to a handle, borrowing
//! each userdata through its type check) cost more than a small map's phase itself.
//!
//! The common case reads its arguments from the stack: the run's map (the closure's receiver),
//! an rng and a rectangle list that point at their cells (streams and lists are made so), and
//! an options table that is a plain table of known keys with string values. Anything else
//! takes the declared binding. A fast phase checks everything the binding would reject before
//! it charges or writes anything, then makes the binding's charges, in its order, at its
//! location; when a charge trips a budget (before the phase or in the middle of it) the call
//! is passed on, and the declared binding's call, in fatal mode, raises the budget error at
//! once: the map is left as the binding would have left it.

use super::{cell_at, string_at, Answer, FastMethod};
use crate::api::classes::CARVE_OPTIONS;
use crate::api::cost;
use crate::api::decl::{Class, Default};
use crate::api::gen::{CONNECT_OPTIONS, STAIRS_OPTIONS};
use crate::api::meter::RawMeter;
use crate::api::shared::SharedCell;
use crate::api::terrain_names;
use crate::budget::{raw_script_location, Budget};
use crate::state::StateData;
use mlua::ffi::{self, lua_State};
use std::ffi::c_int;
use std::sync::Arc;
use warren_core::gen::rooms::{self, Strategy};
use warren_core::map::{Adjacency, Brush, Map, Rect, TerrainId};
use warren_core::rng::Rng;

/// `warren.gen`'s functions with a fast path (the map is their first argument).
pub static GEN_FUNCTIONS: [FastMethod<Map>; 2] = [
    FastMethod {
        name: "connect_rooms",
        body: connect_rooms,
    },
    FastMethod {
        name: "start_and_stairs",
        body: start_and_stairs,
    },
];

/// Options a fast phase reads: the value of each key it knows (`None` when absent). Every key
/// of the table must be one of them, with a UTF-8 string value.
struct PlainOptions<'l, const N: usize>([Option<&'l str>; N]);

impl<'l, const N: usize> PlainOptions<'l, N> {
    /// The options at stack index `i`: `Some` with nothing given when the argument is absent
    /// or nil, `None` when it is not a plain table of `keys` with string values (a frozen
    /// table, an unknown key, a number, …: the declared binding reads those). Also whether a
    /// table was given (the binding charges one for it).
    ///
    /// # Safety
    /// `l` is running a fast closure; the strings live while the table stays on the stack
    /// unchanged (a fast phase runs no Lua code).
    unsafe fn at(l: *mut lua_State, i: c_int, keys: [&str; N]) -> Option<(Self, bool)> {
        let mut found = [None; N];
        unsafe {
            match ffi::lua_type(l, i) {
                ffi::LUA_TNONE | ffi::LUA_TNIL => return Some((PlainOptions(found), false)),
                ffi::LUA_TTABLE => {}
                _ => return None,
            }
            if ffi::lua_checkstack(l, 3) == 0 {
                return None;
            }
            if ffi::lua_getmetatable(l, i) != 0 {
                ffi::lua_pop(l, 1);
                return None;
            }
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, i) != 0 {
                let (key, value) = (string_at(l, -2), string_at(l, -1));
                ffi::lua_pop(l, 1);
                let slot = key.and_then(|k| keys.iter().position(|known| *known == k));
                match (slot, value) {
                    (Some(slot), Some(v)) => found[slot] = Some(v),
                    _ => {
                        ffi::lua_pop(l, 1);
                        return None;
                    }
                }
            }
        }
        Some((PlainOptions(found), true))
    }
}

/// The rectangle list at stack index `i`, when it is one that points at its cell.
///
/// # Safety
/// As [`cell_at`].
unsafe fn rects_at<'l>(
    l: *mut lua_State,
    i: c_int,
    data: &StateData,
) -> Option<&'l SharedCell<Vec<Rect>>> {
    unsafe { cell_at(l, i, data.rects_metatable.get()) }
}

/// The declared default of the string option `key` of `class` (what the binding reads when
/// the key is absent).
fn default_of(class: &'static Class, key: &str) -> Option<&'static str> {
    match class.field(key)?.default {
        Default::Str(d) => Some(d),
        _ => None,
    }
}

/// The terrain `name` names on `map`.
fn terrain(map: &Map, name: &str) -> Option<TerrainId> {
    terrain_names::id(map.terrains(), name)
}

/// Whether every rectangle lies on `map` (the phases' own first check, which the declared
/// binding reports).
fn all_on(map: &Map, rects: &[Rect]) -> bool {
    rects.iter().all(|r| map.check_rect(r).is_ok())
}

/// A charge of `cost` located at the calling script line, as the bindings charge.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn charged(l: *mut lua_State, budget: &Budget, cost: u64) -> bool {
    budget
        .charge(cost, || unsafe { raw_script_location(l) })
        .is_ok()
}

/// `charge_bytes` as the bindings make it, located at the calling script line.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn bytes_charged(l: *mut lua_State, budget: &Budget, bytes: usize) -> bool {
    budget
        .charge_bytes_for(bytes, "", || unsafe { raw_script_location(l) })
        .is_ok()
}

/// `map:carve_rooms(rooms, terrain, opts)` with `opts` absent or `{kind=}`.
pub unsafe fn carve_rooms(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        let top = ffi::lua_gettop(l);
        if !(3..=4).contains(&top) {
            return None;
        }
        let data = crate::state::data_of(l)?;
        let rects = rects_at(l, 2, data)?;
        let name = string_at(l, 3)?;
        let (PlainOptions([kind]), table) = PlainOptions::at(l, 4, ["kind"])?;
        let kind: Arc<str> = Arc::from(kind.or_else(|| default_of(&CARVE_OPTIONS, "kind"))?);
        let budget = &*data.budget;
        cell.poke(|m| {
            rects.peek(|rects| {
                let terrain = terrain(m, name)?;
                if !all_on(m, rects)
                    || table && !charged(l, budget, 1)
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

/// `warren.gen.connect_rooms(map, rng, rooms, opts)` with `opts` a plain table of `terrain`,
/// `strategy` and `connectivity`.
unsafe fn connect_rooms(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        if ffi::lua_gettop(l) != 4 {
            return None;
        }
        let data = crate::state::data_of(l)?;
        let rng = cell_at::<Rng>(l, 2, data.rng_metatable.get())?;
        let rects = rects_at(l, 3, data)?;
        let (PlainOptions([name, strategy, connectivity]), _) =
            PlainOptions::at(l, 4, ["terrain", "strategy", "connectivity"])?;
        let strategy = strategy.or_else(|| default_of(&CONNECT_OPTIONS, "strategy"))?;
        let connectivity = connectivity.or_else(|| default_of(&CONNECT_OPTIONS, "connectivity"))?;
        let (strategy, adjacency) = (
            Strategy::from_name(strategy)?,
            Adjacency::from_name(connectivity)?,
        );
        let budget = &*data.budget;
        cell.poke(|m| {
            rng.poke(|r| {
                rects.peek(|rects| {
                    let terrain = terrain(m, name?)?;
                    if !all_on(m, rects) || !charged(l, budget, 1) {
                        return None;
                    }
                    let corridors = m.notes.corridors.len();
                    let mut meter = RawMeter::new(l, budget);
                    let brush = Brush::new(terrain);
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
unsafe fn start_and_stairs(l: *mut lua_State, cell: &SharedCell<Map>) -> Option<Answer> {
    unsafe {
        if ffi::lua_gettop(l) != 2 {
            return None;
        }
        let data = crate::state::data_of(l)?;
        let rects = rects_at(l, 2, data)?;
        let budget = &*data.budget;
        cell.poke(|m| {
            rects.peek(|rects| {
                let stairs = terrain(m, default_of(&STAIRS_OPTIONS, "terrain")?)?;
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
