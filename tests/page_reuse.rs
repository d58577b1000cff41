//! Memory one map frees is kept for the next (the binary sets mimalloc's purge delay), instead of
//! being handed back to the system and faulted in again, zeroed, for every map: a batch of big
//! towns takes about as many page faults for 40 maps as for 10, and dead towns do not pile up
//! between Lua's collections. (Alone in its test binary: the page faults and peak memory are
//! counted over this process's children.)

/// Resource use of this process's finished children so far.
fn children() -> libc::rusage {
    // SAFETY: `getrusage` fills the zeroed struct it is given.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    }
}

/// Minor page faults of this process's finished children so far.
fn child_faults() -> i64 {
    children().ru_minflt
}

/// Runs one `warren batch` of `count` 399×399 towns, with `env` set.
fn towns(count: u32, env: &[(&str, &str)]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["batch", "scripts/townmaze.lua", "--jobs", "1"])
        .args(["--set", "width=399", "--set", "height=399"])
        .args(["--count", &count.to_string()])
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Page faults of one `warren batch` of `count` 399×399 towns, with `env` set.
fn faults(count: u32, env: &[(&str, &str)]) -> i64 {
    let before = child_faults();
    towns(count, env);
    child_faults() - before
}

/// One test, so that nothing else runs children of this process meanwhile.
#[test]
fn a_batch_of_towns_reuses_the_memory_its_maps_free() {
    // Dead towns do not pile up between Lua's collections: the largest child's peak, in KiB,
    // after 5 towns, then after 60.
    towns(5, &[]);
    let five = children().ru_maxrss;
    towns(60, &[]);
    let sixty = children().ru_maxrss;
    // Measured: 43 MB both (collecting only when Lua's own heap asked: 129 MB after 60).
    assert!(
        sixty < five + 16 * 1024,
        "peak {five} KiB after 5 towns, {sixty} KiB after 60"
    );

    // Freed memory is kept for the next map, not faulted in again.
    let extra = faults(40, &[]) - faults(10, &[]);
    // Measured: no more page faults for the 30 more maps (handing the memory back, as
    // `MIMALLOC_PURGE_DELAY=0` does: about 21,000 more).
    assert!(extra < 300, "30 more maps took {extra} more page faults");
    // The environment still decides when it says otherwise, and then the difference shows.
    let purged =
        faults(40, &[("MIMALLOC_PURGE_DELAY", "0")]) - faults(10, &[("MIMALLOC_PURGE_DELAY", "0")]);
    assert!(
        purged > extra + 1000,
        "purging at once: {purged} more faults, keeping: {extra}"
    );
}
