//! Counting the separate open areas of a map (8-neighbour, like flood fill) from its bit rows:
//! each row's runs of open cells are joined to the runs of the row above that they touch,
//! diagonals included, with a union–find over runs. Only the count is kept, so no per-cell
//! labels are written.

use super::open_bits::OpenBits;

/// Reusable scratch for [`AreaCounter::count`].
#[derive(Clone, Debug, Default)]
pub struct AreaCounter {
    /// Runs of the row above: first cell, last cell, area id.
    above: Vec<(u32, u32, u32)>,
    /// Runs of the current row.
    here: Vec<(u32, u32, u32)>,
    /// Union–find parent of each area id (merged areas point towards the lowest id).
    parent: Vec<u32>,
}

impl AreaCounter {
    /// Number of maximal 8-connected areas of open cells.
    ///
    /// Each run takes the area of the first run above that it touches; touching a second area
    /// merges the two. Only runs that touch nothing above start an area.
    pub fn count(&mut self, open: &OpenBits) -> usize {
        self.above.clear();
        self.parent.clear();
        let mut areas = 0;
        for y in 0..open.height() as isize {
            self.runs(open.row(y));
            let AreaCounter {
                above,
                here,
                parent,
            } = self;
            let mut j = 0;
            for run in here.iter_mut() {
                let (a, b) = (run.0, run.1);
                while j < above.len() && above[j].1 + 1 < a {
                    j += 1;
                }
                let mut area = None;
                for &(_, _, id) in above[j..].iter().take_while(|r| r.0 <= b + 1) {
                    let root = find(parent, id);
                    match area {
                        None => area = Some(root),
                        Some(mine) if mine != root => {
                            let (keep, gone) = (mine.min(root), mine.max(root));
                            parent[gone as usize] = keep;
                            area = Some(keep);
                            areas -= 1;
                        }
                        Some(_) => {}
                    }
                }
                run.2 = area.unwrap_or_else(|| {
                    areas += 1;
                    parent.push(parent.len() as u32);
                    parent.len() as u32 - 1
                });
            }
            std::mem::swap(&mut self.above, &mut self.here);
        }
        areas
    }

    /// Fills `self.here` with the runs of `row` (their areas not yet known).
    fn runs(&mut self, row: &[u64]) {
        self.here.clear();
        let mut stop = 0;
        let last = row.len().saturating_sub(1);
        for (k, &w) in row.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let before = if k > 0 { row[k - 1] >> 63 } else { 0 };
            let after = if k < last { row[k + 1] & 1 } else { 0 };
            let base = 64 * k as u32;
            let mut starts = w & !((w << 1) | before);
            let mut stops = w & !((w >> 1) | (after << 63));
            while starts != 0 {
                self.here.push((base + starts.trailing_zeros(), 0, 0));
                starts &= starts - 1;
            }
            // Runs end in the order they start, so the stops fill the runs in turn.
            while stops != 0 {
                self.here[stop].1 = base + stops.trailing_zeros();
                stop += 1;
                stops &= stops - 1;
            }
        }
    }
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
