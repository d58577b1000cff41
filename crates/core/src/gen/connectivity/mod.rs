//! Connectivity of the open cells: flood fill, components, closest pairs and Incursion's fix-up
//! tunnelling (seed 003, "Step 5b").
//!
//! Cells are open when their terrain is not solid ([`FLAG_SOLID`](crate::map::FLAG_SOLID) clear;
//! doors are open terrain), and two open cells are connected when they touch, diagonals
//! included (8-neighbour, like Incursion's `FloodConnectA`).
//!
//! [`Connectivity`] holds every scratch buffer, so repeated calls reuse their allocations; the
//! free functions [`mark_connected`] and [`components`] are one-off conveniences.

mod bitgrid;
mod closest;
mod components;
mod fill;
mod fixup;
mod join;

#[cfg(test)]
pub(crate) mod ascii;
#[cfg(test)]
mod tests;

pub use closest::ClosestPair;
pub use components::{Component, Components, NO_COMPONENT};
pub use fixup::{fixup, FixupError, FixupReport, FixupTunnel};
pub use join::{join_areas, JoinError, JoinReport};

use crate::map::{Map, MapError, Point};
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
    /// A flood asked to start on a solid cell.
    #[error("flood fill cannot start at ({x}, {y}): the cell is solid; start on an open cell")]
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

    /// Flood-fills from `start` over open cells (8-neighbour) and sets
    /// [`FLAG_CONNECTED`](crate::map::FLAG_CONNECTED) on exactly the cells reached, clearing it
    /// everywhere else. Returns the number of cells reached. A start off the map or on a solid
    /// cell is an error and leaves the map untouched.
    pub fn mark_connected(&mut self, map: &mut Map, start: Point) -> Result<usize, FloodError> {
        if map.is_solid(start)? {
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
            start.x as usize,
            start.y as usize,
        );
        self.reached.store_connected(map.flag_cells_mut());
        Ok(self.reached.count())
    }

    /// Finds every maximal 8-connected area of open cells and writes them, with a label per
    /// cell, into `out` (whose buffers are reused).
    pub fn components(&mut self, map: &Map, out: &mut Components) {
        self.open.load_open(map);
        self.labeller.label(&self.open, out);
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

/// One-off [`Connectivity::mark_connected`].
pub fn mark_connected(map: &mut Map, start: Point) -> Result<usize, FloodError> {
    Connectivity::new().mark_connected(map, start)
}

/// One-off [`Connectivity::components`].
pub fn components(map: &Map) -> Components {
    let mut out = Components::new();
    Connectivity::new().components(map, &mut out);
    out
}
