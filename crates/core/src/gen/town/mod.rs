//! TownMaze (1991): a town of back-to-back rooms with a street to every door, after the
//! programmers' documentation of TownMaze release 1.1.
//!
//! The town is a grid of cells, each with one status:
//! ISOLATED (no street neighbour), LIVE (a street neighbour and an isolated neighbour), DEAD (a
//! street neighbour, no isolated neighbour), STREET, or UNUSED (solid, never beside a street).
//! Streets start at gates in the town wall and at interior courtyards, grow into LIVE cells
//! until every street is joined into one, then run on as alleys until no cell is isolated.
//! Finally every room keeps one door, surplus gates are walled up and lone pillars removed.
//!
//! Each step of the original is one public method of [`Town`], called in this order:
//! [`Town::new`] (allocate and fill), [`Town::make_unused`], [`Town::make_gates`],
//! [`Town::make_courts`], [`Town::connect_streets`], [`Town::finish_alleys`],
//! [`Town::close_doors`], [`Town::close_gates`], [`Town::cleanup_map`]. [`Town::generate`]
//! runs them all.
//!
//! TownMaze bounded its random searches with MAXTRIES and gave up when it ran out, so a crowded
//! town could get fewer gates or courtyards than asked, and a stuck street search could spin.
//! Here no search can fail that way: every random choice is drawn directly from the cells that
//! qualify at that moment, with the probabilities the original's pick-and-retry loops give, so
//! there is no MAXTRIES to tune. A phase stops only when no cell qualifies any more.
//!
//! Every step reports the work it does to a [`Meter`] (in cells visited), so a host with
//! budgets can stop a step on a huge town that runs too long.
//!
//! The display grid is `height`×`width` characters: walls on even rows and columns, cell
//! centres at odd (row, column) positions; see [`WALL`], [`VDOOR`], [`HDOOR`], [`BLANK`].
//! [`Town::draw`] writes it onto a [`Map`](crate::map::Map) with terrains from region data.

mod connect;
mod draw;
mod finish;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod grid;
mod make_street;
pub mod params;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod seed;
pub mod status;
pub mod streets;
mod view;

pub use connect::DeadStreets;
pub use draw::{DebugTerrains, Drawn, TownTerrains, GATE_SPAWN, ROOM_KIND, STREET_REGION};
pub use grid::{Heading, BLANK, HDOOR, VDOOR, WALL};
pub use params::{ParamError, ParamErrors, TownParams};
pub use status::{StatusError, StatusLists};
pub use streets::{StreetNumbers, UnknownStreet};
pub use view::{TownLayout, TownRoom};

use crate::gen::meter::{Meter, Stopped};
use crate::rng::Rng;
use grid::{CellEdges, CellGrid};
use thiserror::Error;

/// The status of a town cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellStatus {
    /// No neighbour is a street.
    Isolated,
    /// A neighbour is a street and a neighbour is isolated: may become a street.
    Live,
    /// A neighbour is a street and none is isolated: a room with a door on the street.
    Dead,
    /// Part of a street.
    Street,
    /// Solid: neither room nor street, never beside a street.
    Unused,
}

/// The list index of [`CellStatus::Isolated`].
pub const ISOLATED: usize = CellStatus::Isolated as usize;
/// The list index of [`CellStatus::Live`].
pub const LIVE: usize = CellStatus::Live as usize;
const DEAD: usize = CellStatus::Dead as usize;
/// The list index of [`CellStatus::Street`].
pub const STREET: usize = CellStatus::Street as usize;
/// The list index of [`CellStatus::Unused`].
pub const UNUSED: usize = CellStatus::Unused as usize;

/// Names of the statuses of [`Town`]'s second set of lists. It sorts the cells a street may
/// grow into at random — LIVE cells, and DEAD cells that are interior and not beside an UNUSED
/// cell — by whether they would bend a street or continue one, so that growth can draw the cell
/// TownMaze's pick-and-roll loops would accept without their refused picks.
const GROWTH_KINDS: [&str; 5] = [
    "no growth",
    "live bend",
    "live ahead",
    "dead bend",
    "dead ahead",
];
const NO_GROWTH: usize = 0;

/// A pool random growth draws from: its bend and continuation kinds in `GROWTH_KINDS`.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    bend: usize,
    ahead: usize,
}

