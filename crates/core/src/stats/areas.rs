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
//!   `t`. A row's landings are visited left to right, each run taking the area id of the run
//!   above it lands on. Then, only in rows that have them (few do), each further touch unites
//!   its run's area with the run above it marks.
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

/// What the counter reads of each word of the map, given the row above: planes indexed like
/// [`OpenBits::words`], filled for every word of the map's rows (and the gutters between them)
/// by the one pass over the words ([`super::sweep`]), from [`surveyed`].
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Run starts: open cells whose west neighbour is solid.
    starts: Vec<u64>,
    /// Open cells without a touch (see the module documentation).
    plain: Vec<u64>,
    /// One-cell runs touching two runs above (both marks on one cell).
    double: Vec<u64>,
    /// Bit `x` set when a run of the row above ends at column `x - 1`.
    above_ends_1: Vec<u64>,
}

/// What the counter reads of one word ([`Survey`] holds one plane of each).
pub struct Surveyed {
    starts: u64,
    plain: u64,
    double: u64,
    above_ends_1: u64,
}

/// The word `m` (`m_west`, `m_east`: each cell's west and east neighbours, as
/// [`OpenBits::west`] and [`OpenBits::east`] hold them) with the word above it `a` (and
/// `a_west`, `a_east`), surveyed.
#[inline(always)]
pub fn surveyed(m: u64, m_west: u64, m_east: u64, a: u64, a_west: u64, a_east: u64) -> Surveyed {
    let starts = m & !m_west;
    let ends = m & !m_east;
    // A run above starting at x + 1: open there, solid at x.
    let a_starts_east = a_east & !a;
    let touches = (starts & a_west) | (m & a & !a_west) | (ends & a_starts_east);
    Surveyed {
        starts,
        plain: m & !touches,
        double: starts & ends & a_west & a_starts_east,
        // A run above ends at x - 1: open at x - 1, solid at x (for x = 0, the end of a run in
        // the word before, which `a_west` brings in).
        above_ends_1: ((a & !a_east) << 1) | (a_west & !a & 1),
    }
}

/// Where a pass stores the words it surveys: the four planes' slices from word `first` on,
/// `len` words each.
pub struct SurveyOut<'a> {
    starts: &'a mut [u64],
    plain: &'a mut [u64],
    double: &'a mut [u64],
    above_ends_1: &'a mut [u64],
}

impl SurveyOut<'_> {
    /// Stores `word`, surveyed, as word `i` of the slices.
    #[inline(always)]
    pub fn store(&mut self, i: usize, word: Surveyed) {
        self.starts[i] = word.starts;
        self.plain[i] = word.plain;
        self.double[i] = word.double;
        self.above_ends_1[i] = word.above_ends_1;
    }
}

impl Survey {
    /// The planes, sized for `open`, to be filled from word `first` (row 0's first) for `len`
    /// words (to row `height - 1`'s last).
    #[inline(always)]
    pub fn out(&mut self, open: &OpenBits, first: usize, len: usize) -> SurveyOut<'_> {
        let n = open.words().len();
        for plane in [
            &mut self.starts,
            &mut self.plain,
            &mut self.double,
            &mut self.above_ends_1,
        ] {
            plane.resize(n, 0);
        }
        // The guard row above row 0 has no runs (`merge_row` counts its starts).
        self.starts[..first].fill(0);
        SurveyOut {
            starts: &mut self.starts[first..][..len],
            plain: &mut self.plain[first..][..len],
            double: &mut self.double[first..][..len],
            above_ends_1: &mut self.above_ends_1[first..][..len],
        }
    }

    /// `open`'s words beside the survey's planes, all of one length (so that cutting a row
    /// from each checks the bounds once).
    #[inline(always)]
    fn planes<'a>(&'a self, open: &'a OpenBits) -> SurveyedRow<'a> {
        let n = open.words().len();
        SurveyedRow {
            open: &open.words()[..n],
            plain: &self.plain[..n],
            starts: &self.starts[..n],
            double: &self.double[..n],
            above_ends_1: &self.above_ends_1[..n],
        }
    }
}

/// Words of [`OpenBits::words`] and the same words of each [`Survey`] plane.
struct SurveyedRow<'a> {
    open: &'a [u64],
    plain: &'a [u64],
    starts: &'a [u64],
    double: &'a [u64],
    above_ends_1: &'a [u64],
}

impl<'a> SurveyedRow<'a> {
    /// Words `words` of each plane.
    #[inline(always)]
    fn cut(&self, words: std::ops::Range<usize>) -> SurveyedRow<'a> {
        SurveyedRow {
            open: &self.open[words.clone()],
            plain: &self.plain[words.clone()],
            starts: &self.starts[words.clone()],
            double: &self.double[words.clone()],
            above_ends_1: &self.above_ends_1[words],
        }
    }

    /// Word `k` of the row, with `carry` the carry out of the word before it.
    #[inline(always)]
    fn word(&self, k: usize, carry: bool) -> Word {
        let (m, plain, starts) = (self.open[k], self.plain[k], self.starts[k]);
        let (sum, c1) = plain.overflowing_add(starts);
        let (sum, c2) = sum.overflowing_add(u64::from(carry));
        Word {
            landings: sum & !plain,
            // The touches are the open cells that are not plain.
            merges: (m & !plain & !sum) | self.double[k],
            above_ends_1: self.above_ends_1[k],
            carry: c1 | c2,
        }
    }
}

