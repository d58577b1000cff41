//! Fields: a float per cell, the size of a map. Noise ([`noise`]), distances ([`distance`]) and
//! visibility ([`fov`]) are fields; a recipe combines them ([`Field::combine`], [`Field::scale`],
//! …), turns them into terrain through priority writes ([`Field::threshold`]) and shows them as a
//! debug layer ([`Field::to_layer`]), which every renderer (`--layer`, PNG, `serve`, Tiled)
//! draws.
//!
//! Values are `f32`: half the memory of `f64` for a 4096² field, and exact for every distance a
//! map can hold. A cell no walker can reach holds [`UNREACHABLE`] (positive infinity), which
//! every comparison and combination treats as the largest value.

pub mod distance;
pub mod fov;
pub mod noise;

use super::area::{same_size, Area, Mask, SizeMismatch};
use super::meter::Meter;
use super::tool_error::ToolError;
use crate::map::{Brush, Layer, Map, MapError, Point, Rgb};

/// The value of a cell no walker can reach, in a distance field.
pub const UNREACHABLE: f32 = f32::INFINITY;

/// A float per cell, row-major, the size of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    width: i32,
    height: i32,
    values: Vec<f32>,
}

/// How [`Field::combine`] merges another field into this one, cell by cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a × b`.
    Mul,
    /// The smaller of `a` and `b`.
    Min,
    /// The larger of `a` and `b`.
    Max,
}

impl Combine {
    /// Every operation's name, as recipes spell it.
    pub const NAMES: [&'static str; 5] = ["add", "sub", "mul", "min", "max"];

    /// The operation named `name` (one of [`Combine::NAMES`]).
    pub fn from_name(name: &str) -> Option<Combine> {
        Some(match name {
            "add" => Combine::Add,
            "sub" => Combine::Sub,
            "mul" => Combine::Mul,
            "min" => Combine::Min,
            "max" => Combine::Max,
            _ => return None,
        })
    }

    #[inline]
    fn apply(self, a: f32, b: f32) -> f32 {
        match self {
            Combine::Add => a + b,
            Combine::Sub => a - b,
            Combine::Mul => a * b,
            Combine::Min => a.min(b),
            Combine::Max => a.max(b),
        }
    }
}

impl Field {
    /// Bytes a field over a `width × height` map takes (to charge a memory budget before making
    /// one).
    pub fn bytes_for(width: i32, height: i32) -> usize {
        width.max(0) as usize * height.max(0) as usize * std::mem::size_of::<f32>()
    }

    /// A `width × height` field holding `value` everywhere.
    pub fn new(width: i32, height: i32, value: f32) -> Field {
        Field {
            width,
            height,
            values: vec![value; width.max(0) as usize * height.max(0) as usize],
        }
    }

    /// A field the size of `map`, holding `value` everywhere.
    pub fn like(map: &Map, value: f32) -> Field {
        Field::new(map.width(), map.height(), value)
    }

    /// `on` where the mask is set, `off` elsewhere.
    pub fn from_mask(mask: &Mask, on: f32, off: f32) -> Field {
        Field {
            width: mask.width(),
            height: mask.height(),
            values: mask
                .cells()
                .iter()
                .map(|&c| if c { on } else { off })
                .collect(),
        }
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Every value, row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Every value, row-major, to change.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    fn index(&self, p: Point) -> Result<usize, MapError> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return Err(MapError::OutOfBounds {
                x: p.x as i64,
                y: p.y as i64,
                width: self.width,
                height: self.height,
            });
        }
        Ok(p.x as usize + p.y as usize * self.width as usize)
    }

    /// The value at `p`.
    pub fn get(&self, p: Point) -> Result<f32, MapError> {
        Ok(self.values[self.index(p)?])
    }

    /// Sets the value at `p`.
    pub fn set(&mut self, p: Point, value: f32) -> Result<(), MapError> {
        let i = self.index(p)?;
        self.values[i] = value;
        Ok(())
    }

    /// Merges `other` into this field cell by cell (`self = op(self, other)`).
    pub fn combine(&mut self, other: &Field, op: Combine) -> Result<(), SizeMismatch> {
        same_size((other.width, other.height), (self.width, self.height))?;
        for (a, &b) in self.values.iter_mut().zip(&other.values) {
            *a = op.apply(*a, b);
        }
        Ok(())
    }

