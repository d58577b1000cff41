//! Rust data straight onto the Lua stack, for `ctx.regions`: the tables mlua's serializer made
//! (`Lua::to_value_with`: `None` and `()` as nil, no array metatable), built with the same
//! sizes, the same keys in the same order and the same objects in the same order, so the
//! frozen copy made from them iterates, numbers its objects and reads exactly as before. What
//! changes is the cost: mlua makes every step a protected call of its own (a table, a key, a
//! value) and moves each value through its reference stack; here the whole build is one C
//! function, its Lua API calls unprotected inside the one protected call that runs it. That was
//! 2.1 M of the 11.4 M instructions a state took to load.
//!
//! Nothing on the Rust frames below needs dropping (the serializer holds a state pointer and
//! indices, its error is a unit struct), so a Lua error (out of memory) may cross them.

use crate::ffi::{lua_warren_getidbase, lua_warren_setidbase};
use crate::readonly;
use mlua::{ffi, LightUserData, Lua, Table};
use serde::ser::{self, Serialize, Serializer};
use std::ffi::{c_int, c_void};

/// The read-only copy of `data` as Lua tables, named `name` in write errors (`ctx.regions`).
pub fn frozen<T: Serialize>(lua: &Lua, data: &T, name: &str) -> mlua::Result<Table> {
    // SAFETY: a C function for this crate's patched Lua; it reads `data` through the light
    // userdata while this call borrows it.
    let build = unsafe { lua.create_c_function(build_frozen::<T>)? };
    build.call((LightUserData(data as *const T as *mut c_void), name))
}

/// `build(data, name)`: pushes `data` (the `T` the light userdata points at) and returns its
/// frozen copy.
unsafe extern "C-unwind" fn build_frozen<T: Serialize>(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by `frozen` with a pointer to a live `T` and a name; every error raised
    // below crosses only frames that hold nothing to drop.
    unsafe {
        let data = ffi::lua_touserdata(l, 1) as *const T;
        ffi::lua_settop(l, 2);
        ffi::lua_remove(l, 1);
        // The tables are made here and nothing else holds them: sealed where they are made,
        // not copied, all with one metatable (made apart from the ids the tables take).
        let first_id = lua_warren_getidbase(l);
        crate::state::numbered_from(l, SHARED_METATABLE_ID, || {
            readonly::push_shared_metatable(l, 1)
        });
        // The names' slots (nil until a name is kept there), then the value built above them,
        // with room for one that is not a table (a table's build makes its own, `Push::room`).
        ffi::luaL_checkstack(l, NAME_SLOTS as c_int + 4, c"ctx.regions".as_ptr());
        ffi::lua_settop(l, 2 + NAME_SLOTS as c_int);
        let root = 3 + NAME_SLOTS as c_int;
        let mut names = Names {
            first_slot: 3,
            kept: [(0, 0); NAME_SLOTS],
        };
        let push = Push {
            l,
            meta: 2,
            names: &mut names,
        };
        if (*data).serialize(push).is_err() {
            return ffi::luaL_error(l, c"ctx.regions: data Lua cannot hold".as_ptr());
        }
        if ffi::lua_type(l, root) == ffi::LUA_TTABLE {
            readonly::seal_shared(l, 2, root);
            // Every later object numbered as after a frozen copy: for each table, its copy,
            // the copy's metatable and its `__newindex` closure (and so the order of tables a
            // recipe keys by objects). The build's tables are the only objects numbered in it
            // (no script runs, and no finalizer makes objects: scripts cannot set `__gc`).
            let tables = lua_warren_getidbase(l) - first_id;
            lua_warren_setidbase(l, first_id + 4 * tables);
        }
        ffi::lua_replace(l, 2);
        ffi::lua_settop(l, 2);
    }
    1
}

/// Where the shared metatable of `ctx.regions` and its `__newindex` are numbered (see
/// `lua_warren_setidbase`), from this id every time `ctx.regions` is built: scripts cannot
/// reach them (so cannot key a table by them), and numbered apart they move no id of what
/// loading and runs number (`host.rs`, `api::fast`).
const SHARED_METATABLE_ID: u64 = (1 << 39) + (1 << 30);

/// Data that has no Lua form here (a serializer's custom error).
#[derive(Debug)]
struct Unsupported;

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("data Lua cannot hold")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Unsupported
    }
}

type Done = Result<(), Unsupported>;

/// Slots on the stack for the names [`Names`] keeps.
const NAME_SLOTS: usize = 64;

