//! The main loop of `Map::Tunnel` (MakeLev.cpp 3460–3564), step by step: touch rooms, make
//! doors, record the cell, check the stop conditions, move, apply the forced-turn rules, decide
//! the turn, clamp at the edge, and test for arrival.

use super::config::{TunnelConfig, TunnelConstants};
use super::natural::Lean;
use super::probe::{has_priority, panel_of, solid};
use super::request::TunnelRequest;
use super::rules::assess;
use super::steer::{clamp_at_edge, correct_dir, incursion_dist, initial_dir, random_turn};
use super::write::make_door;
use super::{StopReason, TunnelLevel, MAX_CORRIDOR_LENGTH};
use crate::map::{priority as prio, Map, Point};
use crate::rng::Rng;

/// The result of a walk, before the corridor is written.
pub struct Walked {
    /// Every cell recorded, in order (the original's `Corr`).
    pub path: Vec<Point>,
    /// Where the walk ended.
    pub end: Point,
    /// Why it ended.
    pub stop: StopReason,
    /// Steps taken, counting those of abandoned attempts.
    pub steps: u32,
    /// Doors made along the way.
    pub doors: Vec<Point>,
    /// Whether the start cell was marked connected when the walk began.
    pub start_connected: bool,
}

/// Walks from the request's start until a stop condition holds, making doors on the way.
pub fn walk(
    map: &mut Map,
    config: &TunnelConfig,
    consts: &TunnelConstants,
    req: &TunnelRequest,
    level: &mut TunnelLevel,
    rng: &mut Rng,
) -> Walked {
    let flags = req.flags;
    let (start, dest) = (req.start, req.dest);
    let start_dir = req.start_dir.unwrap_or_else(|| initial_dir(start, dest));
    let start_connected = map.is_connected(start).unwrap_or(false);
    let limit = req.length_limit.map_or(usize::MAX, |n| n as usize);
    let mut out = Walked {
        path: Vec::new(),
        end: start,
        stop: StopReason::StepLimit,
        steps: 0,
        doors: Vec::new(),
        start_connected,
    };
    // The original would leave and have to come back; an exact tunnel that is already there is
    // done.
    if flags.exact && start == dest {
        out.path.push(start);
        out.stop = StopReason::Exact;
        return out;
    }
    let mut pos = start;
    let mut heading = start_dir;
    let mut seg_len: u32 = 0;
    let mut rooms_found: u64 = 0;
    let mut lean = Lean::default();
    loop {
        if !flags.notouch && has_priority(map, pos, prio::ROOM_FLOOR) {
            let panel = panel_of(pos, config.panel_width, config.panel_height);
            if level.rooms_touched.insert(panel) {
                rooms_found += 1;
                if flags.wander && rng.below(rooms_found) != 0 && rng.below(rooms_found) != 0 {
                    out.end = pos;
                    out.stop = StopReason::Wandered;
                    return out;
                }
            }
        }
        let step = if flags.natural {
            lean.step(map, pos, heading, dest, rng)
        } else {
            heading
        };
        let next = pos.step(step);
        if solid(map, next) && has_priority(map, next.step(step), prio::CORRIDOR_WALL) {
            door(map, config, &mut out.doors, next, next);
        }
        out.path.push(pos);
        seg_len += 1;
        // The original sets a flag and finishes the step (moving on and perhaps making a door
        // beyond); stopping here ends the corridor on the cell that met the other area.
        if flags.connect
            && map.is_connected(pos).unwrap_or(false) != start_connected
            && !solid(map, pos)
        {
            out.end = pos;
            out.stop = StopReason::Connected;
            return out;
        }
        if flags.length && out.path.len() >= limit {
            out.end = pos;
            out.stop = StopReason::LengthLimit;
            return out;
        }
        out.steps += 1;
        if out.steps >= MAX_CORRIDOR_LENGTH {
            out.end = pos;
            return out;
        }
        pos = next;
        if !map.in_bounds(pos) {
            // `goto RestartTunnel`: start over from the start; doors and touched rooms stay.
            pos = start;
            heading = start_dir;
            lean = Lean::default();
            out.path.clear();
            continue;
        }
        let rules = assess(map, pos, heading, dest, seg_len, consts.segment_maxlen);
        if rules.room_door {
            let ahead = pos.step(heading);
            // The original may also put the door on the current cell when that is a room's
            // floor (leaving a room); only a solid cell, about to be carved, gets the 50/50.
            let at = if solid(map, pos) && rng.below(2) == 0 {
                pos
            } else {
                ahead
            };
            door(map, config, &mut out.doors, at, ahead);
        }
        if rules.turn.is_some()
            || (seg_len > consts.segment_minlen && rng.below(100) < u64::from(consts.turn_chance))
        {
            seg_len = 0;
            heading = if flags.direct || rng.below(100) > u64::from(consts.stubborn_corridor) {
                correct_dir(pos, dest, heading, rng)
            } else {
                random_turn(heading, rng)
            };
        }
        heading = clamp_at_edge(pos, heading, map.width(), map.height());
        if flags.exact {
            if pos == dest {
                out.path.push(pos);
                out.end = pos;
                out.stop = StopReason::Exact;
                return out;
            }
        } else if !flags.connect && arrived(map, config, pos, dest) {
            out.end = pos;
            out.stop = StopReason::Arrived;
            return out;
        }
    }
}

/// The original's termination rule: within distance 9 of the destination, on an open cell, in
/// the destination's region and panel.
pub fn arrived(map: &Map, config: &TunnelConfig, pos: Point, dest: Point) -> bool {
    let (pw, ph) = (config.panel_width, config.panel_height);
    incursion_dist(pos, dest) < 10
        && !solid(map, pos)
        && map.region_at(pos).ok() == map.region_at(dest).ok()
        && panel_of(pos, pw, ph) == panel_of(dest, pw, ph)
}

/// Makes a door and remembers it for the outcome.
fn door(map: &mut Map, config: &TunnelConfig, made: &mut Vec<Point>, at: Point, region_of: Point) {
    if make_door(map, &config.doors, at, region_of) {
        made.push(at);
    }
}
