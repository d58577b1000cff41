//! Noise fields: white noise (an independent draw per cell, what `mapgen`'s noise filter makes),
//! value noise and Perlin gradient noise, each summed over octaves (fractal Brownian motion).
//! Values lie in `0..=1`.
//!
//! Hand-written rather than taken from the `noise` or `fastnoise-lite` crates: warren's
//! determinism contract needs every table drawn from the run's own [`Rng`] stream (those crates
//! seed with a `u32` of their own and may change their tables between releases), and a lattice
//! noise is a few dozen lines that add no dependency to the lean core. Only `+ - × ÷` and
//! `floor` touch the floats, so every machine computes the same bits.

use super::Field;
use crate::gen::area::Area;
use crate::gen::meter::{Batched, Meter};
use crate::gen::tool_error::ToolError;
use crate::rng::Rng;

/// Which noise to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseKind {
    /// An independent uniform draw in `0..1` per cell (no octaves, no frequency).
    White,
    /// Random values on a lattice, smoothly interpolated between lattice points.
    Value,
    /// Ken Perlin's gradient noise (the improved version's fade curve and eight gradients).
    Perlin,
}

impl NoiseKind {
    /// Every kind's name, as recipes spell it.
    pub const NAMES: [&'static str; 3] = ["white", "value", "perlin"];

    /// The kind named `name` (one of [`NoiseKind::NAMES`]).
    pub fn from_name(name: &str) -> Option<NoiseKind> {
        Some(match name {
            "white" => NoiseKind::White,
            "value" => NoiseKind::Value,
            "perlin" => NoiseKind::Perlin,
            _ => return None,
        })
    }
}

/// How a noise field is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoiseOptions {
    /// Which noise.
    pub kind: NoiseKind,
    /// Lattice cells per map cell for the first octave (`1/16`: features about 16 cells wide).
    /// Ignored by white noise.
    pub frequency: f64,
    /// Octaves summed, `1..=`[`MAX_OCTAVES`]; each has `lacunarity` times the frequency and
    /// `gain` times the amplitude of the one before.
    pub octaves: u32,
    /// Frequency factor from one octave to the next (usually 2).
    pub lacunarity: f64,
    /// Amplitude factor from one octave to the next (usually 0.5).
    pub gain: f64,
}

/// The most octaves a noise sums.
pub const MAX_OCTAVES: u32 = 12;

impl Default for NoiseOptions {
    fn default() -> Self {
        NoiseOptions {
            kind: NoiseKind::Perlin,
            frequency: 1.0 / 16.0,
            octaves: 4,
            lacunarity: 2.0,
            gain: 0.5,
        }
    }
}

impl NoiseOptions {
    /// Checks every option's range.
    pub fn check(&self) -> Result<(), ToolError> {
        let bad = |key, value: f64, range: &str| {
            Err(ToolError::Range {
                what: "noise",
                key,
                value: value.to_string(),
                range: range.to_string(),
            })
        };
        if !(self.frequency.is_finite() && self.frequency > 0.0 && self.frequency <= 1024.0) {
            return bad("frequency", self.frequency, "greater than 0, at most 1024");
        }
        if !(1..=MAX_OCTAVES).contains(&self.octaves) {
            return bad("octaves", self.octaves as f64, "1..=12");
        }
        if !(self.lacunarity.is_finite() && (1.0..=16.0).contains(&self.lacunarity)) {
            return bad("lacunarity", self.lacunarity, "1..=16");
        }
        if !(self.gain.is_finite() && self.gain > 0.0 && self.gain <= 1.0) {
            return bad("gain", self.gain, "greater than 0, at most 1");
        }
        Ok(())
    }
}

/// Lattice points per side before the tables repeat.
const PERIOD: usize = 256;

/// A lattice noise's tables, drawn once from a stream: a permutation of `0..256` (doubled so
/// that a hash of two coordinates needs no wrap), a value per lattice hash, and an offset per
/// octave so that octaves do not line up at the origin.
#[derive(Clone, Debug)]
pub struct Noise {
    kind: NoiseKind,
    perm: [u8; 2 * PERIOD],
    values: [f64; PERIOD],
    /// Each octave's offset, so that octaves do not line up at the origin.
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub offsets: [(f64, f64); MAX_OCTAVES as usize],
}

