//! Fast calls on the run's map: its per-cell reads and plain writes, `map:fill`, `map:snapshot`
//! and `map:tag`, and (from [`phases`]) `map:carve_rooms`; `warren.gen`'s rooms phases, which
//! take the map first, are installed from `gen.rs` with [`map_call`] too.

use super::notes::tag_charges;
use super::phases::{self, carve_rooms};
use super::{connectivity, debug, notes, reads, writes};
use crate::api::classes::WRITE_OPTIONS;
use crate::api::cost;
use crate::api::decl::{Class, Kind};
use crate::api::fast::args::{Given, TagArg};
use crate::api::fast::options::{decode, keys_of, OptionEntries, Options, PlainOptions, MAX_KEYS};
use crate::api::fast::FAST_ID_BASE;
use crate::api::fast::{answer_with, bytes_charged, charged, declared, install_closures};
use crate::api::fast::{fast_method, Answer, FastMethod};
use crate::api::shared::{Shared, SharedCell};
use crate::api::terrain_names;
use crate::ffi::lua_warren_xyname;
use crate::ffi::{lua_warren_fastself, lua_warren_fields, lua_warren_stringsfreed};
use crate::ffi::{WarrenKey, WarrenValue, WarrenXYName};
use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, Lua};
use std::ffi::c_int;
use warren_core::map::{priority, Brush, Map, Point, Rect, TerrainId};

/// The map methods with a fast path.
pub(super) static METHODS: [FastMethod<Map>; 12] = [
    fast_method!(reads::IN_BOUNDS => in_bounds(i64, i64) on Map),
    fast_method!(reads::IS_EDGE => is_edge(i64, i64) on Map),
    fast_method!(reads::GET => get(i64, i64) on Map),
    fast_method!(reads::PRIORITY => priority(i64, i64) on Map),
    fast_method!(reads::REGION => region(i64, i64) on Map),
    fast_method!(reads::IS_SOLID => is_solid(i64, i64) on Map),
    fast_method!(connectivity::IS_CONNECTED => is_connected(i64, i64) on Map),
    FastMethod {
        closure: Some(set_call),
        ..fast_method!(writes::SET => set(i64, i64, &[u8], Options<WriteOptions>) on Map)
    },
    fast_method!(writes::FILL => fill(&str, Options<WriteOptions>) on Map),
    fast_method!(debug::SNAPSHOT => snapshot(&[u8]) on Map),
    fast_method!(writes::CARVE_ROOMS => carve_rooms(
        &SharedCell<Vec<Rect>>,
        &str,
        Options<PlainOptions<phases::CarveKeys>>,
    ) on Map),
    fast_method!(notes::TAG => tag(&str, TagArg) on Map),
];

/// Puts the fast map methods into the field table of `ud`, the run's map (a map userdata made
/// by [`super::new_userdata`], whose methods table holds every declared binding).
pub fn install(lua: &Lua, ud: &AnyUserData) -> mlua::Result<()> {
    let cell = ud.borrow::<Shared<Map>>()?.cell();
    let locate = |l| {
        // SAFETY: `l` runs protected with the userdata in slot 1; every type relied on is
        // checked first.
        unsafe {
            let fields = ffi::lua_getiuservalue(l, 1, 1) == ffi::LUA_TTABLE;
            if ffi::lua_getmetatable(l, 1) == 0 {
                ffi::lua_pushnil(l);
            }
            let methods = ffi::lua_type(l, 3) == ffi::LUA_TTABLE
                && ffi::lua_getfield(l, 3, c"__index".as_ptr()) == ffi::LUA_TTABLE;
            ffi::lua_pushlightuserdata(l, cell.cast_mut().cast());
            // Stack: 1 the map, 2 its field table, 3 its metatable, 4 its methods table, 5 the
            // map's cell.
            (fields && methods).then_some((2, 4, 1, 5))
        }
    };
    install_closures(
        lua,
        ud,
        &METHODS,
        locate,
        (map_call, FAST_ID_BASE),
        "a map userdata without its field table or methods (made outside new_userdata)",
    )
}

