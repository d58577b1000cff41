//! The overlapping model's patterns: every `N × N` window of a sample (wrapping round its edges
//! when the sample tiles), optionally rotated and mirrored, counted, and for each pattern and
//! each of the four directions the patterns that may stand one cell away (they agree on every
//! cell they share).

use super::{Sample, Symmetry};
use std::collections::HashMap;

/// The four directions a neighbouring position lies in: west, south, east, north.
pub(crate) const DIRS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// The direction opposite `d`.
#[inline]
pub fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// A sample's patterns and how they fit together.
#[derive(Clone, Debug)]
pub struct Patterns {
    /// The side of a pattern.
    pub n: usize,
    /// The sample's name, for messages.
    pub(crate) sample: String,
    /// Each pattern's cells, row by row, as indices into the sample's palette.
    pub(crate) cells: Vec<Vec<u8>>,
    /// How often each pattern occurs in the sample (with its symmetries).
    pub weights: Vec<f64>,
    /// `fits[d][p]`: the patterns that may stand in direction `d` of pattern `p`.
    pub fits: [Vec<Vec<u32>>; 4],
}

impl Patterns {
    /// The patterns of `sample` with side `n`, under `symmetry`. `n` must be at most the
    /// sample's sides (the caller checks).
    pub fn extract(sample: &Sample, n: usize, symmetry: Symmetry) -> Patterns {
        let (w, h) = (sample.width, sample.height);
        let (xs, ys) = if sample.periodic {
            (w, h)
        } else {
            (w + 1 - n, h + 1 - n)
        };
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut cells: Vec<Vec<u8>> = Vec::new();
        let mut weights: Vec<f64> = Vec::new();
        for y in 0..ys {
            for x in 0..xs {
                let window: Vec<u8> = (0..n * n)
                    .map(|k| sample.cells[(x + k % n) % w + ((y + k / n) % h) * w])
                    .collect();
                for variant in variants(window, n, symmetry) {
                    let next = cells.len();
                    let i = *index.entry(variant.clone()).or_insert(next);
                    if i == next {
                        cells.push(variant);
                        weights.push(0.0);
                    }
                    weights[i] += 1.0;
                }
            }
        }
        let fits = std::array::from_fn(|d| {
            let (dx, dy) = DIRS[d];
            cells
                .iter()
                .map(|p| {
                    (0..cells.len() as u32)
                        .filter(|&q| agree(p, &cells[q as usize], n, dx, dy))
                        .collect()
                })
                .collect()
        });
        Patterns {
            n,
            sample: sample.name.clone(),
            cells,
            weights,
            fits,
        }
    }

    /// How many distinct patterns there are.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are none (never, for a valid sample).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The bytes the patterns hold: their cells, weights and fitting lists.
    pub(crate) fn bytes(&self) -> usize {
        let fits: usize = self.fits.iter().flatten().map(|l| l.len() * 4 + 24).sum();
        self.len() * (self.n * self.n + 24 + 8) + fits
    }

    /// Whether `window` (row by row, palette indices, `n × n`) is one of the patterns.
    pub fn contains(&self, window: &[u8]) -> bool {
        self.cells.iter().any(|p| p == window)
    }
}

/// The window and its symmetric copies under `symmetry` (duplicates are counted again, as each
/// is a way the window occurs).
pub fn variants(window: Vec<u8>, n: usize, symmetry: Symmetry) -> Vec<Vec<u8>> {
    let mut out = vec![window];
    if symmetry.rotate {
        for _ in 0..3 {
            let last = &out[out.len() - 1];
            out.push(rotate(last, n));
        }
    }
    if symmetry.reflect {
        let mirrored: Vec<Vec<u8>> = out.iter().map(|p| reflect(p, n)).collect();
        out.extend(mirrored);
    }
    out
}

/// A quarter turn clockwise.
pub fn rotate(p: &[u8], n: usize) -> Vec<u8> {
    (0..n * n)
        .map(|k| {
            let (x, y) = (k % n, k / n);
            p[y + (n - 1 - x) * n]
        })
        .collect()
}

/// Mirrored left to right.
pub fn reflect(p: &[u8], n: usize) -> Vec<u8> {
    (0..n * n)
        .map(|k| {
            let (x, y) = (k % n, k / n);
            p[(n - 1 - x) + y * n]
        })
        .collect()
}

/// Whether `q`, shifted by `(dx, dy)` from `p`, agrees with `p` on every cell they share.
fn agree(p: &[u8], q: &[u8], n: usize, dx: i32, dy: i32) -> bool {
    let n = n as i32;
    let (x0, x1) = (dx.max(0), (n + dx).min(n));
    let (y0, y1) = (dy.max(0), (n + dy).min(n));
    (y0..y1)
        .all(|y| (x0..x1).all(|x| p[(x + y * n) as usize] == q[(x - dx + (y - dy) * n) as usize]))
}