/// The improved Perlin fade curve `6t⁵ − 15t⁴ + 10t³`: zero first and second derivatives at
/// the lattice points, so the noise is smooth across them.
#[inline]
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

#[inline]
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + t * (b - a)
}

/// Each gradient's parts, by `hash % 8`: the four diagonals, then the four axes.
const GRADIENTS: [(f64, f64); 8] = [
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
];

/// The dot product of gradient `hash % 8` with `(x, y)`. Read from a table, not chosen by a
/// `match`: the hashes are random, so a branch per corner was mispredicted half the time, most
/// of a sample's cost. The products by ±1 and 0 are exact, so each corner's value is the one
/// the `match` gave, but for the sign of a zero, which the sum's `+ 1.0` in [`Noise::perlin`]
/// removes: every sample is the same.
#[inline]
fn gradient(hash: u8, x: f64, y: f64) -> f64 {
    let (gx, gy) = GRADIENTS[usize::from(hash & 7)];
    gx * x + gy * y
}

/// `x.floor()`, inlined for the coordinates noise meets (below 2⁵², where the conversion to an
/// integer is exact): the baseline x86-64 target has no rounding instruction, so `floor` is a
/// call into the C library, twice a sample.
#[inline]
fn floor(x: f64) -> f64 {
    const EXACT: f64 = 4_503_599_627_370_496.0; // 2⁵²
    if x.abs() < EXACT {
        let t = x as i64 as f64;
        t - f64::from(u8::from(t > x))
    } else {
        x.floor()
    }
}

impl Noise {
    /// Tables for `kind`, drawn from `rng`.
    pub fn new(kind: NoiseKind, rng: &mut Rng) -> Noise {
        let mut perm = [0u8; 2 * PERIOD];
        let mut order: Vec<u8> = (0..=255).collect();
        rng.shuffle(&mut order);
        perm[..PERIOD].copy_from_slice(&order);
        perm[PERIOD..].copy_from_slice(&order);
        let mut values = [0.0; PERIOD];
        for v in &mut values {
            *v = rng.float();
        }
        let mut offsets = [(0.0, 0.0); MAX_OCTAVES as usize];
        for o in &mut offsets {
            *o = (rng.float() * PERIOD as f64, rng.float() * PERIOD as f64);
        }
        Noise {
            kind,
            perm,
            values,
            offsets,
        }
    }

    #[inline(always)]
    fn hash(&self, x: usize, y: usize) -> u8 {
        self.perm[self.perm[x] as usize + y]
    }

    /// One octave at `(x, y)` (lattice units), in `0..=1`. White noise has no lattice: it is
    /// [`Noise::value`] at whole coordinates only, so use [`fill`] for it.
    pub fn sample(&self, x: f64, y: f64) -> f64 {
        self.sample_in(&Axis::at(y), x)
    }

    /// Value noise at `(x, y)`, in `0..=1`.
    pub fn value(&self, x: f64, y: f64) -> f64 {
        self.value_in(&Axis::at(y), x)
    }

    /// Value noise at `x` on `row`.
    #[inline]
    fn value_in(&self, row: &Axis, x: f64) -> f64 {
        let col = Axis::at(x);
        let at = |a, b| self.values[self.hash(a, b) as usize];
        lerp(
            lerp(at(col.lo, row.lo), at(col.hi, row.lo), col.faded),
            lerp(at(col.lo, row.hi), at(col.hi, row.hi), col.faded),
            row.faded,
        )
    }

    /// Perlin noise at `(x, y)`, in `0..=1` (the raw noise lies in `-1..=1` for these
    /// gradients; it is moved to `0..=1`).
    pub fn perlin(&self, x: f64, y: f64) -> f64 {
        self.perlin_in(&Axis::at(y), x)
    }

    /// Perlin noise at `x` on `row`.
    #[inline]
    fn perlin_in(&self, row: &Axis, x: f64) -> f64 {
        let col = Axis::at(x);
        let (dx, dy) = (col.offset, row.offset);
        let n = lerp(
            lerp(
                gradient(self.hash(col.lo, row.lo), dx, dy),
                gradient(self.hash(col.hi, row.lo), dx - 1.0, dy),
                col.faded,
            ),
            lerp(
                gradient(self.hash(col.lo, row.hi), dx, dy - 1.0),
                gradient(self.hash(col.hi, row.hi), dx - 1.0, dy - 1.0),
                col.faded,
            ),
            row.faded,
        );
        ((n + 1.0) * 0.5).clamp(0.0, 1.0)
    }

