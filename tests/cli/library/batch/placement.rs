//! `warren::batch::placement` (src/batch/placement.rs): a batch's workers on CPUs of their own.

use warren::batch::placement::{os, Placement};

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
