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

/// The dot product of gradient `hash % 8` (the four axes and four diagonals) with `(x, y)`.
#[inline]
fn gradient(hash: u8, x: f64, y: f64) -> f64 {
    match hash & 7 {
        0 => x + y,
        1 => -x + y,
        2 => x - y,
        3 => -x - y,
        4 => x,
        5 => -x,
        6 => y,
        _ => -y,
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

    #[inline]
    fn hash(&self, x: usize, y: usize) -> u8 {
        self.perm[self.perm[x] as usize + y]
    }

    /// One octave at `(x, y)` (lattice units), in `0..=1`. White noise has no lattice: it is
    /// [`Noise::value`] at whole coordinates only, so use [`fill`] for it.
    pub fn sample(&self, x: f64, y: f64) -> f64 {
        match self.kind {
            NoiseKind::Perlin => self.perlin(x, y),
            NoiseKind::Value | NoiseKind::White => self.value(x, y),
        }
    }

    /// Value noise at `(x, y)`, in `0..=1`.
    pub fn value(&self, x: f64, y: f64) -> f64 {
        let (fx, fy) = (x.floor(), y.floor());
        let (xi, yi) = (fx as i64 as usize % PERIOD, fy as i64 as usize % PERIOD);
        let (x1, y1) = ((xi + 1) % PERIOD, (yi + 1) % PERIOD);
        let (u, v) = (fade(x - fx), fade(y - fy));
        let at = |a, b| self.values[self.hash(a, b) as usize];
        lerp(
            lerp(at(xi, yi), at(x1, yi), u),
            lerp(at(xi, y1), at(x1, y1), u),
            v,
        )
    }

    /// Perlin noise at `(x, y)`, in `0..=1` (the raw noise lies in `-1..=1` for these
    /// gradients; it is moved to `0..=1`).
    pub fn perlin(&self, x: f64, y: f64) -> f64 {
        let (fx, fy) = (x.floor(), y.floor());
        let (xi, yi) = (fx as i64 as usize % PERIOD, fy as i64 as usize % PERIOD);
        let (x1, y1) = ((xi + 1) % PERIOD, (yi + 1) % PERIOD);
        let (dx, dy) = (x - fx, y - fy);
        let (u, v) = (fade(dx), fade(dy));
        let n = lerp(
            lerp(
                gradient(self.hash(xi, yi), dx, dy),
                gradient(self.hash(x1, yi), dx - 1.0, dy),
                u,
            ),
            lerp(
                gradient(self.hash(xi, y1), dx, dy - 1.0),
                gradient(self.hash(x1, y1), dx - 1.0, dy - 1.0),
                u,
            ),
            v,
        );
        ((n + 1.0) * 0.5).clamp(0.0, 1.0)
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
    for p in scope.cells() {
        let v = noise.fbm(p.x as f64, p.y as f64, options);
        field.values[p.x as usize + p.y as usize * w as usize] = v as f32;
        meter.work(options.octaves as u64)?;
    }
    Ok(meter.finish()?)
}
