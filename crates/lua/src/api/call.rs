//! Checking and converting a binding's arguments against its [`Decl`]: every message names the
//! call, the argument (or option key) and what would be valid, at the recipe's `file:line` —
//! never a Rust type.
//!
//! A binding takes its arguments as plain [`Value`]s (converting a `Value` never fails, so mlua
//! itself never reports a bad argument) and converts each through a [`Call`]. A method is a
//! plain mlua method behind a gate ([`super::gate`]), which has checked its receiver and the
//! number of arguments; its value is borrowed from its own cell with [`Call::read`] or
//! [`Call::write`], first, so that nothing the call runs can use it meanwhile:
//!
//! ```text
//! fn set(lua: &Lua, this: &LuaMap, (x, y, t): (Value, Value, Value)) -> Result<bool> {
//!     let c = Call::gated(lua, &SET);
//!     let mut map = c.write(this)?;                 // not in use by an unfinished call?
//!     let x = c.int(0, &x)?;                        // argument 1 (x) an integer in range?
//!     …
//! }
//! ```
//!
//! A module function takes a map or an rng argument as [`This`] (borrowed straight from the
//! stack) and [`Extra`] last, to see whether too many arguments were passed
//! ([`Call::new`]).

pub use super::decl::quoted;
use super::decl::{Arg, Class, Decl, Default, Field, Kind, Owner, Ty};
use super::shared::{ReadGuard, Shared, WriteGuard};
use crate::state::fail;
use mlua::{
    AnyUserData, Either, FromLuaMulti, Lua, MetaMethod, MultiValue, Table, UserData, UserDataRef,
    Value,
};
use warren_core::map::{priority, Map, TerrainId};

/// The arguments a call passed beyond those its binding names (usually none: then nothing is
/// allocated).
#[derive(Debug, Default)]
pub struct Extra(usize);

impl FromLuaMulti for Extra {
    fn from_lua_multi(values: MultiValue, _: &Lua) -> mlua::Result<Self> {
        Ok(Extra(values.len()))
    }
}

/// A map or an rng argument of a module function as its binding takes it: a `T` is borrowed
/// straight from the Lua stack (no handle is made for it); anything else, or a `T` already
/// borrowed, stays a value for [`Call::arg_ref`]'s message.
pub type This<T> = Either<UserDataRef<T>, Value>;

/// A short description of a value for messages: its type, and the value itself for numbers,
/// booleans and short strings.
pub fn shown(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let s = s.to_string_lossy();
            if s.chars().count() <= 40 {
                format!("\"{s}\"")
            } else {
                "a string".into()
            }
        }
        Value::Table(_) => "a table".into(),
        Value::Function(_) => "a function".into(),
        Value::UserData(ud) => userdata_name(ud),
        Value::Thread(_) => "a coroutine".into(),
        other => format!("a {}", other.type_name()),
    }
}

/// What a userdata is, in the API's words (`a map`, `a warren.Rng`), told by the `__name` its
/// metatable carries (see [`Owner::type_name`]).
fn userdata_name(ud: &AnyUserData) -> String {
    let name = ud
        .metatable()
        .and_then(|mt| mt.get::<Option<String>>(MetaMethod::Type.name()))
        .ok()
        .flatten();
    Owner::ALL
        .into_iter()
        .find(|o| name.is_some() && o.type_name() == name.as_deref())
        .map_or_else(|| "a warren object".into(), Owner::shown)
}

/// Whether a value is nil (an absent argument or option).
fn absent(v: &Value) -> bool {
    matches!(v, Value::Nil)
}

/// An integer from a Lua integer or a float with no fractional part.
pub fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Integer(i) => Some(*i),
        Value::Number(n) => float_as_int(*n),
        _ => None,
    }
}

/// The integer a Lua float stands for, when it has no fractional part (`map.width / 2`).
pub fn float_as_int(n: f64) -> Option<i64> {
    (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(n as i64)
}

/// A finite number from a Lua number.
pub fn as_num(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) if n.is_finite() => Some(*n),
        _ => None,
    }
}

/// One call of a declared binding: converts its arguments, and words its errors.
pub struct Call<'a> {
    lua: &'a Lua,
    decl: &'static Decl,
}

