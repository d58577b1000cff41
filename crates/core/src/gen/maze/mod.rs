//! Mazes on a grid of cells two map cells apart: cell `(i, j)` of an area whose bounding
//! rectangle starts at `(x, y)` is the map cell `(x + 1 + 2i, y + 1 + 2j)`, and the map cell
//! between two neighbouring cells is the wall a passage opens. The area's outer ring stays wall.
//!
//! Each algorithm makes a *perfect* maze, a spanning tree of the cells (one way between any two
//! cells), with its own texture:
//! - [`Algorithm::Backtracker`]: a depth-first walk that backs up at dead ends: long winding
//!   corridors, few branches;
//! - [`Algorithm::Prim`]: grows from a cell by random frontier walls: many short dead ends;
//! - [`Algorithm::Kruskal`]: joins random walls between parts not yet joined: uniform, even
//!   texture;
//! - [`Algorithm::Eller`]: row by row with sets, in memory of one row: horizontal streaks;
//! - [`Algorithm::Division`]: starts open and divides the chamber by walls with one gap: long
//!   straight walls, box-like.
//!
//! A braid percentage then removes that share of the dead ends by opening one more wall at each,
//! making loops ([`braid`]). Backtracker, Prim and Kruskal work on any area (a mask's cells make a
//! spanning tree of each connected part); Eller and recursive division need a rectangle.

mod backtracker;
mod braid;
mod division;
mod eller;
mod kruskal;
mod prim;

pub use braid::braid;

use super::area::{Area, Scope};
use super::meter::Meter;
use super::tool_error::ToolError;
use crate::map::{Brush, Map, Point};
use crate::rng::Rng;

/// Which perfect-maze algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Recursive backtracker (randomised depth-first search).
    Backtracker,
    /// Randomised Prim's algorithm.
    Prim,
    /// Randomised Kruskal's algorithm.
    Kruskal,
    /// Eller's algorithm.
    Eller,
    /// Recursive division.
    Division,
}

impl Algorithm {
    /// Every algorithm's name, as recipes spell it.
    pub const NAMES: [&'static str; 5] = ["backtracker", "prim", "kruskal", "eller", "division"];

    /// The algorithm named `name` (one of [`Algorithm::NAMES`]).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Some(match name {
            "backtracker" => Algorithm::Backtracker,
            "prim" => Algorithm::Prim,
            "kruskal" => Algorithm::Kruskal,
            "eller" => Algorithm::Eller,
            "division" => Algorithm::Division,
            _ => return None,
        })
    }

    /// The algorithm's name, as [`Algorithm::from_name`] reads it.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The maze's cells and which walls between them are open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Cells across.
    pub width: usize,
    /// Cells down.
    pub height: usize,
    /// Whether each cell is in the area.
    usable: Vec<bool>,
    /// Whether the wall between a cell and the one to its right may open (both cells and the
    /// wall cell in the area).
    may_right: Vec<bool>,
    /// The same for the cell below.
    may_down: Vec<bool>,
    /// Whether the wall to the right is open.
    right: Vec<bool>,
    /// Whether the wall below is open.
    down: Vec<bool>,
}

