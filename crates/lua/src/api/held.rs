//! Rust-side data that Lua objects own (towns, status lists) lives outside the Lua allocator, so
//! the state's memory limit cannot see it. Each such object holds a [`Charge`] for its size;
//! together the charges may not exceed the memory limit, so a script cannot escape the limit by
//! making many large objects.

use crate::state::{self, fail};
use mlua::Lua;
use std::cell::Cell;
use std::rc::Rc;

/// Bytes currently held by Lua objects of one state.
#[derive(Clone, Default)]
struct Held(Rc<Cell<usize>>);

/// A share of the memory limit, returned when the object holding it is collected.
#[derive(Debug)]
pub struct Charge {
    bytes: usize,
    held: Rc<Cell<usize>>,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.held.set(self.held.get().saturating_sub(self.bytes));
    }
}

/// Reserves `bytes` for a new object made by `call`. When the limit would be exceeded, garbage
/// is collected first (dropped objects return their charge); if that is not enough, the call
/// fails naming the size and the limit.
pub fn charge(lua: &Lua, bytes: usize, call: &str) -> mlua::Result<Charge> {
    let held = held(lua)?;
    let limit = state::state(lua).budget.limits().memory;
    let fits = |held: &Held| held.0.get().saturating_add(bytes) <= limit;
    if !fits(&held) {
        // Two full cycles: the first runs finalizers, the second frees what they released.
        lua.gc_collect()?;
        lua.gc_collect()?;
    }
    if !fits(&held) {
        return Err(fail(
            lua,
            format!(
                "{call}: needs {} MiB but objects already hold {} MiB of the {} MiB memory limit \
                 (raise it with --max-memory)",
                bytes.div_ceil(1 << 20),
                held.0.get() >> 20,
                limit >> 20
            ),
        ));
    }
    held.0.set(held.0.get() + bytes);
    Ok(Charge {
        bytes,
        held: held.0,
    })
}

/// The state's counter, created on first use.
fn held(lua: &Lua) -> mlua::Result<Held> {
    if let Some(h) = lua.app_data_ref::<Held>() {
        return Ok(h.clone());
    }
    let h = Held::default();
    lua.try_set_app_data(h.clone())
        .map_err(|_| mlua::Error::RuntimeError("Lua app data is busy".into()))?;
    Ok(h)
}
