//! Reading cells the way the tunnel's rules do: a cell off the map is never solid, has no
//! priority and matches no rule (the original read past its arrays there).

use crate::map::{Map, Point};

/// The priority of a cell, or `None` off the map.
pub fn priority(map: &Map, p: Point) -> Option<u8> {
    map.priority_at(p).ok()
}

/// Whether a cell is on the map and solid.
pub fn solid(map: &Map, p: Point) -> bool {
    map.is_solid(p).unwrap_or(false)
}

/// Whether a cell is on the map and carries exactly priority `prio`.
pub fn has_priority(map: &Map, p: Point, prio: u8) -> bool {
    priority(map, p) == Some(prio)
}

/// The panel a cell lies in.
pub fn panel_of(p: Point, panel_width: i32, panel_height: i32) -> Point {
    Point::new(p.x / panel_width, p.y / panel_height)
}
