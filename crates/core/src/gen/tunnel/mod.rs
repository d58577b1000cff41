//! Incursion's `Map::Tunnel` (seed `000`, MakeLev.cpp 3395–3639): a corridor that walks from a
//! start towards a destination in straight segments, turning by chance and when rules force it,
//! making doors where it meets other corridors and rooms, and writing its floor and walls
//! through priority writes so it never damages anything more important.
//!
//! One call:
//!
//! 1. picks a corridor style ([`CorridorStyle`]) by weight when the tunnel is long enough, never
//!    repeating a non-staple style on the level while others remain, and applies the style's
//!    constant overrides for this tunnel only;
//! 2. walks (see [`TunnelFlags`] for how each flag changes the walk), for at most
//!    [`MAX_CORRIDOR_LENGTH`] steps;
//! 3. writes the corridor, records it in `map.notes.corridors` (with the style's name) and its
//!    doors in `map.notes.doors`.
//!
//! State that lasts for a whole level (rooms touched per panel, styles used) lives in a
//! [`TunnelLevel`] the caller keeps between calls. All randomness comes from the `Rng` passed in.

mod config;
mod error;
mod natural;
mod probe;
mod request;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod rules;
mod select;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod steer;
mod walk;
mod write;

pub use config::{ConstantOverrides, CorridorStyle, DoorTable, TunnelConfig, TunnelConstants};
pub use error::TunnelError;
pub use request::{TunnelFlags, TunnelRequest};
pub use steer::{incursion_dist, within_reach};

use crate::map::{Corridor, Map, Point};
use crate::rng::Rng;
use std::collections::BTreeSet;

/// The most steps one tunnel may take (Incursion's `MAX_CORRIDOR_LENGTH`); a tunnel that has not
/// stopped by then stops with [`StopReason::StepLimit`].
pub const MAX_CORRIDOR_LENGTH: u32 = 8192;

/// Tunnel state that lasts for one level. Start each level with `TunnelLevel::default()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TunnelLevel {
    /// Panels (as panel coordinates) whose room floor some tunnel has passed through
    /// (Incursion's `RoomsTouched`). Only the first touch of a panel counts towards
    /// [`TunnelFlags::wander`].
    pub rooms_touched: BTreeSet<Point>,
    /// Names of the non-staple corridor styles already used on this level.
    pub used_styles: BTreeSet<String>,
}

/// Why a tunnel stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Reached an open cell within distance 9 of the destination, in its region and panel.
    Arrived,
    /// Reached the destination cell itself (`exact`).
    Exact,
    /// Entered an open cell whose connected flag differs from the start's (`connect`).
    Connected,
    /// Stopped in a newly touched room (`wander`).
    Wandered,
    /// Reached the length limit (`length`).
    LengthLimit,
    /// Took [`MAX_CORRIDOR_LENGTH`] steps without stopping otherwise.
    StepLimit,
}

/// What a tunnel did.
#[derive(Clone, Debug, PartialEq)]
pub struct TunnelOutcome {
    /// Where the walk ended (an open cell unless it stopped at a limit).
    pub end: Point,
    /// Every cell the walk recorded, in order, including open ones it passed through.
    pub path: Vec<Point>,
    /// The cells given corridor floor, in order (also recorded in `map.notes.corridors`).
    pub carved: Vec<Point>,
    /// Doors made, in order (also recorded in `map.notes.doors`).
    pub doors: Vec<Point>,
    /// Index into [`TunnelConfig::styles`] of the style used.
    pub style: usize,
    /// The constants in force for this tunnel (the level's, with the style's overrides).
    pub constants: TunnelConstants,
    /// Why it stopped.
    pub stop: StopReason,
    /// Steps walked, including any abandoned attempt (at most [`MAX_CORRIDOR_LENGTH`]).
    pub steps: u32,
}

/// Digs one tunnel on `map` (Incursion's `Map::Tunnel`). Bad settings or cells off the map are
/// errors and leave the map untouched; otherwise the tunnel always finishes.
pub fn tunnel(
    map: &mut Map,
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    request: &TunnelRequest,
    rng: &mut Rng,
) -> Result<TunnelOutcome, TunnelError> {
    config.validate(map)?;
    tunnel_prechecked(map, config, level, request, rng)
}

/// [`tunnel`] with a configuration already checked by [`TunnelConfig::validate`] against this
/// map's terrain table: for digging many tunnels with one configuration (the phases check it
/// once, not before every tunnel). A configuration that would fail that check may panic here.
/// A bad request is still an error that leaves the map untouched. The outcome's `steps` and
/// `carved` are the work done, for a [`Meter`](crate::gen::meter::Meter).
pub fn tunnel_prechecked(
    map: &mut Map,
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    request: &TunnelRequest,
    rng: &mut Rng,
) -> Result<TunnelOutcome, TunnelError> {
    request.validate(map)?;
    let style_index = select::choose_style(config, level, request.start, request.dest, rng);
    let style = &config.styles[style_index];
    let constants = config.constants.with(&style.constants);
    let walked = walk::walk(map, config, &constants, request, level, rng);
    let region = map.region_id(&style.name);
    let carved = write::write_corridor(map, &walked.path, style, region, walked.start_connected);
    map.notes.corridors.push(Corridor {
        cells: carved.clone(),
        region: Some(style.name.clone()),
    });
    Ok(TunnelOutcome {
        end: walked.end,
        path: walked.path,
        carved,
        doors: walked.doors,
        style: style_index,
        constants,
        stop: walked.stop,
        steps: walked.steps,
    })
}