impl<'a> Call<'a> {
    /// Starts converting a call's arguments; fails if it passed more than the declaration
    /// allows.
    pub fn new(lua: &'a Lua, decl: &'static Decl, extra: &Extra) -> mlua::Result<Call<'a>> {
        let call = Call { lua, decl };
        if extra.0 > 0 && !decl.variadic {
            return Err(call.too_many(decl.args.len() + extra.0));
        }
        Ok(call)
    }

    /// Starts converting the arguments of a method behind a gate ([`super::gate`]), which
    /// has checked the receiver and the number of arguments already.
    pub fn gated(lua: &'a Lua, decl: &'static Decl) -> Call<'a> {
        Call { lua, decl }
    }

    /// Why a gate refused a call of the method `decl` with `args` (receiver first): too many
    /// arguments, or not called on its receiver — the two checks a binding makes first, in
    /// that order.
    pub fn refused(lua: &'a Lua, decl: &'static Decl, args: &[Value]) -> mlua::Error {
        let call = Call { lua, decl };
        let given = args.len().saturating_sub(1);
        if given > decl.args.len() && !decl.variadic {
            return call.too_many(given);
        }
        call.wrong_receiver(args.first().unwrap_or(&Value::Nil))
    }

    /// The error for a call with `given` arguments, more than the declaration allows.
    fn too_many(&self, given: usize) -> mlua::Error {
        let most = self.decl.args.len();
        let s = if most == 1 { "" } else { "s" };
        self.fail(format!(
            "takes at most {most} argument{s} ({}), got {given}",
            self.decl.synopsis()
        ))
    }

    /// The Lua state.
    pub fn lua(&self) -> &'a Lua {
        self.lua
    }

    /// The declaration.
    pub fn decl(&self) -> &'static Decl {
        self.decl
    }

    /// Refuses options whose upper bound `hi` (key `hi_key`) is under their lower bound `lo`
    /// (`lo_key`): `opts.max_size = 10 is less than opts.min_size = 20`.
    pub fn check_order(
        &self,
        (lo_key, lo): (&str, i64),
        (hi_key, hi): (&str, i64),
    ) -> mlua::Result<()> {
        if hi < lo {
            return Err(self.fail(format!(
                "opts.{hi_key} = {hi} is less than opts.{lo_key} = {lo}"
            )));
        }
        Ok(())
    }

    /// An error at the recipe's line: `file:line: map:set: msg`.
    pub fn fail(&self, msg: impl std::fmt::Display) -> mlua::Error {
        fail(self.lua, format!("{}: {msg}", self.decl.call_name()))
    }

    fn arg_decl(&self, i: usize) -> &'static Arg {
        &self.decl.args[i]
    }

    /// `argument 2 (y)`.
    fn label(&self, i: usize) -> String {
        format!("argument {} ({})", i + 1, self.arg_decl(i).name)
    }

    /// The error for argument `i` of the wrong type or out of range.
    pub fn bad(&self, i: usize, v: &Value) -> mlua::Error {
        let a = self.arg_decl(i);
        if absent(v) && !a.optional {
            return self.fail(format!(
                "{} is missing: expected {} ({})",
                self.label(i),
                a.ty.describe(),
                self.decl.synopsis()
            ));
        }
        self.fail(format!(
            "{} must be {}, got {}",
            self.label(i),
            a.ty.describe(),
            shown(v)
        ))
    }

    /// A gated method's receiver (a map, an rng, a list), to read: the value a binding is
    /// changing is in use.
    pub fn read<T: 'static>(&self, this: &Shared<T>) -> mlua::Result<ReadGuard<T>>
    where
        Shared<T>: UserData,
    {
        this.read().ok_or_else(|| self.busy())
    }

    /// [`Call::read`], to change the receiver.
    pub fn write<T: 'static>(&self, this: &Shared<T>) -> mlua::Result<WriteGuard<T>>
    where
        Shared<T>: UserData,
    {
        this.write().ok_or_else(|| self.busy())
    }

    /// Argument `i` as a map or an rng to read (see [`Call::arg_ref`]).
    pub fn arg_held<T: 'static>(&self, i: usize, v: This<Shared<T>>) -> mlua::Result<ReadGuard<T>>
    where
        Shared<T>: UserData,
    {
        self.arg_ref(i, v)?.read().ok_or_else(|| self.busy())
    }

    /// Argument `i` as a map or an rng to change (see [`Call::arg_ref`]).
    pub fn arg_held_mut<T: 'static>(
        &self,
        i: usize,
        v: This<Shared<T>>,
    ) -> mlua::Result<WriteGuard<T>>
    where
        Shared<T>: UserData,
    {
        self.arg_ref(i, v)?.write().ok_or_else(|| self.busy())
    }

    /// Argument `i` as a `T`, borrowed straight from the Lua stack like a receiver (see
    /// [`This`]): not a `T` is the argument's declared error, a `T` in use says so.
    pub fn arg_ref<T: UserData + 'static>(
        &self,
        i: usize,
        v: This<T>,
    ) -> mlua::Result<UserDataRef<T>> {
        self.borrowed::<T, _>(v, |other| self.bad(i, other))
    }

    /// The borrow a [`This`] holds, or why there is none: a `T` in use by an unfinished call,
    /// or (`wrong`) not a `T` at all.
    fn borrowed<T: UserData + 'static, B>(
        &self,
        v: Either<B, Value>,
        wrong: impl FnOnce(&Value) -> mlua::Error,
    ) -> mlua::Result<B> {
        match v {
            Either::Left(borrowed) => Ok(borrowed),
            Either::Right(Value::UserData(ud)) if ud.is::<T>() => Err(self.busy()),
            Either::Right(other) => Err(wrong(&other)),
        }
    }

    /// The error for a method called on something that is not its receiver.
    fn wrong_receiver(&self, v: &Value) -> mlua::Error {
        debug_assert_eq!(self.decl.kind, Kind::Method);
        self.fail(format!(
            "called on {} instead of a {} (call it with a colon: {})",
            shown(v),
            self.decl.owner.class(),
            self.decl.synopsis()
        ))
    }

    /// The table a method was called on (for methods of plain tables such as `warren.rect`).
    pub fn this_table(&self, v: &Value) -> mlua::Result<Table> {
        match v {
            Value::Table(t) => Ok(t.clone()),
            other => Err(self.fail(format!(
                "called on {} instead of a {} (call it with a colon: {})",
                shown(other),
                self.decl.owner.class(),
                self.decl.synopsis()
            ))),
        }
    }

    /// The error for a value a binding is still changing.
    pub fn busy(&self) -> mlua::Error {
        self.fail(
            "the object is in use by a call that has not returned (a callback may not use it)",
        )
    }

    /// Argument `i` as a userdata of type `T` (a map, an rng, …).
    pub fn data<T: UserData + 'static>(&self, i: usize, v: &Value) -> mlua::Result<AnyUserData> {
        match v {
            Value::UserData(ud) if ud.is::<T>() => Ok(ud.clone()),
            _ => Err(self.bad(i, v)),
        }
    }

    /// Argument `i` as an integer in its declared range (its default when optional and nil).
    pub fn int(&self, i: usize, v: &Value) -> mlua::Result<i64> {
        match (self.opt_int(i, v)?, self.arg_decl(i).default) {
            (Some(n), _) => Ok(n),
            (None, Default::Int(d)) => Ok(d),
            (None, _) => Err(self.bad(i, v)),
        }
    }

    /// An optional integer argument in its declared range; `None` when nil.
    pub fn opt_int(&self, i: usize, v: &Value) -> mlua::Result<Option<i64>> {
        let a = self.arg_decl(i);
        if absent(v) && a.optional {
            return Ok(None);
        }
        check_int(&a.ty, v).map(Some).ok_or_else(|| self.bad(i, v))
    }

    /// Argument `i` as a number in its declared range.
    pub fn num(&self, i: usize, v: &Value) -> mlua::Result<f64> {
        let a = self.arg_decl(i);
        if absent(v) {
            if let Default::Num(d) = a.default {
                return Ok(d);
            }
        }
        check_num(&a.ty, v).ok_or_else(|| self.bad(i, v))
    }

    /// Argument `i` as a boolean (its default, else false, when optional and nil).
    pub fn bool(&self, i: usize, v: &Value) -> mlua::Result<bool> {
        let a = self.arg_decl(i);
        match v {
            Value::Boolean(b) => Ok(*b),
            Value::Nil if a.optional => Ok(matches!(a.default, Default::Bool(true))),
            _ => Err(self.bad(i, v)),
        }
    }

    /// Argument `i` as a string. (Not [`Call::text`] copied: names of snapshots and tags come
    /// through here on every map, and one lossy copy is cheaper than a check and a copy.)
    pub fn str(&self, i: usize, v: &Value) -> mlua::Result<String> {
        match (v, self.arg_decl(i).default) {
            (Value::String(s), _) => Ok(s.to_string_lossy()),
            (Value::Nil, Default::Str(d)) => Ok(d.to_string()),
            _ => Err(self.bad(i, v)),
        }
    }

    /// [`Call::str`], lent where it lies instead of copied into a Rust string.
    pub fn text<'v>(&self, i: usize, v: &'v Value) -> mlua::Result<Text<'v>> {
        match (v, self.arg_decl(i).default) {
            (Value::String(s), _) => Ok(Text::of(s)),
            (Value::Nil, Default::Str(d)) => Ok(Text::Declared(d)),
            _ => Err(self.bad(i, v)),
        }
    }

    /// An optional string argument; `None` when nil.
    pub fn opt_str(&self, i: usize, v: &Value) -> mlua::Result<Option<String>> {
        match v {
            Value::Nil if self.arg_decl(i).optional => Ok(None),
            _ => self.str(i, v).map(Some),
        }
    }

    /// Argument `i` as the index of one of its declared choices.
    pub fn choice(&self, i: usize, v: &Value) -> mlua::Result<usize> {
        let a = self.arg_decl(i);
        let Ty::Choice(names) = a.ty else {
            unreachable!("{} declares {} as no choice", self.decl.call_name(), a.name)
        };
        let s = self.text(i, v)?;
        names.iter().position(|n| *n == &*s).ok_or_else(|| {
            self.fail(format!(
                "{} = \"{s}\" is not one of {}{}",
                self.label(i),
                quoted(names),
                did_you_mean(&s, names)
            ))
        })
    }

    /// Argument `i` as a terrain of `map`.
    pub fn terrain(&self, i: usize, v: &Value, map: &Map) -> mlua::Result<TerrainId> {
        match v {
            Value::String(s) => terrain_id(self, map, &Text::of(s)),
            _ => Err(self.bad(i, v)),
        }
    }

    /// Argument `i` as a table.
    pub fn table(&self, i: usize, v: &Value) -> mlua::Result<Table> {
        match v {
            Value::Table(t) => Ok(t.clone()),
            _ => Err(self.bad(i, v)),
        }
    }

    /// Argument `i` as an options table of its declared class: every key is checked to be one
    /// the class declares, and read through [`Opts`].
    pub fn options(&self, i: usize, v: &Value) -> mlua::Result<Opts<'_, 'a>> {
        let a = self.arg_decl(i);
        let Ty::Table(class) = a.ty else {
            unreachable!(
                "{} declares {} as no options table",
                self.decl.call_name(),
                a.name
            )
        };
        let mut opts = Opts {
            call: self,
            name: a.name,
            class,
            given: GivenList::new(),
        };
        match v {
            Value::Nil if a.optional => {}
            Value::Table(t) => {
                // An empty table whose `__index` is a table (options inheriting every key)
                // reads that table's keys.
                if !opts.load(t)? {
                    let inner = target(t)?;
                    if inner != *t {
                        opts.load(&inner)?;
                    }
                }
                crate::state::charge(self.lua, 1)?;
            }
            _ => return Err(self.bad(i, v)),
        }
        Ok(opts)
    }
}

