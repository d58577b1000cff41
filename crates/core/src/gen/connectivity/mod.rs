//! Connectivity of the open cells: flood fill, components, closest pairs and Incursion's fix-up
//! tunnelling (seed 003, "Step 5b").
//!
//! Cells are open when a walker may stand on them ([`passable`](crate::map::passable)): their
//! terrain is neither solid nor a hazard, or a door stands there (a walker opens, unlocks or
//! finds a door, as Incursion's `FloodConnectA` lets the flood through doors). Two open cells
//! are connected when they touch in the chosen [`Adjacency`]: orthogonally (4-neighbour), or
//! diagonals included (8-neighbour, like `FloodConnectA`).
//!
//! [`Connectivity`] holds every scratch buffer, so repeated calls reuse their allocations; the
//! free functions [`mark_connected`] and [`components`] are one-off conveniences.

// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod bitgrid;
mod closest;
mod components;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod fill;
mod fixup;
mod join;

pub use closest::ClosestPair;
pub use components::{Component, Components, NO_COMPONENT};
pub use fixup::{fixup, FixupError, FixupReport, FixupTunnel, CONNECTIVITY_TAG};
pub use join::{join_areas, JoinError, JoinReport, JoinStyle};

use crate::map::{Adjacency, Map, MapError, Point};
use bitgrid::BitGrid;
use closest::DistanceField;
use components::Labeller;
use fill::Filler;
use thiserror::Error;

/// Errors of the connectivity primitives. Messages name the bad value and the valid range.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum FloodError {
    /// A cell off the map.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A flood asked to start on a cell a walker cannot stand on.
    #[error(
        "flood fill cannot start at ({x}, {y}): the cell is solid or a hazard; start on a \
         passable cell"
    )]
    Solid {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A component index that does not exist.
    #[error("there is no component {index}: the map has {count} component(s), numbered from 0")]
    NoComponent {
        /// Index asked for.
        index: usize,
        /// Number of components.
        count: usize,
    },
}

/// Reusable scratch for flood fills, component labelling and closest-pair queries.
#[derive(Clone, Debug, Default)]
pub struct Connectivity {
    open: BitGrid,
    reached: BitGrid,
    filler: Filler,
    labeller: Labeller,
    distances: DistanceField,
}

impl Connectivity {
    /// Empty scratch; buffers grow on first use and are kept.
    pub fn new() -> Self {
        Self::default()
    }

    /// Flood-fills from `start` over passable cells, stepping in `adjacency`, and sets
    /// [`FLAG_CONNECTED`](crate::map::FLAG_CONNECTED) on exactly the cells reached, clearing it
    /// everywhere else. Returns the number of cells reached. A start off the map or on a cell
    /// that is not passable is an error and leaves the map untouched.
    pub fn mark_connected(
        &mut self,
        map: &mut Map,
        start: Point,
        adjacency: Adjacency,
    ) -> Result<usize, FloodError> {
        if !map.is_passable(start)? {
            return Err(FloodError::Solid {
                x: start.x,
                y: start.y,
            });
        }
        self.open.load_open(map);
        self.reached.reset(self.open.width(), self.open.height());
        self.filler.fill_from(
            &self.open,
            &mut self.reached,
            (start.x as usize, start.y as usize),
            adjacency,
        );
        self.reached.store_connected(map.flag_cells_mut());
        Ok(self.reached.count())
    }

    /// Finds every maximal area of passable cells connected in `adjacency` and writes them,
    /// with a label per cell, into `out` (whose buffers are reused).
    pub fn components(&mut self, map: &Map, out: &mut Components, adjacency: Adjacency) {
        self.open.load_open(map);
        self.labeller.label(&self.open, out, adjacency);
    }

    /// The closest pair of cells from component `from` to component `to` of `comps`: the pair
    /// with the smallest Chebyshev distance, ties broken by the `to` cell and then the `from`
    /// cell in row-major order. Linear in the map's size. (`from == to` gives the component's
    /// representative at distance 0.)
    pub fn closest_pair(
        &mut self,
        comps: &Components,
        from: usize,
        to: usize,
    ) -> Result<ClosestPair, FloodError> {
        self.distances.between(comps, from, to)
    }

    /// The closest pair from component `from` to each other component (same rule as
    /// [`Connectivity::closest_pair`]), in component order. One pass over the map in all.
    pub fn closest_pairs_from(
        &mut self,
        comps: &Components,
        from: usize,
    ) -> Result<Vec<ClosestPair>, FloodError> {
        self.distances.each_target(comps, from)
    }
}

/// The [`Adjacency`] a map's one-area guarantee holds in: the [`CONNECTIVITY_TAG`] a fix-up
/// set (or a recipe, with `map:tag`), else 8-neighbour.
pub fn map_adjacency(map: &Map) -> Adjacency {
    match map.notes.tags.get(CONNECTIVITY_TAG) {
        Some(crate::map::TagValue::Text(t)) => Adjacency::from_name(t).unwrap_or_default(),
        Some(crate::map::TagValue::Int(4)) => Adjacency::Four,
        _ => Adjacency::Eight,
    }
}

/// One-off [`Connectivity::mark_connected`].
pub fn mark_connected(
    map: &mut Map,
    start: Point,
    adjacency: Adjacency,
) -> Result<usize, FloodError> {
    Connectivity::new().mark_connected(map, start, adjacency)
}

/// One-off [`Connectivity::components`].
pub fn components(map: &Map, adjacency: Adjacency) -> Components {
    let mut out = Components::new();
    Connectivity::new().components(map, &mut out, adjacency);
    out
}
