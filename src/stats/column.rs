//! The streaming aggregate of one column (a metric or a phase time over many maps), in memory
//! that does not grow with the number of maps.
//!
//! - `count`, `min`, `max` and the mean are exact. The sum behind the mean is kept as an exact
//!   integer per binary exponent ([`ExactSum`]), so it does not depend on the order values arrive
//!   in: the same maps give the same mean whatever the number of jobs or shards.
//! - Quantiles and histograms come from the column's distribution: every distinct value with its count
//!   while there are at most [`EXACT_VALUES`] of them (then they are exact), and beyond that a
//!   logarithmic sketch whose buckets are at most [`RELATIVE_ACCURACY`] wide, relative to the
//!   value (the method of DDSketch, Masson, Rim and Lee, VLDB 2019). A quantile read from the
//!   sketch is within 0.1% of the true nearest-rank value; a histogram value can land one bin off
//!   only when it lies within 0.1% of a bin edge. The sketch needs one counter per occupied
//!   bucket: at most about 1,200 per factor of ten between the smallest and largest value.
//!
//! Both forms depend only on the multiset of values, never on their order, and two aggregates
//! merge into exactly the aggregate of all their values.

use std::collections::BTreeMap;

/// Distinct values kept exactly before a column switches to the sketch.
pub const EXACT_VALUES: usize = 4096;

/// The sketch's relative accuracy α: a quantile read from it is within `α · |value|` of the true
/// value.
pub const RELATIVE_ACCURACY: f64 = 0.001;

/// A value ordered by `f64::total_cmp`, usable as a map key.
#[derive(Clone, Copy, Debug)]
pub struct Key(f64);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Logarithmic buckets: bucket `i` holds the magnitudes in `(γ^(i-1), γ^i]`, with
/// `γ = (1 + α) / (1 − α)`; its representative `2γ^i / (γ + 1)` is within `α` of every one of
/// them, relative to the value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sketch {
    /// Buckets of the positive values.
    pub positive: BTreeMap<i32, u64>,
    /// Buckets of the magnitudes of the negative values.
    negative: BTreeMap<i32, u64>,
    /// Values equal to zero.
    zeros: u64,
}

/// `ln γ`.
fn ln_gamma() -> f64 {
    ((1.0 + RELATIVE_ACCURACY) / (1.0 - RELATIVE_ACCURACY)).ln()
}

impl Sketch {
    fn add(&mut self, v: f64, n: u64) {
        if v == 0.0 {
            self.zeros += n;
            return;
        }
        let bucket = (v.abs().ln() / ln_gamma()).ceil() as i32;
        let side = if v > 0.0 {
            &mut self.positive
        } else {
            &mut self.negative
        };
        *side.entry(bucket).or_insert(0) += n;
    }

    fn merge(&mut self, other: &Sketch) {
        for (&b, &n) in &other.positive {
            *self.positive.entry(b).or_insert(0) += n;
        }
        for (&b, &n) in &other.negative {
            *self.negative.entry(b).or_insert(0) += n;
        }
        self.zeros += other.zeros;
    }

    /// Representative values with their counts, ascending.
    fn values(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        let gamma = ln_gamma().exp();
        let value = move |b: i32| 2.0 * (b as f64 * ln_gamma()).exp() / (gamma + 1.0);
        let negative = self
            .negative
            .iter()
            .rev()
            .map(move |(&b, &n)| (-value(b), n));
        let zeros = (self.zeros > 0).then_some((0.0, self.zeros));
        let positive = self.positive.iter().map(move |(&b, &n)| (value(b), n));
        negative.chain(zeros).chain(positive)
    }
}

/// The values of a column: exact while they are few, else a sketch.
#[derive(Clone, Debug, PartialEq)]
pub enum Distribution {
    /// Every distinct value with its count.
    Exact(BTreeMap<Key, u64>),
    /// More than [`EXACT_VALUES`] distinct values.
    Sketched(Sketch),
}

impl Default for Distribution {
    fn default() -> Self {
        Distribution::Exact(BTreeMap::new())
    }
}

