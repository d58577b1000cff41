//! The rectangular kinds: normal (`WriteRoom`), pillared (a lattice of pillars) and destroyed
//! (a ruin; Incursion's `WriteDestroyed` is an empty stub, so warren designs it: rubble strewn
//! over the floor and fallen into the walls).

use super::paint::{odd_at_most, place_within, size, Paint};
use super::RoomLimits;
use crate::map::{Map, Point, Rect};
use crate::rng::Rng;

/// A walled rectangle of a random size within the limits. Returns its floor.
pub fn normal(map: &mut Map, rng: &mut Rng, panel: Rect, paint: &Paint, lim: &RoomLimits) -> Rect {
    let r = sized_rect(rng, panel, lim);
    paint.box_room(map, r);
    r.inset(1)
}

/// A walled rectangle with pillars on every other cell of every other row, each present with
/// chance 95% ("a few missing pillars add variety"). Its sides are odd, so the pillars never
/// touch the walls and the floor between them stays one open area.
pub fn pillared(
    map: &mut Map,
    rng: &mut Rng,
    panel: Rect,
    paint: &Paint,
    lim: &RoomLimits,
) -> Rect {
    let w = odd_at_most(
        size(rng, lim.min_width, lim.max_width)
            .max(7)
            .min(panel.w - 2),
    );
    let h = odd_at_most(
        size(rng, lim.min_height, lim.max_height)
            .max(7)
            .min(panel.h - 2),
    );
    let r = place_within(panel, w, h, rng);
    paint.box_room(map, r);
    for y in (r.y + 2..r.y2()).step_by(2) {
        for x in (r.x + 2..r.x2()).step_by(2) {
            if rng.below(100) < 95 {
                Paint::put(map, Point::new(x, y), &paint.furnishing);
            }
        }
    }
    r.inset(1)
}

/// A walled rectangle in ruins: each wall cell but the corners has fallen into rubble with
/// chance 1/4 and each floor cell but the centre is buried with chance 1/6. Rubble has PILLARS
/// priority, so corridors can dig through it.
pub fn destroyed(
    map: &mut Map,
    rng: &mut Rng,
    panel: Rect,
    paint: &Paint,
    lim: &RoomLimits,
) -> Rect {
    let r = sized_rect(rng, panel, lim);
    paint.box_room(map, r);
    let corners = [
        Point::new(r.x, r.y),
        Point::new(r.x2(), r.y),
        Point::new(r.x, r.y2()),
        Point::new(r.x2(), r.y2()),
    ];
    for p in r.outline() {
        if !corners.contains(&p) && rng.below(4) == 0 {
            Paint::put(map, p, &paint.furnishing);
        }
    }
    let floor = r.inset(1);
    let centre = floor.center();
    for p in floor.cells() {
        if p != centre && rng.below(6) == 0 {
            Paint::put(map, p, &paint.furnishing);
        }
    }
    floor
}

/// A rectangle of a random size within the limits, placed inside the panel.
fn sized_rect(rng: &mut Rng, panel: Rect, lim: &RoomLimits) -> Rect {
    let w = size(rng, lim.min_width, lim.max_width);
    let h = size(rng, lim.min_height, lim.max_height);
    place_within(panel, w, h, rng)
}
