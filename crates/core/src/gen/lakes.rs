//! Brogue's lakes (`designLakes` and `lakeDisruptsPassability` in Architect.c): blobs of water,
//! lava or chasm dropped on a finished level only where they leave it in one piece.
//!
//! **The rule.** Each lake is a blob: a square grid filled at random and smoothed by the cave
//! rule ([`crate::gen::cellular`]), its largest 4-connected hole kept and cut to at most
//! `max_size` cells (in breadth-first order, so it stays in one piece); a blob under `min_size`
//! is drawn again (ten times at most, then the lake is given up). Up to `tries` positions inside
//! the area's bounding rectangle are drawn for it; a position is taken when the lake, counted as
//! blocking, covers at least one open cell (a lake lies in the level, not buried in rock) and
//! splits no area of the open cells left around it (in the chosen adjacency): a connected level
//! stays connected (and no area is covered whole). The lake's cells of the area are then written
//! (a door on them is taken away); a `wreath` of the given width (Chebyshev distance) is written
//! on the open cells around it (Brogue's shallow water round deep water). The wreath's terrain must be passable, so it never cuts a way.

use super::area::{Area, Mask};
use super::cellular::{self, Rule};
use super::field::distance::{fill_padded_passable, padded_steps};
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{passable, Adjacency, Brush, Map, Point};
use crate::rng::Rng;

/// How lakes are made and placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lakes {
    /// Lakes wanted, `0..=1000`.
    pub count: u32,
    /// The fewest cells of a lake, `1..=65_536`.
    pub min_size: u32,
    /// The most cells of a lake, `min_size..=65_536`.
    pub max_size: u32,
    /// Positions tried per lake, `1..=1000`.
    pub tries: u32,
    /// Width of the wreath round each lake, `0..=10` (0: none).
    pub wreath: u32,
    /// How a walker steps when the level's areas are counted.
    pub adjacency: Adjacency,
}

impl Default for Lakes {
    fn default() -> Self {
        Lakes {
            count: 4,
            min_size: 10,
            max_size: 60,
            tries: 20,
            wreath: 1,
            adjacency: Adjacency::Eight,
        }
    }
}

/// What [`lakes`] writes.
#[derive(Clone, Copy, Debug)]
pub struct LakeBrushes<'b> {
    /// The lake itself.
    pub lake: &'b Brush,
    /// Its wreath (a passable terrain), if any.
    pub wreath: Option<&'b Brush>,
}

/// What [`lakes`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Each lake placed: its cells in the area (written or not, a higher priority may keep a
    /// cell), row by row.
    pub lakes: Vec<Vec<Point>>,
    /// Wreath cells written.
    pub wreath: usize,
}

