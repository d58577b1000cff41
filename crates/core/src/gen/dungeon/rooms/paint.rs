//! The brushes a room is drawn with, and the two writes every room kind shares: Incursion's
//! `WriteRoom` (a walled rectangle) and `WriteWalls` (walls around a floor of any shape).

use super::RoomStyle;
use crate::gen::doors::make_door;
use crate::map::{priority, Brush, Dir, DoorKind, DoorState, Map, Point, Rect};
use crate::rng::Rng;

/// One room region's brushes, each stamping the region.
pub struct Paint {
    /// Floor at ROOM_FLOOR.
    pub floor: Brush,
    /// Walls at ROOM_WALL.
    pub wall: Brush,
    /// A castle's inner walls at ROOM_FURNITURE, so corridors cannot cut through them.
    pub inner_wall: Brush,
    /// The region's kind of door (a castle's inner doors, a maze's secret doors).
    pub door: DoorKind,
    /// Pillars and rubble at PILLARS, forced: the original writes them over ROOM_FLOOR, which
    /// its own priority rule refuses, yet intends them to stand in the room.
    pub furnishing: Brush,
}

impl Paint {
    /// The brushes of `style`, with its region interned on `map`.
    pub fn new(map: &mut Map, style: &RoomStyle) -> Paint {
        let region = map.region_id(&style.name);
        let with = |terrain, prio| Brush::new(terrain).priority(prio).region(region);
        Paint {
            floor: with(style.floor, priority::ROOM_FLOOR),
            wall: with(style.wall, priority::ROOM_WALL),
            inner_wall: with(style.wall, priority::ROOM_FURNITURE),
            door: style.door.clone(),
            furnishing: with(style.furnishing.unwrap_or(style.wall), priority::PILLARS).forced(),
        }
    }

    /// Writes one cell with `brush` (cells off the map are skipped).
    pub fn put(map: &mut Map, p: Point, brush: &Brush) {
        if let Ok(i) = map.index(p) {
            map.write_index(i, brush);
        }
    }

    /// A walled rectangle: walls on `r`'s border, floor inside.
    pub fn box_room(&self, map: &mut Map, r: Rect) {
        for p in r.cells() {
            let on_border = p.x == r.x || p.y == r.y || p.x == r.x2() || p.y == r.y2();
            Self::put(map, p, if on_border { &self.wall } else { &self.floor });
        }
    }

    /// Walls on every cell of `area` grown by one (inside the map's edge) that is not floor
    /// but touches floor, 8-neighbour; `is_floor` says which cells are this room's floor.
    pub fn walls_around(&self, map: &mut Map, area: Rect, is_floor: impl Fn(Point) -> bool) {
        let (x0, y0) = ((area.x - 1).max(1), (area.y - 1).max(1));
        let x1 = (area.x2() + 1).min(map.width() - 2);
        let y1 = (area.y2() + 1).min(map.height() - 2);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = Point::new(x, y);
                if !is_floor(p) && Dir::ALL.iter().any(|&d| is_floor(p.step(d))) {
                    Self::put(map, p, &self.wall);
                }
            }
        }
    }

    /// A door of the region's kind in `state` at `p` (see [`make_door`]: the cell keeps its
    /// priority), recorded in `map.notes.doors`.
    pub fn door(&self, map: &mut Map, p: Point, state: DoorState) {
        make_door(map, p, &self.door, state);
    }
}

/// A uniform size in `lo..=hi`.
// Incursion draws `ROOM_MINX + random(ROOM_MAXX - ROOM_MINX)`, which never reaches the maximum;
// warren's `room_min_*`/`room_max_*` are ranges with both ends included, which is what a
// designer writing a minimum and a maximum means.
pub fn size(rng: &mut Rng, lo: i32, hi: i32) -> i32 {
    rng.range(lo as i64, hi as i64) as i32
}

/// A `w × h` rectangle at a random place inside `panel`, one cell clear of the panel's border
/// on every side (sizes larger than that are shrunk to fit).
// Incursion's `PlaceWithinSafely` clamps rooms two cells inside the panel, cutting off the
// side of a room drawn too close to the border. warren keeps one cell, so that every size the
// schema allows (up to the panel less 2) fits whole; rooms of neighbouring panels still stand
// at least two cells apart.
pub fn place_within(panel: Rect, w: i32, h: i32, rng: &mut Rng) -> Rect {
    let w = w.min(panel.w - 2).max(1);
    let h = h.min(panel.h - 2).max(1);
    let x = panel.x + 1 + rng.below((panel.w - 2 - w + 1) as u64) as i32;
    let y = panel.y + 1 + rng.below((panel.h - 2 - h + 1) as u64) as i32;
    Rect::new(x, y, w, h)
}

/// The largest odd number ≤ `v` (room kinds with a cell lattice need odd sides).
pub fn odd_at_most(v: i32) -> i32 {
    if v % 2 == 0 {
        v - 1
    } else {
        v
    }
}
