//! Connected-component labelling of the passable cells (4- or 8-neighbour), run by run.
//!
//! Each row's open spans ("runs") are read off the bit-packed open mask, runs that touch a run of
//! the row above (diagonally too in 8-neighbour mode) are merged with a union–find whose root is always the
//! set's first run, and the roots, taken in row-major order, number the components. So component
//! `k` is the `k`-th area met when scanning the map row by row, and its representative (first
//! cell in row-major order) is the start of its root run. Linear in the number of runs, no
//! recursion, and all buffers are reused between calls.

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
    labels: Vec<u32>,
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

    /// The component index of every cell, row-major; [`NO_COMPONENT`] for solid cells.
    pub fn labels(&self) -> &[u32] {
        &self.labels
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
        let label = self.labels[p.x as usize + p.y as usize * self.width];
        Ok((label != NO_COMPONENT).then_some(label as usize))
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
        self.write_labels(out);
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

    /// Writes every cell's component (or [`NO_COMPONENT`]) into `out.labels`.
    fn write_labels(&self, out: &mut Components) {
        out.labels.resize(out.width * out.height, NO_COMPONENT);
        for (y, cells) in out.labels.chunks_exact_mut(out.width).enumerate() {
            let mut x = 0;
            for i in self.row_start[y]..self.row_start[y + 1] {
                let run = self.runs[i as usize];
                splat(cells, x, run.x0 as usize, NO_COMPONENT);
                splat(
                    cells,
                    run.x0 as usize,
                    run.x1 as usize,
                    self.run_component[i as usize],
                );
                x = run.x1 as usize;
            }
            splat(cells, x, cells.len(), NO_COMPONENT);
        }
    }
}