/// A fast map method: its fast path when the call is on the closure's own map, else the
/// declared binding.
pub(in crate::api) unsafe extern "C-unwind" fn map_call(l: *mut lua_State) -> c_int {
    // SAFETY: `install` made this closure with these upvalues; the cell lives as long as the
    // map userdata in the receiver upvalue.
    unsafe {
        let (mut method, mut cell) = (std::ptr::null_mut(), std::ptr::null_mut());
        if lua_warren_fastself(l, &mut method, &mut cell) != 0 {
            let method = &*method.cast::<FastMethod<Map>>();
            if let Some(n) = answer_with(l, method, &*cell.cast::<SharedCell<Map>>()) {
                return n;
            }
        }
        declared(l)
    }
}

/// `map:set`'s closure: a cell handed over at a time, from libraries that hand every cell
/// to a callback, is the commonest fast call. Its commonest form (integer coordinates, a
/// terrain's name, no options or a table of write options) is read in one call into the
/// interpreter ([`lua_warren_xyname`]) and answered by [`set_read`] straight away, or, when it
/// declines it, by the declared binding (the generic reader would read it alike and decline
/// it again, after charging a second time what `set_read` charged before declining); any other
/// form takes [`map_call`]'s way, as every fast method does. The same answers either way: only
/// the reading differs.
unsafe extern "C-unwind" fn set_call(l: *mut lua_State) -> c_int {
    // SAFETY: `install` made this closure with `map_call`'s upvalues; the cell lives as long
    // as the map userdata in the receiver upvalue, and the name and options while the call's
    // arguments do (a fast call runs no Lua code).
    unsafe {
        let mut call = std::mem::MaybeUninit::<WarrenXYName>::uninit();
        let (keys, n) = keys_of::<WriteOptions>();
        if lua_warren_xyname(l, keys, n, call.as_mut_ptr()) == 0 {
            return map_call(l);
        }
        // `lua_warren_xyname` answered 1: it filled every field.
        let call = call.assume_init_ref();
        let read = std::panic::AssertUnwindSafe(|| set_read(l, call, (keys, n)));
        // A panic is a bug in the body; the declared binding still answers the call.
        match std::panic::catch_unwind(read) {
            // A call made as a statement keeps no result: none is pushed.
            Ok(Some(_)) if call.results == 0 => 0,
            Ok(Some(written)) => {
                ffi::lua_pushboolean(l, c_int::from(written));
                1
            }
            _ => declared(l),
        }
    }
}

// `lua_warren_xyname` reads the call `map:set` declares: a method of three arguments and an
// optional fourth (`fast_method!` checks the readers of their types against the declaration).
const _: () = {
    let set = &writes::SET;
    let a = set.args;
    assert!(
        matches!(set.kind, Kind::Method)
            && !set.variadic
            && a.len() == 4
            && !a[0].optional
            && !a[1].optional
            && !a[2].optional
            && a[3].optional,
        "map:set's declaration no longer has the shape lua_warren_xyname reads",
    );
};

/// A brush `map:set`'s commonest form found, and what it was found from: the same name
/// (by its string's address, while its state frees no string), the same options (none, or the
/// same kept reading of a table: the interpreter's number for it) and the same terrain table
/// give the same brush and the same charge. A callback handing every cell over names one or
/// two terrains (a floor and a wall) with one options table: their brushes are found once, not
/// at every cell.
#[derive(Clone, Copy)]
struct FoundBrush {
    /// What it was found from.
    key: BrushKey,
    /// The brush found.
    brush: Brush,
    /// The work the write charges.
    work: u64,
}

/// What a [`FoundBrush`] was found from: the same key, the same brush.
#[derive(Clone, Copy, PartialEq, Eq)]
struct BrushKey {
    /// The name's bytes.
    name: *const std::ffi::c_char,
    /// The strings its state had freed ([`terrain_names::Freed`]).
    freed: terrain_names::Freed,
    /// 0 without an options table, else the kept reading's number ([`WarrenXYName::kept`]).
    options: u64,
    /// The serial of the terrain table the name was found in.
    terrains: u64,
}

/// How many brushes [`FOUND_BRUSHES`] keeps: a floor and a wall.
const BRUSHES_KEPT: usize = 2;

