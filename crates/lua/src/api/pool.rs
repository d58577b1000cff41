//! Streams and rectangle lists a run made, handed out again by the next run instead of made
//! anew: most recipes make a few per map (`ctx.rng:stream(name)`, `warren.gen.scatter_rooms`),
//! and making a userdata, collecting it and running its finalizer cost several times what the
//! call that returns it does.
//!
//! Reuse is invisible to scripts. A userdata a run made is kept (up to `KEPT`, 32, of each type)
//! until the run ends; when the run left the state clean (no write to an object the recipe's
//! loading made, see `lua_warren_markpristine`), no script value can still reach it —
//! everything that outlives a run is such an object or the host's, and a failed run's error
//! reaches the host as a message, never as a Lua value — so the next run may hand it out as a
//! new one: its cell gets the new value and the userdata the id a new object would get there
//! (`lua_warren_renumber`). A dirty run's state is rebuilt, pools and all.

use super::shared::Shared;
use crate::budget::uncharged;
use crate::ffi::{lua_warren_charge, lua_warren_renumber, CALL_COST};
use crate::state;
use mlua::{ffi, AnyUserData, Lua, UserData, Value};
use std::cell::RefCell;
use warren_core::map::geom::Rect;
use warren_core::rng::Rng;

/// How many userdata of one type a run keeps for the next: more than any shipped recipe makes
/// in a run; a recipe that makes more gets the rest made anew, as before.
pub const KEPT: usize = 32;

/// The pools of one state, in its app data, found through `state::StateData::pools`.
#[derive(Default)]
pub struct Pools {
    /// Rngs (`ctx.rng:stream`).
    rngs: Pool<Rng>,
    /// Rectangle lists (`scatter_rooms`).
    rects: Pool<Vec<Rect>>,
    /// The storage of rectangle lists a clean run made, emptied, for the next run's lists
    /// ([`spare_rects`]): a scatter fills one instead of allocating.
    spare_rects: RefCell<Vec<Vec<Rect>>>,
    /// How many userdata runs were handed from these pools instead of made.
    handed_out: std::cell::Cell<u64>,
}

/// Ends a run in `lua`: what it made is handed out again by the next run when `reuse` (the
/// run left the state clean), else let go.
pub fn end_run(lua: &Lua, reuse: bool) {
    if let Some(pools) = pools(state::state(lua)) {
        pools.rngs.end_run(reuse, pools);
        pools.rects.end_run(reuse, pools);
        if !reuse {
            pools.spare_rects.borrow_mut().clear();
        }
    }
}

/// The largest list whose storage is kept for reuse, in rectangles (64 KiB): more than any
/// scatter of a shipped recipe keeps; a larger list's storage is let go.
const SPARE_RECTS_ROOM: usize = 4096;

/// An empty rectangle list for a new list of the running generation of `lua`: storage a clean
/// run's list left, when there is some, else a new list.
pub fn spare_rects(lua: &Lua) -> Vec<Rect> {
    running_pools(lua)
        .and_then(|pools| pools.spare_rects.borrow_mut().pop())
        .unwrap_or_default()
}

/// How many userdata the runs of `lua` (a sandboxed state) were handed from its pools instead
/// of made anew.
pub fn handed_out_again(lua: &Lua) -> u64 {
    pools(state::state(lua)).map_or(0, |p| p.handed_out.get())
}

/// Gives `lua` (a sandboxed state) its pools: in its app data, where the state data finds
/// them (`pools`).
pub fn install(lua: &Lua) {
    lua.set_app_data(Pools::default());
    if let Some(pools) = lua.app_data_ref::<Pools>() {
        let at: *const Pools = &*pools;
        state::state(lua).pools.set(at.cast());
    }
}

/// The pools of the state whose data is `data`, if [`install`] gave it some.
fn pools(data: &state::StateData) -> Option<&Pools> {
    // SAFETY: null, or what `install` stored: the address of the state's `Pools`, which its
    // app data holds boxed, never moves nor replaces, and drops only with the state (and so
    // with `data`, which lives as long).
    unsafe { data.pools.get().cast::<Pools>().as_ref() }
}

/// The pools of `lua` while a generation runs in it (userdata are pooled only then).
fn running_pools(lua: &Lua) -> Option<&Pools> {
    let data = state::state(lua);
    pools(data).filter(|_| data.running.get())
}