/// The four directions between maze cells, as `(dx, dy)`.
const STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl Grid {
    /// The grid of `scope`: every cell and wall whose map cell is in the area.
    fn new(scope: &Scope<'_>) -> Grid {
        let b = scope.bounds;
        let (width, height) = (
            ((b.w - 1) / 2).max(0) as usize,
            ((b.h - 1) / 2).max(0) as usize,
        );
        let at = |i: usize, j: usize| (b.x + 1 + 2 * i as i32, b.y + 1 + 2 * j as i32);
        let n = width * height;
        let mut g = Grid {
            width,
            height,
            usable: vec![false; n],
            may_right: vec![false; n],
            may_down: vec![false; n],
            right: vec![false; n],
            down: vec![false; n],
        };
        for j in 0..height {
            for i in 0..width {
                let (x, y) = at(i, j);
                g.usable[i + j * width] = scope.contains(x, y);
            }
        }
        for j in 0..height {
            for i in 0..width {
                let k = i + j * width;
                let (x, y) = at(i, j);
                g.may_right[k] =
                    i + 1 < width && g.usable[k] && g.usable[k + 1] && scope.contains(x + 1, y);
                g.may_down[k] = j + 1 < height
                    && g.usable[k]
                    && g.usable[k + width]
                    && scope.contains(x, y + 1);
            }
        }
        g
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.usable.len()
    }

    /// Whether the grid has no cells.
    pub fn is_empty(&self) -> bool {
        self.usable.is_empty()
    }

    /// Whether cell `k` is in the area.
    pub fn usable(&self, k: usize) -> bool {
        self.usable[k]
    }

    /// The neighbour of cell `k` one `step` away through a wall that may open, if any.
    fn neighbour(&self, k: usize, (dx, dy): (i32, i32)) -> Option<usize> {
        // No division: the last cell of a row may never open to its right, so the cell before
        // the first of a row (`k - 1`) says no; and a cell of the first row has `k < width`.
        let ok = match (dx, dy) {
            (1, 0) => self.may_right[k],
            (-1, 0) => k > 0 && self.may_right[k - 1],
            (0, 1) => self.may_down[k],
            _ => k >= self.width && self.may_down[k - self.width],
        };
        ok.then(|| (k as isize + dx as isize + dy as isize * self.width as isize) as usize)
    }

    /// The cells next to `k` through walls that may open.
    fn neighbours(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        STEPS.iter().filter_map(move |&s| self.neighbour(k, s))
    }

    /// For each step in turn, the cell next to `k` that way through a wall that may open, or
    /// `k` itself.
    fn around(&self, k: usize) -> [usize; 4] {
        STEPS.map(|s| self.neighbour(k, s).unwrap_or(k))
    }

    /// The first of neighbouring cells `a` and `b`, and whether they are side by side (else one
    /// is above the other).
    fn pair(&self, a: usize, b: usize) -> (usize, bool) {
        let (lo, hi) = (a.min(b), a.max(b));
        // On a grid one cell wide, cells one apart are one above the other.
        (lo, hi == lo + 1 && hi % self.width != 0)
    }

    /// The wall flag between neighbouring cells `a` and `b`.
    fn wall(&mut self, a: usize, b: usize) -> &mut bool {
        match self.pair(a, b) {
            (lo, true) => &mut self.right[lo],
            (lo, false) => &mut self.down[lo],
        }
    }

    /// Opens the wall between neighbouring cells `a` and `b`.
    fn open(&mut self, a: usize, b: usize) {
        *self.wall(a, b) = true;
    }

    /// Closes the wall between neighbouring cells `a` and `b`.
    fn close(&mut self, a: usize, b: usize) {
        *self.wall(a, b) = false;
    }

    /// Whether the wall between neighbouring cells `a` and `b` is open.
    pub fn is_open(&self, a: usize, b: usize) -> bool {
        match self.pair(a, b) {
            (lo, true) => self.right[lo],
            (lo, false) => self.down[lo],
        }
    }

    /// The cells joined to `k` through open walls.
    fn linked(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours(k).filter(move |&n| self.is_open(k, n))
    }

    /// Number of open walls.
    pub fn passages(&self) -> usize {
        self.right.iter().chain(&self.down).filter(|&&o| o).count()
    }

    /// Whether every cell and wall of the bounding rectangle is in the area.
    fn is_rectangle(&self) -> bool {
        (0..self.len()).all(|k| {
            let (i, j) = (k % self.width, k / self.width);
            self.usable[k]
                && (i + 1 == self.width || self.may_right[k])
                && (j + 1 == self.height || self.may_down[k])
        })
    }
}

/// What a maze writes with.
#[derive(Clone, Copy, Debug)]
pub struct MazeBrushes<'b> {
    /// Cells and open walls.
    pub passage: &'b Brush,
    /// Every other cell of the area; `None`: left as it is (carve into solid rock).
    pub wall: Option<&'b Brush>,
}

/// What a maze made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carved {
    /// Maze cells.
    pub cells: usize,
    /// Walls opened (a perfect maze on one connected grid opens one fewer than its cells).
    pub passages: usize,
    /// Dead ends the braid opened.
    pub braided: usize,
}

/// Makes a maze in `area` with `algorithm`, braids `braid_percent` of its dead ends, and writes
/// it (through the map's priority and edge rules). `braid_percent` is `0..=100`.
pub fn maze(
    map: &mut Map,
    area: Area<'_>,
    algorithm: Algorithm,
    braid_percent: u32,
    rng: &mut Rng,
    brushes: MazeBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<Carved, ToolError> {
    ToolError::check_range("maze", "braid", braid_percent as i64, (0, 100))?;
    let scope = area.on(map)?;
    let mut grid = Grid::new(&scope);
    meter.work(grid.len() as u64 * 4)?;
    match algorithm {
        Algorithm::Backtracker => backtracker::carve(&mut grid, rng),
        Algorithm::Prim => prim::carve(&mut grid, rng),
        Algorithm::Kruskal => kruskal::carve(&mut grid, rng),
        Algorithm::Eller | Algorithm::Division => {
            if !grid.is_rectangle() {
                return Err(ToolError::NotARectangle {
                    what: algorithm.name(),
                });
            }
            if algorithm == Algorithm::Eller {
                eller::carve(&mut grid, rng)
            } else {
                division::carve(&mut grid, rng)
            }
        }
    }
    let braided = braid(&mut grid, braid_percent, rng);
    let b = scope.bounds;
    meter.work((b.w.max(0) * b.h.max(0)) as u64)?;
    if let Some(wall) = brushes.wall {
        for p in scope.cells() {
            map.write(p, wall)?;
        }
    }
    let at = |k: usize| {
        Point::new(
            b.x + 1 + 2 * (k % grid.width) as i32,
            b.y + 1 + 2 * (k / grid.width) as i32,
        )
    };
    let mut cells = 0;
    for k in (0..grid.len()).filter(|&k| grid.usable[k]) {
        let p = at(k);
        map.write(p, brushes.passage)?;
        cells += 1;
        if grid.right[k] {
            map.write(Point::new(p.x + 1, p.y), brushes.passage)?;
        }
        if grid.down[k] {
            map.write(Point::new(p.x, p.y + 1), brushes.passage)?;
        }
    }
    Ok(Carved {
        cells,
        passages: grid.passages(),
        braided,
    })
}