thread_local! {
    /// `map:set`'s last brushes on this thread ([`FoundBrush`]), the newest first.
    static FOUND_BRUSHES: std::cell::Cell<[Option<FoundBrush>; BRUSHES_KEPT]> =
        const { std::cell::Cell::new([None; BRUSHES_KEPT]) };
}

/// [`set`] on what [`lua_warren_xyname`] read, checked as the declared reader checks it (each
/// coordinate within its declared range, each option of its type); `None` for the declared
/// binding. The brush comes from [`FOUND_BRUSHES`] when the call names one again.
///
/// # Safety
/// As [`set`]; `call` was read from the running call with `keys` ([`keys_of`] of
/// [`WriteOptions`], the same array: a kept reading is kept for one array).
unsafe fn set_read(
    l: *mut lua_State,
    call: &WarrenXYName,
    (keys, n): (*const WarrenKey, c_int),
) -> Option<bool> {
    let [x, y, ..] = writes::SET.args else {
        return None;
    };
    let at = (x.ty.int_within(call.x)?, y.ty.int_within(call.y)?);
    // SAFETY: `l` is running the fast closure; the state data lives as long as the state.
    let freed = unsafe { crate::state::data_of(l) }.map(|d| (d.id, call.freed));
    // What keys the brush besides the name: no table, or a kept reading (a table read afresh
    // may change before the next call without the interpreter noticing).
    let options = match (call.options, call.kept) {
        (0, _) => Some(0),
        (_, 0) => None,
        (_, kept) => Some(kept),
    };
    // SAFETY: the name's bytes and the table's strings live while the arguments do; the cell
    // is the closure's map.
    unsafe {
        let name = std::slice::from_raw_parts(call.name.cast::<u8>(), call.len);
        let cell = &*call.cell.cast::<SharedCell<Map>>();
        cell.poke(|m| {
            let p = m.locate(at.0, at.1).ok()?;
            let key = match (freed, options) {
                (Some(freed), Some(options)) => Some(BrushKey {
                    name: call.name,
                    freed,
                    options,
                    terrains: m.terrains().serial(),
                }),
                _ => None,
            };
            let (brush, work) = match key.and_then(remembered_brush) {
                Some(found) => found,
                None => brush_afresh(l, m, call, (keys, n), name, freed, key)?,
            };
            // What `lua_warren_charge` does when the counter stays above 0, in place.
            let left = *call.counter;
            if let Some(work) = i64::try_from(work).ok().filter(|&w| w > 0 && left > w) {
                *call.counter = left - work;
                return m.write(p, &brush).ok();
            }
            written_charged(l, m, p, &brush, work)
        })?
    }
}

/// The brush remembered under `key`, and its work.
#[inline(always)]
fn remembered_brush(key: BrushKey) -> Option<(Brush, u64)> {
    FOUND_BRUSHES.with(|kept| {
        // SAFETY: read in place: nothing else on this thread uses the cell meanwhile.
        let kept = unsafe { &*kept.as_ptr() };
        let found = kept.iter().flatten().find(|b| b.key == key);
        found.map(|b| (b.brush, b.work))
    })
}

/// The brush and work of `call`, found afresh on `m` (its options table, argument 5, read
/// with `keys`), and remembered under `key` when it has one and no region. `None` for the
/// declared binding (a table of another shape, an option of another type, an unknown name).
///
/// # Safety
/// As [`set_read`]; `name` is `call`'s name.
unsafe fn brush_afresh(
    l: *mut lua_State,
    m: &Map,
    call: &WarrenXYName,
    (keys, n): (*const WarrenKey, c_int),
    name: &[u8],
    freed: Option<terrain_names::Freed>,
    key: Option<BrushKey>,
) -> Option<(Brush, u64)> {
    let mut entries = WriteOptions::default();
    if call.options != 0 {
        let mut values = [WarrenValue::NONE; MAX_KEYS];
        // SAFETY: argument 5 of the running call is the table; `keys` and `values` hold `n`
        // entries; its strings live while the arguments do.
        unsafe {
            if lua_warren_fields(l, 5, keys, n, values.as_mut_ptr()) == 0 {
                return None;
            }
            decode(&values, &mut entries)?;
        }
    }
    let (brush, work) = set_brush(m, name, freed, &entries, call.options != 0)?;
    // A region's brush depends on the map's region names: not remembered.
    if let (Some(key), None) = (key, entries.region) {
        let mut kept = FOUND_BRUSHES.get();
        kept.rotate_right(1);
        kept[0] = Some(FoundBrush { key, brush, work });
        FOUND_BRUSHES.set(kept);
    }
    Some((brush, work))
}

