//! Cellular automata on the cells of an area: a Life-like rule in birth/survival notation
//! (`B5678/S45678`), run for a number of generations. As a generator it fills the area with
//! random walls first (the classic cave); as a filter it smooths what the map already holds.
//!
//! A cell is *alive* when it is wall. Each generation every cell of the area counts its eight
//! neighbours that are alive (a neighbour off the map counts as alive, so caves close at the
//! map's edge; a neighbour on the map but outside the area counts as it stands and never
//! changes). A dead cell with a count in the birth set comes alive; a live cell stays alive
//! when its count is in the survival set. All cells change at once.

use super::area::{same_size, Area, Mask};
use super::meter::Meter;
use super::tool_error::ToolError;
use crate::map::{Brush, Map};
use crate::rng::Rng;
use std::fmt;

/// A birth/survival rule: which neighbour counts (0–8) bring a dead cell to life and which keep
/// a live cell alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Bit `n` set: a dead cell with `n` live neighbours comes alive.
    pub birth: u16,
    /// Bit `n` set: a live cell with `n` live neighbours stays alive.
    pub survive: u16,
}

impl Rule {
    /// The classic cave rule (rot.js's and RogueBasin's): a wall is born with 5 or more wall
    /// neighbours and survives with 4 or more.
    pub const CAVE: Rule = Rule {
        birth: 0b1_1110_0000,
        survive: 0b1_1111_0000,
    };

    /// Parses `B…/S…` (case-insensitive; either part may be empty, e.g. `B3/S`).
    pub fn parse(text: &str) -> Result<Rule, ToolError> {
        let bad = || ToolError::Rule {
            rule: text.to_string(),
        };
        let upper = text.trim().to_ascii_uppercase();
        let (b, s) = upper.split_once('/').ok_or_else(bad)?;
        let digits = |part: &str, letter: char| -> Result<u16, ToolError> {
            let rest = part.strip_prefix(letter).ok_or_else(bad)?;
            rest.chars().try_fold(0u16, |bits, c| match c.to_digit(10) {
                Some(n @ 0..=8) => Ok(bits | 1 << n),
                _ => Err(bad()),
            })
        };
        Ok(Rule {
            birth: digits(b, 'B')?,
            survive: digits(s, 'S')?,
        })
    }

    /// Whether a cell that is `alive` with `count` live neighbours is alive next generation.
    #[inline]
    pub fn next(&self, alive: bool, count: u32) -> bool {
        let set = if alive { self.survive } else { self.birth };
        set >> count & 1 != 0
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = |bits: u16| -> String {
            (0..=8)
                .filter(|n| bits >> n & 1 != 0)
                .map(|n| char::from(b'0' + n as u8))
                .collect()
        };
        write!(f, "B{}/S{}", counts(self.birth), counts(self.survive))
    }
}

/// The most generations a run may ask for.
pub const MAX_GENERATIONS: u32 = 1000;

/// Runs `rule` for `generations` on `alive` (wall = alive), changing only cells of `area`.
pub fn run(
    alive: &mut Mask,
    area: Area<'_>,
    rule: Rule,
    generations: u32,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    let (w, h) = (alive.width(), alive.height());
    let scope = area.scope(w, h)?;
    let (wu, hu) = (w as usize, h as usize);
    let stride = wu + 2;
    // Padded grids: a ring of live cells stands for the outside of the map.
    let mut grid = vec![1u8; stride * (hu + 2)];
    for (y, row) in alive.cells().chunks(wu).enumerate() {
        let to = &mut grid[(y + 1) * stride + 1..(y + 1) * stride + 1 + wu];
        for (g, &a) in to.iter_mut().zip(row) {
            *g = a as u8;
        }
    }
    let mut next = grid.clone();
    let b = scope.bounds;
    // A mask whose bounds span the map still leaves cells out.
    let whole = scope.is_rectangular() && b.w == w && b.h == h;
    // The rule as a table over (alive, count): one lookup per cell.
    let mut table = [0u8; 18];
    for (k, t) in table.iter_mut().enumerate() {
        *t = rule.next(k >= 9, (k % 9) as u32) as u8;
    }
    // Each row in two passes: the column sums of three rows (a loop the compiler vectorises),
    // then each cell's count as three column sums less itself, and its next state from the
    // table. Counting the eight neighbours cell by cell read eight bytes a cell instead.
    let (x0, x1) = (b.x.max(0) as usize + 1, (b.x + b.w).max(0) as usize + 1);
    let mut columns = vec![0u8; stride];
    for _ in 0..generations.min(MAX_GENERATIONS) {
        meter.work(b.w.max(0) as u64 * b.h.max(0) as u64)?;
        if x0 >= x1 {
            continue;
        }
        for y in b.y.max(0) as usize..(b.y + b.h).max(0) as usize {
            let row = (y + 1) * stride;
            // The columns `x0 - 1 ..= x1`: the cells of the area and one on either side.
            let span = x0 - 1..x1 + 1;
            let (up, here, down) = (
                &grid[span.start + row - stride..span.end + row - stride],
                &grid[span.start + row..span.end + row],
                &grid[span.start + row + stride..span.end + row + stride],
            );
            for (((sum, &above), &cell), &below) in
                columns[span.clone()].iter_mut().zip(up).zip(here).zip(down)
            {
                *sum = above + cell + below;
            }
            let sums = &columns[span];
            for (k, x) in (x0..x1).enumerate() {
                if !whole && !scope.contains(x as i32 - 1, y as i32) {
                    continue;
                }
                let cell = here[k + 1];
                let count = sums[k] + sums[k + 1] + sums[k + 2] - cell;
                next[row + x] = table[cell as usize * 9 + count as usize];
            }
        }
        std::mem::swap(&mut grid, &mut next);
    }
    for (y, row) in alive.cells_mut().chunks_mut(wu).enumerate() {
        let from = &grid[(y + 1) * stride + 1..(y + 1) * stride + 1 + wu];
        for (a, &g) in row.iter_mut().zip(from) {
            *a = g != 0;
        }
    }
    Ok(())
}

