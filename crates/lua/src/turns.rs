//! Generations on several threads that share one memory limit, and take turns when they must:
//! `warren batch --jobs N`'s workers, and in `warren serve` the page's generations beside a
//! statistics sweep. `--max-memory` is then the process's, not each thread's.
//!
//! Each generation keeps its own account and its own limit, as in `warren run`, and the
//! generations running at once also share a [`SharedLimit`]. One stopped only by what the others
//! held ([`Host::crowded`]) did nothing wrong: it runs again alone, while the others finish the
//! generation they are on and wait, their garbage collected. So no map's outcome depends on what
//! runs beside it, and the maps are those of `warren run`.

use crate::shared_limit::SharedLimit;
use crate::Host;
use std::sync::{Arc, RwLock};

/// A memory limit shared by the generations of several hosts, with the turn each takes alone
/// when the others crowd it out (see the module).
#[derive(Debug)]
pub struct Turns {
    limit: Arc<SharedLimit>,
    /// Held for reading while a generation runs beside others, for writing while one runs
    /// alone.
    alone: RwLock<()>,
    /// Gives the memory freed on the calling thread back to the system at once (the program's
    /// allocator's call), after a generation that ran out of memory; `None` leaves that to the
    /// allocator (see [`Turns::releasing`]).
    release: Option<fn()>,
}

impl Turns {
    /// Turns sharing `limit` bytes.
    pub fn new(limit: usize) -> Arc<Turns> {
        Self::made(limit, None)
    }

    /// Turns sharing `limit` bytes that call `release` on a generation's thread once it has run
    /// out of memory (its own limit or the shared one) and its garbage is collected. An
    /// allocator that keeps freed memory a while for the next allocation (mimalloc's purge
    /// delay) would otherwise keep what that generation freed resident while the next one, on
    /// another thread, takes fresh memory: the process would hold the limit about twice over.
    /// `release` is the allocator's call that gives freed memory back now (`mi_collect(true)`
    /// for mimalloc); generations that end within their limits keep theirs for the next.
    pub fn releasing(limit: usize, release: fn()) -> Arc<Turns> {
        Self::made(limit, Some(release))
    }

    /// Turns sharing `limit` bytes, with `release` or none.
    fn made(limit: usize, release: Option<fn()>) -> Arc<Turns> {
        Arc::new(Turns {
            limit: SharedLimit::new(limit),
            alone: RwLock::new(()),
            release,
        })
    }

    /// Makes `host`'s generations (and what its Lua state holds between them) count in the
    /// shared limit, until it is dropped or [`Host::set_shared_limit`] takes it out.
    pub fn join(&self, host: &Host) {
        host.set_shared_limit(Some(self.limit.clone()));
    }

    /// Runs `generation` (one generation of `host`, which has [`Turns::join`]ed) beside the
    /// other hosts' generations; if what they held stopped it, runs it again alone. Either way
    /// the garbage it left is collected before the next waiting generation goes on
    /// ([`Host::tidy`]): the host then holds no more than it needs while it waits.
    pub fn take<T>(&self, host: &Host, mut generation: impl FnMut() -> T) -> T {
        {
            let _beside = self.alone.read().unwrap_or_else(|e| e.into_inner());
            let out = generation();
            self.tidy(host);
            if !host.crowded() {
                return out;
            }
        }
        let _alone = self.alone.write().unwrap_or_else(|e| e.into_inner());
        host.set_shared_limit(None);
        let out = generation();
        self.tidy(host);
        self.join(host);
        out
    }

    /// Collects what `host`'s last generation left ([`Host::tidy`]) and, when it ran out of
    /// memory, gives what it freed back to the system ([`Turns::releasing`]).
    fn tidy(&self, host: &Host) {
        host.tidy();
        if let Some(release) = self.release.filter(|_| host.out_of_memory()) {
            release();
        }
    }
}