/// Makes a new userdata point at its cell, given the userdata and its payload.
pub(in crate::api) trait PointAt<T>:
    FnOnce(&AnyUserData, &Shared<T>) -> mlua::Result<()>
{
}

impl<T, F: FnOnce(&AnyUserData, &Shared<T>) -> mlua::Result<()>> PointAt<T> for F {}

/// A new userdata holding `value` (a `Shared<T>`): during a run, one an earlier run made when
/// the pool has one free, else a new one, which `point` makes point at its cell (given the
/// userdata and its payload) and which is kept for the next run.
pub(in crate::api) fn new_userdata<T: Pooled>(
    lua: &Lua,
    value: T,
    point: impl PointAt<T>,
) -> mlua::Result<AnyUserData>
where
    Shared<T>: UserData,
{
    match hand_out(lua, value)? {
        // The pooled userdata is on the stack: taken off it as a handle.
        // SAFETY: `hand_out` left it on top of the current thread's stack.
        Ok(()) => match lua.exec_raw_lua(|raw| unsafe { raw.pop_value() }) {
            Value::UserData(ud) => Ok(ud),
            _ => Err(mlua::Error::runtime(
                "a pooled userdata was not on the stack",
            )),
        },
        Err(value) => make(lua, value, point),
    }
}

/// [`new_userdata`] pushed onto the stack of the state's current thread, without a handle when
/// it comes from the pool: what a fast call answers with.
///
/// # Safety
/// The current thread is running a C function, with room on its stack for one more value.
pub(in crate::api) unsafe fn push_userdata<T: Pooled>(
    lua: &Lua,
    value: T,
    point: impl PointAt<T>,
) -> mlua::Result<()>
where
    Shared<T>: UserData,
{
    match hand_out(lua, value)? {
        Ok(()) => Ok(()),
        Err(value) => {
            let ud = make(lua, value, point)?;
            // SAFETY: the caller made room for one value on the current thread's stack.
            lua.exec_raw_lua(|raw| unsafe { raw.push(&ud) })
        }
    }
}

/// During a run, a userdata an earlier run made, holding `value`, pushed onto the stack of the
/// state's current thread and charged as a new one: `Ok(Ok(()))`; `Ok(Err(value))` when the
/// pool has none free (or no run is on), the budget's error (nothing pushed) when the charge
/// trips it.
fn hand_out<T: Pooled>(lua: &Lua, value: T) -> mlua::Result<Result<(), T>>
where
    Shared<T>: UserData,
{
    let Some(pools) = running_pools(lua) else {
        return Ok(Err(value));
    };
    if let Err(value) = T::pool(pools).reuse(lua, value) {
        return Ok(Err(value));
    }
    pools.handed_out.set(pools.handed_out.get() + 1);
    let l = lua.exec_raw_lua(|raw| raw.state());
    if let Err(e) = charge_making(lua, l) {
        // SAFETY: `reuse` pushed the userdata onto `l`.
        unsafe { ffi::lua_pop(l, 1) };
        return Err(e);
    }
    Ok(Ok(()))
}

/// A userdata made anew holding `value`, which `point` makes point at its cell, kept for the
/// next run when a run is on and its pool has room.
fn make<T: Pooled>(lua: &Lua, value: T, point: impl PointAt<T>) -> mlua::Result<AnyUserData>
where
    Shared<T>: UserData,
{
    let pool = running_pools(lua).map(T::pool);
    let l = lua.exec_raw_lua(|raw| raw.state());
    let shared = Shared::new(value);
    // SAFETY: `l` is the state's current thread; only its budget counter moves.
    let ud = unsafe {
        uncharged(l, || {
            let ud = lua.create_userdata(shared.clone())?;
            point(&ud, &shared)?;
            Ok::<_, mlua::Error>(ud)
        })
    }?;
    charge_making(lua, l)?;
    if let Some(pool) = pool {
        pool.keep(&ud, shared);
    }
    Ok(ud)
}

/// What the budget charges for a userdata handed out, made or reused: a call's. Making one
/// runs mlua's protected calls, which the budget would charge and handing one out again does
/// not; both are charged this instead, so `os.clock()` (which counts instructions) and where a
/// limit trips are the same in a reused state and a fresh one.
const MAKING_COST: i64 = CALL_COST;