/// Growth into LIVE cells.
pub const FROM_LIVE: Source = Source { bend: 1, ahead: 2 };
const FROM_DEAD: Source = Source { bend: 3, ahead: 4 };

impl CellStatus {
    /// The status names, in status-index order (the lists of a [`Town`] use these indices).
    pub const NAMES: [&'static str; 5] = ["isolated", "live", "dead", "street", "unused"];

    /// The status with list index `index`.
    pub fn from_index(index: usize) -> Option<CellStatus> {
        [
            CellStatus::Isolated,
            CellStatus::Live,
            CellStatus::Dead,
            CellStatus::Street,
            CellStatus::Unused,
        ]
        .get(index)
        .copied()
    }

    /// The list index of this status.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter the debug view shows for a non-street cell: `I L D U` (`S` for a street).
    pub fn letter(self) -> char {
        ['I', 'L', 'D', 'S', 'U'][self as usize]
    }
}

/// Errors from building or running a town. Each names the bad value or what went wrong.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum TownError {
    /// The parameters break one or more rules.
    #[error("invalid town parameters: {0}")]
    Params(#[from] ParamErrors),
    /// The status lists could not be built.
    #[error("town status lists: {0}")]
    Status(#[from] StatusError),
    /// A cell outside the town.
    #[error(
        "cell (row {row}, column {col}) is outside the town: rows 0..{rows}, columns 0..{cols}"
    )]
    NoSuchCell {
        /// Row asked for.
        row: usize,
        /// Column asked for.
        col: usize,
        /// Cell rows of the town.
        rows: usize,
        /// Cell columns of the town.
        cols: usize,
    },
    /// A street was asked for on a cell that is already a street or is unused.
    #[error("cell (row {row}, column {col}) is {status:?}: only isolated, live or dead cells can become streets")]
    NotARoom {
        /// Row asked for.
        row: usize,
        /// Column asked for.
        col: usize,
        /// Its status.
        status: CellStatus,
    },
    /// `connect_streets` found no street at all (no gate or courtyard was placed).
    #[error("there is no street to connect: make_gates and make_courts placed none")]
    NoStreets,
    /// Streets remain apart and no cell may join them.
    #[error("{streets} separate streets remain and no cell is left that could join them")]
    Disconnected {
        /// Distinct streets left.
        streets: usize,
    },
    /// The meter refused more work (a budget ran out).
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// The map is smaller than the town being drawn on it.
    #[error(transparent)]
    Map(#[from] crate::map::MapError),
    /// Isolated cells remain that no street can reach.
    #[error("{cells} cells remain isolated and no street can reach them")]
    Unreached {
        /// Isolated cells left.
        cells: usize,
    },
}

/// A TownMaze town: the display grid, the cell status lists and the streets.
#[derive(Clone, Debug)]
pub struct Town {
    params: TownParams,
    /// The cell geometry of the display grid.
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub grid: CellGrid,
    /// Which neighbours each cell has.
    edges: CellEdges,
    /// The display grid, row by row (`WALL`, `BLANK`, doors, …).
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub chars: Vec<u8>,
    lists: StatusLists,
    /// The cells random growth may pick, by pool and by bend or continuation.
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub growth: StatusLists,
    /// The street number each street cell was made with (`NO_STREET` for other cells).
    street: Vec<u32>,
    /// The direction each street cell runs; `None` for other cells (TownMaze's -1).
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub heading: Vec<Option<Heading>>,
    streets: StreetNumbers,
}

const NO_STREET: u32 = u32::MAX;

impl Town {
    /// Checks `params` (every violation is reported), allocates the town and fills it (the
    /// fill is reported to `meter`).
    pub fn new(params: &TownParams, meter: &mut dyn Meter) -> Result<Town, TownError> {
        params.validate()?;
        let grid = CellGrid::for_chars(params.height as usize, params.width as usize);
        let lists = StatusLists::new(grid.len(), &CellStatus::NAMES, ISOLATED)?;
        let growth = StatusLists::new(grid.len(), &GROWTH_KINDS, NO_GROWTH)?;
        let mut town = Town {
            params: *params,
            grid,
            edges: CellEdges::new(grid),
            chars: Vec::new(),
            lists,
            growth,
            street: Vec::new(),
            heading: Vec::new(),
            streets: StreetNumbers::new(),
        };
        town.fill(meter)?;
        Ok(town)
    }

