//! A memory limit several hosts share, in whole steps (`shared_limit.rs`), and the turns they
//! take (`turns.rs`).

use warren_lua::shared_limit::{Share, SharedLimit, STEP};

#[test]
fn shares_add_up_and_go_when_dropped() {
    let limit = SharedLimit::new(100 * STEP);
    let mut a = Share::new(limit.clone());
    let mut b = Share::new(limit.clone());
    a.restart(40 * STEP);
    b.restart(10 * STEP);
    assert_eq!(limit.held(), 50 * STEP);
    assert!(!b.over(50 * STEP, 50 * STEP), "40 + 50 fit in 100");
    assert!(b.over(61 * STEP, 61 * STEP), "40 + 61 do not");
    assert!(a.check(40 * STEP, 40 * STEP, 0), "a sees the same total");
    b.settle(60 * STEP);
    assert!(!a.check(40 * STEP, 40 * STEP, 0), "40 + 60 fit");
    assert!(
        a.check(40 * STEP, 40 * STEP, STEP),
        "one more step for a does not"
    );
    drop(b);
    assert_eq!(limit.held(), 40 * STEP);
    a.settle(0);
    assert_eq!(limit.held(), 0);
}

#[test]
fn small_moves_touch_nothing_shared() {
    let limit = SharedLimit::new(10 * STEP);
    let mut a = Share::new(limit.clone());
    a.restart(STEP);
    assert!(!a.over(STEP + STEP / 2, STEP + STEP / 2));
    assert_eq!(limit.held(), STEP, "half a step is not said");
    assert!(!a.over(2 * STEP, 2 * STEP));
    assert_eq!(limit.held(), 2 * STEP, "a whole step is");
}

#[test]
fn a_peak_between_checks_counts() {
    let limit = SharedLimit::new(10 * STEP);
    let mut a = Share::new(limit.clone());
    let mut b = Share::new(limit.clone());
    b.restart(6 * STEP);
    a.restart(0);
    assert!(a.over(0, 5 * STEP), "a held 5 beside b's 6 at some point");
}

/// How many times [`count_release`] was called.
static RELEASES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A release that only counts its calls.
fn count_release() {
    RELEASES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

#[test]
fn turns_give_memory_back_once_a_generation_has_run_out_of_it() {
    use crate::common::{params, registry, temp_tree};
    use warren_lua::{turns::Turns, Host, Limits, Run};
    let dir = temp_tree(&[(
        "hog.lua",
        "return { params = { width = { default = 8 }, height = { default = 8 },\n\
         hog = { default = false } },\n\
         generate = function(map, ctx)\n\
         if ctx.params.hog then local keep = {} for i = 1, 1e8 do keep[i] = { i } end end\n\
         end }\n",
    )]);
    let limits = Limits {
        memory: 16 << 20,
        ..Limits::default()
    };
    let host = Host::load(&dir.path().join("hog.lua"), registry(), limits).unwrap();
    let turns = Turns::releasing(limits.memory, count_release);
    turns.join(&host);
    let generate = |hog: &str| {
        let params = params(&host, &[("hog", hog)]);
        let run = Run {
            seed: 1,
            params: &params,
            depth: 1,
            above: None,
        };
        turns.take(&host, || host.generate(&run).is_ok())
    };
    let releases = || RELEASES.load(std::sync::atomic::Ordering::SeqCst);
    assert!(generate("false"));
    assert_eq!(
        releases(),
        0,
        "a generation within its limit keeps what it freed"
    );
    assert!(!generate("true"));
    assert!(host.out_of_memory());
    assert_eq!(releases(), 1, "one that ran out gives it back");
    assert!(generate("false"));
    assert!(!host.out_of_memory());
    assert_eq!(releases(), 1);
}