/// The table holding `t`'s fields: `t` itself, or, when `t` is an empty table whose
/// metatable's `__index` is a table (one that inherits every key), that table, resolved again.
pub fn target(t: &Table) -> mlua::Result<Table> {
    let mut t = t.clone();
    // Lua itself gives up on `__index` chains after 2000 steps.
    for _ in 0..2000 {
        if !t.is_empty() {
            break;
        }
        let Some(meta) = t.metatable() else { break };
        match meta.raw_get::<Value>("__index")? {
            Value::Table(inner) => t = inner,
            _ => break,
        }
    }
    Ok(t)
}

/// A string argument or option as a binding reads it: the Lua string itself (no copy), its
/// lossy conversion when it is not UTF-8 (as [`Call::str`] makes), or a declared default.
pub enum Text<'v> {
    /// A UTF-8 Lua string, borrowed.
    Lua(mlua::BorrowedStr<'v>),
    /// A UTF-8 string option, read where it lies (see [`Opts::text`]).
    InPlace(&'v str),
    /// The lossy conversion of a Lua string that is not UTF-8.
    Lossy(String),
    /// A declared default.
    Declared(&'static str),
}

impl<'v> Text<'v> {
    /// A Lua string's text, copied only when it is not UTF-8.
    pub fn of(s: &'v mlua::String) -> Text<'v> {
        match s.to_str() {
            Ok(s) => Text::Lua(s),
            Err(_) => Text::Lossy(s.to_string_lossy()),
        }
    }
}

impl std::fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::ops::Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Text::Lua(s) => s,
            Text::InPlace(s) => s,
            Text::Lossy(s) => s,
            Text::Declared(s) => s,
        }
    }
}

