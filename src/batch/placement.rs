//! A batch's workers on CPUs of their own from the start.
//!
//! Linux often puts a new thread on its parent's CPU although another CPU is idle, and a woken
//! thread on the CPU of the thread that woke it; there the thread waits until the next
//! load-balancing tick (4 ms at 250 Hz) pulls it away. A process started by another is placed
//! afresh when it `exec`s, so two one-job batches never share a CPU, but the two workers of a
//! `--jobs 2` batch did: traced with `perf sched` on a two-core machine, in 8 of 10 runs the
//! new worker waited 3–4 ms before it first ran, or the two took turns on one CPU for up to
//! 12 ms, and the batch fell 2–3 ms behind two processes. (Opening the batch's gate did it again
//! when the new worker had moved.)
//!
//! So the thread that starts the workers claims its CPU ([`Placement::new`]) and, after
//! starting them and after waking them, gives way once to each ([`Placement::give_way`]): a
//! worker queued behind it runs at once instead of at its next tick. A worker that runs on a CPU
//! another thread of the batch claimed moves to one no thread claimed ([`Placement::settle`]), or
//! back to its own after a wake ([`Placement::return_to`]): it narrows its CPU affinity to that
//! one CPU, which makes the kernel move it there before the call returns, and then restores the
//! affinity it had. Nothing stays pinned: the kernel balances the threads afterwards as it would
//! any others. Workers beyond the CPUs the process may use stay where the kernel puts them.
//!
//! Linux only; elsewhere nothing is claimed or moved.

use std::sync::Mutex;

/// The CPUs a batch's threads have claimed, among those the process may run on.
#[derive(Debug)]
pub struct Placement {
    /// The CPUs the process may run on (the starting thread's affinity), in increasing order.
    pub allowed: Vec<usize>,
    /// CPUs claimed by a thread of the batch, at most one each.
    pub claimed: Mutex<Vec<usize>>,
}

impl Placement {
    /// Claims the CPU of the calling thread: the one that starts the workers (and is a worker
    /// itself).
    #[allow(clippy::new_without_default)] // it claims a CPU: no default value
    pub fn new() -> Placement {
        Placement {
            allowed: os::allowed_cpus(),
            claimed: Mutex::new(os::current_cpu().into_iter().collect()),
        }
    }

    /// Called by the starting thread after it started `workers` workers, and after it woke
    /// them: yields its CPU once to each worker that could move away (at most one fewer than
    /// the CPUs), so that a worker the kernel queued behind it runs now. A yield with nothing
    /// queued returns at once.
    pub fn give_way(&self, workers: usize) {
        for _ in 0..workers.min(self.allowed.len().saturating_sub(1)) {
            os::yield_cpu();
        }
    }

    /// Called by a worker as it starts: claims the CPU it runs on or, when another thread of
    /// the batch claimed that one, moves to the next CPU nobody claimed (if any is left) and
    /// claims that. Returns the CPU claimed, if any.
    pub fn settle(&self) -> Option<usize> {
        let here = os::current_cpu()?;
        let mut claimed = self.claimed.lock().ok()?;
        if !claimed.contains(&here) {
            claimed.push(here);
            return Some(here);
        }
        let free = |c: &&usize| !claimed.contains(c);
        let after = self.allowed.iter().filter(|&&c| c > here).find(free);
        let target = *after.or_else(|| self.allowed.iter().find(free))?;
        claimed.push(target);
        drop(claimed);
        os::move_to(target, &self.allowed).then_some(target)
    }

    /// Called by a worker after it slept: if it woke on a CPU another thread of the batch
    /// claimed, it moves back to `claim` (what [`Placement::settle`] returned). Returns whether
    /// it moved.
    pub fn return_to(&self, claim: Option<usize>) -> bool {
        let (Some(claim), Some(here)) = (claim, os::current_cpu()) else {
            return false;
        };
        let taken = || self.claimed.lock().is_ok_and(|c| c.contains(&here));
        here != claim && taken() && os::move_to(claim, &self.allowed)
    }
}

#[cfg(target_os = "linux")]
// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod os {
    //! The system calls behind [`Placement`](super::Placement), Linux.

    /// The CPUs the calling thread may run on, in increasing order.
    pub fn allowed_cpus() -> Vec<usize> {
        // SAFETY: a zeroed cpu_set_t is an empty set, which sched_getaffinity fills.
        let set = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            set
        };
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: every CPU asked about is below CPU_SETSIZE.
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect()
    }

    /// The CPU the calling thread runs on.
    pub fn current_cpu() -> Option<usize> {
        // SAFETY: sched_getcpu takes nothing; it returns -1 when it fails.
        usize::try_from(unsafe { libc::sched_getcpu() }).ok()
    }

    /// Lets a thread queued on this CPU run before the calling one goes on.
    pub fn yield_cpu() {
        // SAFETY: sched_yield takes nothing.
        unsafe {
            libc::sched_yield();
        }
    }

    /// Moves the calling thread to `cpu`, then lets it run on any of `allowed` again; false if
    /// the kernel refused the move.
    pub fn move_to(cpu: usize, allowed: &[usize]) -> bool {
        let moved = set_affinity(&[cpu]);
        set_affinity(allowed);
        moved
    }

    /// Lets the calling thread run on `cpus` only; false if the kernel refused.
    pub fn set_affinity(cpus: &[usize]) -> bool {
        let cpus = cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize);
        // SAFETY: a zeroed cpu_set_t is an empty set; CPU_SET is given CPUs below
        // CPU_SETSIZE; sched_setaffinity is given the set's size.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in cpus {
                libc::CPU_SET(c, &mut set);
            }
            libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    pub fn allowed_cpus() -> Vec<usize> {
        Vec::new()
    }

    pub fn current_cpu() -> Option<usize> {
        None
    }

    pub fn yield_cpu() {}

    pub fn move_to(_cpu: usize, _allowed: &[usize]) -> bool {
        false
    }
}
