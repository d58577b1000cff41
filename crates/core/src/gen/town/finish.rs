//! Finishing (steps 7–9): one door per room, surplus gates walled up, lone pillars removed.

use super::grid::{Heading, BLANK, HDOOR, VDOOR, WALL};
use super::{Town, DEAD};
use crate::gen::meter::{Meter, Stopped};
use crate::rng::Rng;

impl Town {
    /// Step 7 (`closedoors`): every room (DEAD cell) with more than one door keeps one, chosen
    /// at random; the others become walls.
    pub fn close_doors(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<(), Stopped> {
        meter.work(5 * self.lists.size(DEAD) as u64)?;
        let grid = self.grid;
        for &cell in self.lists.list(DEAD) {
            let mut doors = [0usize; 4];
            let mut count = 0;
            for h in Heading::ALL {
                let wall = grid.wall_index(cell as usize, h);
                if matches!(self.chars[wall], HDOOR | VDOOR) {
                    doors[count] = wall;
                    count += 1;
                }
            }
            if count > 1 {
                let keep = rng.below(count as u64) as usize;
                for (i, &wall) in doors[..count].iter().enumerate() {
                    if i != keep {
                        self.chars[wall] = WALL;
                    }
                }
            }
        }
        Ok(())
    }

    /// The display indices of the open gates (doors in the town wall), clockwise from the
    /// top-left corner.
    pub fn gate_indices(&self) -> Vec<usize> {
        let (w, h) = (self.grid.width(), self.grid.height());
        let top = (1..w).step_by(2);
        let right = (1..h).step_by(2).map(|y| y * w + w - 1);
        let bottom = (1..w).step_by(2).rev().map(|x| (h - 1) * w + x);
        let left = (1..h).step_by(2).rev().map(|y| y * w);
        top.chain(right)
            .chain(bottom)
            .chain(left)
            .filter(|&i| matches!(self.chars[i], HDOOR | VDOOR))
            .collect()
    }

    /// Step 8 (`closegates`): walls up gates chosen at random until only `leftgates` are open.
    /// Returns how many were closed.
    pub fn close_gates(&mut self, rng: &mut Rng, meter: &mut dyn Meter) -> Result<usize, Stopped> {
        meter.work(2 * (self.grid.width() + self.grid.height()) as u64)?;
        let mut gates = self.gate_indices();
        let keep = self.params.leftgates.max(0) as usize;
        let mut closed = 0;
        while gates.len() > keep {
            let i = rng.below(gates.len() as u64) as usize;
            self.chars[gates.swap_remove(i)] = WALL;
            closed += 1;
        }
        Ok(closed)
    }

    /// Step 9 (`cleanupmap`): every wall junction inside the town whose four arms are all open
    /// is a lone pillar and becomes open too. Returns how many were removed.
    pub fn cleanup_map(&mut self, meter: &mut dyn Meter) -> Result<usize, Stopped> {
        let (w, h) = (self.grid.width(), self.grid.height());
        meter.work((w * h / 4) as u64)?;
        let mut removed = 0;
        for y in (2..h - 1).step_by(2) {
            for x in (2..w - 1).step_by(2) {
                let i = y * w + x;
                let open = [i - w, i + 1, i + w, i - 1]
                    .iter()
                    .all(|&arm| self.chars[arm] == BLANK);
                if open && self.chars[i] != BLANK {
                    self.chars[i] = BLANK;
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}