/// The names of struct fields and enum variants pushed so far, by where their text is: they are
/// `&'static str`s, each at one address, and the same few dozen name every region entry's
/// fields. A name met again is pushed from its stack slot, where making its string anew hashed
/// it and looked it up in the string table (0.06 M of the 0.77 M instructions that building
/// `ctx.regions` took). The string is the same interned string either way, and a stack slot,
/// unlike a table, takes no object id.
struct Names {
    /// The stack index of slot 0.
    first_slot: c_int,
    /// Each slot's name (its text's address and length), `(0, 0)` while empty; a name whose
    /// slot another holds is made anew (and takes the slot).
    kept: [(usize, usize); NAME_SLOTS],
}

impl Names {
    /// The slot of the name at `address`.
    fn slot(address: usize) -> usize {
        (address ^ (address >> 7)) % NAME_SLOTS
    }
}

/// Pushes one value onto the stack of its state; every table it makes gets the shared
/// read-only metatable at `meta` (marked read-only once the whole value is built).
#[derive(Clone, Copy)]
struct Push {
    l: *mut ffi::lua_State,
    meta: c_int,
    /// The names kept on the stack (`build_frozen`'s, which outlives every `Push`).
    names: *mut Names,
}

impl Push {
    /// Room for a compound value's table, key and value.
    fn room(self) {
        // SAFETY: `self.l` is the live state of `build_frozen`.
        unsafe { ffi::luaL_checkstack(self.l, 4, c"ctx.regions".as_ptr()) };
    }

    fn string(self, s: &[u8]) -> Done {
        // SAFETY: as in `room`.
        unsafe { ffi::lua_pushlstring(self.l, s.as_ptr().cast(), s.len()) };
        Ok(())
    }

    /// Pushes `name`, a struct field's or an enum variant's, from its slot when it is kept
    /// there ([`Names`]); else makes it and keeps it.
    fn name(self, name: &'static str) {
        let address = name.as_ptr() as usize;
        let slot = Names::slot(address);
        // SAFETY: as in `room`; `names` is `build_frozen`'s, alive through the build, and no
        // other reference to it is held while this runs.
        unsafe {
            let names = &mut *self.names;
            let index = names.first_slot + slot as c_int;
            if names.kept[slot] == (address, name.len()) {
                ffi::lua_pushvalue(self.l, index);
            } else {
                ffi::lua_pushlstring(self.l, name.as_ptr().cast(), name.len());
                ffi::lua_pushvalue(self.l, -1);
                ffi::lua_replace(self.l, index);
                names.kept[slot] = (address, name.len());
            }
        }
    }

    fn integer_or_number(self, i: Option<i64>, n: f64) -> Done {
        // SAFETY: as in `room`.
        unsafe {
            match i {
                Some(i) => ffi::lua_pushinteger(self.l, i),
                None => ffi::lua_pushnumber(self.l, n),
            }
        }
        Ok(())
    }

    fn nil(self) -> Done {
        // SAFETY: as in `room`.
        unsafe { ffi::lua_pushnil(self.l) };
        Ok(())
    }

    /// A new table on top, as `create_table_with_capacity(narr, nrec)` makes it, with the
    /// shared metatable; its index.
    fn table(self, narr: usize, nrec: usize) -> c_int {
        self.room();
        // SAFETY: as in `room`; `meta` is the shared metatable's index.
        unsafe {
            ffi::lua_createtable(
                self.l,
                narr.try_into().unwrap_or(c_int::MAX),
                nrec.try_into().unwrap_or(c_int::MAX),
            );
            ffi::lua_pushvalue(self.l, self.meta);
            ffi::lua_setmetatable(self.l, -2);
            ffi::lua_gettop(self.l)
        }
    }

    /// `table[key] = value` (raw) for the value on top, then pops it.
    fn set_field(self, table: c_int, key: &'static str) {
        self.name(key);
        // SAFETY: as in `room`; `table` is an index below the key and value on top.
        unsafe {
            ffi::lua_insert(self.l, -2);
            ffi::lua_rawset(self.l, table);
        }
    }

    /// Wraps the table on top as `{ [variant] = table }` in a table made now with `nrec` slots.
    fn wrap_variant(self, variant: &'static str, nrec: usize) -> Done {
        let outer = self.table(0, nrec);
        // SAFETY: as in `room`; the inner table is just below the new one.
        unsafe {
            ffi::lua_pushvalue(self.l, outer - 1);
            self.set_field(outer, variant);
            ffi::lua_remove(self.l, outer - 1);
        }
        Ok(())
    }
}

macro_rules! integers {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Done {
            self.integer_or_number(i64::try_from(v).ok(), v as f64)
        }
    )*};
}

