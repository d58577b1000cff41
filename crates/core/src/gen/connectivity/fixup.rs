//! Incursion's fix-up tunnelling (seed 003, "Step 5b"): keep joining cut-off open areas to the
//! area of the first open cell until the whole map is one area, in the walker's
//! [`Adjacency`].
//!
//! Each trial floods from the first open cell (row-major), finds every open area it did not
//! reach, finds each one's closest pair to the connected area, and asks the connector to tunnel
//! between them, nearest first. The next trial re-floods and checks. The tunnel itself is a
//! parameter so that Incursion's `Tunnel` (or a simple carve, in tests) can be plugged in.

use super::components::{Component, Components};
use super::Connectivity;
use crate::map::{Adjacency, Map, Point, FLAG_CONNECTED};
use crate::rng::Rng;
use std::fmt;
use thiserror::Error;

/// One tunnel the fix-up drew, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct FixupTunnel<T> {
    /// The trial (1-based) that drew it.
    pub trial: u32,
    /// Start: the connected area's cell nearest to the cut-off area.
    pub from: Point,
    /// Destination: the cut-off area's cell nearest to the connected area.
    pub to: Point,
    /// Chebyshev distance from `from` to `to`.
    pub distance: u32,
    /// Index of the cut-off area among that trial's components.
    pub area: usize,
    /// The cut-off area (representative and size) as that trial found it.
    pub component: Component,
    /// What the connector returned for this tunnel.
    pub drawn: T,
}

impl<T> fmt::Display for FixupTunnel<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to, rep) = (self.from, self.to, self.component.representative);
        write!(
            f,
            "trial {}: tunnel ({}, {}) -> ({}, {}), distance {}: area {} ({} cells from ({}, {})) \
             was cut off, and ({}, {}) is the connected cell nearest to it",
            self.trial,
            from.x,
            from.y,
            to.x,
            to.y,
            self.distance,
            self.area,
            self.component.size,
            rep.x,
            rep.y,
            from.x,
            from.y
        )
    }
}

/// What a successful fix-up did.
#[derive(Clone, Debug, PartialEq)]
pub struct FixupReport<T> {
    /// Number of open areas before any tunnel was drawn.
    pub components_before: usize,
    /// Every tunnel drawn, in order.
    pub tunnels: Vec<FixupTunnel<T>>,
    /// Trials used (0 when the map was already one area or had no open cell).
    pub trials: u32,
}

/// Why a fix-up failed.
#[derive(Debug, Error)]
pub enum FixupError<E> {
    /// The map was still in pieces after the allowed number of trials.
    #[error(
        "fix-up tunnelling gave up after {trials} trial(s): {unconnected} open area(s) are still \
         cut off from the first open cell (the largest has {} cells, starting at ({}, {})) after \
         {tunnels} tunnel(s); allow more trials or use a connector that reaches its destination",
        largest.size,
        largest.representative.x,
        largest.representative.y
    )]
    TrialLimit {
        /// Trials used (the limit).
        trials: u32,
        /// Open areas still cut off.
        unconnected: usize,
        /// The largest area still cut off (the first one on ties).
        largest: Component,
        /// Tunnels drawn in all.
        tunnels: usize,
    },
    /// The connector failed.
    #[error("fix-up tunnel from ({}, {}) to ({}, {}) failed: {error}", from.x, from.y, to.x, to.y)]
    Connector {
        /// Where the tunnel was to start.
        from: Point,
        /// Where it was to go.
        to: Point,
        /// The connector's error.
        error: E,
    },
}

/// The tag a successful fix-up sets on the map: the [`Adjacency`] its one-area guarantee holds
/// in (`"4"` or `"8"`), which the map's statistics then count areas in.
pub const CONNECTIVITY_TAG: &str = "connectivity";

/// Connects every passable area of `map` to the area of its first passable cell (row-major),
/// where cells touching in `adjacency` are connected, drawing tunnels with
/// `connector(map, rng, from, to)`, where `from` is connected and `to` is not. The connector
/// must join them in `adjacency` (a path of orthogonal steps does in both modes).
///
/// Repeats flood → find cut-off areas → closest pair to each → tunnel (nearest first) until one
/// area remains, for at most `max_trials` trials; more is a [`FixupError::TrialLimit`]. On
/// success every passable cell carries [`FLAG_CONNECTED`] and the map's tag
/// [`CONNECTIVITY_TAG`] names `adjacency`. A map with no passable cell or with one area needs
/// no trial.
pub fn fixup<T, E, F>(
    map: &mut Map,
    rng: &mut Rng,
    max_trials: u32,
    adjacency: Adjacency,
    mut connector: F,
) -> Result<FixupReport<T>, FixupError<E>>
where
    F: FnMut(&mut Map, &mut Rng, Point, Point) -> Result<T, E>,
{
    let mut scratch = Connectivity::new();
    let mut comps = Components::new();
    let mut report = FixupReport {
        components_before: 0,
        tunnels: Vec::new(),
        trials: 0,
    };
    loop {
        // Labelling floods every area at once; area 0 is the flood from the first open cell.
        // Seed silent on order: first open cell row-major (the original scans columns from (1, 1)).
        scratch.components(map, &mut comps, adjacency);
        mark_area(map, &comps, 0);
        if report.trials == 0 {
            report.components_before = comps.len();
        }
        if comps.len() <= 1 {
            map.notes
                .tags
                .insert_text(CONNECTIVITY_TAG, adjacency.name());
            return Ok(report);
        }
        if report.trials >= max_trials {
            return Err(trial_limit(&comps, &report));
        }
        report.trials += 1;
        // Exact areas and distances over all cells (the original: region ids, "edge" cells only).
        let mut pairs = scratch.distances.nearest_to_each(&comps, 0);
        // Every cut-off area per trial, nearest first (the original: its 3 nearest pairs only).
        pairs.sort_by_key(|p| (p.distance, p.target));
        for pair in pairs {
            let drawn =
                connector(map, rng, pair.from, pair.to).map_err(|error| FixupError::Connector {
                    from: pair.from,
                    to: pair.to,
                    error,
                })?;
            report.tunnels.push(FixupTunnel {
                trial: report.trials,
                from: pair.from,
                to: pair.to,
                distance: pair.distance,
                area: pair.target,
                component: comps.list()[pair.target],
                drawn,
            });
        }
    }
}

/// Sets [`FLAG_CONNECTED`] on exactly the cells of component `index`.
fn mark_area(map: &mut Map, comps: &Components, index: u32) {
    let width = map.width() as usize;
    let flags = map.flag_cells_mut();
    for f in flags.iter_mut() {
        *f &= !FLAG_CONNECTED;
    }
    for (y, xs) in comps.spans(index) {
        for f in &mut flags[y * width + xs.start..y * width + xs.end] {
            *f |= FLAG_CONNECTED;
        }
    }
}

/// The trial-limit error for a map whose areas after the first are still cut off.
fn trial_limit<T, E>(comps: &Components, report: &FixupReport<T>) -> FixupError<E> {
    let cut_off = &comps.list()[1..];
    let largest = cut_off.iter().fold(
        cut_off[0],
        |best, c| if c.size > best.size { *c } else { best },
    );
    FixupError::TrialLimit {
        trials: report.trials,
        unconnected: cut_off.len(),
        largest,
        tunnels: report.tunnels.len(),
    }
}
