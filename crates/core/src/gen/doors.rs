//! Making doors while a level is built (Incursion's `MakeDoor`) and finishing them once it is
//! done (the door validation at the end of `Map::Generate`, and `Door::SetImage`).
//!
//! A door is a feature on its cell ([`crate::map::door`]): making one records it and draws its
//! kind's closed terrain on the cell *without touching the cell's priority*, so a door in a room
//! wall still counts as room wall to the tunnel's rules (which is what stops a tunnel running
//! along a wall from laying a door at every step). A corridor written through the door later
//! floors the cell, as in the original; [`finish_doors`] draws every door in its final state.

use crate::gen::connectivity::{components, map_adjacency};
use crate::gen::tunnel::incursion_dist;
use crate::map::{
    priority, Brush, Dir, Door, DoorKind, DoorState, DoorWeights, Map, Point, TerrainId, FLAG_DOOR,
    FLAG_SOLID,
};
use crate::rng::Rng;
use std::collections::BTreeMap;

/// Makes a door of `kind` in `state` at `at`: records it (see [`Map::add_door`]) with the
/// terrain it stands on ([`Door::made_on`]) and draws the kind's closed terrain there, leaving
/// the cell's priority and region alone. Refuses (and
/// returns `false`) off the map, on its edge, where a door already stands, and on cells of
/// higher priority than room furniture (rivers, vaults, stairs), where no door may stand.
// Incursion's MakeDoor checks none of these but the door already there; a door inside a river or
// a vault wall is never what a level wants.
pub fn make_door(map: &mut Map, at: Point, kind: &DoorKind, state: DoorState) -> bool {
    if !door_may_stand(map, at) {
        return false;
    }
    let Ok(i) = map.index(at) else {
        return false;
    };
    let made_on = map.terrain_at(at).ok();
    map.write_index(i, &Brush::new(kind.closed));
    let door = Door {
        x: at.x,
        y: at.y,
        state,
        kind: Some(kind.name.clone()),
        made_on,
    };
    map.add_door(door).unwrap_or(false)
}

/// Whether [`make_door`] may make a door at `at`: on the map but not its edge, where no door
/// stands, on a cell of at most room-furniture priority.
pub fn door_may_stand(map: &Map, at: Point) -> bool {
    map.index(at).is_ok_and(|i| {
        !map.is_edge(at)
            && map.flag_cells()[i] & FLAG_DOOR == 0
            && map.priority_cells()[i] <= priority::ROOM_FURNITURE
    })
}

/// How [`finish_doors`] treats secret doors near the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishDoors {
    /// The level's depth (1 = the first level).
    pub depth: u32,
    /// On levels at most this deep, no secret door stays within `reveal_radius` of up stairs
    /// (Incursion: 5, "to prevent the player from being boxed in").
    pub reveal_depth: u32,
    /// Distance (Incursion's `dist`) from up stairs within which secret doors become closed
    /// doors (Incursion: 17).
    pub reveal_radius: i32,
}

impl Default for FinishDoors {
    fn default() -> Self {
        FinishDoors {
            depth: 1,
            reveal_depth: 5,
            reveal_radius: 17,
        }
    }
}

/// How many doors ended in each state, indexed like [`DoorState::ALL`].
pub type StateCounts = [usize; 5];

