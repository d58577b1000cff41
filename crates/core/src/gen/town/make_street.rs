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
    pub(super) fn build_street(
        &mut self,
        rng: &mut Rng,
        cell: usize,
        heading: Option<Heading>,
    ) -> bool {
        if heading.is_none() && !self.continues_street(cell) && self.refuses_bend(rng) {
            return false;
        }
        self.lay_street(cell, heading)
    }

    /// `makestreet` past the straightness check: makes the cell a street unless it touches an
    /// UNUSED cell.
    pub(super) fn lay_street(&mut self, cell: usize, heading: Option<Heading>) -> bool {
        let grid = self.grid;
        let mut joins = None;
        let mut continued = None;
        for (h, n) in grid.neighbours(cell) {
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
        for h in Heading::ALL {
            let wall = grid.wall_index(cell, h);
            // First guess: a door in every wall; a wall on the town's edge becomes a gate.
            self.chars[wall] = h.door();
            let Some(n) = grid.neighbour(cell, h) else {
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
        if let Some(ahead) = heading.and_then(|h| grid.neighbour(cell, h)) {
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
        self.grid
            .neighbours(cell)
            .any(|(h, n)| self.lists.of(n) == STREET && self.heading[n] == Some(h.opposite()))
    }

    /// Sets a cell's status and files it in the growth pools.
    pub(super) fn set_status(&mut self, cell: usize, status: usize) {
        self.lists.set(cell, status);
        let kind = self.growth_kind(cell);
        self.growth.set(cell, kind);
    }

    /// The growth pool kind a cell belongs in (see [`super::GROWTH_KINDS`]).
    pub(super) fn growth_kind(&self, cell: usize) -> usize {
        let source = match self.lists.of(cell) {
            LIVE => FROM_LIVE,
            DEAD if self.grid.is_interior(cell) && !self.touches_unused(cell) => FROM_DEAD,
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
        let live = self.grid.is_interior(cell)
            && !self.touches_unused(cell)
            && self.has_isolated_neighbour(cell);
        self.set_status(cell, if live { LIVE } else { DEAD });
        for h in Heading::ALL {
            if let Some(n) = self.grid.neighbour(cell, h) {
                if self.lists.of(n) == LIVE {
                    self.recheck_live(n);
                }
            }
        }
    }

    pub(super) fn has_isolated_neighbour(&self, cell: usize) -> bool {
        self.grid
            .neighbours(cell)
            .any(|(_, n)| self.lists.of(n) == ISOLATED)
    }

    pub(super) fn touches_unused(&self, cell: usize) -> bool {
        self.grid
            .neighbours(cell)
            .any(|(_, n)| self.lists.of(n) == UNUSED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::meter::Unmetered;
    use crate::gen::town::{TownParams, HDOOR, VDOOR, WALL};

    fn town(straightness: i64) -> Town {
        Town::new(
            &TownParams {
                height: 15,
                width: 17,
                straightness,
                ..TownParams::default()
            },
            &mut Unmetered,
        )
        .unwrap()
    }

    fn char_at(t: &Town, x: i32, y: i32) -> u8 {
        t.chars()[y as usize * t.width() + x as usize]
    }

    #[test]
    fn a_lone_street_gets_doors_and_wakes_its_neighbours() {
        let mut t = town(0);
        let mut rng = Rng::new(1);
        // Cell (2, 3): centre (7, 5). Cell grid is 7 × 8.
        assert!(t.make_street(&mut rng, 2, 3, Some(Heading::East)).unwrap());
        assert_eq!(t.status(2, 3).unwrap(), CellStatus::Street);
        assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
        assert_eq!(char_at(&t, 7, 4), HDOOR);
        assert_eq!(char_at(&t, 7, 6), HDOOR);
        assert_eq!(char_at(&t, 6, 5), VDOOR);
        assert_eq!(char_at(&t, 8, 5), VDOOR);
        for (r, c) in [(1, 3), (3, 3), (2, 2), (2, 4)] {
            assert_eq!(t.status(r, c).unwrap(), CellStatus::Live, "({r}, {c})");
        }
        assert_eq!(t.distinct_streets(), 1);
        assert_eq!(t.street_number(2, 3).unwrap(), Some(0));
        assert_eq!(t.street_number(2, 4).unwrap(), None);
    }

    #[test]
    fn border_cells_and_cells_without_isolated_neighbours_become_dead() {
        let mut t = town(0);
        let mut rng = Rng::new(1);
        assert!(t.make_street(&mut rng, 0, 3, Some(Heading::South)).unwrap());
        assert_eq!(t.status(0, 2).unwrap(), CellStatus::Dead);
        assert_eq!(t.status(0, 4).unwrap(), CellStatus::Dead);
        assert_eq!(t.status(1, 3).unwrap(), CellStatus::Live);
        // The outer wall of a border street is a gate.
        assert_eq!(char_at(&t, 7, 0), HDOOR);
        // Surround (2, 5) with streets on three sides: its last isolated neighbour goes.
        for (r, c) in [(1, 5), (2, 4), (2, 6)] {
            t.make_street(&mut rng, r, c, Some(Heading::East)).unwrap();
        }
        assert_eq!(t.status(2, 5).unwrap(), CellStatus::Live);
        t.make_street(&mut rng, 3, 5, Some(Heading::East)).unwrap();
        assert_eq!(t.status(2, 5).unwrap(), CellStatus::Dead);
    }

    /// Every status agrees with its definition (border and UNUSED neighbours stay DEAD).
    fn assert_statuses_consistent(t: &Town) {
        for cell in 0..t.grid.len() {
            let status = t.status_of(cell);
            let isolated = t.has_isolated_neighbour(cell);
            let street = t
                .grid
                .neighbours(cell)
                .any(|(_, n)| t.lists.of(n) == STREET);
            let may_live = t.grid.is_interior(cell) && !t.touches_unused(cell);
            match status {
                CellStatus::Live => assert!(street && isolated && may_live, "cell {cell}"),
                CellStatus::Dead => assert!(street && !(isolated && may_live), "cell {cell}"),
                CellStatus::Isolated => assert!(!street, "cell {cell}"),
                _ => {}
            }
            assert_eq!(
                t.growth.of(cell),
                t.growth_kind(cell),
                "growth pool of {cell}"
            );
        }
    }

    #[test]
    fn secondary_live_cells_die_when_their_last_isolated_neighbour_wakes() {
        let mut t = town(0);
        let mut rng = Rng::new(1);
        // A street down column 2 makes (2, 3) LIVE, with (2, 4) its only isolated neighbour.
        for r in 1..=3 {
            t.make_street(&mut rng, r, 2, Some(Heading::South)).unwrap();
        }
        assert_eq!(t.status(2, 3).unwrap(), CellStatus::Live);
        assert_eq!(t.status(2, 4).unwrap(), CellStatus::Isolated);
        assert_statuses_consistent(&t);
        // A street at (2, 5) wakes (2, 4), two links away from (2, 3), which must die.
        t.make_street(&mut rng, 2, 5, Some(Heading::South)).unwrap();
        assert_eq!(t.status(2, 4).unwrap(), CellStatus::Live);
        assert_eq!(t.status(2, 3).unwrap(), CellStatus::Dead);
        assert_statuses_consistent(&t);
        // Random streets keep every status true to its definition.
        for _ in 0..30 {
            if let Some(cell) = t.lists.pick_from(LIVE, &mut rng) {
                t.build_street(&mut rng, cell, None);
                assert_statuses_consistent(&t);
            }
        }
    }

    #[test]
    fn streets_that_meet_merge_to_the_lower_number_and_open_the_wall() {
        let mut t = town(0);
        let mut rng = Rng::new(1);
        t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
        t.make_street(&mut rng, 2, 4, Some(Heading::West)).unwrap();
        assert_eq!(t.distinct_streets(), 2);
        assert_eq!(t.street_number(2, 4).unwrap(), Some(1));
        t.make_street(&mut rng, 2, 3, None).unwrap();
        assert_eq!(t.distinct_streets(), 1);
        assert_eq!(t.street_number(2, 4).unwrap(), Some(0));
        assert_eq!(char_at(&t, 6, 5), BLANK);
        assert_eq!(char_at(&t, 8, 5), BLANK);
        // (2, 3) continues both: the last one visited (west neighbour, heading east) wins.
        assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
    }

    #[test]
    fn unused_neighbours_refuse_and_misuse_is_an_error() {
        let mut t = town(0);
        let mut rng = Rng::new(1);
        // (0, 1) touches the UNUSED corner (0, 0).
        assert!(!t.make_street(&mut rng, 0, 1, Some(Heading::South)).unwrap());
        assert_eq!(t.status(0, 1).unwrap(), CellStatus::Isolated);
        assert_eq!(char_at(&t, 3, 0), WALL);
        assert!(matches!(
            t.make_street(&mut rng, 0, 0, None),
            Err(TownError::NotARoom {
                status: CellStatus::Unused,
                ..
            })
        ));
        let err = t.make_street(&mut rng, 7, 0, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cell (row 7, column 0) is outside the town: rows 0..7, columns 0..8"
        );
        t.make_street(&mut rng, 3, 3, Some(Heading::North)).unwrap();
        assert!(t.make_street(&mut rng, 3, 3, None).is_err());
        assert_eq!(t.count(CellStatus::Street), 1);
    }

    #[test]
    fn straightness_refuses_bends_but_never_continuations() {
        let mut rng = Rng::new(9);
        // Straightness 998: a bend next to a street going east is almost always refused …
        let mut refused = 0;
        for _ in 0..200 {
            let mut t = town(998);
            t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
            if !t.make_street(&mut rng, 3, 2, None).unwrap() {
                refused += 1;
            }
            // … while continuing it east always succeeds and keeps the heading.
            assert!(t.make_street(&mut rng, 2, 3, None).unwrap());
            assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
        }
        assert!(refused >= 190, "refused {refused} of 200");
        // Straightness 0 never refuses; a bend runs on away from the street it left.
        let mut t = town(0);
        t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
        assert!(t.make_street(&mut rng, 3, 2, None).unwrap());
        assert_eq!(t.heading(3, 2).unwrap(), Some(Heading::South));
        // A given heading is kept unless the cell continues a street.
        assert!(t.make_street(&mut rng, 3, 3, Some(Heading::West)).unwrap());
        assert_eq!(t.heading(3, 3).unwrap(), Some(Heading::West));
        assert!(t.make_street(&mut rng, 4, 2, Some(Heading::West)).unwrap());
        assert_eq!(t.heading(4, 2).unwrap(), Some(Heading::South));
    }
}
