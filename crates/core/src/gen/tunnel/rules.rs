//! The per-step rules that force a turn, in the original's order, and the room-wall door test
//! that shares a condition with one of them.

use super::probe::{has_priority, priority};
use crate::map::{priority as prio, Dir, Map, Point};

/// Why a turn was forced (the first matching rule, in the original's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedTurn {
    /// Four more steps would leave the map.
    NearEdge,
    /// Standing on a vault or anything of higher priority.
    Vault,
    /// The next two cells ahead are corridor walls (running into or along another corridor).
    CorridorWallAhead,
    /// Standing on a room wall with another room wall ahead (running along a room's side).
    RoomWallAlong,
    /// Level with the destination on the axis being travelled.
    DestinationAxis,
    /// The segment is longer than `segment_maxlen`.
    SegmentTooLong,
}

/// What the rules say about the cell just stepped onto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// The forced turn, if any.
    pub turn: Option<ForcedTurn>,
    /// A room wall lies ahead and we are not running along one: make a door.
    pub room_door: bool,
}

/// Applies every forced-turn rule to position `pos` heading `dir`.
pub fn assess(
    map: &Map,
    pos: Point,
    dir: Dir,
    dest: Point,
    seg_len: u32,
    segment_maxlen: u32,
) -> Assessment {
    let (dx, dy) = dir.delta();
    let next = pos.step(dir);
    let next2 = next.step(dir);
    let far = Point::new(pos.x + dx * 4, pos.y + dy * 4);
    let mut turn = None;
    let mut force = |hit: bool, why: ForcedTurn| {
        if hit && turn.is_none() {
            turn = Some(why);
        }
    };
    force(
        far.x > map.width() - 1 || far.x < 0 || far.y > map.height() - 1 || far.y < 0,
        ForcedTurn::NearEdge,
    );
    force(
        priority(map, pos).is_some_and(|p| p >= prio::VAULT),
        ForcedTurn::Vault,
    );
    force(
        has_priority(map, next, prio::CORRIDOR_WALL)
            && has_priority(map, next2, prio::CORRIDOR_WALL),
        ForcedTurn::CorridorWallAhead,
    );
    let along_room_wall =
        has_priority(map, pos, prio::ROOM_WALL) && has_priority(map, next, prio::ROOM_WALL);
    force(along_room_wall, ForcedTurn::RoomWallAlong);
    let room_door = !along_room_wall && has_priority(map, next, prio::ROOM_WALL);
    force(
        (pos.x == dest.x && dx != 0) || (pos.y == dest.y && dy != 0),
        ForcedTurn::DestinationAxis,
    );
    force(seg_len > segment_maxlen, ForcedTurn::SegmentTooLong);
    Assessment { turn, room_door }
}
