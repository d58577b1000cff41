//! `TT_NATURAL`, which Incursion declares but never implements: the lean that bends a natural
//! tunnel into curves. The design is documented on
//! [`TunnelFlags::natural`](super::TunnelFlags::natural).

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
