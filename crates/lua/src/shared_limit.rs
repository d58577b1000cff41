//! One memory limit for generations that run at once on several threads (the jobs of
//! `warren batch --jobs N`; `warren serve`'s page and sweeps): each generation keeps its own
//! account and its own limit, as in `warren run`, and they also share a [`SharedLimit`], which
//! the bytes all of them hold together must fit. So the process holds about what one generation
//! may hold, not N times that. [`crate::turns::Turns`] runs generations under it.
//!
//! Each budget tells the shared limit what its account holds in steps of [`STEP`] bytes
//! (a [`Share`]): an atomic add when its holdings moved by a step, a comparison otherwise, so the
//! allocations between two steps touch nothing another thread writes. The total is then exact to
//! within a step per budget, and what it grew by since it last looked (Lua's allocations look at
//! least every [`crate::budget::CLOCK_EVERY_BYTES`], the bindings' charges and the instruction
//! checkpoints at each).
//!
//! A generation stopped because the others held the rest ([`crate::budget::Exceeded::Crowded`])
//! did nothing wrong: it runs again with no other generation beside it and without the shared
//! limit ([`crate::turns::Turns::take`]), so that it ends (and its map comes out) as in
//! `warren run`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How far a budget's holdings move before it tells the shared limit.
pub const STEP: usize = 1 << 20;

/// A memory limit shared by the generations of several budgets (see the module).
#[derive(Debug)]
pub struct SharedLimit {
    limit: usize,
    held: AtomicUsize,
}

impl SharedLimit {
    /// A shared limit of `limit` bytes, nothing held yet.
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(SharedLimit {
            limit,
            held: AtomicUsize::new(0),
        })
    }

    /// The limit, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// What the budgets sharing it last said they hold, together.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }
}

/// One budget's part of a [`SharedLimit`]: what it last said it holds. Dropping it takes that
/// back.
#[derive(Debug)]
pub struct Share {
    limit: Arc<SharedLimit>,
    /// What this budget last added to the shared total.
    told: usize,
    /// The highest peak this budget has been checked with since its generation began.
    checked_peak: usize,
}

impl Share {
    /// A share of `limit` holding nothing yet.
    pub fn new(limit: Arc<SharedLimit>) -> Self {
        Share {
            limit,
            told: 0,
            checked_peak: 0,
        }
    }

    /// Whether this share belongs to `limit`.
    pub fn of(&self, limit: &Arc<SharedLimit>) -> bool {
        Arc::ptr_eq(&self.limit, limit)
    }

    /// Tells the shared limit that this budget holds `now` bytes; the total of all budgets.
    fn tell(&mut self, now: usize) -> usize {
        let total = if now >= self.told {
            let grow = now - self.told;
            self.limit.held.fetch_add(grow, Ordering::Relaxed) + grow
        } else {
            let shrink = self.told - now;
            self.limit.held.fetch_sub(shrink, Ordering::Relaxed) - shrink
        };
        self.told = now;
        total
    }

    /// A generation begins holding `now` bytes: said at once, and its peaks are new.
    pub fn restart(&mut self, now: usize) {
        self.tell(now);
        self.checked_peak = now;
    }

    /// Says what the budget holds now, whatever it last said (its garbage was collected).
    pub fn settle(&mut self, now: usize) {
        self.tell(now);
    }

    /// Whether this budget, holding `now` bytes and having held `peak` at most since its
    /// generation began, is over the shared limit with what the others hold. Looks only when
    /// `now` moved by a [`STEP`] since it last said, or the peak rose by one: between those it
    /// compares two numbers and touches nothing shared.
    #[inline]
    pub fn over(&mut self, now: usize, peak: usize) -> bool {
        let moved = now.abs_diff(self.told) >= STEP;
        let peaked = peak >= self.checked_peak.saturating_add(STEP);
        if !moved && !peaked {
            return false;
        }
        self.check(now, peak, 0)
    }

    /// Whether `more` bytes on top of `now` (and a peak of `peak`) fit beside what the others
    /// hold; says what this budget holds when that moved by a step.
    pub fn check(&mut self, now: usize, peak: usize, more: usize) -> bool {
        let total = if now.abs_diff(self.told) >= STEP {
            self.tell(now)
        } else {
            self.limit.held()
        };
        self.checked_peak = self.checked_peak.max(peak);
        let others = total.saturating_sub(self.told);
        let mine = peak.max(now.saturating_add(more));
        others.saturating_add(mine) > self.limit.limit
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        self.tell(0);
    }
}
