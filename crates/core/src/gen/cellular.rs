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
    for _ in 0..generations.min(MAX_GENERATIONS) {
        meter.work(b.w.max(0) as u64 * b.h.max(0) as u64)?;
        for y in b.y.max(0) as usize..(b.y + b.h).max(0) as usize {
            let row = (y + 1) * stride;
            let (up, here, down) = (row - stride, row, row + stride);
            for x in b.x as usize + 1..(b.x + b.w) as usize + 1 {
                if !whole && !scope.contains(x as i32 - 1, y as i32) {
                    continue;
                }
                let count = grid[up + x - 1]
                    + grid[up + x]
                    + grid[up + x + 1]
                    + grid[here + x - 1]
                    + grid[here + x + 1]
                    + grid[down + x - 1]
                    + grid[down + x]
                    + grid[down + x + 1];
                next[here + x] = table[grid[here + x] as usize * 9 + count as usize];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::connectivity::ascii::{grid_map, FLOOR, ROCK};
    use crate::gen::meter::{Tally, Unmetered};
    use crate::map::{Point, Rect};

    /// A mask whose bounding rectangle is the whole grid still keeps its holes: the cell it
    /// leaves out never changes (the whole-grid shortcut is for rectangles only).
    #[test]
    fn a_mask_spanning_the_grid_keeps_its_holes() {
        let mut area = Mask::new(5, 5, true);
        area.set(Point::new(2, 2), false).unwrap();
        let mut alive = Mask::new(5, 5, false);
        // B0: every dead cell with no live neighbour comes alive.
        let rule = Rule::parse("B0/S").unwrap();
        run(&mut alive, Area::Mask(&area), rule, 1, &mut Unmetered).unwrap();
        assert!(!alive.get(2, 2));
        // (1, 1) has no live neighbour (off-grid cells count as alive, so the edge does).
        assert!(alive.get(1, 1));
    }

    /// One generation by the rule's definition, cell by cell, over the whole grid.
    fn reference_step(alive: &Mask, rule: Rule) -> Mask {
        let mut next = alive.clone();
        for y in 0..alive.height() {
            for x in 0..alive.width() {
                let mut count = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (x + dx, y + dy);
                        let off = nx < 0 || ny < 0 || nx >= alive.width() || ny >= alive.height();
                        if (dx, dy) != (0, 0) && (off || alive.get(nx, ny)) {
                            count += 1;
                        }
                    }
                }
                next.set(Point::new(x, y), rule.next(alive.get(x, y), count))
                    .unwrap();
            }
        }
        next
    }

    /// Over 1,000 seeds of random grids and random rules: a run equals the rule applied by
    /// definition, generation after generation; inside an area, cells outside never change.
    #[test]
    fn runs_follow_the_rule_by_definition() {
        let mut rng = Rng::new(17);
        for seed in 0..1000 {
            let (w, h) = (rng.range(1, 16) as i32, rng.range(1, 12) as i32);
            let rule = Rule {
                birth: rng.below(512) as u16,
                survive: rng.below(512) as u16,
            };
            let mut alive = Mask::new(w, h, false);
            for c in alive.cells_mut() {
                *c = rng.percent(45);
            }
            let generations = rng.range(0, 4) as u32;
            let mut want = alive.clone();
            for _ in 0..generations {
                want = reference_step(&want, rule);
            }
            let before = alive.clone();
            let mut got = alive.clone();
            run(&mut got, Area::Map, rule, generations, &mut Unmetered).unwrap();
            assert_eq!(got, want, "seed {seed}: {rule}");
            let r = Rect::new(0, 0, (w / 2).max(1), h);
            run(&mut alive, Area::Rect(r), rule, generations, &mut Unmetered).unwrap();
            for y in 0..h {
                for x in r.w..w {
                    assert_eq!(alive.get(x, y), before.get(x, y), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn rules_parse_and_print_in_birth_survival_notation() {
        assert_eq!(Rule::parse("B5678/S45678").unwrap(), Rule::CAVE);
        assert_eq!(Rule::parse(" b3/s23 ").unwrap().to_string(), "B3/S23");
        assert_eq!(Rule::parse("B/S").unwrap().to_string(), "B/S");
        for bad in ["B9/S1", "S1/B2", "B12", "B1/S2x", ""] {
            let e = Rule::parse(bad).unwrap_err();
            assert!(e.to_string().contains("birth/survival"), "{bad}");
        }
        // B3/S23 (Life): a blinker turns (inside an area ringed by dead cells: off the map,
        // every cell counts as alive).
        let life = Rule::parse("B3/S23").unwrap();
        let mut m = Mask::new(7, 7, false);
        for x in 2..5 {
            m.set(Point::new(x, 3), true).unwrap();
        }
        let inner = Area::Rect(Rect::new(1, 1, 5, 5));
        run(&mut m, inner, life, 1, &mut Unmetered).unwrap();
        let column: Vec<Point> = (0..49)
            .filter(|&i| m.cells()[i])
            .map(|i| Point::new(i as i32 % 7, i as i32 / 7))
            .collect();
        assert_eq!(
            column,
            [Point::new(3, 2), Point::new(3, 3), Point::new(3, 4)]
        );
    }

    #[test]
    fn caves_and_smoothing_write_through_brushes_and_are_deterministic() {
        let wall = Brush::new(ROCK).priority(10);
        let floor = Brush::new(FLOOR).priority(10);
        let brushes = Paint {
            wall: &wall,
            floor: &floor,
        };
        let make = |seed| {
            let mut map = grid_map(40, 30, &[]);
            cave(
                &mut map,
                Area::Map,
                45,
                (Rule::CAVE, 4),
                &mut Rng::new(seed),
                brushes,
                &mut Unmetered,
            )
            .unwrap();
            map
        };
        let a = make(1);
        assert_eq!(a.terrain_cells(), make(1).terrain_cells());
        assert_ne!(a.terrain_cells(), make(2).terrain_cells());
        // The map edge is not written without force: it stays floor.
        assert!(!a.is_solid(Point::new(0, 0)).unwrap());
        let open = a.open_count() as f64 / a.len() as f64;
        assert!((0.3..0.8).contains(&open), "open fraction {open}");
        // Smoothing a single speck of wall removes it and writes only that cell.
        let mut solid = vec![false; 100];
        solid[55] = true;
        let mut m = grid_map(10, 10, &solid);
        let n = smooth(&mut m, Area::Map, Rule::CAVE, 1, brushes, &mut Unmetered).unwrap();
        assert_eq!(n, 1);
        assert_eq!(m.open_count(), 100);
        let mut t = Tally::with_limit(10);
        assert!(smooth(&mut m, Area::Map, Rule::CAVE, 1, brushes, &mut t).is_err());
    }
}
