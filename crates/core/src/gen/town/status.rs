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
    /// Each cell's position in its status's list.
    pub slot: Vec<u32>,
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
    pub fn of(&self, cell: usize) -> usize {
        self.status[cell] as usize
    }

    /// Every cell's status (list index), by cell.
    #[inline]
    pub(crate) fn statuses(&self) -> &[u8] {
        &self.status
    }

    /// The number of cells of a status known to exist.
    #[inline]
    pub(crate) fn size(&self, status: usize) -> usize {
        self.members[status].len()
    }

    /// The cells of a status known to exist.
    #[inline]
    pub fn list(&self, status: usize) -> &[u32] {
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
    pub fn pick_from(&self, status: usize, rng: &mut Rng) -> Option<usize> {
        let list = &self.members[status];
        if list.is_empty() {
            return None;
        }
        Some(list[rng.below(list.len() as u64) as usize] as usize)
    }
}
