//! Writing to the map: doors (Incursion's `MakeDoor`) while walking, and the corridor itself
//! (`WriteCorridor`) once the walk is over.

use super::config::{CorridorStyle, DoorTable};
use crate::map::{priority as prio, Brush, Dir, Map, Point, FLAG_CONNECTED, FLAG_SOLID};

/// The priority doors are written with: above floors (so the corridor's floor never replaces
/// them) and below rivers and vaults (so no door appears inside one).
// Incursion's doors are features that ignore terrain priority; as terrain they need one.
pub const DOOR_PRIORITY: u8 = prio::ROOM_FURNITURE;

/// Makes a door at `at` with the door of the region at `region_of`, unless a door is already
/// recorded there or the cell is off the map, on its edge or of higher priority. Returns whether
/// a door was made; made doors are recorded in `map.notes.doors`.
pub fn make_door(map: &mut Map, doors: &DoorTable, at: Point, region_of: Point) -> bool {
    let Ok(region) = map.region_at(region_of) else {
        return false;
    };
    if map.notes.doors.contains(&at) {
        return false;
    }
    let door = doors.door_for(map.region_name(region));
    let made = map
        .write(at, &Brush::new(door).priority(DOOR_PRIORITY))
        .unwrap_or(false);
    if made {
        map.notes.doors.push(at);
    }
    made
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
        let Ok(i) = map.index(p.x as i64, p.y as i64) else {
            continue;
        };
        if map.flag_cells()[i] & FLAG_SOLID != 0 {
            if map.write_index(i, &floor) {
                carved.push(p);
            }
            for d in Dir::ALL {
                let q = p.step(d);
                if let Ok(j) = map.index(q.x as i64, q.y as i64) {
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