/// The most keys one options class may declare (a test checks every class).
pub const MAX_KEYS: usize = 16;

/// A terrain name's id on `map`, or an error listing the names it could have meant.
pub fn terrain_id(call: &Call, map: &Map, name: &str) -> mlua::Result<TerrainId> {
    super::terrain_names::id(map.terrains(), name.as_bytes())
        .ok_or_else(|| call.fail(warren_core::region::unknown_terrain(name, map.terrains())))
}

fn check_int(ty: &Ty, v: &Value) -> Option<i64> {
    let n = as_int(v)?;
    match ty {
        Ty::Int { .. } => ty.int_within(n),
        _ => Some(n),
    }
}

fn check_num(ty: &Ty, v: &Value) -> Option<f64> {
    let n = as_num(v)?;
    match ty {
        Ty::Num { min, max } => (*min..=*max).contains(&n).then_some(n),
        _ => Some(n),
    }
}

/// ` (did you mean 'x'?)` when one of `names` is close to `s` (a few edits away, or `s`
/// abbreviates it), else nothing.
pub fn did_you_mean(s: &str, names: &[&str]) -> String {
    let reach = warren_core::region::explain::Reach::QuarterOrPrefix;
    match warren_core::region::explain::nearest(s, names.iter().copied(), reach) {
        Some(n) => format!(" (did you mean '{n}'?)"),
        None => String::new(),
    }
}

