//! Joining every separate open area into one with one-bend tunnels: Incursion's fix-up loop
//! ([`super::fixup`]) with the tutorial's dog-leg corridor as the connector.

use super::fixup::{fixup, FixupError};
use crate::gen::meter::{Meter, Stopped};
use crate::map::{dogleg, Brush, Corridor, DogLeg, Map, MapError};
use crate::rng::Rng;
use thiserror::Error;

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

/// Joins every separate open area to the area of the first open cell with dog-leg tunnels
/// carved by `brush` (the bend order a coin flip), each recorded as a corridor of region
/// `"join"`, for at most `trials` rounds of the fix-up loop. Every round floods the whole map.
pub fn join_areas(
    map: &mut Map,
    rng: &mut Rng,
    brush: &Brush,
    trials: u32,
    meter: &mut dyn Meter,
) -> Result<JoinReport, JoinError> {
    let cells = map.len() as u64;
    // The first flood, before any tunnel.
    meter.work(cells)?;
    let result = fixup(map, rng, trials, |map, rng, from, to| {
        let order = if rng.below(2) == 0 {
            DogLeg::HorizontalFirst
        } else {
            DogLeg::VerticalFirst
        };
        let path = dogleg(from, to, order);
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
