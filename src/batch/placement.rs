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
    allowed: Vec<usize>,
    /// CPUs claimed by a thread of the batch, at most one each.
    claimed: Mutex<Vec<usize>>,
}

impl Placement {
    /// Claims the CPU of the calling thread: the one that starts the workers (and is a worker
    /// itself).
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
mod os {
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// On `cpu`, in a thread of its own, as the kernel may start a worker next to the thread
    /// that started it.
    fn started_on<T: Send>(cpu: usize, then: impl FnOnce() -> T + Send) -> T {
        std::thread::scope(|s| {
            s.spawn(|| {
                assert!(os::set_affinity(&[cpu]), "the test pins its thread");
                then()
            })
            .join()
            .expect("the worker thread finishes")
        })
    }

    /// The CPUs claimed so far, in the order they were.
    fn claims(placement: &Placement) -> Vec<usize> {
        let claimed = placement.claimed.lock();
        claimed.expect("nothing panicked holding it").clone()
    }

    /// The CPU [`Placement::new`] claimed for the thread that called it.
    fn claimed_by_starter(placement: &Placement) -> usize {
        *claims(placement).first().expect("sched_getcpu works here")
    }

    #[test]
    fn a_worker_started_on_a_claimed_cpu_moves_to_one_of_its_own_and_stays_free() {
        let placement = Placement::new();
        let starter = claimed_by_starter(&placement);
        let (claim, affinity) = started_on(starter, || (placement.settle(), os::allowed_cpus()));
        if placement.allowed.len() < 2 {
            assert_eq!(claim, None, "one CPU: nowhere to move");
            return;
        }
        let claim = claim.expect("a second CPU is free");
        assert_ne!(claim, starter);
        assert!(placement.allowed.contains(&claim));
        assert_eq!(affinity, placement.allowed, "the worker is not left pinned");
        assert_eq!(claims(&placement), [starter, claim]);
    }

    /// A placement, the CPU it claimed for this thread, and another CPU this process may use
    /// (none on a one-CPU machine).
    fn with_another_cpu() -> Option<(Placement, usize, usize)> {
        let placement = Placement::new();
        let starter = claimed_by_starter(&placement);
        let other = *placement.allowed.iter().find(|&&c| c != starter)?;
        Some((placement, starter, other))
    }

    #[test]
    fn a_worker_on_a_cpu_nobody_claimed_stays_there() {
        let Some((placement, _, other)) = with_another_cpu() else {
            return;
        };
        assert_eq!(started_on(other, || placement.settle()), Some(other));
    }

    #[test]
    fn more_workers_than_cpus_claim_each_cpu_once() {
        let placement = Placement::new();
        let starter = claimed_by_starter(&placement);
        let cpus = placement.allowed.len();
        let settled: Vec<_> = (0..cpus + 2)
            .map(|_| started_on(starter, || placement.settle()))
            .collect();
        let moved: Vec<_> = settled.iter().flatten().copied().collect();
        assert_eq!(moved.len(), cpus - 1, "{settled:?}");
        let mut all = claims(&placement);
        all.sort_unstable();
        assert_eq!(all, placement.allowed, "every CPU claimed once");
    }

    #[test]
    fn a_worker_woken_on_a_claimed_cpu_returns_to_its_own() {
        let Some((placement, starter, other)) = with_another_cpu() else {
            return;
        };
        let (home, woken_next_to_starter, woken_at_home) = started_on(other, || {
            let home = placement.settle();
            let at_home = placement.return_to(home);
            os::set_affinity(&[starter]);
            (home, placement.return_to(home), at_home)
        });
        assert_eq!(home, Some(other));
        assert!(
            woken_next_to_starter,
            "a worker next to the starter moves back"
        );
        assert!(!woken_at_home, "a worker on its own CPU stays");
    }
}