/// A method `(x, y)` answering from the cell it names.
fn at_cell(
    cell: &SharedCell<Map>,
    (x, y): (i64, i64),
    f: impl FnOnce(&Map, Point) -> Option<Answer>,
) -> Option<Answer> {
    cell.peek(|m| f(m, m.locate(x, y).ok()?))?
}

fn in_bounds(_: *mut lua_State, cell: &SharedCell<Map>, (x, y): (i64, i64)) -> Option<Answer> {
    cell.peek(|m| Answer::Bool(m.locate(x, y).is_ok()))
}

fn is_edge(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| Some(Answer::Bool(m.is_edge(p))))
}

fn is_solid(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| m.is_solid(p).ok().map(Answer::Bool))
}

fn is_connected(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| m.is_connected(p).ok().map(Answer::Bool))
}

fn priority(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| {
        Some(Answer::Int(m.priority_at(p).ok()?.into()))
    })
}

fn get(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| {
        let t = m.terrain_at(p).ok()?;
        Some(Answer::Name(std::ptr::from_ref(
            m.terrains().get(t).name.as_str(),
        )))
    })
}

fn region(_: *mut lua_State, cell: &SharedCell<Map>, xy: (i64, i64)) -> Option<Answer> {
    at_cell(cell, xy, |m, p| {
        Some(match m.region_at(p).ok()? {
            0 => Answer::Nil,
            r => Answer::Name(std::ptr::from_ref(m.region_name(r))),
        })
    })
}

/// `map:set(x, y, terrain[, options])`: a priority write with the terrain's own brush, or with
/// the options a plain write-options table gives ([`WriteOptions`]), charged as the binding
/// charges them.
unsafe fn set(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (x, y, name, options): (i64, i64, &[u8], Options<WriteOptions>),
) -> Option<Answer> {
    // SAFETY: `l` is running the fast closure. The count is read while `name`, the bytes of the
    // call's string argument, is live, and nothing runs that could free a string before the
    // lookup is done.
    let freed =
        unsafe { crate::state::data_of(l) }.map(|d| (d.id, unsafe { lua_warren_stringsfreed(l) }));
    cell.poke(|m| {
        let p = m.locate(x, y).ok()?;
        let (brush, work) = set_brush(m, name, freed, &options.entries, options.table)?;
        // SAFETY: `l` is running the fast closure.
        unsafe { written_charged(l, m, p, &brush, work) }.map(Answer::Bool)
    })?
}

/// The brush `map:set` writes terrain `name` with on `m`, given `options` (read from a table
/// when `table`), and the work it charges: one for an options table, the region names
/// searched. `name` is the bytes of a live string of a state that has freed `freed` strings
/// (`None`: a name looked up by its bytes alone).
fn set_brush(
    m: &Map,
    name: &[u8],
    freed: Option<terrain_names::Freed>,
    options: &WriteOptions,
    table: bool,
) -> Option<(Brush, u64)> {
    let terrain = match freed {
        Some(freed) => terrain_names::by_string(m.terrains(), name, freed)?,
        None => terrain_names::id(m.terrains(), name)?,
    };
    let brush = options.brush(m, terrain)?;
    let work = u64::from(table) + options.region.map_or(0, |_| m.region_names().len() as u64);
    Some((brush, work))
}

/// Whether writing `brush` at `p` changed the cell, once `work` (what the binding charges) is
/// charged; `None` when the charge ran the budget out.
///
/// # Safety
/// `l` is running a fast closure.
unsafe fn written_charged(
    l: *mut lua_State,
    m: &mut Map,
    p: Point,
    brush: &Brush,
    work: u64,
) -> Option<bool> {
    // SAFETY: see the function's contract.
    if work > 0 && !unsafe { charged(l, work) } {
        return None;
    }
    m.write(p, brush).ok()
}

