//! Word-parallel 4- or 8-neighbour flood fill over bit-packed rows.
//!
//! A row is filled 64 cells per step: adding the seeds to the open mask makes the carry run along
//! each open span from its seed to the span's right end (`((open + seeds) ^ open) & open`), and
//! shifts by 1, 2, 4, … 32 spread the seeds to the spans' left ends. A row's new cells seed its
//! neighbour rows through the row dilated by one bit each way (exactly 8-neighbour adjacency),
//! or through the row as it is (4-neighbour).
//!
//! Rows wait in a per-row dirty word range and are visited in alternating downward and upward
//! sweeps, so a fill moving down (or up) finishes in one sweep and only turns cost extra sweeps.
//! No recursion, no per-cell allocation, and nothing outside the dirty ranges is touched.

use super::bitgrid::BitGrid;
use crate::map::Adjacency;

/// An inclusive range of word indices within a row; empty when `lo > hi`.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    lo: usize,
    hi: usize,
}

impl Span {
    const EMPTY: Span = Span {
        lo: usize::MAX,
        hi: 0,
    };

    fn is_empty(self) -> bool {
        self.lo > self.hi
    }

    fn union(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// Reusable state of a flood fill.
#[derive(Clone, Debug, Default)]
pub(crate) struct Filler {
    dirty: Vec<Span>,
    seeds: Vec<u64>,
    /// A row of no cells, standing in for the rows beyond the grid's top and bottom.
    zeros: Vec<u64>,
}

/// `seeds` spread towards bit 0 through the set bits of `open` (both words of one row), by
/// doubling: after round `k`, every cell within `2^k` cells above a seed along open cells is in.
#[inline]
pub fn spread_down(open: u64, seeds: u64) -> u64 {
    let (mut cells, mut runs) = (seeds, open);
    for shift in [1, 2, 4, 8, 16, 32] {
        cells |= (cells >> shift) & runs;
        runs &= runs >> shift;
    }
    cells
}

/// Fills `open` runs from `seeds` in both directions within one row, adding the cells to
/// `reached`. `seeds` is meaningful on words `lo..=hi` only and must be a subset of `open`; the
/// fill may run past that range. Returns the range of words that gained cells.
pub fn fill_row(open: &[u64], seeds: &[u64], lo: usize, hi: usize, reached: &mut [u64]) -> Span {
    let mut changed = Span::EMPTY;
    let mut add = |w: usize, cells: u64, reached: &mut [u64]| {
        if cells & !reached[w] != 0 {
            reached[w] |= cells;
            changed = changed.union(Span { lo: w, hi: w });
        }
    };
    // Rightwards: the carry of `open + seeds` runs to the end of each seeded span.
    let mut carry = false;
    let mut w = lo;
    while w < open.len() && (w <= hi || carry) {
        let s = if w <= hi { seeds[w] } else { 0 };
        if s != 0 || carry {
            let o = open[w];
            let (sum, c1) = o.overflowing_add(s);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            carry = c1 | c2;
            add(w, ((sum ^ o) & o) | s, reached);
        }
        w += 1;
    }
    // Leftwards: spread towards bit 0, entering the next word down at bit 63. Words whose seed
    // spans have no open cell just below them gain nothing and skip the spreading.
    let mut carry = 0;
    let mut w = hi + 1;
    while w > 0 && (w > lo || carry != 0) {
        w -= 1;
        let o = open[w];
        let seeded = if w >= lo { seeds[w] } else { 0 };
        let s = seeded | (carry & o);
        let seed_below = if w > lo { seeds[w - 1] >> 63 } else { 0 };
        let open_below = if w > 0 { open[w - 1] >> 63 } else { 0 };
        let lowest = s & !(s << 1 | seed_below);
        let cells = if lowest & (o << 1 | open_below) == 0 {
            s
        } else {
            spread_down(o, s)
        };
        carry = cells << 63;
        add(w, cells, reached);
    }
    changed
}

impl Filler {
    /// Adds to `reached` every cell of `open` connected to `(x, y)` in `adjacency`, which must
    /// be in `open`. Cells already in `reached` must form whole components of `open` (for
    /// example an empty set, or the result of earlier fills on the same `open`).
    pub(crate) fn fill_from(
        &mut self,
        open: &BitGrid,
        reached: &mut BitGrid,
        (x, y): (usize, usize),
        adjacency: Adjacency,
    ) {
        let diagonal = adjacency == Adjacency::Eight;
        let wpr = open.words_per_row();
        self.dirty.clear();
        self.dirty.resize(open.height(), Span::EMPTY);
        self.seeds.clear();
        self.seeds.resize(wpr, 0);
        self.zeros.clear();
        self.zeros.resize(wpr, 0);
        self.seeds[x / 64] = 1 << (x % 64);
        let changed = fill_row(open.row(y), &self.seeds, x / 64, x / 64, reached.row_mut(y));
        self.mark_neighbours(y, changed, wpr);
        loop {
            let mut worked = false;
            for y in 0..open.height() {
                worked |= self.visit(open, reached, y, diagonal);
            }
            for y in (0..open.height()).rev() {
                worked |= self.visit(open, reached, y, diagonal);
            }
            if !worked {
                break;
            }
        }
    }

    /// Processes row `y` if it is dirty; returns whether it was. `diagonal` lets cells of the
    /// rows above and below seed the cells beside them too (8-neighbour).
    fn visit(&mut self, open: &BitGrid, reached: &mut BitGrid, y: usize, diagonal: bool) -> bool {
        let span = std::mem::replace(&mut self.dirty[y], Span::EMPTY);
        if span.is_empty() {
            return false;
        }
        let (lo, hi) = (span.lo, span.hi);
        let open_row = open.row(y);
        let mut any = 0;
        {
            // Dilating the union of the rows above and below gives every cell they touch
            // diagonally too; without dilation, only the cells straight above and below.
            let above = if y > 0 {
                reached.row(y - 1)
            } else {
                &self.zeros
            };
            let below = if y + 1 < reached.height() {
                reached.row(y + 1)
            } else {
                &self.zeros
            };
            let reached_row = reached.row(y);
            let near = |w: usize| above[w] | below[w];
            let mut prev = if lo > 0 { near(lo - 1) } else { 0 };
            let mut cur = near(lo);
            for w in lo..=hi {
                let next = if w + 1 < open_row.len() {
                    near(w + 1)
                } else {
                    0
                };
                let touched = if diagonal {
                    cur | cur << 1 | cur >> 1 | prev >> 63 | next << 63
                } else {
                    cur
                };
                let s = touched & open_row[w] & !reached_row[w];
                self.seeds[w] = s;
                any |= s;
                (prev, cur) = (cur, next);
            }
        }
        if any != 0 {
            let changed = fill_row(open_row, &self.seeds, lo, hi, reached.row_mut(y));
            self.mark_neighbours(y, changed, open.words_per_row());
        }
        true
    }

    /// Marks the rows above and below `y` dirty where `changed` words of row `y` can seed them.
    fn mark_neighbours(&mut self, y: usize, changed: Span, words_per_row: usize) {
        if changed.is_empty() {
            return;
        }
        let reach = Span {
            lo: changed.lo.saturating_sub(1),
            hi: (changed.hi + 1).min(words_per_row - 1),
        };
        if y > 0 {
            self.dirty[y - 1] = self.dirty[y - 1].union(reach);
        }
        if let Some(d) = self.dirty.get_mut(y + 1) {
            *d = d.union(reach);
        }
    }
}
