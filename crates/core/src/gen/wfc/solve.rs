//! The wave: for every position of a pattern in the output, which patterns it may still hold.
//! An attempt repeatedly collapses the undecided position of least entropy to one pattern
//! (drawn by weight) and propagates: a pattern is banned from a position once some neighbour
//! holds no pattern it fits beside. Counting the supports of each pattern in each direction
//! (as Gumin's reference implementation does) makes a ban cost only the patterns it could
//! unsupport.

use super::patterns::{opposite, Patterns, DIRS};
use crate::gen::meter::{Batched, Stopped};
use crate::rng::Rng;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// How an attempt ended.
pub(crate) enum Outcome {
    /// Every position holds one pattern: the chosen pattern per position.
    Done(Vec<u32>),
    /// Some position lost every pattern.
    Contradiction,
}

/// An undecided position in the queue of the next to collapse: least entropy first, then the
/// position's random tie-breaker.
#[derive(PartialEq)]
struct Candidate {
    entropy: f64,
    noise: u32,
    position: u32,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: the heap pops its greatest, and the least entropy goes first.
        other
            .entropy
            .total_cmp(&self.entropy)
            .then(other.noise.cmp(&self.noise))
            .then(other.position.cmp(&self.position))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One attempt's state over a `width × height` grid of pattern positions.
pub(crate) struct Wave<'p> {
    patterns: &'p Patterns,
    width: usize,
    height: usize,
    /// `possible[i × P + p]`: position `i` may still hold pattern `p`.
    possible: Vec<bool>,
    /// `support[(i × P + p) × 4 + d]`: how many patterns the neighbour in direction `d` may
    /// still hold that pattern `p` fits beside; 0 once `p` is banned from `i`.
    support: Vec<u16>,
    /// Patterns left per position, and the sums entropy is computed from.
    left: Vec<u32>,
    sum_weights: Vec<f64>,
    sum_weight_logs: Vec<f64>,
    entropy: Vec<f64>,
    /// Bans not yet propagated.
    banned: Vec<(u32, u32)>,
    /// Positions whose entropy changed since they were last queued.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// Each pattern's weight × its logarithm.
    weight_logs: Vec<f64>,
    /// The cost of banning each pattern: the supports it may take away, plus one.
    ban_work: Vec<u64>,
}

/// The bytes a wave over `positions` positions of `patterns` patterns holds.
pub(crate) fn bytes_for(positions: usize, patterns: usize) -> usize {
    positions * patterns * (1 + 4 * 2) + positions * (4 + 3 * 8 + 1 + 4)
}