/// Write options (`warren.WriteOptions`) as a fast write takes them: `force` a boolean,
/// `priority` an integer or a priority name, `region` a name.
#[derive(Default)]
struct WriteOptions<'l> {
    force: bool,
    priority: Option<u8>,
    region: Option<&'l str>,
}

impl<'l> OptionEntries<'l> for WriteOptions<'l> {
    const CLASS: &'static Class = &WRITE_OPTIONS;
    const KEYS: &'static [&'static str] = &["force", "priority", "region"];

    /// Reads a write option; `None` when the value is not of its type (a priority in 0..=255
    /// or a known name).
    fn entry(&mut self, slot: usize, given: Given<'l>) -> Option<()> {
        match slot {
            0 => self.force = given.boolean()?,
            1 => {
                self.priority = Some(match given.text() {
                    Some(name) => priority::by_name(name)?,
                    None => u8::try_from(given.int()?).ok()?,
                });
            }
            _ => self.region = Some(given.text()?),
        }
        Some(())
    }
}

impl WriteOptions<'_> {
    /// The brush writing `terrain` on `map` with these options; `None` for a region the map
    /// has not got yet (the binding adds it, charging for its name).
    fn brush(&self, map: &Map, terrain: TerrainId) -> Option<Brush> {
        let region = match self.region {
            Some(name) => Some(map.region_names().iter().position(|n| n == name)? as u16),
            None => None,
        };
        Some(Brush {
            terrain,
            priority: self.priority,
            region,
            force: self.force,
        })
    }
}

/// `map:fill(terrain)` (options absent or nil): the whole map written with the terrain's own
/// brush, charged as the binding charges it.
unsafe fn fill(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (name, options): (&str, Options<WriteOptions>),
) -> Option<Answer> {
    if options.table {
        return None;
    }
    let (terrain, work) = cell.poke(|m| {
        let terrain = terrain_names::id(m.terrains(), name.as_bytes())?;
        Some((terrain, cost::cell_work(m.len() as u64)))
    })??;
    // Charged before anything is written, as the binding charges it; a charge that trips a
    // budget passes the call on, and the declared call raises the budget error.
    // SAFETY: `l` is running the fast closure.
    if !unsafe { charged(l, work) } {
        return None;
    }
    cell.poke(|m| Answer::Int(m.fill(&Brush::new(terrain)) as i64))
}

/// `map:snapshot(label)` while snapshots are off: the label checked, nothing kept.
unsafe fn snapshot(l: *mut lua_State, cell: &SharedCell<Map>, _: (&[u8],)) -> Option<Answer> {
    // SAFETY: `l` is running the fast closure.
    if unsafe { crate::state::data_of(l)? }.snapshots.get() {
        return None;
    }
    // The declared binding holds the map to change it: a map in use takes its path and gets
    // its error.
    cell.poke(|_| Answer::Nothing)
}

/// `map:tag(key, value)` with a UTF-8 key and a boolean, integer, finite float or UTF-8 string
/// value, charged as the binding charges it (`notes::record_tag`).
unsafe fn tag(
    l: *mut lua_State,
    cell: &SharedCell<Map>,
    (key, value): (&str, TagArg<'_>),
) -> Option<Answer> {
    // SAFETY: `l` is running the fast closure.
    let budget = &*unsafe { crate::state::data_of(l)? }.budget;
    let charge = |bytes| unsafe { bytes_charged(l, budget, bytes) };
    cell.poke(|m| {
        // A charge that trips a budget leaves the tag unset, as the binding does; the declared
        // call that follows raises the budget error.
        let text = match &value {
            TagArg::Text(t) => Some(*t),
            TagArg::Value(_) => None,
        };
        let charges = tag_charges(m, key, text);
        if !charges.into_iter().flatten().all(charge) {
            return None;
        }
        match value {
            TagArg::Text(t) => m.notes.tags.insert_text(key, t),
            TagArg::Value(v) => drop(m.notes.tags.insert(key, v)),
        }
        Some(Answer::Nothing)
    })?
}
