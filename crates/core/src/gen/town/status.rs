//! Status lists: every cell of a grid carries exactly one of a small set of named statuses, and
//! the cells of each status form a list with O(1) move, count and uniform random pick.
//!
//! TownMaze kept five doubly linked lists threaded through its `statlist` array and walked to the
//! k-th element to pick one at random. Here each status owns a dense array of its cells, and every
//! cell remembers its slot in that array, so a move is a swap-remove plus a push and a random pick
//! is one index. The order of each list depends only on the sequence of moves, so iteration is
//! deterministic.

use crate::rng::Rng;
use thiserror::Error;

/// The most statuses one set of lists can hold (statuses are stored as `u8`).
pub const MAX_STATUSES: usize = 256;

/// Errors from building or addressing status lists. They name the bad value and the valid range.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum StatusError {
    /// No status names were given, or more than [`MAX_STATUSES`].
    #[error("status lists need 1..={MAX_STATUSES} status names, got {0}")]
    StatusCount(usize),
    /// A status name is empty or repeated.
    #[error("status name {name:?} is empty or repeated: names must be distinct and non-empty")]
    BadName {
        /// The offending name.
        name: String,
    },
    /// More cells than 32-bit cell indices can address.
    #[error("status lists hold at most {max} cells, got {cells}", max = u32::MAX)]
    TooManyCells {
        /// Requested cell count.
        cells: usize,
    },
    /// A status index outside the set.
    #[error("status {status} does not exist: valid statuses are 0..={max}", max = .count - 1)]
    UnknownStatus {
        /// Status asked for.
        status: usize,
        /// Number of statuses.
        count: usize,
    },
    /// A cell index outside the grid.
    #[error("cell {cell} does not exist: valid cells are 0..{len}")]
    UnknownCell {
        /// Cell asked for.
        cell: usize,
        /// Number of cells.
        len: usize,
    },
}

/// One list per named status; every cell is on exactly one list.
#[derive(Clone, Debug)]
pub struct StatusLists {
    names: Vec<String>,
    members: Vec<Vec<u32>>,
    status: Vec<u8>,
    slot: Vec<u32>,
}

impl StatusLists {
    /// `cells` cells, all with status `initial`, listed in index order. `names` gives each status
    /// its name; a status is addressed by its position in `names`.
    pub fn new(cells: usize, names: &[&str], initial: usize) -> Result<Self, StatusError> {
        if names.is_empty() || names.len() > MAX_STATUSES {
            return Err(StatusError::StatusCount(names.len()));
        }
        for (i, name) in names.iter().enumerate() {
            if name.is_empty() || names[..i].contains(name) {
                return Err(StatusError::BadName {
                    name: name.to_string(),
                });
            }
        }
        if initial >= names.len() {
            return Err(StatusError::UnknownStatus {
                status: initial,
                count: names.len(),
            });
        }
        let count = u32::try_from(cells).map_err(|_| StatusError::TooManyCells { cells })?;
        let mut members = vec![Vec::new(); names.len()];
        members[initial] = (0..count).collect();
        Ok(StatusLists {
            names: names.iter().map(|n| n.to_string()).collect(),
            members,
            status: vec![initial as u8; cells],
            slot: (0..count).collect(),
        })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.status.len()
    }

    /// Whether there are no cells at all.
    pub fn is_empty(&self) -> bool {
        self.status.is_empty()
    }

    /// Number of statuses.
    pub fn status_count(&self) -> usize {
        self.names.len()
    }

    /// The name of `status`.
    pub fn name(&self, status: usize) -> Result<&str, StatusError> {
        self.check_status(status)?;
        Ok(&self.names[status])
    }

