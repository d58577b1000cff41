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
struct Key(f64);

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
struct Sketch {
    /// Buckets of the positive values.
    positive: BTreeMap<i32, u64>,
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
enum Distribution {
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

/// The aggregate of one column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnStats {
    count: u64,
    min: f64,
    max: f64,
    sum: ExactSum,
    /// Whether every value is a whole number.
    integral: bool,
    values: Distribution,
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
        if self.count == 0 {
            (self.min, self.max, self.integral) = (v, v, true);
        }
        self.count += 1;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.integral &= v.fract() == 0.0;
        self.sum.add(v, 1);
        self.values.add(v, 1);
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

    /// Whether every value is a whole number (true for no values).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn column(values: impl IntoIterator<Item = f64>) -> ColumnStats {
        let mut c = ColumnStats::default();
        for v in values {
            c.add(v);
        }
        c
    }

    #[test]
    fn nearest_rank_percentiles_and_mean() {
        let s = column((1..=20).rev().map(f64::from))
            .summary()
            .expect("values");
        assert_eq!((s.min, s.median, s.p95, s.max), (1.0, 10.0, 19.0, 20.0));
        assert_eq!(s.mean, 10.5);
        assert!(s.exact);
        let one = column([7.0]).summary().expect("a value");
        assert_eq!((one.count, one.median, one.p95), (1, 7.0, 7.0));
        assert_eq!(ColumnStats::default().summary(), None);
    }

    #[test]
    fn histograms_bin_small_integer_ranges_per_value() {
        let h = column([1.0, 2.0, 2.0, 4.0]).histogram(16).expect("values");
        assert_eq!(h.counts, [1, 2, 0, 1]);
        assert_eq!(h.sparkline(), "▄█ ▄");
        let f = column([0.0, 0.25, 0.5, 1.0]).histogram(4).expect("values");
        assert_eq!(f.counts, [1, 1, 1, 1]);
        let flat = column([0.5, 0.5]).histogram(4).expect("values");
        assert_eq!(flat.counts, [2]);
        let cut = column([1.0, 2.0, 3.0, 100.0]).histogram_to(3, 3.0);
        assert_eq!((cut.counts, cut.above), (vec![1, 1, 1], 1));
    }

    /// A deterministic spread of values over five orders of magnitude, some negative.
    fn spread(n: u64) -> Vec<f64> {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = (x % 100_000) as f64 / 7.0 + 0.01;
                if i % 10 == 0 {
                    -v
                } else {
                    v
                }
            })
            .collect()
    }

    #[test]
    fn the_sketch_keeps_quantiles_within_its_bound() {
        let values = spread(50_000);
        let c = column(values.iter().copied());
        let s = c.summary().expect("values");
        assert!(!s.exact, "more distinct values than kept exactly");
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = |p: usize| sorted[(sorted.len() * p).div_ceil(100) - 1];
        for (got, p) in [(s.median, 50), (s.p95, 95), (s.p99, 99)] {
            let want = rank(p);
            assert!(
                (got - want).abs() <= RELATIVE_ACCURACY * want.abs() + 1e-12,
                "p{p}: {got} vs {want}"
            );
        }
        assert_eq!((s.min, s.max), (sorted[0], sorted[sorted.len() - 1]));
        let exact_mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
        assert!((s.mean - exact_mean).abs() < 1e-9 * exact_mean.abs());
        let h = c.histogram(40).expect("values");
        assert_eq!(h.counts.iter().sum::<u64>(), 50_000);
    }

    #[test]
    fn order_and_splitting_do_not_change_the_aggregate() {
        let values = spread(20_000);
        let whole = column(values.iter().copied());
        let mut reversed = column(values.iter().rev().copied());
        assert_eq!(whole, reversed);
        // Merged parts equal the whole, however the parts were cut, exact or sketched.
        for cut in [1, 3_000, 10_000, 19_999] {
            let mut a = column(values[..cut].iter().copied());
            let b = column(values[cut..].iter().copied());
            a.merge(&b);
            assert_eq!(a, whole, "cut at {cut}");
        }
        reversed.merge(&ColumnStats::default());
        assert_eq!(reversed, whole);
    }

    #[test]
    fn memory_is_bounded_by_the_value_range_not_the_count() {
        let mut c = ColumnStats::default();
        for i in 0..2_000_000u64 {
            c.add(10.0 + (i % 100_003) as f64 * 1e-3);
        }
        match &c.values {
            Distribution::Sketched(s) => {
                // From 10 to 110: ln(11)/ln(γ) ≈ 1199 buckets.
                assert!(s.positive.len() < 1_300, "{} buckets", s.positive.len());
            }
            Distribution::Exact(_) => panic!("100003 distinct values are sketched"),
        }
    }

    #[test]
    fn exact_sums_do_not_depend_on_order() {
        let values = [1e16, 1.0, -1e16, 0.1, 3.5e-310, -0.1];
        let mut a = ExactSum::default();
        let mut b = ExactSum::default();
        for v in values {
            a.add(v, 1);
        }
        for v in values.iter().rev() {
            b.add(*v, 1);
        }
        assert_eq!(a, b);
        assert_eq!(a.value(), 1.0 + 3.5e-310);
    }
}