    /// Multiplies every value by `k`, then adds `offset`.
    pub fn scale(&mut self, k: f32, offset: f32) {
        for v in &mut self.values {
            *v = *v * k + offset;
        }
    }

    /// Clamps every value into `lo..=hi` (a value below `lo` becomes `lo`, above `hi` becomes
    /// `hi`).
    pub fn clamp(&mut self, lo: f32, hi: f32) {
        for v in &mut self.values {
            *v = v.max(lo).min(hi);
        }
    }

    /// The smallest and largest finite values, or `None` when no value is finite.
    pub fn range(&self) -> Option<(f32, f32)> {
        self.values
            .iter()
            .filter(|v| v.is_finite())
            .fold(None, |acc, &v| match acc {
                None => Some((v, v)),
                Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
            })
    }

    /// Stretches the finite values onto `0..=1` (the smallest becomes 0, the largest 1; a field
    /// of one value becomes all 0). Infinite values stay as they are.
    pub fn normalize(&mut self) {
        let Some((lo, hi)) = self.range() else {
            return;
        };
        let span = hi - lo;
        for v in self.values.iter_mut().filter(|v| v.is_finite()) {
            *v = if span > 0.0 { (*v - lo) / span } else { 0.0 };
        }
    }

    /// The cells whose value lies in `lo..=hi`.
    pub fn mask(&self, lo: f32, hi: f32) -> Mask {
        let mut m = Mask::new(self.width, self.height, false);
        for (c, &v) in m.cells_mut().iter_mut().zip(&self.values) {
            *c = v >= lo && v <= hi;
        }
        m
    }

    /// Writes `brush` (through the map's priority and edge rules) on every cell of `area` whose
    /// value lies in `lo..=hi`. Returns the number of cells written. The field must be the map's
    /// size.
    pub fn threshold(
        &self,
        map: &mut Map,
        area: Area<'_>,
        (lo, hi): (f32, f32),
        brush: &Brush,
        meter: &mut dyn Meter,
    ) -> Result<usize, ToolError> {
        for (what, v) in [("the lower bound", lo), ("the upper bound", hi)] {
            if v.is_nan() {
                return Err(ToolError::NotANumber { what });
            }
        }
        same_size((self.width, self.height), (map.width(), map.height()))?;
        let scope = area.on(map)?;
        let b = scope.bounds;
        meter.work(b.w.max(0) as u64 * b.h.max(0) as u64)?;
        // Both bounds are tested without a branch between them: in a noise field the value is
        // a coin toss, and the short-circuit `&&` mispredicted about every second cell.
        let within = |i: usize| {
            let v = self.values[i];
            (v >= lo) & (v <= hi)
        };
        if scope.is_rectangular() {
            if b.is_empty() {
                return Ok(0);
            }
            return Ok(map.write_rect_where(&b, brush, within)?);
        }
        let mut written = 0;
        for p in scope.cells() {
            if within(p.x as usize + p.y as usize * self.width as usize) {
                written += map.write(p, brush)? as usize;
            }
        }
        Ok(written)
    }

    /// The field as a debug layer: finite values as digits `0`–`9` on a blue-to-red ramp from
    /// the smallest value to the largest; infinite values (unreachable cells) left unmarked, so
    /// the terrain shows through.
    pub fn to_layer(&self) -> Layer {
        let mut layer = Layer::new(self.width, self.height);
        let Some((lo, hi)) = self.range() else {
            return layer;
        };
        let span = hi - lo;
        for (i, &v) in self.values.iter().enumerate() {
            if !v.is_finite() {
                continue;
            }
            let t = if span > 0.0 { (v - lo) / span } else { 0.0 };
            let digit = ((t * 9.0).round() as u32).min(9);
            let hot = (t * 255.0).round() as u8;
            let p = Point::new(
                (i % self.width as usize) as i32,
                (i / self.width as usize) as i32,
            );
            // The point is on the layer: `i` indexes a field of the layer's size.
            let _ = layer.set(
                p,
                char::from_digit(digit, 10).unwrap_or('9'),
                Rgb(hot, 64, 255 - hot),
            );
        }
        layer
    }
}