    /// The status called `name`, if there is one.
    pub fn status_named(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The status of `cell`.
    pub fn status_of(&self, cell: usize) -> Result<usize, StatusError> {
        self.check_cell(cell)?;
        Ok(self.of(cell))
    }

    /// How many cells have `status`.
    pub fn count(&self, status: usize) -> Result<usize, StatusError> {
        self.check_status(status)?;
        Ok(self.members[status].len())
    }

    /// The cells with `status`, in list order.
    pub fn cells(&self, status: usize) -> Result<&[u32], StatusError> {
        self.check_status(status)?;
        Ok(&self.members[status])
    }

    /// Moves `cell` onto the list of `status` (a no-op if it is already there).
    pub fn move_to(&mut self, cell: usize, status: usize) -> Result<(), StatusError> {
        self.check_cell(cell)?;
        self.check_status(status)?;
        self.set(cell, status);
        Ok(())
    }

    /// A cell with `status` chosen uniformly at random, or `None` if the list is empty.
    pub fn pick(&self, status: usize, rng: &mut Rng) -> Result<Option<usize>, StatusError> {
        self.check_status(status)?;
        Ok(self.pick_from(status, rng))
    }

    /// Puts every cell back on the list of `status`, in index order, as [`StatusLists::new`] does.
    pub fn reset(&mut self, status: usize) -> Result<(), StatusError> {
        self.check_status(status)?;
        self.refill(status);
        Ok(())
    }

    fn check_status(&self, status: usize) -> Result<(), StatusError> {
        if status < self.names.len() {
            Ok(())
        } else {
            Err(StatusError::UnknownStatus {
                status,
                count: self.names.len(),
            })
        }
    }

    fn check_cell(&self, cell: usize) -> Result<(), StatusError> {
        if cell < self.status.len() {
            Ok(())
        } else {
            Err(StatusError::UnknownCell {
                cell,
                len: self.status.len(),
            })
        }
    }

    /// Every cell onto a status known to exist, in index order.
    pub(crate) fn refill(&mut self, status: usize) {
        for list in &mut self.members {
            list.clear();
        }
        let count = self.status.len() as u32;
        self.members[status].extend(0..count);
        self.status.fill(status as u8);
        for (slot, s) in self.slot.iter_mut().enumerate() {
            *s = slot as u32;
        }
    }

    /// The status of a cell known to exist.
    #[inline]
    pub(crate) fn of(&self, cell: usize) -> usize {
        self.status[cell] as usize
    }

    /// The number of cells of a status known to exist.
    #[inline]
    pub(crate) fn size(&self, status: usize) -> usize {
        self.members[status].len()
    }

    /// The cells of a status known to exist.
    #[inline]
    pub(crate) fn list(&self, status: usize) -> &[u32] {
        &self.members[status]
    }

    /// Moves a cell known to exist to a status known to exist.
    #[inline]
    pub(crate) fn set(&mut self, cell: usize, status: usize) {
        let from = self.status[cell] as usize;
        if from == status {
            return;
        }
        let slot = self.slot[cell] as usize;
        let list = &mut self.members[from];
        let last = list.pop().unwrap_or(cell as u32);
        if last as usize != cell {
            list[slot] = last;
            self.slot[last as usize] = slot as u32;
        }
        let to = &mut self.members[status];
        self.slot[cell] = to.len() as u32;
        to.push(cell as u32);
        self.status[cell] = status as u8;
    }

    /// A uniformly random cell of a status known to exist.
    #[inline]
    pub(crate) fn pick_from(&self, status: usize, rng: &mut Rng) -> Option<usize> {
        let list = &self.members[status];
        if list.is_empty() {
            return None;
        }
        Some(list[rng.below(list.len() as u64) as usize] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use proptest::prelude::*;

    const NAMES: [&str; 5] = ["isolated", "live", "dead", "street", "unused"];

    /// Every cell is on exactly one list, at the slot it remembers, and the list is its status.
    fn assert_consistent(lists: &StatusLists) {
        let mut seen = vec![0u32; lists.len()];
        let mut total = 0;
        for status in 0..lists.status_count() {
            let cells = lists.cells(status).unwrap();
            total += cells.len();
            assert_eq!(lists.count(status).unwrap(), cells.len());
            for (slot, &cell) in cells.iter().enumerate() {
                seen[cell as usize] += 1;
                assert_eq!(lists.status_of(cell as usize).unwrap(), status);
                assert_eq!(lists.slot[cell as usize] as usize, slot);
            }
        }
        assert_eq!(total, lists.len());
        assert!(
            seen.iter().all(|&n| n == 1),
            "a cell is on no list or on two"
        );
    }

    #[test]
    fn starts_with_every_cell_on_the_initial_list_in_order() {
        let lists = StatusLists::new(6, &NAMES, 2).unwrap();
        assert_eq!(lists.cells(2).unwrap(), &[0, 1, 2, 3, 4, 5]);
        assert_eq!(lists.count(0).unwrap(), 0);
        assert_eq!(lists.status_named("street"), Some(3));
        assert_eq!(lists.name(4).unwrap(), "unused");
        assert_consistent(&lists);
    }

    #[test]
    fn moves_update_lists_counts_and_status() {
        let mut lists = StatusLists::new(5, &NAMES, 0).unwrap();
        lists.move_to(1, 3).unwrap();
        lists.move_to(4, 3).unwrap();
        lists.move_to(1, 3).unwrap(); // already there: no change
        assert_eq!(lists.cells(3).unwrap(), &[1, 4]);
        assert_eq!(lists.cells(0).unwrap(), &[0, 3, 2]);
        assert_eq!(lists.status_of(4).unwrap(), 3);
        lists.move_to(1, 0).unwrap();
        assert_eq!(lists.cells(3).unwrap(), &[4]);
        assert_consistent(&lists);
    }

    #[test]
    fn reset_puts_every_cell_back_in_index_order() {
        let mut lists = StatusLists::new(4, &NAMES, 0).unwrap();
        lists.move_to(2, 3).unwrap();
        lists.move_to(0, 1).unwrap();
        lists.reset(2).unwrap();
        assert_eq!(lists.cells(2).unwrap(), &[0, 1, 2, 3]);
        assert_eq!(lists.count(3).unwrap(), 0);
        assert_consistent(&lists);
        assert!(lists.reset(5).is_err());
    }

    #[test]
    fn bad_input_is_an_error_naming_the_range() {
        let mut lists = StatusLists::new(3, &NAMES, 0).unwrap();
        let err = lists.move_to(3, 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cell 3 does not exist: valid cells are 0..3"
        );
        let err = lists.move_to(0, 5).unwrap_err();
        assert_eq!(
            err.to_string(),
            "status 5 does not exist: valid statuses are 0..=4"
        );
        assert!(lists.pick(9, &mut Rng::new(1)).is_err());
        assert!(StatusLists::new(3, &[], 0).is_err());
        assert!(StatusLists::new(3, &["a", "a"], 0).is_err());
        assert!(StatusLists::new(3, &["a", ""], 0).is_err());
        assert!(StatusLists::new(3, &["a"], 1).is_err());
    }

    #[test]
    fn pick_from_an_empty_list_is_none() {
        let lists = StatusLists::new(4, &NAMES, 0).unwrap();
        assert_eq!(lists.pick(1, &mut Rng::new(3)).unwrap(), None);
    }

    #[test]
    fn picks_are_uniform_by_chi_square() {
        // 25 cells left on the list after swap-removes; 250,000 picks. The 0.1% critical value
        // of χ² with 24 degrees of freedom is 51.18.
        let mut lists = StatusLists::new(60, &NAMES, 0).unwrap();
        for cell in (0..60).step_by(2) {
            lists.move_to(cell, 1).unwrap();
        }
        for cell in [0, 14, 30, 46, 58] {
            lists.move_to(cell, 2).unwrap();
        }
        let members: Vec<u32> = lists.cells(1).unwrap().to_vec();
        let mut rng = Rng::new(2024);
        let draws = 250_000usize;
        let mut hits = vec![0usize; 60];
        for _ in 0..draws {
            hits[lists.pick(1, &mut rng).unwrap().unwrap()] += 1;
        }
        let expected = draws as f64 / members.len() as f64;
        let chi2: f64 = members
            .iter()
            .map(|&c| (hits[c as usize] as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 51.18, "χ² = {chi2}");
        let off_list: usize = (0..60)
            .filter(|c| !members.contains(&(*c as u32)))
            .map(|c| hits[c])
            .sum();
        assert_eq!(off_list, 0);
    }

    proptest! {
        #[test]
        fn any_move_sequence_keeps_every_cell_on_exactly_one_list(
            cells in 1usize..40,
            moves in proptest::collection::vec((0usize..40, 0usize..5), 0..200),
        ) {
            let mut lists = StatusLists::new(cells, &NAMES, 0).unwrap();
            let mut model = vec![0usize; cells];
            for (cell, status) in moves {
                let result = lists.move_to(cell, status);
                if cell < cells {
                    prop_assert!(result.is_ok());
                    model[cell] = status;
                } else {
                    prop_assert!(result.is_err());
                }
            }
            assert_consistent(&lists);
            for (cell, &status) in model.iter().enumerate() {
                prop_assert_eq!(lists.status_of(cell).unwrap(), status);
            }
            for status in 0..5 {
                let expected = model.iter().filter(|&&s| s == status).count();
                prop_assert_eq!(lists.count(status).unwrap(), expected);
            }
        }
    }
}
