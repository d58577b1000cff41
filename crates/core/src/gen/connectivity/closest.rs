//! Closest pairs between components, by exact Chebyshev distance.
//!
//! A two-pass chessboard distance transform (Rosenfeld–Pfaltz; exact for the Chebyshev metric)
//! gives every cell its distance to the nearest cell of the source component in O(cells). Each
//! target's nearest cell is picked as the backward pass finishes each row, and the source cell is
//! then found on the square ring of that radius around it. Ties are broken so that the pair is
//! the smallest by (distance, target cell in row-major order, source cell in row-major order).
//!
//! The backward pass needs the forward pass's rows bottom to top. Rather than keep all of them
//! (two bytes a cell), the forward pass keeps one row in every block of about √height rows, and
//! the backward pass recomputes each block's rows from the kept row above it: the forward pass
//! runs twice, in memory of about 2·√height rows.

use super::components::{Components, NO_COMPONENT};
use super::FloodError;
use crate::map::{Point, MAX_SIDE};

/// Distances are 16-bit and saturate here. No Chebyshev distance on a map exceeds
/// `MAX_SIDE - 1`, which fits, so every computed distance is exact, and a cell not reached yet
/// (`FAR`) is never nearer than a true distance. Half the memory traffic of 32 bits.
const FAR: u16 = u16::MAX;
const _: () = assert!(MAX_SIDE - 1 <= FAR as i64);

/// The closest pair of cells between a source component and a target component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClosestPair {
    /// The cell of the source component.
    pub from: Point,
    /// The cell of the target component.
    pub to: Point,
    /// Chebyshev (king-move) distance between `from` and `to`.
    pub distance: u32,
    /// Index of the target component.
    pub target: usize,
}

/// Reusable distance buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct DistanceField {
    /// The forward pass's last row of every block.
    kept: Vec<u16>,
    /// The forward pass's rows of the block the backward pass is in.
    block: Vec<u16>,
    /// Labels of one row.
    labels: Vec<u32>,
    /// The final distances of the row below the one being finished.
    below: Vec<u16>,
    /// The final distances of the row being finished.
    current: Vec<u16>,
}

/// Checks that `index` names a component.
fn check_component(comps: &Components, index: usize) -> Result<u32, FloodError> {
    if index < comps.len() {
        Ok(index as u32)
    } else {
        Err(FloodError::NoComponent {
            index,
            count: comps.len(),
        })
    }
}

impl DistanceField {
    /// The closest pair from component `from` to component `to`.
    pub(crate) fn between(
        &mut self,
        comps: &Components,
        from: usize,
        to: usize,
    ) -> Result<ClosestPair, FloodError> {
        let source = check_component(comps, from)?;
        let target = check_component(comps, to)?;
        let mut best = (FAR, usize::MAX);
        self.compute(comps, source, |start, labels, dists| {
            for (x, (&label, &d)) in labels.iter().zip(dists).enumerate() {
                if label == target {
                    best = best.min((d, start + x));
                }
            }
        });
        Ok(pair(comps, source, target, best))
    }

    /// The closest pair from component `from` to every other component, in component order.
    pub(crate) fn each_target(
        &mut self,
        comps: &Components,
        from: usize,
    ) -> Result<Vec<ClosestPair>, FloodError> {
        let source = check_component(comps, from)?;
        Ok(self.nearest_to_each(comps, source))
    }

    /// [`DistanceField::each_target`] for a `source` already known to be a component.
    pub(crate) fn nearest_to_each(&mut self, comps: &Components, source: u32) -> Vec<ClosestPair> {
        let mut best = vec![(FAR, usize::MAX); comps.len()];
        let is_target = |label: u32| label != source && label != NO_COMPONENT;
        self.compute(comps, source, |start, labels, dists| {
            // Most cells are the source's or solid: skip such stretches 16 cells at a time.
            for (chunk, (labels, dists)) in labels.chunks(16).zip(dists.chunks(16)).enumerate() {
                if !labels.iter().fold(false, |any, &l| any | is_target(l)) {
                    continue;
                }
                for (x, (&label, &d)) in labels.iter().zip(dists).enumerate() {
                    if is_target(label) {
                        let b = &mut best[label as usize];
                        *b = (*b).min((d, start + chunk * 16 + x));
                    }
                }
            }
        });
        best.iter()
            .enumerate()
            .filter(|&(k, _)| k != source as usize)
            .map(|(k, &b)| pair(comps, source, k as u32, b))
            .collect()
    }

