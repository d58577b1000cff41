//! Splitting a seed range into shards, so that any scheduler (GNU parallel, a Slurm array, a
//! Kubernetes indexed Job) can run one shard per task and `warren stats merge` joins them.

use std::ops::Range;
use std::str::FromStr;

/// Shard `index` of `count` (0-based: `0/4` … `3/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, `0..count`.
    pub index: u64,
    /// How many shards there are, at least 1.
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{s}' must be I/N with 0 <= I < N, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// This shard's seeds out of `count` seeds from `start`: a contiguous block, the blocks of
    /// all shards tiling the range in order with sizes differing by at most one.
    pub fn seeds(&self, start: u64, count: u64) -> Range<u64> {
        let edge = |k: u64| start + (count as u128 * k as u128 / self.count as u128) as u64;
        edge(self.index)..edge(self.index + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            let e = bad.parse::<Shard>().expect_err(bad);
            assert!(e.contains(bad) && e.contains("0 <= I < N"), "{e}");
        }
    }

    proptest! {
        #[test]
        fn shards_tile_the_range(start in 0u64..1_000, count in 0u64..10_000, n in 1u64..20) {
            let mut next = start;
            for index in 0..n {
                let r = Shard { index, count: n }.seeds(start, count);
                prop_assert_eq!(r.start, next);
                prop_assert!(r.end - r.start <= count / n + 1);
                next = r.end;
            }
            prop_assert_eq!(next, start + count);
        }
    }
}