impl Distribution {
    fn add(&mut self, v: f64, n: u64) {
        match self {
            Distribution::Exact(values) => {
                *values.entry(Key(v)).or_insert(0) += n;
                if values.len() > EXACT_VALUES {
                    self.sketch();
                }
            }
            Distribution::Sketched(s) => s.add(v, n),
        }
    }

    /// Turns the exact values into the sketch they would have built.
    fn sketch(&mut self) {
        if let Distribution::Exact(values) = self {
            let mut s = Sketch::default();
            for (k, &n) in values.iter() {
                s.add(k.0, n);
            }
            *self = Distribution::Sketched(s);
        }
    }

    fn merge(&mut self, other: &Distribution) {
        match other {
            Distribution::Exact(values) => {
                for (k, &n) in values {
                    self.add(k.0, n);
                }
            }
            Distribution::Sketched(theirs) => {
                self.sketch();
                if let Distribution::Sketched(s) = self {
                    s.merge(theirs);
                }
            }
        }
    }

    /// Values (exact or representative) with their counts, ascending.
    fn values(&self) -> Box<dyn Iterator<Item = (f64, u64)> + '_> {
        match self {
            Distribution::Exact(values) => Box::new(values.iter().map(|(k, &n)| (k.0, n))),
            Distribution::Sketched(s) => Box::new(s.values()),
        }
    }
}

/// An exact, order-independent sum of doubles: each value is `m · 2^e` with an integer `m`,
/// and the `m`s are added up per exponent `e` as 128-bit integers (room for 2^74 values each).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExactSum(BTreeMap<i16, i128>);

impl ExactSum {
    /// Adds `v` (finite) `n` times.
    pub fn add(&mut self, v: f64, n: u64) {
        if v == 0.0 || !v.is_finite() {
            return;
        }
        let bits = v.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i16;
        let fraction = (bits & ((1 << 52) - 1)) as i128;
        let (mantissa, exponent) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | 1 << 52, biased - 1075)
        };
        let signed = if v < 0.0 { -mantissa } else { mantissa };
        *self.0.entry(exponent).or_insert(0) += signed * n as i128;
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &ExactSum) {
        for (&e, &m) in &other.0 {
            *self.0.entry(e).or_insert(0) += m;
        }
    }

    /// The sum, largest exponents first (a fixed order, so the same sums give the same double).
    pub fn value(&self) -> f64 {
        self.0
            .iter()
            .rev()
            .map(|(&e, &m)| scale(m as f64, e.into()))
            .sum()
    }
}

/// `x · 2^e`, exact wherever the result is representable (stepping so that no factor
/// overflows or underflows on the way).
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    x * 2f64.powi(e)
}

/// Whether `v` is -0: a whole number no integer holds (as digits, or in an integer column, it
/// reads back as 0).
pub fn is_negative_zero(v: f64) -> bool {
    v == 0.0 && v.is_sign_negative()
}

/// The aggregate of one column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnStats {
    count: u64,
    min: f64,
    max: f64,
    sum: ExactSum,
    /// Whether every value is a whole number other than -0 (which an integer cannot hold: a
    /// Parquet integer column would read it back as 0).
    integral: bool,
    /// The values, exact or sketched.
    pub values: Distribution,
}

/// Aggregates of a column (min, median, p95, max, mean) as printed in the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Maps that recorded a value.
    pub count: u64,
    /// Smallest value.
    pub min: f64,
    /// The nearest-rank median: the ⌈n/2⌉-th smallest value.
    pub median: f64,
    /// The nearest-rank 95th percentile: the ⌈0.95·n⌉-th smallest value.
    pub p95: f64,
    /// The nearest-rank 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Whether the quantiles are exact (false: read from the sketch, within
    /// [`RELATIVE_ACCURACY`]).
    pub exact: bool,
}

/// A histogram: value counts in equal bins over `[lo, hi]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// Left edge of the first bin.
    pub lo: f64,
    /// Right edge of the last bin.
    pub hi: f64,
    /// Values per bin.
    pub counts: Vec<u64>,
    /// Values above `hi` (only when the range was cut short).
    pub above: u64,
}