/// Places lakes on `map` inside `area` (see the module's rule).
pub fn lakes(
    map: &mut Map,
    area: Area<'_>,
    options: &Lakes,
    rng: &mut Rng,
    brushes: LakeBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<Placed, ToolError> {
    let o = options;
    let range =
        |key, value: u32, bounds| ToolError::check_range("lakes", key, value as i64, bounds);
    range("count", o.count, (0, 1000))?;
    range("min_size", o.min_size, (1, 65_536))?;
    range("max_size", o.max_size, (o.min_size as i64, 65_536))?;
    range("tries", o.tries, (1, 1000))?;
    range("wreath", o.wreath, (0, 10))?;
    if let Some(wreath) = brushes.wreath {
        let t = map.terrains().get(wreath.terrain);
        if t.solid || t.hazard {
            return Err(ToolError::Range {
                what: "lakes",
                key: "wreath terrain",
                value: t.name.to_string(),
                range: "a passable terrain (neither solid nor a hazard)".into(),
            });
        }
    }
    let scope = area.on(map)?;
    let b = scope.bounds;
    let mut work = Batched::new(meter);
    let mut areas = Areas::new(map, o.adjacency);
    let mut placed = Placed {
        lakes: Vec::new(),
        wreath: 0,
    };
    for _ in 0..o.count {
        let Some(blob) = blob(o.min_size, o.max_size, rng, &mut work)? else {
            continue;
        };
        if blob.side > b.w || blob.side > b.h {
            continue;
        }
        areas.label(map, &mut work)?;
        for _ in 0..o.tries {
            let ox = b.x + rng.below((b.w - blob.side + 1) as u64) as i32;
            let oy = b.y + rng.below((b.h - blob.side + 1) as u64) as i32;
            let cells: Vec<Point> = blob
                .cells
                .iter()
                .map(|p| Point::new(p.x + ox, p.y + oy))
                .filter(|p| scope.contains(p.x, p.y))
                .collect();
            if cells.is_empty() || !cells.iter().any(|&p| open(map, p)) {
                continue;
            }
            if areas.split_by(map, &cells, &mut work)? {
                continue;
            }
            for &p in &cells {
                // A door the lake covers goes under with it (else a door in lava stays open).
                if map.write(p, brushes.lake)? && map.is_door(p)? {
                    map.remove_door(p)?;
                }
            }
            work.work(cells.len() as u64)?;
            if let Some(wreath) = brushes.wreath {
                placed.wreath += ring(map, &scope, &cells, o.wreath as i32, wreath, &mut work)?;
            }
            placed.lakes.push(cells);
            break;
        }
    }
    work.finish()?;
    Ok(placed)
}

/// Whether a walker may stand on `p` (on the map).
fn open(map: &Map, p: Point) -> bool {
    passable(map.flag_cells()[p.x as usize + p.y as usize * map.width() as usize])
}

/// Writes `brush` on the open cells of the area within `width` of `lake` that are not in it;
/// returns the cells written.
fn ring(
    map: &mut Map,
    scope: &super::area::Scope<'_>,
    lake: &[Point],
    width: i32,
    brush: &Brush,
    work: &mut Batched<'_>,
) -> Result<usize, ToolError> {
    let w = map.width() as usize;
    let mut mark = vec![false; map.len()];
    for p in lake {
        mark[p.x as usize + p.y as usize * w] = true;
    }
    let mut written = 0;
    let mut seen = vec![false; map.len()];
    for p in lake {
        work.work(((2 * width + 1) * (2 * width + 1)) as u64)?;
        for y in p.y - width..=p.y + width {
            for x in p.x - width..=p.x + width {
                if !scope.contains(x, y) {
                    continue;
                }
                let i = x as usize + y as usize * w;
                if mark[i] || seen[i] {
                    continue;
                }
                seen[i] = true;
                let q = Point::new(x, y);
                if open(map, q) {
                    written += map.write(q, brush)? as usize;
                }
            }
        }
    }
    Ok(written)
}

/// A lake's shape: its cells on a `side × side` grid.
struct Blob {
    side: i32,
    cells: Vec<Point>,
}

/// Draws a blob of `min..=max` cells, or `None` after ten blobs too small.
fn blob(
    min: u32,
    max: u32,
    rng: &mut Rng,
    work: &mut Batched<'_>,
) -> Result<Option<Blob>, ToolError> {
    // A grid twice the largest lake: the cave rule leaves about half of it open, in a few holes.
    let side = ((2.0 * max as f64).sqrt().ceil() as i32).max(3);
    for _ in 0..10 {
        let mut rock = Mask::new(side, side, false);
        for c in rock.cells_mut() {
            *c = rng.percent(45);
        }
        work.work((side * side) as u64)?;
        cellular::smooth_mask(&mut rock, (side, side), Rule::CAVE, 4, &mut Unbatched(work))?;
        let cells = largest_hole(&rock, max as usize);
        if cells.len() >= min as usize {
            return Ok(Some(Blob { side, cells }));
        }
    }
    Ok(None)
}

/// A meter that passes its work to a batch.
struct Unbatched<'a, 'm>(&'a mut Batched<'m>);

impl Meter for Unbatched<'_, '_> {
    fn work(&mut self, cells: u64) -> Result<(), super::meter::Stopped> {
        self.0.work(cells)
    }
}

/// The largest 4-connected set of clear cells of `rock`, cut to its first `max` cells in
/// breadth-first order from its first cell, sorted row by row.
fn largest_hole(rock: &Mask, max: usize) -> Vec<Point> {
    let (w, h) = (rock.width(), rock.height());
    let mut seen = vec![false; (w * h) as usize];
    let mut best: Vec<Point> = Vec::new();
    for i in 0..(w * h) as usize {
        if seen[i] || rock.cells()[i] {
            continue;
        }
        seen[i] = true;
        let mut hole = vec![Point::new(i as i32 % w, i as i32 / w)];
        let mut k = 0;
        while k < hole.len() {
            let p = hole[k];
            k += 1;
            for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
                let (x, y) = (p.x + dx, p.y + dy);
                if x < 0 || y < 0 || x >= w || y >= h {
                    continue;
                }
                let j = (x + y * w) as usize;
                if !seen[j] && !rock.cells()[j] {
                    seen[j] = true;
                    hole.push(Point::new(x, y));
                }
            }
        }
        if hole.len() > best.len() {
            best = hole;
        }
    }
    best.truncate(max);
    best.sort_by_key(|p| (p.y, p.x));
    best
}

