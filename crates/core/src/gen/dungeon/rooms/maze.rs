//! A maze (`WriteMaze`): a walled rectangle holding a perfect maze, so every floor cell of it
//! is reachable from every other by exactly one path, with secret doors on deeper levels.

use super::paint::{odd_at_most, place_within, Paint};
use crate::gen::doors::door_may_stand;
use crate::map::{DoorState, Map, Point, Rect};
use crate::rng::Rng;

/// At most this many secret doors per maze (the original's `min(7, Depth - 3)`).
const MOST_SECRET_DOORS: u32 = 7;
/// Mazes on levels at most this deep have no secret doors.
const SECRET_DOOR_DEPTH: u32 = 3;
/// Tries at finding a passage cell for one secret door (the original's 500).
const SECRET_DOOR_TRIES: u32 = 500;

/// A maze filling most of the panel, on a level at `depth`. Cells sit on odd offsets from the
/// corner; the maze is carved by the original's walk (see [`carve`]). A maze deeper than level
/// 3 then gets `min(7, depth − 3)` secret doors, each on a passage cell (open, with walls on
/// two opposite sides and open cells on the other two, as drawn on the map) that touches none
/// of the others.
/// Returns its floor area (maze walls included).
pub fn maze(map: &mut Map, rng: &mut Rng, panel: Rect, paint: &Paint, depth: u32) -> Rect {
    let w = odd_at_most((panel.w / 2).max(panel.w - 2 - rng.below(8) as i32));
    let h = odd_at_most((panel.h / 2).max(panel.h - 2 - rng.below(8) as i32));
    let r = place_within(panel, w, h, rng);
    let open = carve(r, rng);
    for (i, p) in r.cells().enumerate() {
        Paint::put(map, p, if open[i] { &paint.floor } else { &paint.wall });
    }
    let doors = depth
        .saturating_sub(SECRET_DOOR_DEPTH)
        .min(MOST_SECRET_DOORS);
    for _ in 0..doors {
        if let Some(p) = passage_cell(map, r, rng) {
            paint.door(map, p, DoorState::Secret);
        }
    }
    r.inset(1)
}

/// The open cells of a maze in `r` (row-major over `r`), carved as `WriteMaze` does: a random
/// walk from the top-left cell into unvisited neighbours (tried in the order west, north, east,
/// south, one chosen uniformly), opening the wall between each cell and the next; when the walk
/// is stuck it hunts forward in row order, wrapping round, for the next cell already reached and
/// carries on from there, until every cell is reached.
pub fn carve(r: Rect, rng: &mut Rng) -> Vec<bool> {
    let (cw, ch) = ((r.w - 1) / 2, (r.h - 1) / 2);
    let mut open = vec![false; (r.w * r.h) as usize];
    let at = |cx: i32, cy: i32| ((1 + 2 * cx) + (1 + 2 * cy) * r.w) as usize;
    // A cell is reached once a passage leads into or out of it (the original's `Visibility`).
    let mut reached = vec![false; (cw * ch) as usize];
    let cell = |cx: i32, cy: i32| (cx + cy * cw) as usize;
    let (mut cx, mut cy) = (0, 0);
    let mut left = cw * ch - 1;
    while left > 0 {
        let dirs: Vec<(i32, i32)> = [(-1, 0), (0, -1), (1, 0), (0, 1)]
            .into_iter()
            .filter(|&(dx, dy)| {
                let (nx, ny) = (cx + dx, cy + dy);
                nx >= 0 && ny >= 0 && nx < cw && ny < ch && !reached[cell(nx, ny)]
            })
            .collect();
        if dirs.is_empty() {
            loop {
                cx += 1;
                if cx >= cw {
                    cx = 0;
                    cy = (cy + 1) % ch;
                }
                if reached[cell(cx, cy)] {
                    break;
                }
            }
            continue;
        }
        left -= 1;
        let (dx, dy) = dirs[rng.below(dirs.len() as u64) as usize];
        let (nx, ny) = (cx + dx, cy + dy);
        reached[cell(cx, cy)] = true;
        reached[cell(nx, ny)] = true;
        // The wall between two cells sits halfway between their centres.
        open[(at(cx, cy) + at(nx, ny)) / 2] = true;
        (cx, cy) = (nx, ny);
    }
    for cy in 0..ch {
        for cx in 0..cw {
            open[at(cx, cy)] = true;
        }
    }
    open
}

/// A random passage cell of the maze as drawn on the map: open, walls on two opposite sides
/// and open cells on the other two, a cell a door may stand on ([`door_may_stand`]: not a
/// river's) and no door beside it (8-neighbour). `None` after the original's 500 tries.
// The original's loop `continue`s past every open cell it finds and so only ever puts a secret
// door on a wall cell, when its tries run out; the evident intent is a door in a passage.
// It may also choose a cell twice (`MakeSecretDoor` then makes nothing), a cell of a river
// crossing the maze (where no door is made), or a cell next to a door it made (the level's door
// pass then removes both as touching): one door in 35 to 40 at depths 6 to 9 went so. The
// intent is `min(7, depth − 3)` doors, so such cells are tried again.
fn passage_cell(map: &Map, r: Rect, rng: &mut Rng) -> Option<Point> {
    let is_open = |x: i32, y: i32| map.is_solid(Point::new(x, y)) == Ok(false);
    let near_door = |x: i32, y: i32| {
        (-1..=1).any(|dy| (-1..=1).any(|dx| map.is_door(Point::new(x + dx, y + dy)) == Ok(true)))
    };
    for _ in 0..SECRET_DOOR_TRIES {
        let x = r.x + 1 + rng.below((r.w - 3).max(1) as u64) as i32;
        let y = r.y + 1 + rng.below((r.h - 3).max(1) as u64) as i32;
        let p = Point::new(x, y);
        if !is_open(x, y) || !door_may_stand(map, p) || near_door(x, y) {
            continue;
        }
        let across = !is_open(x - 1, y) && !is_open(x + 1, y);
        let along = is_open(x, y - 1) && is_open(x, y + 1);
        let across_v = !is_open(x, y - 1) && !is_open(x, y + 1);
        let along_h = is_open(x - 1, y) && is_open(x + 1, y);
        if (across && along) || (across_v && along_h) {
            return Some(Point::new(x, y));
        }
    }
    None
}