impl Serializer for Push {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = TupleVariant;
    type SerializeMap = Fill;
    type SerializeStruct = Fill;
    type SerializeStructVariant = StructVariant;

    fn serialize_bool(self, v: bool) -> Done {
        // SAFETY: as in `Push::room`.
        unsafe { ffi::lua_pushboolean(self.l, c_int::from(v)) };
        Ok(())
    }

    integers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128);

    fn serialize_f32(self, v: f32) -> Done {
        self.integer_or_number(None, v.into())
    }

    fn serialize_f64(self, v: f64) -> Done {
        self.integer_or_number(None, v)
    }

    fn serialize_char(self, v: char) -> Done {
        self.string(v.encode_utf8(&mut [0; 4]).as_bytes())
    }

    fn serialize_str(self, v: &str) -> Done {
        self.string(v.as_bytes())
    }

    fn serialize_bytes(self, v: &[u8]) -> Done {
        self.string(v)
    }

    fn serialize_none(self) -> Done {
        self.nil()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Done {
        v.serialize(self)
    }

    fn serialize_unit(self) -> Done {
        self.nil()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Done {
        self.nil()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Done {
        self.name(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Done {
        v.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Done {
        let table = self.table(0, 0);
        v.serialize(self)?;
        self.set_field(table, variant);
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, Unsupported> {
        Ok(Seq {
            push: self,
            table: self.table(len.unwrap_or(0), 0),
            next: 0,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Seq, Unsupported> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq, Unsupported> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<TupleVariant, Unsupported> {
        Ok(TupleVariant {
            push: self,
            table: self.table(0, 0),
            variant,
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Fill, Unsupported> {
        Ok(Fill {
            push: self,
            table: self.table(0, len.unwrap_or(0)),
        })
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Fill, Unsupported> {
        Ok(Fill {
            push: self,
            table: self.table(0, len),
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructVariant, Unsupported> {
        Ok(StructVariant {
            inner: Fill {
                push: self,
                table: self.table(0, len),
            },
            variant,
        })
    }
}

/// A sequence being filled: element `i` at `table[i]`, holes left where an element is nil.
struct Seq {
    push: Push,
    table: c_int,
    next: ffi::lua_Integer,
}

impl ser::SerializeSeq for Seq {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Done {
        v.serialize(self.push)?;
        self.next += 1;
        // SAFETY: as in `Push::room`; the element is on top of the sequence's table.
        unsafe { ffi::lua_rawseti(self.push.l, self.table, self.next) };
        Ok(())
    }

    fn end(self) -> Done {
        Ok(())
    }
}

/// Tuples and tuple structs are sequences, as mlua makes them.
macro_rules! sequences {
    ($($trait:ident::$element:ident),*) => {$(
        impl ser::$trait for Seq {
            type Ok = ();
            type Error = Unsupported;

            fn $element<T: Serialize + ?Sized>(&mut self, v: &T) -> Done {
                ser::SerializeSeq::serialize_element(self, v)
            }

            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

sequences!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

/// A tuple variant's elements, appended (`table[#table + 1]`), then wrapped.
struct TupleVariant {
    push: Push,
    table: c_int,
    variant: &'static str,
}

impl ser::SerializeTupleVariant for TupleVariant {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Done {
        v.serialize(self.push)?;
        // SAFETY: as in `Push::room`; the element is on top of the variant's table.
        unsafe {
            let len = ffi::lua_rawlen(self.push.l, self.table) as ffi::lua_Integer;
            ffi::lua_rawseti(self.push.l, self.table, len + 1);
        }
        Ok(())
    }

    fn end(self) -> Done {
        self.push.wrap_variant(self.variant, 0)
    }
}

/// A map or a struct being filled: each key (a field's name), then its value, then the pair
/// set.
struct Fill {
    push: Push,
    table: c_int,
}

impl ser::SerializeMap for Fill {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Done {
        k.serialize(self.push)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Done {
        v.serialize(self.push)?;
        // SAFETY: as in `Push::room`; the key and the value are on top of the map's table.
        unsafe { ffi::lua_rawset(self.push.l, self.table) };
        Ok(())
    }

    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeStruct for Fill {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Done {
        v.serialize(self.push)?;
        self.push.set_field(self.table, key);
        Ok(())
    }

    fn end(self) -> Done {
        Ok(())
    }
}

/// A struct variant's fields, then wrapped.
struct StructVariant {
    inner: Fill,
    variant: &'static str,
}

impl ser::SerializeStructVariant for StructVariant {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Done {
        ser::SerializeStruct::serialize_field(&mut self.inner, key, v)
    }

    fn end(self) -> Done {
        self.inner.push.wrap_variant(self.variant, 1)
    }
}
