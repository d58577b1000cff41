//! A round chamber (`WriteCircle` + `WriteWalls`): a disc of floor, walled all round.

use super::paint::{place_within, size, Paint};
use super::RoomLimits;
use crate::map::{Map, Point, Rect};
use crate::rng::Rng;

/// A disc of floor whose diameter is drawn from the smaller of the width and height limits
/// (at least 7 with its walls), walled where it meets anything else. Returns the disc's
/// bounding box.
pub fn circular(
    map: &mut Map,
    rng: &mut Rng,
    panel: Rect,
    paint: &Paint,
    lim: &RoomLimits,
) -> Rect {
    let lo = lim.min_width.min(lim.min_height);
    let hi = lim.max_width.min(lim.max_height);
    let side = size(rng, lo, hi).max(7).min(panel.w.min(panel.h) - 2);
    let r = place_within(panel, side, side, rng);
    let centre = Point::new(r.x + (side - 1) / 2, r.y + (side - 1) / 2);
    let radius = (side - 1) / 2 - 1;
    // r² + r rounds the disc's rim outwards, so small discs are round rather than diamond.
    // Incursion's `WriteCircle` measures with its `dist` (the longer axis plus half the
    // shorter), which draws an octagon; a "circular" room here is a round disc, measured with
    // exact integer Euclidean distance.
    let inside = |p: Point| {
        let (dx, dy) = ((p.x - centre.x) as i64, (p.y - centre.y) as i64);
        dx * dx + dy * dy <= (radius * radius + radius) as i64
    };
    let disc = Rect::new(
        centre.x - radius,
        centre.y - radius,
        2 * radius + 1,
        2 * radius + 1,
    );
    for p in disc.cells().filter(|&p| inside(p)) {
        Paint::put(map, p, &paint.floor);
    }
    paint.walls_around(map, disc, |p| disc.contains(p) && inside(p));
    disc
}
