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
struct SidePlan {
    eligible: Vec<bool>,
    /// `prefix[i]`: most gates among positions `0..i`.
    prefix: Vec<usize>,
    /// `suffix[i]`: most gates among positions `i..`.
    suffix: Vec<usize>,
}

/// The closest two gates on one side may be.
const GATE_SPACING: usize = 3;

impl SidePlan {
    fn new(eligible: impl Iterator<Item = bool>) -> Self {
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
    fn capacity(&self) -> usize {
        self.prefix[self.eligible.len()]
    }

    /// Positions where a gate may go now.
    fn eligible(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.eligible.len()).filter(|&i| self.eligible[i])
    }

    /// Most gates this side holds once a gate stands at `i` (that gate included).
    fn after(&self, i: usize) -> usize {
        let n = self.eligible.len();
        let left = self.prefix[(i + 1).saturating_sub(GATE_SPACING)];
        let right = self.suffix[(i + GATE_SPACING).min(n)];
        left + 1 + right
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::meter::Unmetered;
    use crate::gen::town::{CellStatus, TownParams};

    fn town(f: impl FnOnce(&mut TownParams)) -> Town {
        let mut p = TownParams::default();
        f(&mut p);
        Town::new(&p, &mut Unmetered).unwrap()
    }

    #[test]
    fn side_plans_count_gates_three_apart() {
        let plan = SidePlan::new([true; 7].into_iter());
        assert_eq!(plan.capacity(), 3);
        assert_eq!(plan.after(0), 3);
        assert_eq!(
            plan.after(1),
            2,
            "a gate at 1 leaves room only for one of 4..=6"
        );
        assert_eq!(plan.after(2), 2);
        assert_eq!(plan.after(3), 3);
        assert_eq!(plan.after(6), 3);
        let gappy = SidePlan::new([true, false, true, true, false, false, true].into_iter());
        assert_eq!(gappy.capacity(), 3);
        assert_eq!(gappy.after(2), 2);
    }

    #[test]
    fn unused_cells_sit_inside_isolated_blocks_with_walls_at_their_centres() {
        for seed in 0..40 {
            let mut t = town(|p| {
                p.height = 43;
                p.width = 71;
                p.unused = TownParams::max_unused(43, 71);
            });
            let placed = t.make_unused(&mut Rng::new(seed), &mut Unmetered).unwrap();
            assert_eq!(t.count(CellStatus::Unused), 4 + placed);
            let unused: Vec<usize> = t
                .lists()
                .cells(UNUSED)
                .unwrap()
                .iter()
                .map(|&c| c as usize)
                .collect();
            for &a in &unused {
                assert_eq!(t.chars()[t.grid.centre_index(a)], WALL);
                for &b in &unused {
                    let ((ra, ca), (rb, cb)) = (t.grid.row_col(a), t.grid.row_col(b));
                    let apart = ra.abs_diff(rb).max(ca.abs_diff(cb));
                    assert!(
                        a == b
                            || apart >= 4
                            || t.grid.corners().contains(&a)
                            || t.grid.corners().contains(&b)
                    );
                }
            }
            assert_eq!(placed as i64, t.params().unused, "seed {seed}");
        }
    }

    #[test]
    fn gates_are_always_all_placed_even_at_the_limit() {
        for (h, w) in [(23, 77), (11, 11), (13, 13), (29, 41), (101, 39)] {
            let max = TownParams::max_gates(h, w);
            for seed in 0..60 {
                let mut t = town(|p| {
                    p.height = h;
                    p.width = w;
                    p.gates = max;
                    p.leftgates = 0;
                    p.courts = 1;
                });
                assert_eq!(
                    t.make_gates(&mut Rng::new(seed), &mut Unmetered).unwrap() as i64,
                    max,
                    "{h}×{w} seed {seed}"
                );
                assert_eq!(t.count(CellStatus::Street) as i64, max);
                assert_eq!(t.distinct_streets() as i64, max);
                for &cell in t.lists().cells(super::super::STREET).unwrap() {
                    let cell = cell as usize;
                    assert!(!t.grid.is_interior(cell), "gates are on the border");
                    let inward = t.heading[cell].unwrap();
                    assert!(
                        t.grid.neighbour(cell, inward).is_some(),
                        "gates head inward"
                    );
                }
            }
        }
    }

    #[test]
    fn gates_spread_over_every_border_position() {
        let mut hits = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let mut t = town(|p| {
                p.height = 19;
                p.width = 19;
                p.gates = 1;
                p.leftgates = 1;
            });
            t.make_gates(&mut Rng::new(seed), &mut Unmetered).unwrap();
            hits.insert(t.lists().cells(super::super::STREET).unwrap()[0]);
        }
        // 9 × 9 cells: positions 2..=6 on each of four sides.
        assert_eq!(hits.len(), 20, "{hits:?}");
    }

    #[test]
    fn courts_are_interior_and_spaced() {
        for seed in 0..40 {
            let mut t = town(|p| {
                p.gates = 0;
                p.leftgates = 0;
                p.courts = 36;
            });
            let placed = t.make_courts(&mut Rng::new(seed), &mut Unmetered).unwrap();
            assert_eq!(placed, 36, "seed {seed}");
            let streets: Vec<usize> = t
                .lists()
                .cells(super::super::STREET)
                .unwrap()
                .iter()
                .map(|&c| c as usize)
                .collect();
            assert_eq!(streets.len(), placed);
            for &a in &streets {
                assert!(t.grid.is_interior(a));
                assert!(t.heading[a].is_some());
                for &b in &streets {
                    let ((ra, ca), (rb, cb)) = (t.grid.row_col(a), t.grid.row_col(b));
                    assert!(a == b || ra.abs_diff(rb) + ca.abs_diff(cb) >= 3);
                }
            }
        }
    }
}
