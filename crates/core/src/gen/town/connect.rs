//! Growing the streets (steps 5 and 6): `connectstreets` joins every street into one, then
//! `finishalleys` runs alleys until no cell is isolated.

use super::grid::Heading;
use super::{Source, Town, TownError, DEAD, FROM_DEAD, FROM_LIVE, ISOLATED, LIVE, STREET};
use crate::gen::meter::{Batched, Meter};
use crate::rng::Rng;

/// How `connect_streets` uses its third strategy, streets through random DEAD cells (rooms that
/// already have a street beside them). The TownMaze document warns that it "tends to make the
/// town maze more open, and to destroy the back to back rooms that are the whole goal".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadStreets {
    /// As TownMaze: once the first two strategies are spent, DEAD cells become streets until
    /// every street is joined.
    #[default]
    Freely,
    /// One street through a DEAD cell at a time, then back to the first two strategies (the
    /// LIVE cells and the DEAD cells between two streets that street may have opened up), so
    /// the third is used only as much as it must be.
    Sparingly,
}

impl DeadStreets {
    /// Every policy's name, as options spell it.
    pub const NAMES: [&'static str; 2] = ["freely", "sparingly"];

    /// Parses a policy name.
    pub fn from_name(name: &str) -> Option<DeadStreets> {
        match name {
            "freely" => Some(DeadStreets::Freely),
            "sparingly" => Some(DeadStreets::Sparingly),
            _ => None,
        }
    }
}

/// The cells one street cell touches when it is laid: itself and the statuses two links away.
const GROW_WORK: u64 = 13;

impl Town {
    /// Step 5 (`connectstreets`): extends streets until they are all one, with the original's
    /// three strategies in turn: random LIVE cells; then every interior DEAD cell that touches
    /// two different streets; then random interior DEAD cells (not beside UNUSED cells).
    /// Straightness applies to the first and third. Uses the third strategy freely, as
    /// TownMaze does; see [`Town::connect_streets_with`].
    ///
    /// Fails with [`TownError::NoStreets`] if no street exists, and with
    /// [`TownError::Disconnected`] if streets remain apart with no cell left that could join them.
    pub fn connect_streets(
        &mut self,
        rng: &mut Rng,
        meter: &mut dyn Meter,
    ) -> Result<(), TownError> {
        self.connect_streets_with(rng, DeadStreets::Freely, meter)
    }

    /// [`Town::connect_streets`] with the third strategy used as `dead` says.
    pub fn connect_streets_with(
        &mut self,
        rng: &mut Rng,
        dead: DeadStreets,
        meter: &mut dyn Meter,
    ) -> Result<(), TownError> {
        if self.streets.distinct() == 0 {
            return Err(TownError::NoStreets);
        }
        let mut work = Batched::new(meter);
        // The original runs each strategy once; repeating them lets LIVE cells that the third
        // strategy creates be used too, so the loop ends only when joined or truly stuck.
        loop {
            while self.streets.distinct() > 1 && self.grow(rng, FROM_LIVE) {
                work.work(GROW_WORK)?;
            }
            if self.streets.distinct() <= 1 {
                break;
            }
            work.work(self.lists.size(DEAD) as u64)?;
            self.join_across_dead(rng);
            if self.streets.distinct() <= 1 {
                break;
            }
            let grew = match dead {
                DeadStreets::Freely => {
                    while self.streets.distinct() > 1 && self.grow(rng, FROM_DEAD) {
                        work.work(GROW_WORK)?;
                    }
                    false
                }
                DeadStreets::Sparingly => {
                    work.work(GROW_WORK)?;
                    self.grow(rng, FROM_DEAD)
                }
            };
            if self.streets.distinct() <= 1 {
                break;
            }
            if !grew && self.lists.size(LIVE) == 0 {
                return Err(TownError::Disconnected {
                    streets: self.streets.distinct(),
                });
            }
        }
        Ok(work.finish()?)
    }

    /// Makes a random cell of `from` a street, drawn as TownMaze's loop — pick a cell, let
    /// the straightness roll refuse it unless it continues a street, repeat — would accept it:
    /// a continuing cell with weight 1000, a bend with weight 1000 − straightness. Same result,
    /// without the refused picks. Returns whether a street was made (false: the pool is empty).
    pub fn grow(&mut self, rng: &mut Rng, from: Source) -> bool {
        let ahead = self.growth.size(from.ahead) as u64;
        let bends = self.growth.size(from.bend) as u64;
        let bend_weight = (1000 - self.params.straightness) as u64;
        let total = ahead * 1000 + bends * bend_weight;
        if total == 0 {
            return false;
        }
        let kind = if rng.below(total) < ahead * 1000 {
            from.ahead
        } else {
            from.bend
        };
        match self.growth.pick_from(kind, rng) {
            Some(cell) => self.lay_street(cell, None),
            None => false,
        }
    }

    /// Strategy two: every interior DEAD cell whose neighbours include two different streets
    /// becomes a street, heading the way one of them runs (`cheapdir`).
    fn join_across_dead(&mut self, rng: &mut Rng) {
        let dead: Vec<u32> = self.lists.list(DEAD).to_vec();
        for cell in dead {
            let cell = cell as usize;
            if self.streets.distinct() <= 1 {
                return;
            }
            if self.lists.of(cell) != DEAD || !self.edges.is_interior(cell) {
                continue;
            }
            if let Some(heading) = self.cheap_dir(cell) {
                self.build_street(rng, cell, Some(heading));
            }
        }
    }

    /// The heading of the first neighbouring street that differs from another neighbouring
    /// street, or `None` if all neighbouring streets are one.
    fn cheap_dir(&self, cell: usize) -> Option<Heading> {
        let mut found = [(Heading::North, 0, 0); 4];
        let mut len = 0;
        for (h, n) in self.edges.neighbours(cell) {
            if self.lists.of(n) == STREET {
                found[len] = (h, n, self.streets.label(self.street[n]));
                len += 1;
            }
        }
        let found = &found[..len];
        let &(h, n, _) = found.iter().find(|a| found.iter().any(|b| b.2 != a.2))?;
        // Streets made through the public API without a heading have none: run away from it.
        Some(self.heading[n].unwrap_or(h.opposite()))
    }

    /// Step 6 (`finishalleys`): turns random LIVE cells into streets (straightness applies)
    /// until none is left. Fails with [`TownError::Unreached`] if isolated cells remain, which
    /// happens only when no street exists.
    pub fn finish_alleys(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<(), TownError> {
        let mut work = Batched::new(meter);
        while self.grow(rng, FROM_LIVE) {
            work.work(GROW_WORK)?;
        }
        work.finish()?;
        match self.lists.size(ISOLATED) {
            0 => Ok(()),
            cells => Err(TownError::Unreached { cells }),
        }
    }
}
