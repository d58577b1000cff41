//! Seeding (steps 4a–4c): UNUSED cells, gates in the town wall, courtyards in the interior.
//!
//! TownMaze rolled at random cells and gave up after MAXTRIES misses, so a crowded town could
//! get fewer seeds than asked. Here every pick is uniform over the cells that currently qualify —
//! the same distribution as the original's rolls, given that they hit — and a pick that misses is
//! dropped for good, which is sound because a cell never qualifies again once it has stopped.

use super::grid::{Heading, WALL};
use super::{Town, ISOLATED, UNUSED};
use crate::gen::meter::{Batched, Meter, Stopped};
use crate::rng::Rng;

/// How far an UNUSED cell's ISOLATED neighbourhood reaches: a 7 × 7 block of 49 cells.
const UNUSED_REACH: usize = 3;

impl Town {
    /// Step 4a (`makeunused`): places up to `unused` UNUSED cells, each the centre of a 7 × 7
    /// block of ISOLATED cells (so UNUSED cells have three rows of cells between them), with a
    /// wall at its centre. Returns how many were placed.
    pub fn make_unused(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<usize, Stopped> {
        let want = self.params.unused.max(0) as usize;
        let (rows, cols) = (self.grid.rows, self.grid.cols);
        if want == 0 || rows <= 2 * UNUSED_REACH || cols <= 2 * UNUSED_REACH {
            return Ok(0);
        }
        let inner = UNUSED_REACH..rows - UNUSED_REACH;
        let mut pool: Vec<u32> = inner
            .flat_map(|r| (UNUSED_REACH..cols - UNUSED_REACH).map(move |c| (r * cols + c) as u32))
            .collect();
        let mut work = Batched::new(meter);
        work.work(pool.len() as u64)?;
        let mut placed = 0;
        while placed < want && !pool.is_empty() {
            let i = rng.below(pool.len() as u64) as usize;
            let cell = pool.swap_remove(i) as usize;
            work.work(((2 * UNUSED_REACH + 1) * (2 * UNUSED_REACH + 1)) as u64)?;
            if self.block_isolated(cell) {
                self.set_status(cell, UNUSED);
                self.chars[self.grid.centre_index(cell)] = WALL;
                placed += 1;
            }
        }
        work.finish()?;
        Ok(placed)
    }

    /// Whether the 7 × 7 block around an inner cell is all ISOLATED.
    fn block_isolated(&self, cell: usize) -> bool {
        let (row, col) = self.grid.row_col(cell);
        let cols = self.grid.cols;
        (row - UNUSED_REACH..=row + UNUSED_REACH).all(|r| {
            (col - UNUSED_REACH..=col + UNUSED_REACH)
                .all(|c| self.lists.of(r * cols + c) == ISOLATED)
        })
    }

    /// Whether a cell and all its existing neighbours are ISOLATED (the spacing rule of gates
    /// and courtyards).
    fn clear_around(&self, cell: usize) -> bool {
        self.lists.of(cell) == ISOLATED
            && self
                .grid
                .neighbours(cell)
                .all(|(_, n)| self.lists.of(n) == ISOLATED)
    }

    /// Step 4b (`makegates`): places `gates` gates — border cells made streets heading inward,
    /// their outer walls doors — each ISOLATED with ISOLATED neighbours when placed. Returns how
    /// many were placed: all of them whenever the town has room.
    pub fn make_gates(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<usize, Stopped> {
        let want = self.params.gates.max(0) as usize;
        let sides = self.sides();
        let border: u64 = sides.iter().map(|(cells, _)| cells.len() as u64).sum();
        let mut work = Batched::new(meter);
        let mut placed = 0;
        while placed < want {
            work.work(2 * border)?;
            let plans: Vec<SidePlan> = sides
                .iter()
                .map(|(cells, _)| SidePlan::new(cells.iter().map(|&c| self.clear_around(c))))
                .collect();
            let room: usize = plans.iter().map(|p| p.capacity()).sum();
            // Never take a spot that leaves too little room for the gates still to come.
            let need = (want - placed).min(room);
            let fits = |s: usize, i: usize| room - plans[s].capacity() + plans[s].after(i) >= need;
            let choices: Vec<(usize, usize)> = plans
                .iter()
                .enumerate()
                .flat_map(|(s, p)| p.eligible().map(move |i| (s, i)))
                .filter(|&(s, i)| fits(s, i))
                .collect();
            if choices.is_empty() {
                break;
            }
            let (s, i) = choices[rng.below(choices.len() as u64) as usize];
            let (cells, inward) = &sides[s];
            self.build_street(rng, cells[i], Some(*inward));
            placed += 1;
        }
        work.finish()?;
        Ok(placed)
    }

    /// The four sides of the town as cell lists, with the heading that points into the town.
    fn sides(&self) -> [(Vec<usize>, Heading); 4] {
        let (rows, cols) = (self.grid.rows, self.grid.cols);
        [
            ((0..cols).collect(), Heading::South),
            (
                (0..rows).map(|r| r * cols + cols - 1).collect(),
                Heading::West,
            ),
            (
                (0..cols).map(|c| (rows - 1) * cols + c).collect(),
                Heading::North,
            ),
            ((0..rows).map(|r| r * cols).collect(), Heading::East),
        ]
    }

    /// Step 4c (`makecourts`): places up to `courts` courtyards — interior street cells, each
    /// ISOLATED with ISOLATED neighbours when placed, heading a random way. Returns how many
    /// were placed.
    pub fn make_courts(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<usize, Stopped> {
        let want = self.params.courts.max(0) as usize;
        if want == 0 {
            return Ok(0);
        }
        let mut work = Batched::new(meter);
        work.work(self.grid.len() as u64)?;
        let mut pool: Vec<u32> = (0..self.grid.len())
            .filter(|&c| self.grid.is_interior(c))
            .map(|c| c as u32)
            .collect();
        let mut placed = 0;
        while placed < want && !pool.is_empty() {
            let i = rng.below(pool.len() as u64) as usize;
            let cell = pool.swap_remove(i) as usize;
            work.work(5)?;
            if self.clear_around(cell) {
                // The doc is silent on a courtyard's heading: a random one lets it grow any way.
                let heading = Heading::ALL[rng.below(4) as usize];
                self.build_street(rng, cell, Some(heading));
                placed += 1;
            }
        }
        work.finish()?;
        Ok(placed)
    }
}

/// Where gates still fit along one side. Gates on a side must be at least three cells apart
/// (a gate's neighbours stop being ISOLATED, so neither they nor their other neighbours qualify),
/// and no other placement affects a side, so the most gates a stretch holds is found greedily.
pub struct SidePlan {
    eligible: Vec<bool>,
    /// `prefix[i]`: most gates among positions `0..i`.
    prefix: Vec<usize>,
    /// `suffix[i]`: most gates among positions `i..`.
    suffix: Vec<usize>,
}

/// The closest two gates on one side may be.
const GATE_SPACING: usize = 3;

impl SidePlan {
    /// The plan for one side, from whether a gate may stand at each position along it.
    pub fn new(eligible: impl Iterator<Item = bool>) -> Self {
        let eligible: Vec<bool> = eligible.collect();
        let n = eligible.len();
        let greedy = |order: &mut dyn Iterator<Item = usize>, out: &mut Vec<usize>| {
            let (mut count, mut last): (usize, Option<usize>) = (0, None);
            out.push(0);
            for i in order {
                if eligible[i] && last.is_none_or(|l| l.abs_diff(i) >= GATE_SPACING) {
                    count += 1;
                    last = Some(i);
                }
                out.push(count);
            }
        };
        let mut prefix = Vec::with_capacity(n + 1);
        greedy(&mut (0..n), &mut prefix);
        let mut suffix = Vec::with_capacity(n + 1);
        greedy(&mut (0..n).rev(), &mut suffix);
        suffix.reverse();
        SidePlan {
            eligible,
            prefix,
            suffix,
        }
    }

    /// Most gates this side holds.
    pub fn capacity(&self) -> usize {
        self.prefix[self.eligible.len()]
    }

    /// Positions where a gate may go now.
    fn eligible(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.eligible.len()).filter(|&i| self.eligible[i])
    }

    /// Most gates this side holds once a gate stands at `i` (that gate included).
    pub fn after(&self, i: usize) -> usize {
        let n = self.eligible.len();
        let left = self.prefix[(i + 1).saturating_sub(GATE_SPACING)];
        let right = self.suffix[(i + GATE_SPACING).min(n)];
        left + 1 + right
    }
}
