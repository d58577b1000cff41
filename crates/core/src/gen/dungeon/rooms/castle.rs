//! A castle (`WriteCastle`): a large walled rectangle split again and again by inner walls,
//! each with one door, until the chambers are small. Inner walls have ROOM_FURNITURE priority,
//! so corridors enter through the outer wall and never cut through the chambers.

use super::paint::{place_within, Paint};
use crate::map::{DoorState, Map, Point, Rect, FLAG_DOOR, FLAG_SOLID};
use crate::rng::Rng;

/// A castle filling most of the panel. Returns its floor (inner walls included).
pub fn castle(map: &mut Map, rng: &mut Rng, panel: Rect, paint: &Paint) -> Rect {
    let w = (panel.w / 2).max(panel.w - 2 - rng.below(6) as i32);
    let h = (panel.h / 2).max(panel.h - 2 - rng.below(6) as i32);
    let r = place_within(panel, w, h, rng);
    paint.box_room(map, r);
    split(map, rng, r, paint);
    r.inset(1)
}

/// Splits chamber `r` (walls included) in two with an inner wall and a door, then each half,
/// while both sides of the chamber span at least 7 cells. As in the original, the inner wall
/// stands at least two cells from the chamber's left (top) wall and three from its right
/// (bottom) wall, and its door at least one cell from the top (left) wall and two from the
/// bottom (right) wall.
fn split(map: &mut Map, rng: &mut Rng, r: Rect, paint: &Paint) {
    let (sx, sy) = (r.w - 1, r.h - 1);
    if sx < 7 || sy < 7 {
        return;
    }
    let vertical = rng.below(10) == 0 || (sx > sy && rng.below(9) != 0);
    let solid = |map: &Map, x, y| {
        let flags = map
            .index(Point::new(x, y))
            .map_or(0, |i| map.flag_cells()[i]);
        flags & (FLAG_SOLID | FLAG_DOOR) == FLAG_SOLID
    };
    // The wall must meet solid wall at both ends (not a door); like the original, ten tries,
    // but a chamber with no such place stays whole instead of being walled across a door.
    // `random(n)` is 0..n, so the original's `x1 + 2 + random(x2 - (x1 + 4))` is x1+2..=x2-3.
    if vertical {
        let Some(d) = (0..10)
            .map(|_| r.x + 2 + rng.below((sx - 4) as u64) as i32)
            .find(|&d| solid(map, d, r.y) && solid(map, d, r.y2()))
        else {
            return;
        };
        let door = r.y + 1 + rng.below((sy - 2) as u64) as i32;
        for y in (r.y + 1..r.y2()).filter(|&y| y != door) {
            Paint::put(map, Point::new(d, y), &paint.inner_wall);
        }
        paint.door(map, Point::new(d, door), DoorState::Closed);
        split(map, rng, Rect::new(r.x, r.y, d - r.x + 1, r.h), paint);
        split(map, rng, Rect::new(d, r.y, r.x2() - d + 1, r.h), paint);
    } else {
        let Some(d) = (0..10)
            .map(|_| r.y + 2 + rng.below((sy - 4) as u64) as i32)
            .find(|&d| solid(map, r.x, d) && solid(map, r.x2(), d))
        else {
            return;
        };
        let door = r.x + 1 + rng.below((sx - 2) as u64) as i32;
        for x in (r.x + 1..r.x2()).filter(|&x| x != door) {
            Paint::put(map, Point::new(x, d), &paint.inner_wall);
        }
        paint.door(map, Point::new(door, d), DoorState::Closed);
        split(map, rng, Rect::new(r.x, r.y, r.w, d - r.y + 1), paint);
        split(map, rng, Rect::new(r.x, d, r.w, r.y2() - d + 1), paint);
    }
}