impl<'p> Wave<'p> {
    /// A wave where every position may hold every pattern.
    pub(crate) fn new(patterns: &'p Patterns, width: usize, height: usize) -> Wave<'p> {
        let count = patterns.len();
        let positions = width * height;
        let weight_logs: Vec<f64> = patterns.weights.iter().map(|w| w * w.ln()).collect();
        let total: f64 = patterns.weights.iter().sum();
        let total_logs: f64 = weight_logs.iter().sum();
        let mut full = Vec::with_capacity(count * 4);
        for p in 0..count {
            for d in 0..4 {
                // Every pattern that fits beside `p` in direction `d` supports it from there.
                full.push(patterns.fits[d][p].len() as u16);
            }
        }
        let ban_work = (0..count)
            .map(|p| {
                1 + (0..4)
                    .map(|d| patterns.fits[d][p].len() as u64)
                    .sum::<u64>()
            })
            .collect();
        Wave {
            patterns,
            width,
            height,
            possible: vec![true; positions * count],
            support: full.repeat(positions),
            left: vec![count as u32; positions],
            sum_weights: vec![total; positions],
            sum_weight_logs: vec![total_logs; positions],
            entropy: vec![total.ln() - total_logs / total; positions],
            banned: Vec::new(),
            touched: Vec::new(),
            is_touched: vec![false; positions],
            weight_logs,
            ban_work,
        }
    }

    /// Runs the attempt to its end, drawing from `rng` and charging `meter`.
    pub(crate) fn run(
        mut self,
        rng: &mut Rng,
        meter: &mut Batched<'_>,
    ) -> Result<Outcome, Stopped> {
        let positions = self.width * self.height;
        let noise: Vec<u32> = (0..positions).map(|_| rng.next_u64() as u32).collect();
        if !self.ban_the_unsupported(meter)? {
            return Ok(Outcome::Contradiction);
        }
        self.touched.clear();
        self.is_touched.fill(false);
        let mut queue: BinaryHeap<Candidate> = (0..positions)
            .filter(|&i| self.left[i] > 1)
            .map(|i| Candidate {
                entropy: self.entropy[i],
                noise: noise[i],
                position: i as u32,
            })
            .collect();
        meter.work(positions as u64)?;
        while let Some(c) = queue.pop() {
            let i = c.position as usize;
            if self.left[i] <= 1 || c.entropy != self.entropy[i] {
                // Decided since, or queued again with its new entropy.
                continue;
            }
            meter.work(self.patterns.len() as u64)?;
            self.collapse(i, rng);
            if !self.propagate(meter)? {
                return Ok(Outcome::Contradiction);
            }
            for t in std::mem::take(&mut self.touched) {
                let t = t as usize;
                self.is_touched[t] = false;
                if self.left[t] > 1 {
                    queue.push(Candidate {
                        entropy: self.entropy[t],
                        noise: noise[t],
                        position: t as u32,
                    });
                }
            }
        }
        let count = self.patterns.len();
        Ok(Outcome::Done(
            (0..positions)
                .map(|i| {
                    let row = &self.possible[i * count..(i + 1) * count];
                    row.iter().position(|&b| b).unwrap_or(0) as u32
                })
                .collect(),
        ))
    }

    /// Bans every pattern that nothing fits beside in a direction where its position has a
    /// neighbour, and propagates; `false` on a contradiction.
    fn ban_the_unsupported(&mut self, meter: &mut Batched<'_>) -> Result<bool, Stopped> {
        let count = self.patterns.len();
        let (w, h) = (self.width as i32, self.height as i32);
        meter.work((self.width * self.height * count) as u64)?;
        for i in 0..self.width * self.height {
            let (x, y) = ((i % self.width) as i32, (i / self.width) as i32);
            for p in 0..count {
                let lonely = DIRS.iter().enumerate().any(|(d, &(dx, dy))| {
                    let (nx, ny) = (x + dx, y + dy);
                    nx >= 0 && ny >= 0 && nx < w && ny < h && self.patterns.fits[d][p].is_empty()
                });
                if lonely && self.possible[i * count + p] {
                    self.ban(i, p);
                }
            }
        }
        self.propagate(meter)
    }

    /// Collapses position `i` to one of its patterns, drawn by weight.
    fn collapse(&mut self, i: usize, rng: &mut Rng) {
        let count = self.patterns.len();
        let possible = &self.possible[i * count..(i + 1) * count];
        let mut roll = rng.float() * self.sum_weights[i];
        let mut chosen = None;
        for (p, &w) in self.patterns.weights.iter().enumerate() {
            if possible[p] {
                chosen = Some(p);
                if roll < w {
                    break;
                }
                roll -= w;
            }
        }
        let chosen = chosen.unwrap_or(0);
        for p in 0..count {
            if p != chosen && self.possible[i * count + p] {
                self.ban(i, p);
            }
        }
    }

    /// Removes pattern `p` from position `i`.
    fn ban(&mut self, i: usize, p: usize) {
        let count = self.patterns.len();
        let k = i * count + p;
        self.possible[k] = false;
        self.support[k * 4..k * 4 + 4].fill(0);
        self.banned.push((i as u32, p as u32));
        self.left[i] -= 1;
        self.sum_weights[i] -= self.patterns.weights[p];
        self.sum_weight_logs[i] -= self.weight_logs[p];
        let s = self.sum_weights[i];
        self.entropy[i] = s.ln() - self.sum_weight_logs[i] / s;
        if !self.is_touched[i] {
            self.is_touched[i] = true;
            self.touched.push(i as u32);
        }
    }

    /// Carries every ban to the neighbours; `false` on a contradiction.
    fn propagate(&mut self, meter: &mut Batched<'_>) -> Result<bool, Stopped> {
        let count = self.patterns.len();
        let patterns = self.patterns;
        let (w, h) = (self.width as i32, self.height as i32);
        while let Some((i, p)) = self.banned.pop() {
            let (i, p) = (i as usize, p as usize);
            if self.left[i] == 0 {
                return Ok(false);
            }
            meter.work(self.ban_work[p])?;
            let (x, y) = ((i % self.width) as i32, (i / self.width) as i32);
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (nx + ny * w) as usize;
                // The neighbour's patterns that `p` supported lose a support from the side
                // facing `i`.
                let from = opposite(d);
                for &q in &patterns.fits[d][p] {
                    let k = (j * count + q as usize) * 4 + from;
                    let s = self.support[k];
                    if s == 0 {
                        continue;
                    }
                    self.support[k] = s - 1;
                    if s == 1 {
                        self.ban(j, q as usize);
                        if self.left[j] == 0 {
                            return Ok(false);
                        }
                    }
                }
            }
        }
        Ok(true)
    }
}