/// What a cellular generator or smoothing pass writes.
#[derive(Clone, Copy, Debug)]
pub struct Paint<'b> {
    /// Written on live cells.
    pub wall: &'b Brush,
    /// Written on dead cells.
    pub floor: &'b Brush,
}

/// Writes `alive` into the cells of `area`: `wall` on live cells, `floor` on the others (each
/// through the map's priority and edge rules). With `only_changes`, a cell whose solidity
/// already matches is left alone. Returns the cells written.
fn paint(
    map: &mut Map,
    area: Area<'_>,
    alive: &Mask,
    brushes: Paint<'_>,
    only_changes: bool,
) -> Result<usize, ToolError> {
    let scope = area.on(map)?;
    let w = map.width() as usize;
    let mut written = 0;
    for p in scope.cells() {
        let i = p.x as usize + p.y as usize * w;
        let wall = alive.cells()[i];
        if only_changes && wall == (map.flag_cells()[i] & crate::map::FLAG_SOLID != 0) {
            continue;
        }
        let brush = if wall { brushes.wall } else { brushes.floor };
        written += map.write(p, brush)? as usize;
    }
    Ok(written)
}

/// A cave: each cell of `area` starts as wall with `fill_percent` chance (drawn from `rng`, row
/// by row), then `rule` runs for `generations` and the result is written. Cells outside the area
/// take part as the map holds them (solid = alive). Returns the cells written.
pub fn cave(
    map: &mut Map,
    area: Area<'_>,
    fill_percent: u32,
    (rule, generations): (Rule, u32),
    rng: &mut Rng,
    brushes: Paint<'_>,
    meter: &mut dyn Meter,
) -> Result<usize, ToolError> {
    let scope = area.on(map)?;
    let mut alive = Mask::solid(map);
    let w = map.width() as usize;
    for p in scope.cells() {
        alive.cells_mut()[p.x as usize + p.y as usize * w] = rng.percent(fill_percent as i64);
    }
    run(&mut alive, area, rule, generations, meter)?;
    paint(map, area, &alive, brushes, false)
}

/// Smooths what the map holds: solid cells are alive, `rule` runs for `generations` over
/// `area`, and the cells whose solidity changed are written. Returns the cells written.
pub fn smooth(
    map: &mut Map,
    area: Area<'_>,
    rule: Rule,
    generations: u32,
    brushes: Paint<'_>,
    meter: &mut dyn Meter,
) -> Result<usize, ToolError> {
    let mut alive = Mask::solid(map);
    run(&mut alive, area, rule, generations, meter)?;
    paint(map, area, &alive, brushes, true)
}

/// Smooths a mask (set = alive) with `rule`, over the whole mask. The mask and `like` must be the
/// same size (a check for callers holding several grids).
pub fn smooth_mask(
    mask: &mut Mask,
    like: (i32, i32),
    rule: Rule,
    generations: u32,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    same_size((mask.width(), mask.height()), like)?;
    run(mask, Area::Map, rule, generations, meter)
}
