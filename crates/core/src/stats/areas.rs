//! Counting the separate open areas of a map (8-neighbour, like flood fill) from its bit rows.
//!
//! Only runs of open cells carry an area id (no per-cell labels), and a union–find over ids
//! joins areas that meet. Row by row, each run takes the area of the first run above that it
//! touches (diagonals included: the runs above that lie partly in the run widened by one cell
//! each side), or starts an area if it touches none; a run touching two or more runs above
//! merges their areas. Most of the work is done 64 cells at a time:
//!
//! - A row equal to the row above has the same runs, each touching just its twin: the areas
//!   carry over untouched.
//! - **Touches.** Each run above that a run `[s, e]` touches is marked on one cell of the run:
//!   a run above covering `s - 1` on `s`, one starting in `[s, e]` on its start, one starting
//!   at `e + 1` on `e`. (Only a one-cell run can get two marks on one cell.)
//! - **First touches, by carries.** With `M` the row, `S` its run starts and `T` the touches,
//!   the sum `(M & !T) + S` carries from each run's start through its unmarked cells to its first
//!   touch, or, in a run that touches nothing, out of the run to the solid cell after it (or out
//!   of the row's last word; carries chain across a row's words). So every run has one
//!   *landing*: a bit of the sum outside `M & !T`. Landings outside `M` start areas; the other
//!   touches, `T & !sum`, mean the row merges areas.
//! - **Which run above.** A run landing on `t` touches first the run above with index
//!   "runs above that end before `t - 1`": the run ends above, shifted by one, counted below
//!   `t`. A row's landings and other touches are visited left to right; a run takes the area id
//!   of the run above it lands on, and each further touch unites its area with the next run
//!   above.
//!
//! The count is the number of areas started less the merges of two different areas.

use super::open_bits::OpenBits;

/// Reusable scratch for [`AreaCounter::count`].
#[derive(Clone, Debug, Default)]
pub struct AreaCounter {
    /// Area id of each run of the row above, in order (not necessarily its root).
    above: Vec<u32>,
    /// Area id of each run of the current row.
    here: Vec<u32>,
    /// Union–find parent of each area id (merged areas point towards the lowest id); longer than
    /// the ids in use, so that a run may write its would-be new id unconditionally.
    parent: Vec<u32>,
}

/// What the counter needs of one word of a row, given the row above.
struct Word {
    /// The landings of the runs (see the module documentation).
    landings: u64,
    /// Touches other than each run's first, and one-cell runs touching two runs above (both
    /// marks on one cell): each bit is one more run above to unite with.
    merges: u64,
    /// Bit `x` set when a run of the row above ends at column `x - 1`.
    above_ends_1: u64,
    /// Carry out of this word's sum, into the next word's.
    carry: bool,
}

impl Word {
    /// Word `k` of `row`, with `up` the row above and `carry` the carry out of word `k - 1`.
    #[inline]
    fn new(up: &[u64], row: &[u64], k: usize, carry: bool) -> Word {
        let m = row[k];
        let m_west = (m << 1) | if k > 0 { row[k - 1] >> 63 } else { 0 };
        let m_east = (m >> 1) | (row.get(k + 1).copied().unwrap_or(0) << 63);
        let a = up[k];
        let a_before = if k > 0 { up[k - 1] >> 63 } else { 0 };
        let a_west = (a << 1) | a_before;
        let a_east = (a >> 1) | (up.get(k + 1).copied().unwrap_or(0) << 63);
        let starts = m & !m_west;
        let ends = m & !m_east;
        // A run above starting at x + 1: open there, solid at x.
        let a_starts_east = a_east & !a;
        let touches = (starts & a_west) | (m & a & !a_west) | (ends & a_starts_east);
        let plain = m & !touches;
        let (sum, c1) = plain.overflowing_add(starts);
        let (sum, c2) = sum.overflowing_add(u64::from(carry));
        Word {
            landings: sum & !plain,
            merges: (touches & !sum) | (starts & ends & a_west & a_starts_east),
            above_ends_1: ((a & !a_east) << 1) | (a_before & !a & 1),
            carry: c1 | c2,
        }
    }
}

impl AreaCounter {
    /// Number of maximal 8-connected areas of open cells.
    #[inline(always)]
    pub fn count(&mut self, open: &OpenBits) -> usize {
        let wpr = open.words_per_row();
        // A row of 64 * wpr cells has at most 32 * wpr runs; a run that touches nothing reads
        // (and ignores) the slot after the last run above.
        let most = 32 * wpr + 1;
        self.above.clear();
        self.above.resize(most, 0);
        self.here.clear();
        self.here.resize(most, 0);
        self.parent.clear();
        let mut areas = 0;
        let mut merges = 0;
        for y in 0..open.height() as isize {
            let (up, row) = (open.row(y - 1), open.row(y));
            // Compared word by word (a `memcmp` call costs more on rows this short).
            if row.iter().zip(up).fold(0, |d, (a, b)| d | (a ^ b)) == 0 {
                continue;
            }
            if self.parent.len() < areas + most {
                self.parent.resize(areas + most, 0);
            }
            let AreaCounter {
                above,
                here,
                parent,
            } = self;
            let mut runs = 0;
            let mut ends_before = 0;
            let mut carry = false;
            // The area of the latest run and the index of the latest run above it touches.
            let (mut area, mut touched) = (0, 0);
            for k in 0..wpr {
                let w = Word::new(up, row, k, carry);
                carry = w.carry;
                let open = row[k];
                // Run ends above are not visited: a landing counts those before it.
                let mut events = w.landings | w.merges;
                while events != 0 {
                    let t = events.trailing_zeros();
                    let lands = w.landings >> t & 1 == 1;
                    // A landing is handled without branching (whether a run lands where the
                    // next event is, or starts an area, is what a predictor cannot guess):
                    // every step runs, and only a landing keeps what it wrote.
                    let ends_here = (w.above_ends_1 & ((1 << t) - 1)).count_ones() as usize;
                    touched = if lands {
                        ends_before + ends_here
                    } else {
                        touched
                    };
                    let old = above[touched];
                    parent[areas] = areas as u32;
                    let starts_area = lands & (open >> t & 1 == 0);
                    let landed = if starts_area { areas as u32 } else { old };
                    area = if lands { landed } else { area };
                    here[runs] = area;
                    areas += usize::from(starts_area);
                    runs += usize::from(lands);
                    if w.merges >> t & 1 == 1 {
                        // The run also touches the next run above.
                        touched += 1;
                        merges += usize::from(union(parent, area, above[touched]));
                    }
                    events &= events - 1;
                }
                ends_before += w.above_ends_1.count_ones() as usize;
            }
            if carry {
                // The last run reaches the end of the last word and touches nothing above.
                parent[areas] = areas as u32;
                here[runs] = areas as u32;
                areas += 1;
            }
            std::mem::swap(&mut self.above, &mut self.here);
        }
        areas - merges
    }
}

/// Joins the sets of `a` and `b`; whether they were apart.
fn union(parent: &mut [u32], a: u32, b: u32) -> bool {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        parent[a.max(b) as usize] = a.min(b);
    }
    a != b
}

/// The root of `x`'s set, halving the path on the way.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}
