//! The Lua host's [`Meter`]: the work a core phase reports is charged to the generation's
//! budget as it happens (four cells cost one instruction-equivalent), so a phase that runs too
//! long stops within the budget and the error names the recipe line that called it.

use super::cost;
use crate::budget::{raw_script_location, Budget};
use crate::state::{charge_to, state};
use mlua::{ffi::lua_State, Lua};
use warren_core::gen::meter::{Meter, Stopped};

/// Charges a phase's work to the running generation's budget.
pub struct LuaMeter<'a> {
    lua: &'a Lua,
    /// The budget charged, looked up once per phase (not once per report).
    budget: &'a Budget,
    /// Cells reported but not yet charged (less than one instruction's worth).
    pending: u64,
    /// The budget error that stopped the phase.
    error: Option<mlua::Error>,
}

impl<'a> LuaMeter<'a> {
    /// A meter charging `lua`'s budget.
    pub fn new(lua: &'a Lua) -> LuaMeter<'a> {
        LuaMeter {
            lua,
            budget: &state(lua).budget,
            pending: 0,
            error: None,
        }
    }

    /// The budget error that stopped the phase (what the binding raises for a [`Stopped`]).
    pub fn stopped(&mut self) -> mlua::Error {
        self.error
            .take()
            .unwrap_or_else(|| crate::state::exceeded_error(self.lua))
    }
}

impl Meter for LuaMeter<'_> {
    fn work(&mut self, cells: u64) -> Result<(), Stopped> {
        let units = units(&mut self.pending, cells);
        if units == 0 {
            return Ok(());
        }
        charge_to(self.lua, self.budget, units).map_err(|e| {
            self.error = Some(e);
            Stopped
        })
    }
}

/// Whole instruction-equivalents in `pending` plus `cells` reported cells; the rest stays
/// pending.
fn units(pending: &mut u64, cells: u64) -> u64 {
    let total = pending.saturating_add(cells);
    *pending = total % cost::CELLS_PER_INSTRUCTION;
    total / cost::CELLS_PER_INSTRUCTION
}

/// [`LuaMeter`] for a fast call, which has the raw state and no [`Lua`]: the same charges, a
/// budget error located at the same script line; the budget trips, and the call that follows
/// raises its error.
pub struct RawMeter<'a> {
    l: *mut lua_State,
    budget: &'a Budget,
    pending: u64,
}

impl<'a> RawMeter<'a> {
    /// A meter charging `budget` for a fast call running on `l`.
    pub fn new(l: *mut lua_State, budget: &'a Budget) -> RawMeter<'a> {
        RawMeter {
            l,
            budget,
            pending: 0,
        }
    }
}

impl Meter for RawMeter<'_> {
    fn work(&mut self, cells: u64) -> Result<(), Stopped> {
        let units = units(&mut self.pending, cells);
        if units == 0 {
            return Ok(());
        }
        // SAFETY: `l` is the state running the fast call, at a point where its stack can be
        // read.
        let located = || unsafe { raw_script_location(self.l) };
        self.budget.charge(units, located).map_err(|_| Stopped)
    }
}
