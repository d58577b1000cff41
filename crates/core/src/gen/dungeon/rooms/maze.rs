//! A maze (`WriteMaze`): a walled rectangle holding a perfect maze, so every floor cell of it
//! is reachable from every other by exactly one path.

use super::paint::{odd_at_most, place_within, Paint};
use crate::map::{Map, Rect};
use crate::rng::Rng;

/// A maze filling most of the panel. Cells sit on odd offsets from the corner; a depth-first
/// walk from the first cell, choosing among unvisited neighbours at random, opens the wall
/// between each cell and the next. Returns its floor area (maze walls included).
pub fn maze(map: &mut Map, rng: &mut Rng, panel: Rect, paint: &Paint) -> Rect {
    let w = odd_at_most((panel.w / 2).max(panel.w - 2 - rng.below(8) as i32));
    let h = odd_at_most((panel.h / 2).max(panel.h - 2 - rng.below(8) as i32));
    let r = place_within(panel, w, h, rng);
    let (cw, ch) = ((r.w - 1) / 2, (r.h - 1) / 2);
    let mut open = vec![false; (r.w * r.h) as usize];
    let at = |cx: i32, cy: i32| ((1 + 2 * cx) + (1 + 2 * cy) * r.w) as usize;
    let mut visited = vec![false; (cw * ch) as usize];
    let mut stack = vec![(0, 0)];
    visited[0] = true;
    open[at(0, 0)] = true;
    while let Some(&(cx, cy)) = stack.last() {
        let next: Vec<(i32, i32)> = [(-1, 0), (0, -1), (1, 0), (0, 1)]
            .into_iter()
            .map(|(dx, dy)| (cx + dx, cy + dy))
            .filter(|&(nx, ny)| {
                nx >= 0 && ny >= 0 && nx < cw && ny < ch && !visited[(nx + ny * cw) as usize]
            })
            .collect();
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[rng.below(next.len() as u64) as usize];
        visited[(nx + ny * cw) as usize] = true;
        open[at(nx, ny)] = true;
        // The wall between two cells sits halfway between their centres.
        open[(at(cx, cy) + at(nx, ny)) / 2] = true;
        stack.push((nx, ny));
    }
    for (i, p) in r.cells().enumerate() {
        Paint::put(map, p, if open[i] { &paint.floor } else { &paint.wall });
    }
    r.inset(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Point;

    #[test]
    fn halfway_index_is_the_wall_between_neighbouring_cells() {
        // Cells (0,0) and (1,0) of a 7-wide maze: offsets 8 and 10, wall at 9.
        let r = Rect::new(0, 0, 7, 7);
        let at = |cx: i32, cy: i32| ((1 + 2 * cx) + (1 + 2 * cy) * r.w) as usize;
        assert_eq!((at(0, 0) + at(1, 0)) / 2, 9);
        assert_eq!((at(0, 0) + at(0, 1)) / 2, 15);
        assert_eq!(r.cells().nth(15), Some(Point::new(1, 2)));
    }
}
