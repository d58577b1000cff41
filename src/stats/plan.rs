//! The seeds a batch was asked for: a contiguous range, possibly split into shards so that any
//! scheduler (GNU parallel, a Slurm array, a Kubernetes indexed Job) can run one shard per task
//! and `warren stats merge` joins them. Records carry their plan, so a merge can tell which
//! seeds are missing and which shards they belong to.

use std::fmt;
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

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a batch was asked to generate: `count` seeds from `start`, or one shard of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedPlan {
    /// The first seed of the whole range (`--seed-start`).
    pub start: u64,
    /// Seeds in the whole range (`--count`).
    pub count: u64,
    /// The shard this run keeps, if any (`--shard I/N`).
    pub shard: Option<Shard>,
}

impl SeedPlan {
    /// The whole range, all shards together.
    pub fn whole(&self) -> Range<u64> {
        self.start..self.start.saturating_add(self.count)
    }

    /// The seeds this run generates: its shard's block, or the whole range.
    pub fn seeds(&self) -> Range<u64> {
        match self.shard {
            Some(shard) => shard.seeds(self.start, self.count),
            None => self.whole(),
        }
    }

    /// The shards (0-based indices) whose blocks intersect `range`.
    pub fn shards_in(&self, range: &Range<u64>) -> Vec<Shard> {
        let Some(shard) = self.shard else {
            return Vec::new();
        };
        (0..shard.count)
            .map(|index| Shard {
                index,
                count: shard.count,
            })
            .filter(|s| {
                let r = s.seeds(self.start, self.count);
                r.start < range.end && range.start < r.end
            })
            .collect()
    }
}

/// `a..=b`, the way messages name a range of seeds.
pub fn seed_range_text(range: &Range<u64>) -> String {
    if range.end == range.start + 1 {
        format!("seed {}", range.start)
    } else {
        format!("seeds {}..={}", range.start, range.end - 1)
    }
}

/// The parts of `within` that none of `covered` (sorted by start, not overlapping) covers.
pub fn gaps(within: &Range<u64>, covered: &[Range<u64>]) -> Vec<Range<u64>> {
    let mut missing = Vec::new();
    let mut next = within.start;
    for r in covered {
        if r.start > next {
            missing.push(next..r.start.min(within.end));
        }
        next = next.max(r.end);
    }
    if next < within.end {
        missing.push(next..within.end);
    }
    missing.retain(|r| r.start < r.end);
    missing
}
