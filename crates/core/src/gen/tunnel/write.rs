//! Writing to the map: doors (Incursion's `MakeDoor`) while walking, and the corridor itself
//! (`WriteCorridor`) once the walk is over.

use super::config::{CorridorStyle, DoorTable};
use crate::gen::doors;
use crate::map::{priority as prio, Brush, Dir, DoorState, Map, Point, FLAG_CONNECTED, FLAG_SOLID};

/// Makes a closed door at `at` of the kind of the region at `region_of` (see
/// [`doors::make_door`]: the cell keeps its priority, so a door in a room wall is still room
/// wall to the walk's rules). Returns whether a door was made; made doors are recorded in
/// `map.notes.doors`.
pub fn make_door(map: &mut Map, doors: &DoorTable, at: Point, region_of: Point) -> bool {
    let Ok(region) = map.region_at(region_of) else {
        return false;
    };
    let kind = doors.door_for(map.region_name(region));
    doors::make_door(map, at, kind, DoorState::Closed)
}

/// Writes the corridor along `path`: each solid cell gets the style's floor at room-floor
/// priority and its 8 neighbours the style's walls at corridor-wall priority, all stamped with
/// `region`; nothing of higher priority is touched. When `connect` is set every cell left open
/// is marked connected. Returns the cells that were floored, in order.
pub fn write_corridor(
    map: &mut Map,
    path: &[Point],
    style: &CorridorStyle,
    region: u16,
    connect: bool,
) -> Vec<Point> {
    let floor = Brush::new(style.floor)
        .priority(prio::ROOM_FLOOR)
        .region(region);
    let walls = Brush::new(style.walls)
        .priority(prio::CORRIDOR_WALL)
        .region(region);
    let mut carved = Vec::new();
    for &p in path {
        let Ok(i) = map.index(p) else {
            continue;
        };
        if map.flag_cells()[i] & FLAG_SOLID != 0 {
            if map.write_index(i, &floor) {
                carved.push(p);
            }
            for d in Dir::ALL {
                let q = p.step(d);
                if let Ok(j) = map.index(q) {
                    map.write_index(j, &walls);
                }
            }
        }
        // Incursion marks every path cell; only open ones are marked here, so "connected"
        // keeps meaning "reachable".
        let flags = &mut map.flag_cells_mut()[i];
        if connect && *flags & FLAG_SOLID == 0 {
            *flags |= FLAG_CONNECTED;
        }
    }
    carved
}
