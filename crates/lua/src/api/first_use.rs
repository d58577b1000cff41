//! Object types met on first use: the types only some recipes make (levels, tunnel contexts,
//! towns, status lists, fields) are registered with mlua, and their methods put behind their
//! gates ([`gate`]), when a state first hands out a value of the type, not while every state
//! is made. Registering a type builds its metatable and a closure per method, and runs code
//! met nowhere else: for the five types, a tenth of the instructions a small map's `warren run`
//! took, most of them in code touched for the first time (BENCHMARKS.md, "Starting warren").
//!
//! What a recipe can see stays as it was when every type was registered up front:
//! - **Ids.** The type is met through a sample, a second userdata on the value's cell: it and
//!   the objects registration makes (the metatable, the methods table, the methods) are
//!   numbered in the type's own range, apart from what loading a recipe and runs number, and
//!   the sample then lets go of the cell. The value itself is made after, exactly as in a run
//!   that meets the type already met. So a run numbers its objects the same whether or not an
//!   earlier run of the state met the type.
//! - **The budget.** Meeting a type charges the run nothing: mlua's protected calls and the
//!   `__index` generator it runs for a type with fields would otherwise take instructions from
//!   the first run that meets the type and not from later ones, moving `os.clock()` (which
//!   counts instructions) and where a limit trips. The sample is left with no finalizer (mlua's
//!   metatable for a value taken out), so collecting it later charges no run either.
//! - **Messages.** The methods are behind their gates before the value reaches Lua.
//! - **The reset.** mlua keeps each type's metatable in the registry, which is the host's (never
//!   saved or put back), so a type met during a run stays met after the run's reset.
//!
//! A binding that makes such a value returns it as a [`Fresh`], which does the above when mlua
//! hands it to Lua. A value of one of these types made any other way would be registered by
//! mlua alone (numbered among the run's objects, with no gates): the types' `add_methods`
//! check in debug builds, so the tests catch such a binding.

use super::decl::Decl;
use super::gate;
use super::shared::Shared;
use crate::budget::uncharged;
use crate::state::{self, numbered_from};
use mlua::{AnyUserData, IntoLua, Lua, UserData, Value};
use std::any::TypeId;
use std::cell::Cell;

/// An object type registered the first time a state hands out a value of it.
pub trait MetOnFirstUse: Sized + 'static {
    /// The type's place among these types, `0..8`: its bit in [`state::StateData::types_met`]
    /// and its range of ids.
    const SLOT: u32;
    /// Its declared methods, list by list, in the order their gates are numbered.
    const METHODS: &'static [&'static [&'static Decl]];
    /// The first id of its gates (one of [`gate::LEVEL_GATES`], …).
    const GATES: u64;
}

/// Where the objects registering these types makes are numbered (see `lua_warren_setidbase`):
/// apart from the fast closures and gates (from 2^39), `ctx.regions`' shared metatable (2^39 +
/// 2^30) and views (2^39 + 2^31), below the error objects (2^39 + 2^32); [`IDS_PER_TYPE`] ids
/// for each type.
const FIRST_USE_ID_BASE: u64 = (1 << 39) + (1 << 31) + (1 << 30);

/// Room for each type's objects: its metatable, methods table, and a closure and a callback
/// for each method and metamethod (a field's 27 methods take about 60).
const IDS_PER_TYPE: u64 = 1 << 12;

// Eight types at most (a bit each), their ranges below the error objects.
const _: () = assert!(FIRST_USE_ID_BASE + 8 * IDS_PER_TYPE <= (1 << 39) + (1 << 32));

/// A new object of a type met on first use, as a binding returns it: made into its userdata
/// when mlua hands it to Lua, the type registered first if this state has not met it yet.
pub struct Fresh<T>(Shared<T>);

impl<T: MetOnFirstUse> Fresh<T>
where
    Shared<T>: UserData,
{
    /// `value`, to be handed out as a new object.
    pub fn new(value: T) -> Fresh<T> {
        Fresh(Shared::new(value))
    }
}

impl<T: MetOnFirstUse> IntoLua for Fresh<T>
where
    Shared<T>: UserData,
{
    fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
        let met = state::state(lua).types_met.get() & (1 << T::SLOT) != 0;
        let ud = if met {
            lua.create_userdata(self.0)?
        } else {
            meet(lua, self.0)?
        };
        Ok(Value::UserData(ud))
    }
}

thread_local! {
    /// The type [`meet`] is registering, if any (what [`meeting`] checks).
    static MEETING: Cell<Option<TypeId>> = const { Cell::new(None) };
}

/// Whether `T` is being registered by a first [`Fresh`] value: the types' `add_methods` assert
/// it in debug builds (see the module's documentation).
pub fn meeting<T: 'static>() -> bool {
    MEETING.get() == Some(TypeId::of::<T>())
}

/// Runs `read` as if `T` were being registered: for the tests that read a type's methods
/// through its `add_methods`, outside mlua.
#[doc(hidden)]
pub fn as_if_meeting<T: 'static, R>(read: impl FnOnce() -> R) -> R {
    MEETING.set(Some(TypeId::of::<T>()));
    let read = read();
    MEETING.set(None);
    read
}

/// Registers `T` in `lua` and gates its methods through a sample on `value`'s cell, numbered
/// in `T`'s range and charged to no one, then makes `value`'s userdata as any later run would.
#[cold]
fn meet<T: MetOnFirstUse>(lua: &Lua, value: Shared<T>) -> mlua::Result<AnyUserData>
where
    Shared<T>: UserData,
{
    let l = lua.exec_raw_lua(|raw| raw.state());
    let first_id = FIRST_USE_ID_BASE + u64::from(T::SLOT) * IDS_PER_TYPE;
    let register = || {
        MEETING.set(Some(TypeId::of::<T>()));
        let sample = lua.create_userdata(value.clone());
        MEETING.set(None);
        let sample = sample?;
        // A gate install cut short (out of memory) is finished by the next value's: it passes
        // over the methods already behind their gates.
        let gated = gate::install(lua, &sample, T::METHODS, T::GATES);
        // The sample lets go of the cell and is left with mlua's metatable for a value taken
        // out, which has no finalizer.
        sample.take::<Shared<T>>()?;
        gated
    };
    // SAFETY: `l` is the state's current thread; only its id counter and budget counter move.
    unsafe { uncharged(l, || numbered_from(l, first_id, register)) }.0?;
    let data = state::state(lua);
    data.types_met.set(data.types_met.get() | 1 << T::SLOT);
    lua.create_userdata(value)
}
