//! Closest pairs between components, by exact Chebyshev distance.
//!
//! A two-pass chessboard distance transform (Rosenfeld–Pfaltz; exact for the Chebyshev metric)
//! gives every cell its distance to the nearest cell of the source component in O(cells). The
//! target's cell with the smallest distance is then read off in one scan, and the source cell is
//! found on the square ring of that radius around it. Ties are broken so that the pair is the
//! smallest by (distance, target cell in row-major order, source cell in row-major order).

use super::components::{Components, NO_COMPONENT};
use super::FloodError;
use crate::map::Point;

/// Distance of a cell no source cell has reached yet.
const FAR: u32 = u32::MAX;

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

/// Reusable distance buffer.
#[derive(Clone, Debug, Default)]
pub(crate) struct DistanceField {
    dist: Vec<u32>,
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
        self.compute(comps, source);
        let (mut best, mut best_at) = (FAR, 0);
        for (i, (&label, &d)) in comps.labels().iter().zip(&self.dist).enumerate() {
            if label == target && d < best {
                (best, best_at) = (d, i);
            }
        }
        Ok(self.pair(comps, source, target, best_at, best))
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
        self.compute(comps, source);
        let mut best = vec![(FAR, 0usize); comps.len()];
        for (i, (&label, &d)) in comps.labels().iter().zip(&self.dist).enumerate() {
            if label != NO_COMPONENT && d < best[label as usize].0 {
                best[label as usize] = (d, i);
            }
        }
        best.iter()
            .enumerate()
            .filter(|&(k, _)| k != source as usize)
            .map(|(k, &(d, at))| self.pair(comps, source, k as u32, at, d))
            .collect()
    }

    /// Chebyshev distance from every cell to the nearest cell labelled `source`.
    fn compute(&mut self, comps: &Components, source: u32) {
        let width = comps.width();
        self.dist.clear();
        self.dist.extend(
            comps
                .labels()
                .iter()
                .map(|&l| if l == source { 0 } else { FAR }),
        );
        // Forward pass: up-left, up, up-right, then left.
        for y in 0..comps.height() {
            let (done, rest) = self.dist.split_at_mut(y * width);
            let row = &mut rest[..width];
            if y > 0 {
                relax_from_row(row, &done[(y - 1) * width..]);
            }
            for x in 1..width {
                row[x] = row[x].min(row[x - 1].saturating_add(1));
            }
        }
        // Backward pass: down-left, down, down-right, then right.
        for y in (0..comps.height()).rev() {
            let (rest, done) = self.dist.split_at_mut((y + 1) * width);
            let row = &mut rest[y * width..];
            if !done.is_empty() {
                relax_from_row(row, &done[..width]);
            }
            for x in (0..width - 1).rev() {
                row[x] = row[x].min(row[x + 1].saturating_add(1));
            }
        }
    }

    /// The pair ending at target cell index `at`, `distance` away from the source.
    fn pair(
        &self,
        comps: &Components,
        source: u32,
        target: u32,
        at: usize,
        distance: u32,
    ) -> ClosestPair {
        let to = Point::new((at % comps.width()) as i32, (at / comps.width()) as i32);
        ClosestPair {
            from: first_on_ring(comps, source, to, distance as i32),
            to,
            distance,
            target: target as usize,
        }
    }
}

/// Lowers each cell of `row` to one more than the smallest of its three neighbours in `other`
/// (the row above or below).
fn relax_from_row(row: &mut [u32], other: &[u32]) {
    let width = row.len();
    for x in 0..width {
        let left = other[x.saturating_sub(1)];
        let right = other[(x + 1).min(width - 1)];
        let near = left.min(other[x]).min(right);
        row[x] = row[x].min(near.saturating_add(1));
    }
}

/// The first cell in row-major order labelled `source` at Chebyshev distance exactly `radius`
/// from `centre`. The distance transform guarantees there is one.
fn first_on_ring(comps: &Components, source: u32, centre: Point, radius: i32) -> Point {
    let (w, h) = (comps.width() as i32, comps.height() as i32);
    let is_source =
        |x: i32, y: i32| (0..w).contains(&x) && comps.labels()[(x + y * w) as usize] == source;
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