    /// One octave at `x` on `row`, as [`Noise::sample`] gives it.
    #[inline]
    fn sample_in(&self, row: &Axis, x: f64) -> f64 {
        match self.kind {
            NoiseKind::Perlin => self.perlin_in(row, x),
            NoiseKind::Value | NoiseKind::White => self.value_in(row, x),
        }
    }

    /// Fractal Brownian motion at map cell `(x, y)`: the octaves of `options` summed, weighted
    /// by amplitude, divided by the total amplitude (so the result stays in `0..=1`).
    pub fn fbm(&self, x: f64, y: f64, options: &NoiseOptions) -> f64 {
        let (mut freq, mut amp, mut sum, mut total) = (options.frequency, 1.0, 0.0, 0.0);
        for &(ox, oy) in &self.offsets[..options.octaves as usize] {
            sum += amp * self.sample(x * freq + ox, y * freq + oy);
            total += amp;
            freq *= options.lacunarity;
            amp *= options.gain;
        }
        sum / total
    }
}

/// Where a coordinate falls on the lattice, along one axis: the lattice lines below and above
/// it, its offset past the one below, and that offset's fade. A row's samples share their
/// `y`'s.
struct Axis {
    lo: usize,
    hi: usize,
    offset: f64,
    faded: f64,
}

impl Axis {
    /// The axis position of coordinate `t` (lattice units).
    #[inline]
    fn at(t: f64) -> Axis {
        let floor_t = floor(t);
        let lo = floor_t as i64 as usize % PERIOD;
        let offset = t - floor_t;
        Axis {
            lo,
            hi: (lo + 1) % PERIOD,
            offset,
            faded: fade(offset),
        }
    }
}

/// Writes noise into the cells of `area` (the rest of `field` is left as it is), drawing the
/// tables (or, for white noise, each cell's value, in row-major order) from `rng`.
pub fn fill(
    field: &mut Field,
    area: Area<'_>,
    options: &NoiseOptions,
    rng: &mut Rng,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    options.check()?;
    let (w, h) = (field.width(), field.height());
    let scope = area.scope(w, h)?;
    let mut meter = Batched::new(meter);
    if options.kind == NoiseKind::White {
        let b = scope.bounds;
        // Row by row, as `scope.cells()` visits them, so a mask draws in the same order.
        for y in b.y..b.y + b.h {
            let row = y as usize * w as usize;
            let mut drawn = 0;
            for x in b.x..b.x + b.w {
                if scope.is_rectangular() || scope.contains(x, y) {
                    field.values[row + x as usize] = rng.float() as f32;
                    drawn += 1;
                }
            }
            meter.work(drawn)?;
        }
        return Ok(meter.finish()?);
    }
    let noise = Noise::new(options.kind, rng);
    // Row by row, octave by octave: what a row's samples share is worked out once an octave,
    // and each cell's sum is [`Noise::fbm`]'s, its octaves added in the same order.
    let b = scope.bounds;
    let octaves = &noise.offsets[..options.octaves as usize];
    let mut sums = vec![0.0f64; b.w.max(0) as usize];
    for y in b.y..b.y + b.h {
        sums.fill(0.0);
        let (mut freq, mut amp, mut total) = (options.frequency, 1.0, 0.0);
        for &(ox, oy) in octaves {
            let row = Axis::at(y as f64 * freq + oy);
            for (sum, x) in sums.iter_mut().zip(b.x..) {
                *sum += amp * noise.sample_in(&row, x as f64 * freq + ox);
            }
            total += amp;
            freq *= options.lacunarity;
            amp *= options.gain;
        }
        let row = y as usize * w as usize;
        let mut cells = 0;
        for (sum, x) in sums.iter().zip(b.x..) {
            if scope.is_rectangular() || scope.contains(x, y) {
                field.values[row + x as usize] = (sum / total) as f32;
                cells += 1;
            }
        }
        meter.work(cells * options.octaves as u64)?;
    }
    Ok(meter.finish()?)
}
