//! Unit tests of the maze room.

use warren_core::gen::dungeon::rooms::maze::carve;
use warren_core::map::{Point, Rect};
use warren_core::rng::Rng;
#[test]
fn halfway_index_is_the_wall_between_neighbouring_cells() {
    // Cells (0,0) and (1,0) of a 7-wide maze: offsets 8 and 10, wall at 9.
    let r = Rect::new(0, 0, 7, 7);
    let at = |cx: i32, cy: i32| ((1 + 2 * cx) + (1 + 2 * cy) * r.w) as usize;
    assert_eq!((at(0, 0) + at(1, 0)) / 2, 9);
    assert_eq!((at(0, 0) + at(0, 1)) / 2, 15);
    assert_eq!(r.cells().nth(15), Some(Point::new(1, 2)));
}

/// Every cell is reached through exactly one newly opened wall: a perfect maze.
#[test]
fn the_walk_opens_one_wall_per_cell_and_every_cell_is_reached() {
    for seed in 0..200 {
        let r = Rect::new(
            0,
            0,
            1 + 2 * (2 + seed as i32 % 9),
            1 + 2 * (2 + seed as i32 % 7),
        );
        let open = carve(r, &mut Rng::new(seed));
        let (cw, ch) = ((r.w - 1) / 2, (r.h - 1) / 2);
        // A perfect maze on n cells opens n cells and n − 1 walls.
        assert_eq!(
            open.iter().filter(|&&o| o).count() as i32,
            2 * cw * ch - 1,
            "seed {seed}"
        );
        // Nothing on the border, nothing where four cells meet.
        for (i, p) in r.cells().enumerate() {
            let border = p.x == 0 || p.y == 0 || p.x == r.x2() || p.y == r.y2();
            if border || (p.x % 2 == 0 && p.y % 2 == 0) {
                assert!(!open[i], "seed {seed}: {p:?}");
            }
        }
    }
}

/// The hunt, not a backtrack: once the walk is stuck it goes on from the first reached cell
/// after it in row order. Replaying the original's loop step by step with the same draws
/// gives the same maze.
#[test]
fn a_stuck_walk_hunts_forward_in_row_order() {
    let r = Rect::new(0, 0, 11, 9);
    for seed in 0..50 {
        let (cw, ch) = (5, 4);
        let mut rng = Rng::new(seed);
        let mut vis = vec![0u8; (cw * ch) as usize];
        let mut walls = std::collections::BTreeSet::new();
        let (mut x, mut y, mut visits) = (0i32, 0i32, cw * ch - 1);
        while visits > 0 {
            let mut paths = Vec::new();
            let free = |x: i32, y: i32, vis: &[u8]| vis[(x + y * cw) as usize] == 0;
            if x > 0 && free(x - 1, y, &vis) {
                paths.push((-1, 0));
            }
            if y > 0 && free(x, y - 1, &vis) {
                paths.push((0, -1));
            }
            if x < cw - 1 && free(x + 1, y, &vis) {
                paths.push((1, 0));
            }
            if y < ch - 1 && free(x, y + 1, &vis) {
                paths.push((0, 1));
            }
            if paths.is_empty() {
                loop {
                    x += 1;
                    if x > cw - 1 {
                        x = 0;
                        y += 1;
                    }
                    if y > ch - 1 {
                        y = 0;
                    }
                    if vis[(x + y * cw) as usize] != 0 {
                        break;
                    }
                }
                continue;
            }
            visits -= 1;
            let (dx, dy) = paths[rng.below(paths.len() as u64) as usize];
            vis[(x + y * cw) as usize] = 1;
            walls.insert((2 * x + 1 + dx, 2 * y + 1 + dy));
            x += dx;
            y += dy;
            vis[(x + y * cw) as usize] = 1;
        }
        let open = carve(r, &mut Rng::new(seed));
        for (i, p) in r.cells().enumerate() {
            let cell = p.x % 2 == 1 && p.y % 2 == 1;
            assert_eq!(
                open[i],
                cell || walls.contains(&(p.x, p.y)),
                "seed {seed} {p:?}"
            );
        }
    }
}
