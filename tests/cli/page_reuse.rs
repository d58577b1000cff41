//! Memory one map frees is kept for the next (the binary sets mimalloc's purge delay), instead of
//! being handed back to the system and faulted in again, zeroed, for every map: a batch of big
//! towns takes about as many page faults for 40 maps as for 10, and dead towns do not pile up
//! between Lua's collections. (Page faults and peak memory are each child's own, from `wait4`,
//! so other tests running children meanwhile do not count.)
#![cfg(unix)]

use crate::common::process::{run, warren_in, Finished};
use crate::common::root;

/// One `warren batch` of `count` 399×399 towns, with `env` set, run to its end.
fn towns(count: u32, env: &[(&str, &str)]) -> Finished {
    let done = run(warren_in(&root())
        .args(["batch", "scripts/townmaze.lua", "--jobs", "1"])
        .args(["--set", "width=399", "--set", "height=399"])
        .args(["--count", &count.to_string()])
        .envs(env.iter().copied()));
    assert_eq!(done.code, 0, "{}", done.stderr);
    done
}

/// Page faults of one `warren batch` of `count` 399×399 towns, with `env` set.
fn faults(count: u32, env: &[(&str, &str)]) -> i64 {
    towns(count, env).minor_faults as i64
}

#[test]
fn a_batch_of_towns_reuses_the_memory_its_maps_free() {
    // Dead towns do not pile up between Lua's collections: the peak, in KiB, of a batch of 5
    // towns and of one of 60.
    let five = towns(5, &[]).peak_kib;
    let sixty = towns(60, &[]).peak_kib;
    // Measured: 43 MB both (collecting only when Lua's own heap asked: 129 MB after 60).
    assert!(
        sixty < five + 16 * 1024,
        "peak {five} KiB for 5 towns, {sixty} KiB for 60"
    );

    // Freed memory waits for the next map, not faulted in again. Measured: no more page faults
    // for the 30 more maps (with a delay of 100 ms, about 1,100 more: the free pages given back
    // every dozen maps and faulted in again); handing the memory back at once, as
    // `MIMALLOC_PURGE_DELAY=0` does: about 21,000 more. The bound tells a delay from none, not
    // 1 s from 100 ms (1 s is mimalloc's own default, which `src/memory.rs` pins). The delay
    // is wall-clock time: a batch that lasts longer than it (on a busy machine) gives its free
    // pages back once a delay (16,500 more at load 12, with 100 ms), so the comparison is tried
    // up to three times and the best attempt counts.
    let mut attempts = Vec::new();
    while attempts.len() < 3 && attempts.iter().all(|&e| e >= 6_000) {
        attempts.push(faults(40, &[]) - faults(10, &[]));
    }
    let extra = *attempts.iter().min().unwrap();
    assert!(
        extra < 6_000,
        "30 more maps took {attempts:?} more page faults (three attempts)"
    );
    // The environment still decides when it says otherwise, and then the difference shows.
    let purged =
        faults(40, &[("MIMALLOC_PURGE_DELAY", "0")]) - faults(10, &[("MIMALLOC_PURGE_DELAY", "0")]);
    assert!(
        purged > extra + 1000,
        "purging at once: {purged} more faults, keeping: {extra}"
    );
}
