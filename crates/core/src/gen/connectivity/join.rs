//! Joining every separate passable area into one: Incursion's fix-up loop ([`super::fixup`])
//! with the tutorial's dog-leg corridor, or a natural, cave-like passage, as the connector.

use super::fixup::{fixup, FixupError};
use crate::gen::meter::{Meter, Stopped};
use crate::gen::passage::natural_passage;
use crate::map::{dogleg, Adjacency, Brush, Corridor, DogLeg, Map, MapError};
use crate::rng::Rng;
use thiserror::Error;

/// How [`join_areas`] draws its tunnels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JoinStyle {
    /// A one-bend corridor, one cell wide (the bend order a coin flip).
    #[default]
    Dogleg,
    /// A winding passage of varying width ([`natural_passage`]), for caves.
    Natural,
}

impl JoinStyle {
    /// Every style's name, as options spell it.
    pub const NAMES: [&'static str; 2] = ["dogleg", "natural"];

    /// Parses a style name.
    pub fn from_name(name: &str) -> Option<JoinStyle> {
        match name {
            "dogleg" => Some(JoinStyle::Dogleg),
            "natural" => Some(JoinStyle::Natural),
            _ => None,
        }
    }
}

/// What [`join_areas`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinReport {
    /// Separate open areas before joining.
    pub areas_before: usize,
    /// Tunnels dug.
    pub tunnels: usize,
    /// Fix-up trials used.
    pub trials: u32,
}

/// Why the areas could not be joined.
#[derive(Debug, Error)]
pub enum JoinError {
    /// A tunnel left the map.
    #[error(transparent)]
    Map(#[from] MapError),
    /// Still in pieces after the allowed trials.
    #[error("{0}")]
    TrialLimit(String),
    /// The meter refused more work.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Why one join tunnel was not drawn.
#[derive(Debug, Error)]
enum TunnelStop {
    #[error(transparent)]
    Map(#[from] MapError),
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Joins every separate passable area to the area of the first passable cell, for a walker
/// moving as `adjacency` says, with tunnels in `style` carved by `brush`, each recorded as a
/// corridor of region `"join"`, for at most `trials` rounds of the fix-up loop. Every round
/// floods the whole map. Both styles step orthogonally, so they join in either adjacency; on
/// success the map's `connectivity` tag names `adjacency`.
pub fn join_areas(
    map: &mut Map,
    rng: &mut Rng,
    (brush, style, adjacency): (&Brush, JoinStyle, Adjacency),
    trials: u32,
    meter: &mut dyn Meter,
) -> Result<JoinReport, JoinError> {
    let cells = map.len() as u64;
    let size = (map.width(), map.height());
    // The first flood, before any tunnel.
    meter.work(cells)?;
    let result = fixup(map, rng, trials, adjacency, |map, rng, from, to| {
        let path = match style {
            JoinStyle::Dogleg => {
                let order = if rng.below(2) == 0 {
                    DogLeg::HorizontalFirst
                } else {
                    DogLeg::VerticalFirst
                };
                dogleg(from, to, order)
            }
            JoinStyle::Natural => natural_passage(from, to, size, rng),
        };
        meter.work(path.len() as u64)?;
        let cells = map.carve_path(&path, brush)?;
        map.notes.corridors.push(Corridor {
            cells,
            region: Some("join".into()),
        });
        Ok::<(), TunnelStop>(())
    });
    let report = match result {
        Ok(report) => report,
        Err(FixupError::Connector {
            error: TunnelStop::Stopped(s),
            ..
        }) => return Err(s.into()),
        Err(FixupError::Connector {
            error: TunnelStop::Map(e),
            ..
        }) => return Err(e.into()),
        Err(e @ FixupError::TrialLimit { .. }) => return Err(JoinError::TrialLimit(e.to_string())),
    };
    meter.work(report.trials as u64 * cells)?;
    Ok(JoinReport {
        areas_before: report.components_before,
        tunnels: report.tunnels.len(),
        trials: report.trials,
    })
}