    /// Runs every step in the original's order, reporting their work to `meter`.
    pub fn generate(
        params: &TownParams,
        rng: &mut Rng,
        meter: &mut dyn Meter,
    ) -> Result<Town, TownError> {
        let mut town = Town::new(params, meter)?;
        town.make_unused(rng, meter)?;
        town.make_gates(rng, meter)?;
        town.make_courts(rng, meter)?;
        town.connect_streets(rng, meter)?;
        town.finish_alleys(rng, meter)?;
        town.close_doors(rng, meter)?;
        town.close_gates(rng, meter)?;
        town.cleanup_map(meter)?;
        Ok(town)
    }

    /// Resets the town to a solid block of doorless rooms (`fillmaze` + `filllist`): walls on
    /// even rows and columns, every cell ISOLATED except the four corners, which are UNUSED with
    /// a wall at their centre. No streets exist afterwards.
    pub fn fill(&mut self, meter: &mut dyn Meter) -> Result<(), Stopped> {
        let (height, width) = (self.grid.height(), self.grid.width());
        meter.work((height * width) as u64)?;
        self.chars.clear();
        self.chars.reserve(height * width);
        for y in 0..height {
            self.chars.extend((0..width).map(|x| {
                if y % 2 == 1 && x % 2 == 1 {
                    BLANK
                } else {
                    WALL
                }
            }));
        }
        self.lists.refill(ISOLATED);
        self.growth.refill(NO_GROWTH);
        for corner in self.grid.corners() {
            self.lists.set(corner, UNUSED);
            self.chars[self.grid.centre_index(corner)] = WALL;
        }
        self.street = vec![NO_STREET; self.grid.len()];
        self.heading = vec![None; self.grid.len()];
        self.streets = StreetNumbers::new();
        Ok(())
    }

    /// The parameters the town was made with.
    pub fn params(&self) -> &TownParams {
        &self.params
    }

    /// Display grid height in characters.
    pub fn height(&self) -> usize {
        self.grid.height()
    }

    /// Display grid width in characters.
    pub fn width(&self) -> usize {
        self.grid.width()
    }

    /// Cell rows (`(height - 1) / 2`).
    pub fn rows(&self) -> usize {
        self.grid.rows
    }

    /// Cell columns (`(width - 1) / 2`).
    pub fn cols(&self) -> usize {
        self.grid.cols
    }

    /// The cell status lists (indices as in [`CellStatus::NAMES`]; cell = row × cols + col).
    pub fn lists(&self) -> &StatusLists {
        &self.lists
    }

    /// How many cells have `status`.
    pub fn count(&self, status: CellStatus) -> usize {
        self.lists.size(status.index())
    }

    /// How many distinct streets exist (TownMaze's `streetnumct`).
    pub fn distinct_streets(&self) -> usize {
        self.streets.distinct()
    }

    /// The status of the cell at (`row`, `col`).
    pub fn status(&self, row: usize, col: usize) -> Result<CellStatus, TownError> {
        let cell = self.cell(row, col)?;
        Ok(self.status_of(cell))
    }

    /// The direction the street at (`row`, `col`) runs; `None` for other cells.
    pub fn heading(&self, row: usize, col: usize) -> Result<Option<Heading>, TownError> {
        Ok(self.heading[self.cell(row, col)?])
    }

    /// The street number of the cell at (`row`, `col`) (lowest number of the merged street);
    /// `None` for cells that are not streets.
    pub fn street_number(&self, row: usize, col: usize) -> Result<Option<u32>, TownError> {
        let cell = self.cell(row, col)?;
        Ok((self.street[cell] != NO_STREET).then(|| self.streets.label(self.street[cell])))
    }

    fn cell(&self, row: usize, col: usize) -> Result<usize, TownError> {
        self.grid.cell(row, col).ok_or(TownError::NoSuchCell {
            row,
            col,
            rows: self.grid.rows,
            cols: self.grid.cols,
        })
    }

    /// The status of cell index `cell` (row × cols + col), which must exist.
    pub fn status_of(&self, cell: usize) -> CellStatus {
        CellStatus::from_index(self.lists.of(cell)).unwrap_or(CellStatus::Unused)
    }
}