/// Charges [`MAKING_COST`] through the Lua counter of `l` (`lua`'s current thread), as a call
/// is charged; the budget's error when that trips it.
fn charge_making(lua: &Lua, l: *mut ffi::lua_State) -> mlua::Result<()> {
    // SAFETY: `l` is a thread of this live state; charging never raises.
    match unsafe { lua_warren_charge(l, MAKING_COST) } {
        0 => Ok(()),
        _ => Err(state::exceeded_error(lua)),
    }
}

/// Pushes `ud` onto the stack of the state's current thread with the id a new object would get
/// now; false, with nothing pushed, when that cannot be done. Room for one more value is left
/// above it (taking it off as a handle looks at its metatable there).
fn push_renumbered(lua: &Lua, ud: &AnyUserData) -> bool {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: two slots are checked for and one pushed; renumbering cannot raise.
        unsafe {
            if ffi::lua_checkstack(l, 2) == 0 || raw.push(ud).is_err() {
                return false;
            }
            if lua_warren_renumber(l, -1) == 0 {
                ffi::lua_pop(l, 1);
                return false;
            }
            true
        }
    })
}

/// A value type whose userdata a state pools.
pub trait Pooled: Sized + 'static {
    /// This type's pool.
    fn pool(pools: &Pools) -> &Pool<Self>;

    /// Lets go of what the value holds while its userdata waits in the pool (or hands it to
    /// `pools` for reuse).
    fn release(&mut self, _pools: &Pools) {}
}

impl Pooled for Rng {
    fn pool(pools: &Pools) -> &Pool<Rng> {
        &pools.rngs
    }
}

impl Pooled for Vec<Rect> {
    fn pool(pools: &Pools) -> &Pool<Vec<Rect>> {
        &pools.rects
    }

    fn release(&mut self, pools: &Pools) {
        let mut list = std::mem::take(self);
        if list.capacity() > 0 && list.capacity() <= SPARE_RECTS_ROOM {
            list.clear();
            let mut spare = pools.spare_rects.borrow_mut();
            if spare.len() < KEPT {
                spare.push(list);
            }
        }
    }
}

/// One type's userdata: those the running generation made, and those it may hand out.
pub struct Pool<T> {
    made: RefCell<Vec<Kept<T>>>,
    /// Those an earlier run made, which this run may hand out.
    pub free: RefCell<Vec<Kept<T>>>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            made: RefCell::new(Vec::new()),
            free: RefCell::new(Vec::new()),
        }
    }
}

/// A kept userdata and its payload (the same cell).
pub struct Kept<T> {
    ud: AnyUserData,
    value: Shared<T>,
}

impl<T: Pooled> Pool<T>
where
    Shared<T>: UserData,
{
    /// A userdata an earlier run made, now holding `value`, numbered as a new object and pushed
    /// onto the stack of the state's current thread; `Err(value)`, with nothing pushed, when
    /// none is free or the one taken cannot be (its payload borrowed, no room on the stack).
    fn reuse(&self, lua: &Lua, value: T) -> Result<(), T> {
        let Some(kept) = self.free.borrow_mut().pop() else {
            return Err(value);
        };
        let Some(mut payload) = kept.value.write() else {
            return Err(value);
        };
        if !push_renumbered(lua, &kept.ud) {
            return Err(value);
        }
        *payload = value;
        drop(payload);
        self.made.borrow_mut().push(kept);
        Ok(())
    }

    /// Keeps `ud`, just made with `value` as its payload, for the next run (while fewer than
    /// [`KEPT`] are held).
    fn keep(&self, ud: &AnyUserData, value: Shared<T>) {
        let mut made = self.made.borrow_mut();
        if made.len() + self.free.borrow().len() < KEPT {
            made.push(Kept {
                ud: ud.clone(),
                value,
            });
        }
    }

    fn end_run(&self, reuse: bool, pools: &Pools) {
        let mut made = self.made.borrow_mut();
        if !reuse {
            made.clear();
            return;
        }
        for kept in made.iter() {
            if let Some(mut payload) = kept.value.write() {
                payload.release(pools);
            }
        }
        self.free.borrow_mut().append(&mut made);
    }
}
