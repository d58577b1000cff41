//! Connected-component labelling of the passable cells (4- or 8-neighbour), run by run.
//!
//! Each row's open spans ("runs") are read off the bit-packed open mask, runs that touch a run of
//! the row above (diagonally too in 8-neighbour mode) are merged with a union–find whose root is always the
//! set's first run, and the roots, taken in row-major order, number the components. So component
//! `k` is the `k`-th area met when scanning the map row by row, and its representative (first
//! cell in row-major order) is the start of its root run. Linear in the number of runs, no
//! recursion, and all buffers are reused between calls.
//!
//! The result keeps the runs, not a label per cell: a cell's component is found in its row's
//! runs, and whole rows of labels are written on demand ([`Components::label_row`]), so
//! labelling a big map costs memory in proportion to its runs, not to its cells.

use super::bitgrid::BitGrid;
use crate::map::{Adjacency, MapError, Point};

/// The label of a cell that belongs to no component (a solid cell).
pub const NO_COMPONENT: u32 = u32::MAX;

/// One maximal connected area of passable cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    /// The area's first cell in row-major order (smallest `y`, then smallest `x`).
    pub representative: Point,
    /// Number of cells in the area.
    pub size: usize,
}

/// Every open area of a map and the area of each cell, as found by
/// [`Connectivity::components`](super::Connectivity::components).
///
/// Components are numbered in the order of their representatives, so component 0 (when there is
/// one) is the area holding the map's first open cell.
#[derive(Clone, Debug, Default)]
pub struct Components {
    width: usize,
    height: usize,
    /// Every row's open runs, left to right, rows in order.
    runs: Vec<Run>,
    /// Index of the first run of each row, plus one past the last run.
    row_start: Vec<u32>,
    /// The component of each run.
    run_component: Vec<u32>,
    list: Vec<Component>,
}

impl Components {
    /// An empty result, ready to be filled by [`Connectivity::components`](super::Connectivity::components).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of components.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no components (the map has no open cell).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// All components, ordered by representative.
    pub fn list(&self) -> &[Component] {
        &self.list
    }

    /// Component `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&Component> {
        self.list.get(index)
    }

    /// Width of the labelled map.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the labelled map.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The runs of row `y` with their components.
    fn row(&self, y: usize) -> impl Iterator<Item = (Run, u32)> + '_ {
        let (lo, hi) = (self.row_start[y] as usize, self.row_start[y + 1] as usize);
        self.runs[lo..hi]
            .iter()
            .copied()
            .zip(self.run_component[lo..hi].iter().copied())
    }

    /// Writes the component index of every cell of row `y` into `out` (the row's width long);
    /// [`NO_COMPONENT`] for solid cells.
    pub fn label_row(&self, y: usize, out: &mut [u32]) {
        let mut x = 0;
        for (run, component) in self.row(y) {
            splat(out, x, run.x0 as usize, NO_COMPONENT);
            splat(out, run.x0 as usize, run.x1 as usize, component);
            x = run.x1 as usize;
        }
        splat(out, x, out.len(), NO_COMPONENT);
    }

    /// The component index of every cell, row-major; [`NO_COMPONENT`] for solid cells. (A
    /// whole map of labels: for small maps and tests; big maps go row by row with
    /// [`Components::label_row`].)
    pub fn labels(&self) -> Vec<u32> {
        let mut labels = vec![NO_COMPONENT; self.width * self.height];
        if self.width > 0 {
            for (y, row) in labels.chunks_exact_mut(self.width).enumerate() {
                self.label_row(y, row);
            }
        }
        labels
    }

    /// The runs of component `index` as `(y, x0..x1)` spans, in row-major order.
    pub(crate) fn spans(
        &self,
        index: u32,
    ) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> + '_ {
        (0..self.height).flat_map(move |y| {
            self.row(y)
                .filter(move |&(_, c)| c == index)
                .map(move |(run, _)| (y, run.x0 as usize..run.x1 as usize))
        })
    }

    /// The component of the cell at `p`, or `None` for a solid cell. Off the map is an error.
    pub fn component_at(&self, p: Point) -> Result<Option<usize>, MapError> {
        let on_map =
            p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height;
        if !on_map {
            return Err(MapError::OutOfBounds {
                x: p.x as i64,
                y: p.y as i64,
                width: self.width as i32,
                height: self.height as i32,
            });
        }
        Ok(self.at(p.x as u32, p.y as usize).map(|c| c as usize))
    }

    /// The component of an on-map cell `(x, y)`, found among its row's runs.
    pub(crate) fn at(&self, x: u32, y: usize) -> Option<u32> {
        let (lo, hi) = (self.row_start[y] as usize, self.row_start[y + 1] as usize);
        let runs = &self.runs[lo..hi];
        let i = runs.partition_point(|r| r.x1 <= x);
        (i < runs.len() && runs[i].x0 <= x).then(|| self.run_component[lo + i])
    }
}

/// A horizontal span of open cells `x0..x1` (end exclusive) in one row.
#[derive(Clone, Copy, Debug)]
struct Run {
    x0: u32,
    x1: u32,
}