/// An options table checked against its class: values are read by key, with the class's
/// defaults and ranges.
pub struct Opts<'c, 'a> {
    call: &'c Call<'a>,
    name: &'static str,
    class: &'static Class,
    /// The declared keys the table gave, each as its slot (the key's place in declaration
    /// order: own keys, then the parents') and value. A handful at most, so a lookup scans
    /// them; they are kept inline (a slot for every declared key made each call build, move
    /// and drop sixteen values; a vector allocated for each table).
    given: GivenList,
}

/// The options a table gave; [`MAX_KEYS`] at most, the usual handful inline.
type GivenList = smallvec::SmallVec<[(usize, Given); 4]>;

/// One option as [`Opts::load`] read it.
enum Given {
    /// Anything but a string: a number or a boolean as itself, a table, function or userdata
    /// as a handle.
    Value(Value),
    /// A string, read in place instead of through a handle (making one, and dropping it, cost
    /// more than the rest of reading an option): `load` leaves the string itself on the
    /// call's stack at `slot`, below anything pushed later, so `bytes` stays valid until the
    /// binding returns, whatever Lua code runs meanwhile.
    Str {
        bytes: *const u8,
        len: usize,
        slot: std::ffi::c_int,
    },
}

impl Opts<'_, '_> {
    /// Reads every key of `t`, refusing keys the class does not declare. Returns whether `t`
    /// had any key.
    fn load(&mut self, t: &Table) -> mlua::Result<bool> {
        let class = self.class;
        let given = &mut self.given;
        // Walks `t`'s own keys with `lua_next` (as `next` and mlua's `for_each` do, without a
        // protected call per key: `lua_next` over a table nobody changes meanwhile cannot
        // fail). Only the values of declared keys are kept; the first key the class does not
        // declare comes back, for the error.
        let (any, unknown) = self.call.lua.exec_raw_lua(|raw| {
            use mlua::ffi;
            let state = raw.state();
            let mut unknown = None;
            let mut any = false;
            // SAFETY: the stack is checked to have room for the table, a key, a value, a copy
            // of the key and every string kept (one per declared key at most); everything else
            // pushed here is popped before returning; string keys and values are read in place
            // with `lua_tolstring`, which does not convert a string (so `lua_next` stays valid).
            unsafe {
                if ffi::lua_checkstack(state, 4 + MAX_KEYS as std::ffi::c_int) == 0 {
                    return Err(mlua::Error::StackError);
                }
                raw.push(t)?;
                let mut table = ffi::lua_gettop(state);
                ffi::lua_pushnil(state);
                while ffi::lua_next(state, table) != 0 {
                    any = true;
                    let slot = if ffi::lua_type(state, -2) == ffi::LUA_TSTRING {
                        let mut len = 0;
                        let key = ffi::lua_tolstring(state, -2, &mut len);
                        slot_of(class, std::slice::from_raw_parts(key.cast::<u8>(), len))
                    } else {
                        None
                    };
                    match slot {
                        Some(i) if ffi::lua_type(state, -1) == ffi::LUA_TSTRING => {
                            let mut len = 0;
                            let bytes = ffi::lua_tolstring(state, -1, &mut len).cast::<u8>();
                            // Keeps the string below the table: [string, table, key].
                            ffi::lua_insert(state, table);
                            given.push((
                                i,
                                Given::Str {
                                    bytes,
                                    len,
                                    slot: table,
                                },
                            ));
                            table += 1;
                        }
                        Some(i) => given.push((i, Given::Value(raw.pop_value()))),
                        None => {
                            if unknown.is_none() {
                                ffi::lua_pushvalue(state, -2);
                                unknown = Some(raw.pop_value());
                            }
                            ffi::lua_pop(state, 1);
                        }
                    }
                }
                ffi::lua_pop(state, 1);
            }
            Ok((any, unknown))
        })?;
        match unknown {
            None => Ok(any),
            Some(k) => {
                let keys = class.keys();
                let hint = match &k {
                    Value::String(s) => did_you_mean(&s.to_string_lossy(), &keys),
                    _ => String::new(),
                };
                Err(self.call.fail(format!(
                    "unknown option {} in {}{hint} (valid: {})",
                    match &k {
                        Value::String(s) => format!("'{}'", s.to_string_lossy()),
                        other => shown(other),
                    },
                    self.name,
                    keys.join(", ")
                )))
            }
        }
    }