/// Gives every door made from region data (those with a kind) its final state and draws it,
/// following the door pass at the end of Incursion's `Map::Generate` and `Door::SetImage`:
///
/// 1. A door on a staircase's cell is dropped.
/// 2. Doors that touch (8-neighbour) are removed in pairs, in the order they were made: each
///    door still standing next to another loses both. A removed door's cell stays as the
///    corridor left it; one no corridor walked through is walled up again with the terrain the
///    door was made on ([`Door::made_on`]; a door recorded without it, a vault's, with the wall
///    beside it), unless that wall would cut the level in two (counted in the map's adjacency,
///    see [`map_adjacency`]): then the door stays (broken if it still touches another door).
/// 3. A door that does not stand between two walls (solid cells without a door, west and east
///    or north and south) is **broken**: an empty doorway.
/// 4. A door made secret (a maze's) stays secret; a closed door gets a state drawn with its
///    kind's weights (Incursion: closed 27, open 6, locked 27, secret 10 in 70).
/// 5. On levels at most `reveal_depth` deep, secret doors within `reveal_radius` of up stairs
///    become closed doors.
/// 6. Each door's cell gets the terrain of its state at FEATURE_FLOOR priority; a secret door
///    without a terrain of its own is drawn as the wall beside it (below a door between north
///    and south walls, right of one between west and east walls), as Incursion draws it.
///
/// Doors without a kind (recorded by a recipe with `map:add_door`) are left as they are.
/// Returns how many doors ended in each state.
// Incursion's validation removes doors that fail rule 3 too (its SetImage marks them broken
// when they are made). warren keeps them as broken doorways: as passable as the floor the
// original leaves, and a game still knows a doorway is there.
// Incursion also checks rule 3 before rule 2, one door at a time, starting over after each
// removal, so a door in the open goes alone if it is reached before a door touching it. Kept
// as a broken doorway, such a door would still touch its neighbour, so warren removes touching
// pairs first and judges the doors left against the walls as the removals left them.
pub fn finish_doors(map: &mut Map, rng: &mut Rng, opts: &FinishDoors) -> StateCounts {
    drop_doors_on_stairs(map);
    remove_touching_pairs(map);
    let up = map.notes.stairs.up.clone();
    let mut counts = [0; 5];
    let mut doors = std::mem::take(&mut map.notes.doors);
    for door in &mut doors {
        let at = door.at();
        let Some(kind) = door.kind.as_deref().and_then(|k| map.terrains().door(k)) else {
            counts[door.state as usize] += 1;
            continue;
        };
        let between = between_walls(map, at);
        door.state = if between.is_none() {
            DoorState::Broken
        } else if door.state == DoorState::Closed {
            roll(rng, &kind.weights)
        } else {
            door.state
        };
        let near_up = up
            .iter()
            .any(|&s| incursion_dist(s, at) <= opts.reveal_radius);
        if door.state == DoorState::Secret && opts.depth <= opts.reveal_depth && near_up {
            door.state = DoorState::Closed;
        }
        let terrain = kind
            .terrain(door.state)
            .or_else(|| between.and_then(|wall| map.terrain_at(wall).ok()));
        if let Some(t) = terrain {
            let _ = map.write(at, &Brush::new(t).priority(priority::FEATURE_FLOOR));
        }
        counts[door.state as usize] += 1;
    }
    map.notes.doors = doors;
    counts
}

/// Drops the doors standing on stairs.
fn drop_doors_on_stairs(map: &mut Map) {
    let stairs: Vec<Point> = map
        .notes
        .stairs
        .up
        .iter()
        .chain(&map.notes.stairs.down)
        .copied()
        .collect();
    let (on_stairs, kept): (Vec<Door>, Vec<Door>) = std::mem::take(&mut map.notes.doors)
        .into_iter()
        .partition(|d| stairs.contains(&d.at()));
    for d in on_stairs {
        if let Ok(i) = map.index(d.at()) {
            map.flag_cells_mut()[i] &= !FLAG_DOOR;
        }
    }
    map.notes.doors = kept;
}

