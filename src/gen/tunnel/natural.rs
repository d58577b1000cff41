//! `TT_NATURAL`, which Incursion declares but never implements: curved, non-axis-aligned
//! tunnels.
//!
//! # Design
//!
//! The walk keeps its cardinal *heading* and every rule of the original (forced turns, turn
//! chance, `CorrectDir`, edge clamp, termination) still steers that heading. On top of it a
//! natural tunnel carries a *lean* of −2..=2 across the heading (towards north/west when
//! negative, south/east when positive):
//!
//! - each step, with chance 1/4, the lean moves by one: towards the destination's side of the
//!   heading with chance 2/3 when the destination is off to one side, otherwise either way;
//! - the step then *jogs* one cell sideways instead of forwards with chance |lean|/3, so a lean
//!   of 1 gives a shallow diagonal and 2 a steep one, and a lean that wanders back to 0 gives a
//!   straight stretch — gentle, irregular curves rather than right angles;
//! - a jog never happens once the walk is level with the destination across the heading (so the
//!   tunnel still closes in), never within 3 cells of the map's edge, and only into cells below
//!   room-wall priority (rock and corridor walls), so rooms and vaults are still entered through
//!   the original's door rules;
//! - a turn of the heading straightens the lean (it restarts at 0).
//!
//! A jog is an ordinary step of the walk, so the corridor stays 4-connected (a diagonal shows
//! as a staircase of floor) and its walls stay closed.

use super::probe::priority;
use crate::map::{priority as prio, Dir, Map, Point};
use crate::rng::Rng;

/// The lean of a natural tunnel across its heading.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lean {
    lean: i32,
    heading: Option<Dir>,
}

impl Lean {
    /// The direction of this step: `heading`, or a one-cell jog sideways.
    pub fn step(&mut self, map: &Map, pos: Point, heading: Dir, dest: Point, rng: &mut Rng) -> Dir {
        if self.heading != Some(heading) {
            *self = Lean {
                lean: 0,
                heading: Some(heading),
            };
        }
        let across_x = matches!(heading, Dir::North | Dir::South);
        let (offset, plus, minus) = if across_x {
            (dest.x - pos.x, Dir::East, Dir::West)
        } else {
            (dest.y - pos.y, Dir::South, Dir::North)
        };
        if rng.below(4) == 0 {
            let nudge = if offset != 0 && rng.below(3) < 2 {
                offset.signum()
            } else if rng.below(2) == 0 {
                1
            } else {
                -1
            };
            self.lean = (self.lean + nudge).clamp(-2, 2);
        }
        if self.lean == 0 || offset == 0 || rng.below(3) >= self.lean.unsigned_abs() as u64 {
            return heading;
        }
        let side = if self.lean > 0 { plus } else { minus };
        let target = pos.step(side);
        let inside = target.x >= 3
            && target.y >= 3
            && target.x <= map.width() - 4
            && target.y <= map.height() - 4;
        if inside && priority(map, target).is_some_and(|p| p < prio::ROOM_WALL) {
            side
        } else {
            heading
        }
    }
}