/// Reusable scratch of the labelling.
#[derive(Clone, Debug, Default)]
pub(crate) struct Labeller {
    runs: Vec<Run>,
    /// Index of the first run of each row, plus one past the last run.
    row_start: Vec<u32>,
    /// Union–find parents; `parent[i] <= i` always holds, so a root is its set's first run.
    parent: Vec<u32>,
    /// The component of each run.
    run_component: Vec<u32>,
}

/// The root of run `i`, halving the path on the way.
#[inline]
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let grand = parent[parent[i as usize] as usize];
        parent[i as usize] = grand;
        i = grand;
    }
    i
}

/// Merges the sets of runs `a` and `b`, keeping the smaller index as the root.
#[inline]
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// Writes `value` over `cells[from..to]` eight cells at a time, so it may also write up to seven
/// cells past `to` (never past the end of `cells`): callers write a row's segments left to right
/// and each segment overwrites the spill of the one before. Runs and gaps are short in caves,
/// where this beats a `fill` call per segment several times over.
#[inline]
fn splat(cells: &mut [u32], from: usize, to: usize, value: u32) {
    let mut x = from;
    while x < to {
        match cells.get_mut(x..x + 8) {
            Some(chunk) => chunk.copy_from_slice(&[value; 8]),
            None => {
                cells[x..to].fill(value);
                return;
            }
        }
        x += 8;
    }
}

impl Labeller {
    /// Labels the cells of `open` into `out`, joining cells that touch in `adjacency`.
    pub(crate) fn label(&mut self, open: &BitGrid, out: &mut Components, adjacency: Adjacency) {
        self.collect_runs(open);
        self.merge_rows(adjacency == Adjacency::Eight);
        out.width = open.width();
        out.height = open.height();
        self.number_components(out);
        // The result takes the runs; the labeller keeps the result's old buffers to reuse.
        std::mem::swap(&mut self.runs, &mut out.runs);
        std::mem::swap(&mut self.row_start, &mut out.row_start);
        std::mem::swap(&mut self.run_component, &mut out.run_component);
    }

    /// Reads every row's runs off the bit mask, left to right.
    fn collect_runs(&mut self, open: &BitGrid) {
        self.runs.clear();
        self.row_start.clear();
        for y in 0..open.height() {
            self.row_start.push(self.runs.len() as u32);
            let row = open.row(y);
            let mut run_start = None;
            for (w, &word) in row.iter().enumerate() {
                let base = (w * 64) as u32;
                let prev_top = if w > 0 { row[w - 1] >> 63 } else { 0 };
                let next_low = row.get(w + 1).map_or(0, |n| n & 1);
                let mut starts = word & !(word << 1 | prev_top);
                let mut ends = word & !(word >> 1 | next_low << 63);
                loop {
                    if run_start.is_none() {
                        if starts == 0 {
                            break;
                        }
                        run_start = Some(base + starts.trailing_zeros());
                        starts &= starts - 1;
                    }
                    if ends == 0 {
                        break;
                    }
                    let x1 = base + ends.trailing_zeros() + 1;
                    ends &= ends - 1;
                    if let Some(x0) = run_start.take() {
                        self.runs.push(Run { x0, x1 });
                    }
                }
            }
        }
        self.row_start.push(self.runs.len() as u32);
    }

    /// Unites every run with the runs of the row above that touch it: that share a column, or
    /// with `diagonal` also that meet it at a corner.
    fn merge_rows(&mut self, diagonal: bool) {
        // Runs are `x0..x1`, end exclusive: a run above touches `run` when it ends after
        // `run.x0 - reach` and starts before `run.x1 + reach`.
        let reach = diagonal as u32;
        self.parent.clear();
        self.parent.extend(0..self.runs.len() as u32);
        for y in 1..self.row_start.len() - 1 {
            let (above_lo, above_hi) = (self.row_start[y - 1], self.row_start[y]);
            let mut first_above = above_lo;
            for j in self.row_start[y]..self.row_start[y + 1] {
                let run = self.runs[j as usize];
                // Runs above that end too far left touch neither this run nor later ones.
                while first_above < above_hi && self.runs[first_above as usize].x1 + reach <= run.x0
                {
                    first_above += 1;
                }
                let mut k = first_above;
                while k < above_hi && self.runs[k as usize].x0 < run.x1 + reach {
                    union(&mut self.parent, j, k);
                    k += 1;
                }
            }
        }
    }

    /// Numbers the sets in order of their first run and sums their sizes.
    fn number_components(&mut self, out: &mut Components) {
        out.list.clear();
        self.run_component.clear();
        for y in 0..self.row_start.len() - 1 {
            for i in self.row_start[y]..self.row_start[y + 1] {
                let run = self.runs[i as usize];
                // Parents precede their children, so one forward pass finds every root.
                let root = self.parent[self.parent[i as usize] as usize];
                self.parent[i as usize] = root;
                let component = if root == i {
                    out.list.push(Component {
                        representative: Point::new(run.x0 as i32, y as i32),
                        size: 0,
                    });
                    (out.list.len() - 1) as u32
                } else {
                    self.run_component[root as usize]
                };
                self.run_component.push(component);
                out.list[component as usize].size += (run.x1 - run.x0) as usize;
            }
        }
    }
}
