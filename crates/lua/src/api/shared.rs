//! The value inside a map or rng userdata, in a cell of warren's own: a shared allocation with
//! its own borrow flag, rather than the userdata's memory and mlua's flag.
//!
//! Bindings reach the value through its userdata as mlua hands it to them (always a shared
//! mlua borrow), then borrow it from the cell ([`Shared::read`], [`Shared::write`]). The fast
//! calls ([`super::fast`]) reach the same cell by pointer, without mlua. Both see one flag, so
//! neither can read a value the other is changing: a callback, an `__index` or a finalizer that
//! runs while a binding holds a map finds it in use, whichever way it calls.

use std::cell::{Cell, UnsafeCell};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

/// The payload of a userdata whose value warren shares with the fast calls.
pub struct Shared<T>(Rc<SharedCell<T>>);

impl<T> Clone for Shared<T> {
    /// Another handle on the same cell (the host keeps one for the map and `ctx.rng` it
    /// refills every run, so it need not borrow them through mlua).
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

/// A value and its borrow flag.
pub struct SharedCell<T> {
    /// How many readers hold the value, or [`WRITING`] while a writer does.
    borrows: Cell<isize>,
    value: UnsafeCell<T>,
}

/// [`SharedCell::borrows`] while the value is borrowed to be changed.
const WRITING: isize = -1;

impl<T: 'static> Shared<T>
where
    Shared<T>: mlua::UserData,
{
    /// A userdata payload holding `value`.
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(SharedCell {
            borrows: Cell::new(0),
            value: UnsafeCell::new(value),
        }))
    }

    /// The value, to read; `None` while a binding is changing it.
    pub fn read(&self) -> Option<ReadGuard<T>> {
        let n = self.0.borrows.get();
        (n != WRITING).then(|| {
            self.0.borrows.set(n + 1);
            ReadGuard(self.0.clone())
        })
    }

    /// The value, to change; `None` while anything else holds it.
    pub fn write(&self) -> Option<WriteGuard<T>> {
        (self.0.borrows.get() == 0).then(|| {
            self.0.borrows.set(WRITING);
            WriteGuard(self.0.clone())
        })
    }

    /// [`Shared::read`] for the value in `ud`, with mlua's borrow error when it is in use.
    pub fn read_ud(ud: &mlua::AnyUserData) -> mlua::Result<ReadGuard<T>> {
        ud.borrow::<Shared<T>>()?.read_or_busy()
    }

    /// [`Shared::write`] for the value in `ud`, with mlua's borrow error when it is in use.
    pub fn write_ud(ud: &mlua::AnyUserData) -> mlua::Result<WriteGuard<T>> {
        ud.borrow::<Shared<T>>()?.write_or_busy()
    }

    /// [`Shared::read`], with mlua's borrow error when a binding is changing the value.
    pub fn read_or_busy(&self) -> mlua::Result<ReadGuard<T>> {
        self.read().ok_or(mlua::Error::UserDataBorrowError)
    }

    /// [`Shared::write`], with mlua's borrow error when the value is in use.
    pub fn write_or_busy(&self) -> mlua::Result<WriteGuard<T>> {
        self.write().ok_or(mlua::Error::UserDataBorrowMutError)
    }

    /// The cell, for the fast calls. It stays valid as long as this payload does: the payload
    /// never lets go of its cell.
    pub fn cell(&self) -> *const SharedCell<T> {
        Rc::as_ptr(&self.0)
    }
}

impl<T> SharedCell<T> {
    /// `f` on the value, unless a binding is changing it. `f` must not run Lua code (nothing
    /// can borrow the value meanwhile, so none is taken).
    pub fn peek<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        // SAFETY: no writer holds the value, and `f` runs no code that could take one.
        (self.borrows.get() != WRITING).then(|| f(unsafe { &*self.value.get() }))
    }

    /// `f` on the value to change it, unless anything holds it. `f` must not run Lua code.
    pub fn poke<R>(&self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        // SAFETY: nothing holds the value, and `f` runs no code that could take it.
        (self.borrows.get() == 0).then(|| f(unsafe { &mut *self.value.get() }))
    }
}

/// A value borrowed to read (see [`Shared::read`]).
pub struct ReadGuard<T>(Rc<SharedCell<T>>);

impl<T> Deref for ReadGuard<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this reader is counted, so no writer exists until it is dropped.
        unsafe { &*self.0.value.get() }
    }
}

impl<T> Drop for ReadGuard<T> {
    fn drop(&mut self) {
        self.0.borrows.set(self.0.borrows.get() - 1);
    }
}

/// A value borrowed to change (see [`Shared::write`]).
pub struct WriteGuard<T>(Rc<SharedCell<T>>);

impl<T> Deref for WriteGuard<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this writer holds the value alone until it is dropped.
        unsafe { &*self.0.value.get() }
    }
}

impl<T> DerefMut for WriteGuard<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as for `deref`; `&mut self` keeps this the only reference through the guard.
        unsafe { &mut *self.0.value.get() }
    }
}

impl<T> Drop for WriteGuard<T> {
    fn drop(&mut self) {
        self.0.borrows.set(0);
    }
}
