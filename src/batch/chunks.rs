//! How a batch's seeds are cut into chunks that workers claim: full chunks while many seeds are
//! left, then chunks that shrink with what is left (guided self-scheduling), so that the workers
//! run out of seeds together and the last one to finish holds a few maps, not a whole chunk.
//!
//! The cut depends only on the number of seeds, the number of jobs and where a chunk starts,
//! never on timing: the same batch always has the same chunks (records and statistics do not
//! depend on chunks anyway, only on seeds).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// The seeds of a batch (as offsets `0..total` from its first seed), handed out in chunks.
#[derive(Debug)]
pub struct Chunks {
    total: u64,
    /// The largest chunk: what a worker claims while many seeds are left.
    full: u64,
    /// Workers: once fewer than `2 · jobs · full` seeds are left, a chunk is a `1 / (2 · jobs)`
    /// share of what is left.
    jobs: u64,
    /// The first seed not yet claimed.
    next: AtomicU64,
}

impl Chunks {
    /// The chunks of `total` seeds for `jobs` workers: at most 64 seeds each, and at most a
    /// 64th of a worker's share, so that a small batch still has work for every worker.
    pub fn new(total: u64, jobs: usize) -> Chunks {
        let jobs = jobs.max(1) as u64;
        Chunks {
            total,
            full: (total / (jobs * 64)).clamp(1, 64),
            jobs,
            next: AtomicU64::new(0),
        }
    }

    /// The largest chunk, in seeds.
    pub fn full(&self) -> u64 {
        self.full
    }

    /// The length of the chunk that starts at offset `first` (below `total`).
    fn length_at(&self, first: u64) -> u64 {
        let left = self.total - first;
        (left / (2 * self.jobs)).clamp(1, self.full)
    }

    /// Claims the next chunk, or [`None`] when every seed is claimed.
    pub fn claim(&self) -> Option<Range<u64>> {
        let mut first = self.next.load(Ordering::Relaxed);
        loop {
            if first >= self.total {
                return None;
            }
            let end = first + self.length_at(first);
            match self
                .next
                .compare_exchange_weak(first, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(first..end),
                Err(now) => first = now,
            }
        }
    }
}