/// The areas of the open cells, and a check that a lake splits none of them. The labels live
/// on grids padded with a ring of blocked cells, so a flood steps by index offsets with no
/// bounds check (a lake is tried at up to `tries` places, each a flood of the whole level).
struct Areas {
    /// Padded row length.
    stride: usize,
    /// Areas of the last [`Areas::label`].
    count: usize,
    /// Each padded cell's area in the last [`Areas::label`], [`BLOCKED`] where no walker stands.
    label: Vec<u32>,
    /// The same with a lake's cells blocked ([`Areas::split_by`]).
    after: Vec<u32>,
    /// The padded index offsets of a walker's steps.
    steps: Vec<isize>,
    stack: Vec<u32>,
}

/// An open cell not labelled yet.
const NONE: u32 = u32::MAX;
/// A cell no walker stands on (or one of the padding).
const BLOCKED: u32 = u32::MAX - 1;

impl Areas {
    /// Empty labels for `map`, walkers stepping as `adjacency` says.
    fn new(map: &Map, adjacency: Adjacency) -> Areas {
        let stride = map.width() as usize + 2;
        let cells = stride * (map.height() as usize + 2);
        Areas {
            stride,
            count: 0,
            label: vec![BLOCKED; cells],
            after: vec![BLOCKED; cells],
            steps: padded_steps(adjacency, stride),
            stack: Vec::new(),
        }
    }

    /// The padded index of `p`.
    fn padded(&self, p: Point) -> usize {
        (p.x as usize + 1) + (p.y as usize + 1) * self.stride
    }

    /// Labels the open cells of `map` by area, into `self.label`.
    fn label(&mut self, map: &Map, work: &mut Batched<'_>) -> Result<(), ToolError> {
        work.work(map.len() as u64)?;
        fill_padded_passable(map, [BLOCKED, NONE], &mut self.label);
        self.count = flood(
            &mut self.label,
            &self.steps,
            &mut self.stack,
            map,
            self.stride,
        )
        .len();
        Ok(())
    }

    /// Whether blocking `cells` leaves some area of the last [`Areas::label`] in two or more
    /// pieces, or covers one whole.
    fn split_by(
        &mut self,
        map: &Map,
        cells: &[Point],
        work: &mut Batched<'_>,
    ) -> Result<bool, ToolError> {
        work.work(map.len() as u64)?;
        fill_padded_passable(map, [BLOCKED, NONE], &mut self.after);
        for &p in cells {
            let i = self.padded(p);
            self.after[i] = BLOCKED;
        }
        let firsts = flood(
            &mut self.after,
            &self.steps,
            &mut self.stack,
            map,
            self.stride,
        );
        let mut owners: Vec<u32> = firsts.iter().map(|&i| self.label[i as usize]).collect();
        owners.sort_unstable();
        let pieces = owners.len();
        owners.dedup();
        Ok(owners.len() < pieces || owners.len() < self.count)
    }
}

/// Gives every [`NONE`] cell of `grid` its area's number, areas numbered in the row order of
/// their first cells; returns those first cells' padded indices.
fn flood(
    grid: &mut [u32],
    steps: &[isize],
    stack: &mut Vec<u32>,
    map: &Map,
    stride: usize,
) -> Vec<u32> {
    let (w, h) = (map.width() as usize, map.height() as usize);
    let mut firsts = Vec::new();
    for y in 0..h {
        for i in (y + 1) * stride + 1..(y + 1) * stride + 1 + w {
            if grid[i] != NONE {
                continue;
            }
            let id = firsts.len() as u32;
            firsts.push(i as u32);
            grid[i] = id;
            stack.push(i as u32);
            while let Some(c) = stack.pop() {
                for &d in steps {
                    // The padding is blocked: a step from a map cell stays on the grid.
                    let j = (c as isize + d) as usize;
                    if grid[j] == NONE {
                        grid[j] = id;
                        stack.push(j as u32);
                    }
                }
            }
        }
    }
    firsts
}