    /// What the table gave in slot `i` (`None` when it did not: `lua_next` never yields a
    /// nil value).
    #[inline]
    fn at(&self, i: usize) -> Option<&Given> {
        self.given
            .iter()
            .find_map(|(slot, v)| (*slot == i).then_some(v))
    }

    /// A string option's text: borrowed when it is UTF-8, else its lossy conversion.
    fn text_of(&self, bytes: *const u8, len: usize) -> Text<'_> {
        // SAFETY: the string lies on the call's stack while the binding runs, and so while
        // these options live (see `Given::Str`).
        let bytes = unsafe { std::slice::from_raw_parts(bytes, len) };
        match std::str::from_utf8(bytes) {
            Ok(s) => Text::InPlace(s),
            Err(_) => Text::Lossy(String::from_utf8_lossy(bytes).into_owned()),
        }
    }

    #[inline]
    fn field(&self, key: &str) -> (usize, &'static Field) {
        match field_of(self.class, key.as_bytes()) {
            Some(found) => found,
            None => self.undeclared(key),
        }
    }

    #[cold]
    #[inline(never)]
    fn undeclared(&self, key: &str) -> ! {
        unreachable!("{} has no option '{key}'", self.class.name)
    }

    /// The value of `key` (nil when absent).
    pub fn value(&self, key: &str) -> Value {
        match self.at(self.field(key).0) {
            None => Value::Nil,
            Some(Given::Value(v)) => v.clone(),
            Some(Given::Str { slot, .. }) => self.call.lua.exec_raw_lua(|raw| {
                // SAFETY: the string is at `slot` on the call's stack (see `Given::Str`); the
                // copy pushed is popped as the value.
                unsafe {
                    if mlua::ffi::lua_checkstack(raw.state(), 1) == 0 {
                        return Value::Nil;
                    }
                    mlua::ffi::lua_pushvalue(raw.state(), *slot);
                    raw.pop_value()
                }
            }),
        }
    }

    /// Whether `key` was given.
    pub fn has(&self, key: &str) -> bool {
        self.at(self.field(key).0).is_some()
    }

    /// The error for `key` of the wrong type or out of range.
    pub fn bad(&self, key: &str) -> mlua::Error {
        let f = self.field(key).1;
        let v = self.value(key);
        if absent(&v) {
            return self
                .call
                .fail(format!("{} needs '{key}': {}", self.name, f.ty.describe()));
        }
        self.call.fail(format!(
            "{}.{key} must be {}, got {}",
            self.name,
            f.ty.describe(),
            shown(&v)
        ))
    }

    /// An integer option (its default when absent).
    pub fn int(&self, key: &str) -> mlua::Result<i64> {
        let (i, f) = self.field(key);
        match (self.int_at(key, i, f)?, f.default) {
            (Some(n), _) => Ok(n),
            (None, Default::Int(d)) => Ok(d),
            (None, _) => Err(self.bad(key)),
        }
    }

    /// An integer option without a default; `None` when absent.
    pub fn opt_int(&self, key: &str) -> mlua::Result<Option<i64>> {
        let (i, f) = self.field(key);
        self.int_at(key, i, f)
    }

    /// [`Opts::opt_int`] of `key`, found in slot `i` as field `f`.
    fn int_at(&self, key: &str, i: usize, f: &Field) -> mlua::Result<Option<i64>> {
        match self.at(i) {
            None => Ok(None),
            Some(Given::Value(v)) => check_int(&f.ty, v).map(Some).ok_or_else(|| self.bad(key)),
            Some(Given::Str { .. }) => Err(self.bad(key)),
        }
    }

    /// A number option (its default when absent).
    pub fn num(&self, key: &str) -> mlua::Result<f64> {
        let (i, f) = self.field(key);
        match (self.at(i), f.default) {
            (None, Default::Num(d)) => Ok(d),
            (None, Default::Int(d)) => Ok(d as f64),
            (Some(Given::Value(v)), _) => check_num(&f.ty, v).ok_or_else(|| self.bad(key)),
            _ => Err(self.bad(key)),
        }
    }

    /// A boolean option (its default, else false, when absent).
    pub fn bool(&self, key: &str) -> mlua::Result<bool> {
        let (i, f) = self.field(key);
        match self.at(i) {
            Some(Given::Value(Value::Boolean(b))) => Ok(*b),
            None => Ok(matches!(f.default, Default::Bool(true))),
            _ => Err(self.bad(key)),
        }
    }

    /// A string option (its default when absent).
    pub fn str(&self, key: &str) -> mlua::Result<String> {
        self.text(key).map(|t| t.to_string())
    }

    /// [`Opts::str`], lent where it lies instead of copied into a Rust string.
    pub fn text(&self, key: &str) -> mlua::Result<Text<'_>> {
        let (i, f) = self.field(key);
        self.text_at(key, i, f)
    }

    /// [`Opts::text`] of `key`, found in slot `i` as field `f`.
    fn text_at(&self, key: &str, i: usize, f: &Field) -> mlua::Result<Text<'_>> {
        match (self.at(i), f.default) {
            (Some(Given::Str { bytes, len, .. }), _) => Ok(self.text_of(*bytes, *len)),
            (None, Default::Str(d)) => Ok(Text::Declared(d)),
            _ => Err(self.bad(key)),
        }
    }

    /// A string option without a default; `None` when absent.
    pub fn opt_str(&self, key: &str) -> mlua::Result<Option<String>> {
        let i = self.field(key).0;
        match self.at(i) {
            None => Ok(None),
            Some(Given::Str { bytes, len, .. }) => Ok(Some(self.text_of(*bytes, *len).to_string())),
            Some(Given::Value(_)) => Err(self.bad(key)),
        }
    }

    /// A choice option: the index of its value among the declared choices.
    pub fn choice(&self, key: &str) -> mlua::Result<usize> {
        let (i, f) = self.field(key);
        let Ty::Choice(names) = f.ty else {
            unreachable!("{}.{key} is no choice", self.class.name)
        };
        let s = self.text_at(key, i, f)?;
        names.iter().position(|n| *n == &*s).ok_or_else(|| {
            self.call.fail(format!(
                "{}.{key} = \"{s}\" is not one of {}{}",
                self.name,
                quoted(names),
                did_you_mean(&s, names)
            ))
        })
    }

    /// A terrain option on `map` (its default name when absent).
    pub fn terrain(&self, key: &str, map: &Map) -> mlua::Result<TerrainId> {
        terrain_id(self.call, map, &self.text(key)?)
    }

    /// An optional terrain option; `None` when absent.
    pub fn opt_terrain(&self, key: &str, map: &Map) -> mlua::Result<Option<TerrainId>> {
        let i = self.field(key).0;
        match self.at(i) {
            None => Ok(None),
            Some(Given::Str { bytes, len, .. }) => {
                terrain_id(self.call, map, &self.text_of(*bytes, *len)).map(Some)
            }
            Some(Given::Value(_)) => Err(self.bad(key)),
        }
    }

    /// A priority option: a number 0..=255 or a name; `None` when absent.
    pub fn priority(&self, key: &str) -> mlua::Result<Option<u8>> {
        let i = self.field(key).0;
        match self.at(i) {
            None => Ok(None),
            Some(Given::Str { bytes, len, .. }) => {
                let s = self.text_of(*bytes, *len);
                priority::by_name(&s).map(Some).ok_or_else(|| {
                    let names: Vec<String> = priority::NAMED
                        .iter()
                        .map(|(n, _)| n.to_ascii_lowercase())
                        .collect();
                    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                    self.call.fail(format!(
                        "{}.{key} = \"{s}\" is not a priority name{} (valid: 0..=255 or {})",
                        self.name,
                        did_you_mean(&s.to_ascii_lowercase(), &refs),
                        refs.join(", ")
                    ))
                })
            }
            Some(Given::Value(v)) => match as_int(v) {
                Some(n) => u8::try_from(n).map(Some).map_err(|_| {
                    self.call.fail(format!(
                        "{}.{key} = {n} is out of range (0..=255)",
                        self.name
                    ))
                }),
                None => Err(self.bad(key)),
            },
        }
    }

    /// A table option; `None` when absent.
    pub fn opt_table(&self, key: &str) -> mlua::Result<Option<Table>> {
        match self.at(self.field(key).0) {
            None => Ok(None),
            Some(Given::Value(Value::Table(t))) => Ok(Some(t.clone())),
            _ => Err(self.bad(key)),
        }
    }

    /// A required table option.
    pub fn table(&self, key: &str) -> mlua::Result<Table> {
        self.opt_table(key)?.ok_or_else(|| self.bad(key))
    }

    /// The call these options belong to.
    pub fn call(&self) -> &Call<'_> {
        self.call
    }
}

/// The slot of `key` among a class's keys (own keys first, then the parents').
fn slot_of(class: &'static Class, key: &[u8]) -> Option<usize> {
    field_of(class, key).map(|(i, _)| i)
}

/// The slot of `key` among a class's keys (own keys first, then the parents'), and its field.
fn field_of(class: &'static Class, key: &[u8]) -> Option<(usize, &'static Field)> {
    let mut base = 0;
    let mut c = Some(class);
    while let Some(cl) = c {
        for (i, f) in cl.fields.iter().enumerate() {
            if f.key.as_bytes() == key {
                return Some((base + i, f));
            }
        }
        base += cl.fields.len();
        c = cl.parent;
    }
    None
}
