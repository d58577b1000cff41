//! The map inside a map userdata, in a cell of warren's own: a shared allocation with its own
//! borrow flag, rather than the userdata's memory and mlua's flag.
//!
//! Bindings reach a map through its userdata as mlua hands it to them (always a shared mlua
//! borrow), then borrow the map from the cell ([`LuaMap::read`], [`LuaMap::write`]). The fast
//! calls ([`super::fast`]) reach the same cell by pointer, without mlua. Both see one flag, so
//! neither can read a map the other is changing: a callback, an `__index` or a finalizer that
//! runs while a binding holds the map finds it in use, whichever way it calls.

use std::cell::{Cell, UnsafeCell};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;
use warren_core::map::Map;

/// The payload of a map userdata.
pub struct LuaMap(Rc<MapCell>);

/// A map and its borrow flag.
pub struct MapCell {
    /// How many readers hold the map, or [`WRITING`] while a writer does.
    borrows: Cell<isize>,
    map: UnsafeCell<Map>,
}

/// [`MapCell::borrows`] while the map is borrowed to be changed.
const WRITING: isize = -1;

impl LuaMap {
    /// A userdata payload holding `map`.
    pub fn new(map: Map) -> LuaMap {
        LuaMap(Rc::new(MapCell {
            borrows: Cell::new(0),
            map: UnsafeCell::new(map),
        }))
    }

    /// The map, to read; `None` while a binding is changing it.
    pub fn read(&self) -> Option<MapRef> {
        let n = self.0.borrows.get();
        (n != WRITING).then(|| {
            self.0.borrows.set(n + 1);
            MapRef(self.0.clone())
        })
    }

    /// The map, to change; `None` while anything else holds it.
    pub fn write(&self) -> Option<MapMut> {
        (self.0.borrows.get() == 0).then(|| {
            self.0.borrows.set(WRITING);
            MapMut(self.0.clone())
        })
    }

    /// [`LuaMap::read`] for the map in `ud`, with mlua's borrow error when it is in use.
    pub fn read_ud(ud: &mlua::AnyUserData) -> mlua::Result<MapRef> {
        ud.borrow::<LuaMap>()?
            .read()
            .ok_or(mlua::Error::UserDataBorrowError)
    }

    /// [`LuaMap::write`] for the map in `ud`, with mlua's borrow error when it is in use.
    pub fn write_ud(ud: &mlua::AnyUserData) -> mlua::Result<MapMut> {
        ud.borrow::<LuaMap>()?
            .write()
            .ok_or(mlua::Error::UserDataBorrowMutError)
    }

    /// The cell, for the fast calls. It stays valid as long as this payload does: the payload
    /// never lets go of its cell.
    pub fn cell(&self) -> *const MapCell {
        Rc::as_ptr(&self.0)
    }
}

impl MapCell {
    /// `f` on the map, unless a binding is changing it. `f` must not run Lua code (nothing can
    /// borrow the map meanwhile, so none is taken).
    pub fn peek<R>(&self, f: impl FnOnce(&Map) -> R) -> Option<R> {
        // SAFETY: no writer holds the map, and `f` runs no code that could take one.
        (self.borrows.get() != WRITING).then(|| f(unsafe { &*self.map.get() }))
    }

    /// `f` on the map to change it, unless anything holds it. `f` must not run Lua code.
    pub fn poke<R>(&self, f: impl FnOnce(&mut Map) -> R) -> Option<R> {
        // SAFETY: nothing holds the map, and `f` runs no code that could take it.
        (self.borrows.get() == 0).then(|| f(unsafe { &mut *self.map.get() }))
    }
}

/// A map borrowed to read (see [`LuaMap::read`]).
pub struct MapRef(Rc<MapCell>);

impl Deref for MapRef {
    type Target = Map;
    fn deref(&self) -> &Map {
        // SAFETY: this reader is counted, so no writer exists until it is dropped.
        unsafe { &*self.0.map.get() }
    }
}

impl Drop for MapRef {
    fn drop(&mut self) {
        self.0.borrows.set(self.0.borrows.get() - 1);
    }
}

/// A map borrowed to change (see [`LuaMap::write`]).
pub struct MapMut(Rc<MapCell>);

impl Deref for MapMut {
    type Target = Map;
    fn deref(&self) -> &Map {
        // SAFETY: this writer holds the map alone until it is dropped.
        unsafe { &*self.0.map.get() }
    }
}

impl DerefMut for MapMut {
    fn deref_mut(&mut self) -> &mut Map {
        // SAFETY: as for `deref`; `&mut self` keeps this the only reference through the guard.
        unsafe { &mut *self.0.map.get() }
    }
}

impl Drop for MapMut {
    fn drop(&mut self) {
        self.0.borrows.set(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use warren_core::map::TerrainTable;

    fn sample() -> LuaMap {
        let terrains = Arc::new(TerrainTable::plain(&[("rock", '#', true)]));
        LuaMap::new(Map::new(2, 2, 0, terrains).unwrap())
    }

    #[test]
    fn readers_share_and_writers_are_alone() {
        let m = sample();
        let (a, b) = (m.read().unwrap(), m.read().unwrap());
        assert!(m.write().is_none(), "no writer beside readers");
        let cell = unsafe { &*m.cell() };
        assert_eq!(cell.peek(|map| map.width()), Some(2));
        assert_eq!(cell.poke(|_| ()), None, "no fast write beside readers");
        drop((a, b));
        let w = m.write().unwrap();
        assert!(m.read().is_none() && m.write().is_none());
        assert_eq!(cell.peek(|_| ()), None, "no fast read beside a writer");
        drop(w);
        assert_eq!(cell.poke(|map| map.height()), Some(2));
        assert!(m.write().is_some(), "every borrow was given back");
    }
}