impl Histogram {
    /// The histogram as a line of block characters, tallest bin full height.
    pub fn sparkline(&self) -> String {
        const BLOCKS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
        let top = self.counts.iter().copied().max().unwrap_or(0).max(1);
        self.counts
            .iter()
            .map(|&c| {
                BLOCKS[if c == 0 {
                    0
                } else {
                    (c * 8).div_ceil(top) as usize
                }]
            })
            .collect()
    }
}

impl ColumnStats {
    /// Adds one value (finite).
    pub fn add(&mut self, v: f64) {
        self.add_times(v, 1);
    }

    /// Adds the value `v` (finite) `n` times: the same as `n` calls of [`Self::add`].
    pub fn add_times(&mut self, v: f64, n: u64) {
        if n == 0 {
            return;
        }
        if self.count == 0 {
            (self.min, self.max, self.integral) = (v, v, true);
        }
        self.count += n;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.integral &= v.fract() == 0.0 && !is_negative_zero(v);
        self.sum.add(v, n);
        self.values.add(v, n);
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &ColumnStats) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other.clone();
            return;
        }
        self.count += other.count;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.integral &= other.integral;
        self.sum.merge(&other.sum);
        self.values.merge(&other.values);
    }

    /// Whether every value is a whole number, and none is -0 (true for no values).
    pub fn is_integral(&self) -> bool {
        self.integral || self.count == 0
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The distinct values with their counts, ascending: exact while the column keeps them
    /// exactly ([`Summary::exact`]), else the sketch's representatives (each within
    /// [`RELATIVE_ACCURACY`] of the values it stands for, kept within `[min, max]`).
    pub fn values(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        self.values
            .values()
            .map(|(v, n)| (v.clamp(self.min, self.max), n))
    }

    /// The `p`-th percentile by nearest rank (the ⌈n·p/100⌉-th smallest value), kept within
    /// `[min, max]`.
    fn percentile(&self, p: u64) -> f64 {
        let rank = (self.count * p).div_ceil(100).max(1);
        let mut seen = 0;
        for (v, n) in self.values.values() {
            seen += n;
            if seen >= rank {
                return v.clamp(self.min, self.max);
            }
        }
        self.max
    }

    /// The summary, or `None` when there are no values.
    pub fn summary(&self) -> Option<Summary> {
        (self.count > 0).then(|| Summary {
            count: self.count,
            min: self.min,
            median: self.percentile(50),
            p95: self.percentile(95),
            p99: self.percentile(99),
            max: self.max,
            mean: self.sum.value() / self.count as f64,
            exact: matches!(self.values, Distribution::Exact(_)),
        })
    }

    /// Up to `bins` equal-width bins from the smallest to the largest value; whole-number
    /// columns spanning fewer values than that get one bin per integer instead; a constant column
    /// gets one bin.
    pub fn histogram(&self, bins: usize) -> Option<Histogram> {
        (self.count > 0).then(|| self.histogram_to(bins, self.max))
    }

    /// Like [`ColumnStats::histogram`] over `[min, top]`; values above `top` are counted in
    /// [`Histogram::above`].
    pub fn histogram_to(&self, bins: usize, top: f64) -> Histogram {
        let (lo, hi, n) = if self.integral && top - self.min < bins as f64 {
            (self.min, top + 1.0, (top - self.min) as usize + 1)
        } else if top <= self.min {
            (self.min, self.min, 1)
        } else {
            (self.min, top, bins.max(1))
        };
        let mut counts = vec![0; n];
        let mut above = 0;
        for (v, c) in self.values.values() {
            let v = v.clamp(self.min, self.max);
            if v > top {
                above += c;
                continue;
            }
            let i = if hi > lo {
                ((v - lo) / (hi - lo) * n as f64) as usize
            } else {
                0
            };
            counts[i.min(n - 1)] += c;
        }
        Histogram {
            lo,
            hi,
            counts,
            above,
        }
    }
}
