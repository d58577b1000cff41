//! `makestreet`: turn one cell into a street and update everything that depends on it — the
//! display walls, the neighbours' statuses two links away, street numbers and directions.

use super::grid::{Heading, BLANK};
use super::{
    CellStatus, Town, TownError, DEAD, FROM_DEAD, FROM_LIVE, ISOLATED, LIVE, NO_GROWTH, STREET,
    UNUSED,
};
use crate::rng::Rng;

impl Town {
    /// Makes the cell at (`row`, `col`) a street (`makestreet`), joining it to the street of its
    /// first street neighbour (north, east, south, west) or starting a new street if it has none.
    ///
    /// With `heading` `None` the straightness check applies: unless the cell continues a
    /// neighbouring street's direction, a roll of 0..=999 below `straightness` refuses the bend.
    /// With a heading the cell is always made (it runs that way unless it continues a street).
    /// A cell beside an UNUSED cell is always refused. Returns whether a street was made.
    pub fn make_street(
        &mut self,
        rng: &mut Rng,
        row: usize,
        col: usize,
        heading: Option<Heading>,
    ) -> Result<bool, TownError> {
        let cell = self.cell(row, col)?;
        match self.status_of(cell) {
            status @ (CellStatus::Street | CellStatus::Unused) => {
                Err(TownError::NotARoom { row, col, status })
            }
            _ => Ok(self.build_street(rng, cell, heading)),
        }
    }

    /// `makestreet` on a cell known to be ISOLATED, LIVE or DEAD; with no `heading` the
    /// straightness roll may refuse a cell that does not continue a street, and a cell beside
    /// an UNUSED cell is always refused.
    pub fn build_street(&mut self, rng: &mut Rng, cell: usize, heading: Option<Heading>) -> bool {
        if heading.is_none() && !self.continues_street(cell) && self.refuses_bend(rng) {
            return false;
        }
        self.lay_street(cell, heading)
    }

    /// `makestreet` past the straightness check: makes the cell a street unless it touches an
    /// UNUSED cell.
    pub(super) fn lay_street(&mut self, cell: usize, heading: Option<Heading>) -> bool {
        let mut joins = None;
        let mut continued = None;
        for (h, n) in self.edges.neighbours(cell) {
            match self.lists.of(n) {
                // An UNUSED cell must have only rooms around it.
                UNUSED => return false,
                STREET => {
                    joins.get_or_insert(self.street[n]);
                    // Keep the last street this cell would continue.
                    if self.heading[n] == Some(h.opposite()) {
                        continued = self.heading[n];
                    }
                }
                _ => {}
            }
        }
        let number = joins.unwrap_or_else(|| self.streets.open());
        self.set_status(cell, STREET);
        self.street[cell] = number;
        let mut beside = None;
        for (h, wall) in Heading::ALL.into_iter().zip(self.grid.walls(cell)) {
            // First guess: a door in every wall; a wall on the town's edge becomes a gate.
            self.chars[wall] = h.door();
            let Some(n) = self.edges.neighbour(cell, h) else {
                continue;
            };
            match self.lists.of(n) {
                STREET => {
                    self.chars[wall] = BLANK;
                    // A bend is a turning point: it runs on away from the street it left.
                    beside = Some(h.opposite());
                    self.streets.join(number, self.street[n]);
                }
                LIVE => self.recheck_live(n),
                ISOLATED => self.wake(n),
                _ => {}
            }
        }
        // Continuing a street beats the requested heading, which beats a bend from a neighbour.
        let heading = continued.or(heading).or(beside);
        self.heading[cell] = heading;
        if let Some(ahead) = heading.and_then(|h| self.edges.neighbour(cell, h)) {
            let kind = self.growth.of(ahead);
            for source in [FROM_LIVE, FROM_DEAD] {
                if kind == source.bend {
                    self.growth.set(ahead, source.ahead);
                }
            }
        }
        true
    }

    /// Whether the cell continues a neighbouring street: that street runs towards it.
    pub(super) fn continues_street(&self, cell: usize) -> bool {
        self.edges
            .neighbours(cell)
            .any(|(h, n)| self.lists.of(n) == STREET && self.heading[n] == Some(h.opposite()))
    }

    /// Sets a cell's status and files it in the growth pools.
    pub(super) fn set_status(&mut self, cell: usize, status: usize) {
        self.lists.set(cell, status);
        let kind = self.growth_kind(cell);
        self.growth.set(cell, kind);
    }

    /// The growth pool kind a cell belongs in (see `GROWTH_KINDS`).
    pub fn growth_kind(&self, cell: usize) -> usize {
        let source = match self.lists.of(cell) {
            LIVE => FROM_LIVE,
            DEAD if self.edges.is_interior(cell) && !self.touches_unused(cell) => FROM_DEAD,
            _ => return NO_GROWTH,
        };
        if self.continues_street(cell) {
            source.ahead
        } else {
            source.bend
        }
    }

    /// The straightness roll: refuse with probability `straightness / 1000`.
    fn refuses_bend(&self, rng: &mut Rng) -> bool {
        // The doc's 998 limit counts roll ≤ s as a refusal; roll < s keeps "0 = never straighten".
        self.params.straightness > 0 && (rng.below(1000) as i64) < self.params.straightness
    }

    /// A LIVE cell that may have lost its last isolated neighbour becomes DEAD.
    fn recheck_live(&mut self, cell: usize) {
        if !self.has_isolated_neighbour(cell) {
            self.set_status(cell, DEAD);
        }
    }

    /// A formerly ISOLATED neighbour of a new street becomes LIVE or DEAD; border cells and
    /// neighbours of UNUSED cells always become DEAD. Its LIVE neighbours may have relied on it
    /// being isolated, so they are checked again.
    fn wake(&mut self, cell: usize) {
        let live = self.edges.is_interior(cell)
            && !self.touches_unused(cell)
            && self.has_isolated_neighbour(cell);
        self.set_status(cell, if live { LIVE } else { DEAD });
        for h in Heading::ALL {
            if let Some(n) = self.edges.neighbour(cell, h) {
                if self.lists.of(n) == LIVE {
                    self.recheck_live(n);
                }
            }
        }
    }

    /// Whether a neighbour of `cell` is ISOLATED.
    pub fn has_isolated_neighbour(&self, cell: usize) -> bool {
        self.edges
            .neighbours(cell)
            .any(|(_, n)| self.lists.of(n) == ISOLATED)
    }

    /// Whether a neighbour of `cell` is UNUSED.
    pub fn touches_unused(&self, cell: usize) -> bool {
        self.edges
            .neighbours(cell)
            .any(|(_, n)| self.lists.of(n) == UNUSED)
    }
}
