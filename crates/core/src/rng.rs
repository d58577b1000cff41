//! Seeded random numbers: one PCG generator per stream, derived from the run's seed.
//!
//! Determinism is a contract: the same seed gives the same numbers on every machine and in every
//! release that keeps this module's algorithms. So the seeding (SplitMix64 + FNV-1a for stream
//! names) and the range reduction (Lemire's method) are written out here instead of relying on
//! `rand`'s distribution code, and `rand_pcg` is pinned to an exact version.

use rand::RngCore;
use rand_pcg::Pcg64Mcg;

/// A deterministic random number generator.
#[derive(Clone, Debug)]
pub struct Rng {
    seed: u64,
    gen: Pcg64Mcg,
}

/// SplitMix64's finaliser: a strong 64-bit mix.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a over the bytes of a stream name.
fn fnv1a(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Rng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        let hi = splitmix(seed);
        let lo = splitmix(hi ^ seed);
        Rng {
            seed,
            gen: Pcg64Mcg::new(((hi as u128) << 64) | lo as u128),
        }
    }

    /// The seed this generator was made from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A named sub-stream: derived only from this generator's seed and `name`, so adding a
    /// phase that draws from its own stream does not reshuffle any other phase.
    pub fn stream(&self, name: &str) -> Rng {
        Rng::new(splitmix(self.seed ^ splitmix(fnv1a(name))))
    }

    /// The next raw 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.gen.next_u64()
    }

    /// A uniform integer in `0..n` (Incursion's `random(n)`). `n == 0` gives 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire's nearly divisionless unbiased method.
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform integer in `lo..=hi`; returns `lo` if `hi < lo`.
    #[inline]
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        // `hi - lo` is exact as a u64 (1..=u64::MAX); one more wraps to 0 only for the whole
        // range of i64, where every 64-bit value is a draw.
        let span = (hi.wrapping_sub(lo) as u64).wrapping_add(1);
        if span == 0 {
            return self.next_u64() as i64;
        }
        lo.wrapping_add(self.below(span) as i64)
    }

    /// True with probability `percent / 100` (clamped to 0..=100).
    #[inline]
    pub fn percent(&mut self, percent: i64) -> bool {
        (self.below(100) as i64) < percent
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    #[inline]
    pub fn float(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Index chosen with probability proportional to `weights`; `None` if no weight is positive.
    /// Weights must pass [`check_weights`] (the registry guarantees it for region lists, and the
    /// Lua bindings check every list they are given).
    pub fn weighted_index(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
        if total <= 0.0 || !total.is_finite() {
            return None;
        }
        let mut roll = self.float() * total;
        let mut last = None;
        for (i, &w) in weights.iter().enumerate() {
            if w > 0.0 {
                last = Some(i);
                if roll < w {
                    return Some(i);
                }
                roll -= w;
            }
        }
        last
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Why a list of weights cannot be drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightProblem {
    /// The weight at this index (0-based) is negative, NaN or infinite.
    Invalid(usize),
    /// Adding the weight at this index takes the total past the largest finite number
    /// (about 1.8e308), where a draw could no longer tell the weights apart.
    Overflow(usize),
}

/// Whether `w` can be a weight: finite and ≥ 0.
pub fn valid_weight(w: f64) -> bool {
    w.is_finite() && w >= 0.0
}

/// Checks that every weight is finite and ≥ 0 and that they add up to a finite total; returns
/// the total.
pub fn check_weights(weights: &[f64]) -> Result<f64, WeightProblem> {
    let mut total = 0.0f64;
    for (i, &w) in weights.iter().enumerate() {
        if !valid_weight(w) {
            return Err(WeightProblem::Invalid(i));
        }
        total += w;
        if !total.is_finite() {
            return Err(WeightProblem::Overflow(i));
        }
    }
    Ok(total)
}