impl AreaCounter {
    /// Number of maximal 8-connected areas of open cells, `survey` being `open` surveyed.
    #[inline(always)]
    pub fn count(&mut self, open: &OpenBits, survey: &Survey) -> usize {
        // A row of 64 * wpr cells has at most 32 * wpr runs; a run that touches nothing reads
        // (and ignores) the slot after the last run above. Stale ids from an earlier map are
        // never used: a run reads the row above's ids only where that row has runs.
        let most = 32 * open.words_per_row() + 1;
        for ids in [&mut self.above, &mut self.here] {
            if ids.len() < most {
                ids.resize(most, 0);
            }
        }
        let (mut above, mut here) = (&mut self.above[..], &mut self.here[..]);
        let parent = &mut self.parent;
        let planes = survey.planes(open);
        let (wpr, stride) = (open.words_per_row(), open.stride());
        let mut areas = 0;
        let mut merges = 0;
        // Only rows that differ from the row above are visited: a row equal to it carries its
        // areas over.
        for &start in open.changed_rows() {
            if parent.len() < areas + most {
                parent.resize(areas + most, 0);
            }
            let row = planes.cut(start..start + wpr);
            let merging;
            (areas, merging) = label_row(&row, above, here, parent, areas);
            if merging {
                let above_starts = &planes.starts[start - stride..start - stride + wpr];
                merges += merge_row(&row, above_starts, above, here, parent);
            }
            std::mem::swap(&mut above, &mut here);
        }
        areas - merges
    }
}

/// Gives each run of `row` (in `here`) the area of the first run above it touches (`above`
/// holds their ids), or a new area; the areas in use after the row (`areas` before it), and
/// whether the row has further touches, which merge areas.
#[inline(always)]
fn label_row(
    row: &SurveyedRow,
    above: &[u32],
    here: &mut [u32],
    parent: &mut [u32],
    mut areas: usize,
) -> (usize, bool) {
    let (mut runs, mut ends_before, mut carry, mut merging) = (0, 0, false, 0);
    for k in 0..row.open.len() {
        let w = row.word(k, carry);
        let m = row.open[k];
        carry = w.carry;
        merging |= w.merges;
        // Run ends above are not visited: a landing counts those before it. Each landing is
        // handled without branching (whether it starts an area is what a predictor cannot
        // guess): a would-be new id is written and kept only if used.
        let mut landings = w.landings;
        while landings != 0 {
            let t = landings.trailing_zeros();
            let touched = ends_before + (w.above_ends_1 & ((1 << t) - 1)).count_ones() as usize;
            let starts_area = m >> t & 1 == 0;
            let inherited = above[touched];
            parent[areas] = areas as u32;
            // A mask rather than `if`, which the compiler would make a branch.
            let fresh = u32::from(starts_area).wrapping_neg();
            here[runs] = (areas as u32 & fresh) | (inherited & !fresh);
            areas += usize::from(starts_area);
            runs += 1;
            landings &= landings - 1;
        }
        ends_before += w.above_ends_1.count_ones() as usize;
    }
    if carry {
        // The last run reaches the end of the last word and touches nothing above.
        parent[areas] = areas as u32;
        here[runs] = areas as u32;
        areas += 1;
    }
    (areas, merging != 0)
}

/// Unites the area of each run of `row` (already labelled, in `here`) with the further runs
/// above it touches (`above_starts`: the row above's run starts; `above`: their ids); the
/// number of unions that joined two different areas.
///
/// A further touch on `t` is always the start of the run above it stands for (or, on a run's
/// last cell, the start one past it, with no run above starting on `t`): that run's index is
/// the number of runs above starting before `t`. The run below is the one with the last
/// start at or before `t`.
#[inline(always)]
fn merge_row(
    row: &SurveyedRow,
    above_starts: &[u64],
    above: &[u32],
    here: &[u32],
    parent: &mut [u32],
) -> usize {
    let (mut starts_before, mut above_starts_before, mut carry) = (0, 0, false);
    let mut merges = 0;
    for (k, &above_starts) in above_starts.iter().enumerate() {
        let w = row.word(k, carry);
        carry = w.carry;
        let starts = row.starts[k];
        let mut merging = w.merges;
        while merging != 0 {
            let t = merging.trailing_zeros();
            let through = u64::MAX >> (63 - t);
            let run = starts_before + (starts & through).count_ones() as usize - 1;
            let run_above =
                above_starts_before + (above_starts & through & !(1 << t)).count_ones() as usize;
            merges += usize::from(union(parent, here[run], above[run_above]));
            merging &= merging - 1;
        }
        starts_before += starts.count_ones() as usize;
        above_starts_before += above_starts.count_ones() as usize;
    }
    merges
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
