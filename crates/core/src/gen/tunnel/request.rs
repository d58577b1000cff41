//! One tunnel's request: where from, where to, how (Incursion's `TT_*` flags) and which way to
//! set off.

use super::error::TunnelError;
use super::MAX_CORRIDOR_LENGTH;
use crate::map::{Dir, Map, Point};

/// Incursion's seven tunnel flags (`TT_*`), as booleans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TunnelFlags {
    /// `TT_CONNECT`: stop on entering an open cell whose connected flag differs from the
    /// start's. Disables the usual "near the destination" stop.
    pub connect: bool,
    /// `TT_DIRECT`: every turn heads for the destination (no stubborn random turns).
    pub direct: bool,
    /// `TT_LENGTH`: stop once the corridor is [`TunnelRequest::length_limit`] cells long.
    /// Incursion declares the flag but never implements it (its `Tunnel` takes no length);
    /// this is warren's design.
    pub length: bool,
    /// `TT_NOTOUCH`: do not mark the rooms passed through as touched.
    pub notouch: bool,
    /// `TT_EXACT`: finish exactly on the destination cell (carving it) instead of anywhere open
    /// near it. The destination must lie at least 2 cells inside the map's edge. Incursion
    /// declares the flag but never implements it; this is warren's design.
    pub exact: bool,
    /// `TT_WANDER`: after touching a second room, and each new room after that, the tunnel may
    /// stop there (chance `(1 - 1/n)²` with `n` rooms found).
    pub wander: bool,
    /// `TT_NATURAL`: curved, non-axis-aligned tunnels. Incursion declares the flag but never
    /// implements it; warren's design:
    ///
    /// - The walk keeps its cardinal *heading*, and every rule of the original (forced turns,
    ///   turn chance, `CorrectDir`, edge clamp, termination) still steers that heading.
    /// - On top of it the tunnel carries a *lean* of −2..=2 across the heading. Each step, with
    ///   chance 1/4, the lean moves by one: towards the destination's side with chance 2/3 when
    ///   the destination lies off to one side, otherwise either way.
    /// - The step then *jogs* one cell sideways instead of forwards with chance |lean|/3: a lean
    ///   of 1 gives a shallow diagonal, 2 a steep one, and a lean back at 0 a straight stretch,
    ///   so the tunnel bends in gentle, irregular curves rather than right angles.
    /// - No jog once the walk is level with the destination across the heading (so it still
    ///   closes in), within 3 cells of the map's edge, or into anything of room-wall priority or
    ///   more (rooms and vaults are still entered by the original's door rules). A turn of the
    ///   heading straightens the lean.
    /// - A jog is an ordinary step, so the corridor stays 4-connected (a diagonal shows as a
    ///   staircase of floor) and its walls stay closed.
    pub natural: bool,
}

impl TunnelFlags {
    /// Every flag name, as accepted by [`TunnelFlags::from_names`].
    pub const NAMES: [&'static str; 7] = [
        "connect", "direct", "length", "notouch", "exact", "wander", "natural",
    ];

    /// Flags from their names (`["direct", "wander"]`); an unknown name is an error listing the
    /// valid ones.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<TunnelFlags, TunnelError> {
        let mut f = TunnelFlags::default();
        for name in names {
            let slot = match name.as_ref() {
                "connect" => &mut f.connect,
                "direct" => &mut f.direct,
                "length" => &mut f.length,
                "notouch" => &mut f.notouch,
                "exact" => &mut f.exact,
                "wander" => &mut f.wander,
                "natural" => &mut f.natural,
                other => {
                    return Err(TunnelError::bad(
                        "flag",
                        format!("{other:?}"),
                        Self::NAMES.join(", "),
                    ))
                }
            };
            *slot = true;
        }
        Ok(f)
    }
}

/// One call of the tunnel primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TunnelRequest {
    /// Where the tunnel starts.
    pub start: Point,
    /// Where it heads.
    pub dest: Point,
    /// How it behaves.
    pub flags: TunnelFlags,
    /// The first direction (north, south, east or west); `None` picks the axis with the longer
    /// distance to the destination.
    pub start_dir: Option<Dir>,
    /// Corridor length limit in cells (1..=8192); required with, and only with, the `length`
    /// flag.
    pub length_limit: Option<u32>,
}

impl TunnelRequest {
    /// A request from `start` to `dest` with the given flags and everything else automatic.
    pub fn new(start: Point, dest: Point, flags: TunnelFlags) -> TunnelRequest {
        TunnelRequest {
            start,
            dest,
            flags,
            start_dir: None,
            length_limit: None,
        }
    }

    /// Checks the request against `map`.
    pub fn validate(&self, map: &Map) -> Result<(), TunnelError> {
        for (which, p) in [("start", self.start), ("destination", self.dest)] {
            map.index(p)
                .map_err(|source| TunnelError::OutOfBounds { which, source })?;
        }
        if let Some(d) = self.start_dir {
            if !Dir::CARDINAL.contains(&d) {
                return Err(TunnelError::bad(
                    "start_dir",
                    d.name(),
                    "north, south, east or west",
                ));
            }
        }
        match (self.flags.length, self.length_limit) {
            (true, None) => {
                return Err(TunnelError::bad(
                    "length_limit",
                    "missing",
                    format!("1..={MAX_CORRIDOR_LENGTH} with the `length` flag"),
                ))
            }
            (true, Some(n)) if n == 0 || n > MAX_CORRIDOR_LENGTH => {
                return Err(TunnelError::bad(
                    "length_limit",
                    n,
                    format!("1..={MAX_CORRIDOR_LENGTH}"),
                ))
            }
            (false, Some(n)) => {
                return Err(TunnelError::bad(
                    "length_limit",
                    n,
                    "no limit unless the `length` flag is set",
                ))
            }
            _ => {}
        }
        if self.flags.exact {
            let (w, h) = (map.width(), map.height());
            let (x, y) = (self.dest.x, self.dest.y);
            if x < 2 || y < 2 || x > w - 3 || y > h - 3 {
                return Err(TunnelError::bad(
                    "destination with the `exact` flag",
                    format!("({x}, {y})"),
                    format!(
                        "x 2..={}, y 2..={} (the walk never reaches the outer two rings)",
                        w - 3,
                        h - 3
                    ),
                ));
            }
        }
        Ok(())
    }
}