    /// Chebyshev distance from every cell to the nearest cell labelled `source`. Each row is
    /// handed to `visit(index of its first cell, its labels, its distances)` as soon as its
    /// distances are final, bottom row first.
    fn compute(
        &mut self,
        comps: &Components,
        source: u32,
        mut visit: impl FnMut(usize, &[u32], &[u16]),
    ) {
        let (width, height) = (comps.width(), comps.height());
        if width == 0 || height == 0 {
            return;
        }
        let rows = block_rows(height);
        self.labels.resize(width, NO_COMPONENT);
        // Forward pass, keeping the last row of every block.
        self.block.resize(rows * width, FAR);
        self.kept.clear();
        for start in (0..height).step_by(rows) {
            let end = (start + rows).min(height);
            self.forward_block(comps, source, start, end);
            let last = (end - start - 1) * width;
            self.kept.extend_from_slice(&self.block[last..last + width]);
        }
        // Backward pass, block by block from the bottom, each block's forward rows recomputed.
        let blocks = height.div_ceil(rows);
        for b in (0..blocks).rev() {
            let (start, end) = (b * rows, ((b + 1) * rows).min(height));
            self.forward_block(comps, source, start, end);
            for y in (start..end).rev() {
                let i = (y - start) * width;
                self.current.clear();
                self.current.extend_from_slice(&self.block[i..i + width]);
                if y + 1 < height {
                    relax_from_row(&mut self.current, &self.below);
                }
                sweep(self.current.iter_mut().rev());
                comps.label_row(y, &mut self.labels);
                visit(y * width, &self.labels, &self.current);
                std::mem::swap(&mut self.current, &mut self.below);
            }
        }
    }

    /// The forward pass (up-left, up, up-right, then left) over rows `start..end` into
    /// `self.block`, starting from the kept last row of the block above.
    fn forward_block(&mut self, comps: &Components, source: u32, start: usize, end: usize) {
        let width = comps.width();
        let rows = block_rows(comps.height());
        for y in start..end {
            comps.label_row(y, &mut self.labels);
            let i = (y - start) * width;
            let (done, rest) = self.block.split_at_mut(i);
            let row = &mut rest[..width];
            for (d, &l) in row.iter_mut().zip(&self.labels) {
                *d = if l == source { 0 } else { FAR };
            }
            if y > start {
                relax_from_row(row, &done[i - width..]);
            } else if y > 0 {
                let above = (y / rows - 1) * width;
                relax_from_row(row, &self.kept[above..above + width]);
            }
            sweep(row.iter_mut());
        }
    }
}

/// Rows per block of the forward pass: about √height, so kept rows and one block's rows are
/// each about √height rows.
fn block_rows(height: usize) -> usize {
    (height as f64).sqrt().ceil().max(1.0) as usize
}

/// The pair ending at the target cell `best = (distance, cell index)`.
fn pair(comps: &Components, source: u32, target: u32, best: (u16, usize)) -> ClosestPair {
    let (distance, at) = (u32::from(best.0), best.1);
    let to = Point::new((at % comps.width()) as i32, (at / comps.width()) as i32);
    ClosestPair {
        from: first_on_ring(comps, source, to, distance as i32),
        to,
        distance,
        target: target as usize,
    }
}

/// Lowers each cell to one more than the cell before it, in iteration order (a register
/// carries the running value, so there is no store-to-load dependency).
fn sweep<'a>(cells: impl Iterator<Item = &'a mut u16>) {
    let mut prev = FAR;
    for d in cells {
        prev = (*d).min(prev.saturating_add(1));
        *d = prev;
    }
}

/// Lowers each cell of `row` to one more than the smallest of its three neighbours in `other`
/// (the row above or below; both have the same length).
fn relax_from_row(row: &mut [u16], other: &[u16]) {
    let width = row.len();
    if width == 1 {
        row[0] = row[0].min(other[0].saturating_add(1));
        return;
    }
    row[0] = row[0].min(other[0].min(other[1]).saturating_add(1));
    let last = other[width - 2].min(other[width - 1]);
    row[width - 1] = row[width - 1].min(last.saturating_add(1));
    let inner = row[1..width - 1].iter_mut();
    let neighbours = other.iter().zip(&other[1..]).zip(&other[2..]);
    for (d, ((&left, &mid), &right)) in inner.zip(neighbours) {
        *d = (*d).min(left.min(mid).min(right).saturating_add(1));
    }
}

/// The first cell in row-major order labelled `source` at Chebyshev distance exactly `radius`
/// from `centre`. The distance transform guarantees there is one.
fn first_on_ring(comps: &Components, source: u32, centre: Point, radius: i32) -> Point {
    let (w, h) = (comps.width() as i32, comps.height() as i32);
    let is_source =
        |x: i32, y: i32| (0..w).contains(&x) && comps.at(x as u32, y as usize) == Some(source);
    for y in (centre.y - radius).max(0)..=(centre.y + radius).min(h - 1) {
        let edge_row = (y - centre.y).abs() == radius;
        let found = if edge_row {
            ((centre.x - radius).max(0)..=(centre.x + radius).min(w - 1)).find(|&x| is_source(x, y))
        } else {
            [centre.x - radius, centre.x + radius]
                .into_iter()
                .find(|&x| is_source(x, y))
        };
        if let Some(x) = found {
            return Point::new(x, y);
        }
    }
    unreachable!("the distance transform put a source cell {radius} away from {centre:?}")
}