/// Step 2 of [`finish_doors`]: removes touching doors (those with a kind) in pairs, walling up
/// the cells no corridor floored, unless that would split the level.
fn remove_touching_pairs(map: &mut Map) {
    let at: Vec<Option<Point>> = map
        .notes
        .doors
        .iter()
        .map(|d| d.kind.as_ref().map(|_| d.at()))
        .collect();
    let by_cell: BTreeMap<Point, usize> = at
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (p, i)))
        .collect();
    let mut removed = vec![false; at.len()];
    for (i, p) in at.iter().enumerate() {
        let Some(p) = *p else { continue };
        if removed[i] {
            continue;
        }
        let other = Dir::ALL
            .iter()
            .filter_map(|&dir| by_cell.get(&p.step(dir)).copied())
            .find(|&j| !removed[j]);
        if let Some(j) = other {
            removed[i] = true;
            removed[j] = true;
        }
    }
    // Cells to wall up again: still solid (drawn as a closed door, never floored), with the
    // terrain the door was made on, or for a door recorded without it the terrain of a wall
    // beside it. One with neither stays.
    // Guessing from the walls beside every door once left whole runs standing: a tunnel that
    // zigzagged along a keep's wall made a door in the wall at every bump and one on the rock
    // below, eighteen in two rows (seed 159, level 4); the pairs went, but the wall doors in the
    // middle of the row, with doors on both sides and open cells above and below, found no wall
    // within reach and stayed, three in a line.
    let mut walls: Vec<(usize, TerrainId, TerrainId)> = Vec::new();
    for i in 0..at.len() {
        let Some(p) = at[i].filter(|_| removed[i]) else {
            continue;
        };
        if !map.is_solid(p).unwrap_or(false) {
            continue;
        }
        let made_on = map.notes.doors[i].made_on;
        match (made_on.or_else(|| wall_beside(map, p)), map.terrain_at(p)) {
            (Some(new), Ok(old)) => walls.push((i, old, new)),
            _ => removed[i] = false,
        }
    }
    if !removed.contains(&true) {
        return;
    }
    let set_door = |map: &mut Map, p: Point, on: bool| {
        if let Ok(c) = map.index(p) {
            let f = &mut map.flag_cells_mut()[c];
            *f = if on { *f | FLAG_DOOR } else { *f & !FLAG_DOOR };
        }
    };
    // Removed doors on floor leave the floor (as passable as before).
    for (i, p) in at.iter().enumerate() {
        let walled = walls.iter().any(|&(w, _, _)| w == i);
        if let (true, false, Some(p)) = (removed[i], walled, *p) {
            set_door(map, p, false);
        }
    }
    // The others are walled up one at a time: a wall that would cut the level leaves its door
    // standing (broken if it still touches another door).
    let adjacency = map_adjacency(map);
    let mut areas = (!walls.is_empty()).then(|| components(map, adjacency).len());
    for &(i, old, new) in &walls {
        let (Some(p), Some(before)) = (at[i], areas) else {
            continue;
        };
        set_door(map, p, false);
        let _ = map.write(p, &Brush::new(new));
        let after = components(map, adjacency).len();
        if after > before {
            let _ = map.write(p, &Brush::new(old));
            set_door(map, p, true);
            removed[i] = false;
        }
        areas = Some(after.min(before));
    }
    for (i, p) in at.iter().enumerate() {
        let Some(p) = p.filter(|_| !removed[i]) else {
            continue;
        };
        let touching = Dir::ALL
            .iter()
            .filter_map(|&dir| by_cell.get(&p.step(dir)))
            .any(|&j| !removed[j]);
        if touching {
            map.notes.doors[i].state = DoorState::Broken;
        }
    }
    let mut i = 0;
    map.notes.doors.retain(|_| {
        i += 1;
        !removed[i - 1]
    });
}

/// A state drawn with `weights` (closed when every weight is 0).
fn roll(rng: &mut Rng, weights: &DoorWeights) -> DoorState {
    rng.weighted_index(&weights.as_array())
        .map_or(DoorState::Closed, |i| DoorWeights::STATES[i])
}

/// The terrain of the nearest wall along the four sides of `p`, up to three cells away (a run
/// of doors hides the wall beyond it).
fn wall_beside(map: &Map, p: Point) -> Option<TerrainId> {
    (1..=3)
        .flat_map(|n| {
            [Dir::South, Dir::East, Dir::North, Dir::West].map(|d| {
                let (dx, dy) = d.delta();
                Point::new(p.x + dx * n, p.y + dy * n)
            })
        })
        .find(|&q| wall(map, q))
        .and_then(|q| map.terrain_at(q).ok())
}

/// Whether `p` is a wall: on the map, solid, and no door.
fn wall(map: &Map, p: Point) -> bool {
    map.index(p)
        .is_ok_and(|i| map.flag_cells()[i] & (FLAG_SOLID | FLAG_DOOR) == FLAG_SOLID)
}

/// If `p` stands between two walls, the wall a secret door there is drawn as: the one below
/// (walls north and south) or else the one to the right (walls west and east).
fn between_walls(map: &Map, p: Point) -> Option<Point> {
    if wall(map, p.step(Dir::North)) && wall(map, p.step(Dir::South)) {
        Some(p.step(Dir::South))
    } else if wall(map, p.step(Dir::West)) && wall(map, p.step(Dir::East)) {
        Some(p.step(Dir::East))
    } else {
        None
    }
}
