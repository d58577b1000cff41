//! Accounting for the work a phase does, so that whoever runs it — a Lua host with budgets, a
//! game with a frame deadline — is charged from what actually happened, and can stop a phase
//! that runs too long.
//!
//! A phase takes a `&mut dyn Meter` and reports its work as it goes, in cells touched (writing,
//! flooding or scanning one map cell is one unit). When the meter refuses, the phase stops at
//! once with [`Stopped`], leaving the map in a state that is valid but unfinished. Loops that
//! do a little work a step report it in batches ([`Batched`], up to [`Batched::BATCH`] units),
//! so such a phase may stop up to that much work past the point its meter ran out.

use thiserror::Error;

/// A phase stopped because its meter refused more work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("stopped: the work budget ran out")]
pub struct Stopped;

/// Receives the work phases report.
pub trait Meter {
    /// Charges `cells` units of work (one unit: touching one map cell). An error stops the
    /// phase.
    fn work(&mut self, cells: u64) -> Result<(), Stopped>;
}

/// A meter that never stops anything (for games and tests that need no budget).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unmetered;

impl Meter for Unmetered {
    fn work(&mut self, _: u64) -> Result<(), Stopped> {
        Ok(())
    }
}

/// A meter that counts the work reported and stops once more than `limit` units were charged.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Units charged so far.
    pub cells: u64,
    /// Most units allowed (`u64::MAX`: no limit).
    pub limit: u64,
}

impl Tally {
    /// A tally without a limit.
    pub fn new() -> Tally {
        Tally::with_limit(u64::MAX)
    }

    /// A tally that stops after `limit` units.
    pub fn with_limit(limit: u64) -> Tally {
        Tally { cells: 0, limit }
    }
}

impl Meter for Tally {
    fn work(&mut self, cells: u64) -> Result<(), Stopped> {
        self.cells = self.cells.saturating_add(cells);
        if self.cells > self.limit {
            Err(Stopped)
        } else {
            Ok(())
        }
    }
}

/// Reports work to a meter in batches, so a loop that does a little work per step pays one
/// meter call per [`Batched::BATCH`] units; [`Batched::finish`] reports the rest.
pub struct Batched<'m> {
    meter: &'m mut dyn Meter,
    pending: u64,
}

impl<'m> Batched<'m> {
    /// Units gathered before they are reported.
    pub const BATCH: u64 = 1024;

    /// Batches the work reported to `meter`.
    pub fn new(meter: &'m mut dyn Meter) -> Batched<'m> {
        Batched { meter, pending: 0 }
    }

    /// Adds `cells` units; reports the batch once it is full.
    #[inline]
    pub fn work(&mut self, cells: u64) -> Result<(), Stopped> {
        self.pending += cells;
        if self.pending >= Self::BATCH {
            let n = std::mem::take(&mut self.pending);
            self.meter.work(n)?;
        }
        Ok(())
    }

    /// Reports what is left.
    pub fn finish(self) -> Result<(), Stopped> {
        match self.pending {
            0 => Ok(()),
            n => self.meter.work(n),
        }
    }
}
