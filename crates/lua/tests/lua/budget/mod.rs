//! The budgets: instructions, memory (Lua's and Rust's together), time, cancellation, output
//! and one string's size (formerly the unit tests of `crates/lua/src/budget.rs`), and the
//! memory account and limits they read.

/// The per-thread memory account of a counting allocator (`account.rs`).
mod account;
/// Region files lower the limits in force, flags are checked (`limits.rs`).
mod limits;
/// Large grows of the Lua heap kept or taken back (`regrow.rs`).
mod regrow;
/// A memory limit shared by several hosts (`shared_limit.rs`), and the turns they take
/// (`turns.rs`).
mod shared_limit;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warren_lua::budget::{
    Budget, Exceeded, CLOCK_EVERY_BYTES, CLOCK_EVERY_INSTRUCTIONS, COLLECTION_TIMED_BYTES,
    MAX_OUTPUT_BYTES, MAX_STRING_BYTES, TOUCHED_GROW_BYTES,
};
use warren_lua::Limits;

fn limits(instructions: u64, memory: usize) -> Limits {
    Limits {
        instructions,
        memory,
        time: Duration::from_secs(60),
    }
}

#[test]
fn most_lua_allocations_grow_quickly_under_a_counting_allocator() {
    // This test binary's allocator does not count: `live()` stays put, so what is quick
    // depends on the budget alone.
    let plain = Budget::new(limits(u64::MAX, 1 << 30));
    plain.begin(limits(u64::MAX, 1 << 30));
    assert!(
        !plain.grows_quickly(16),
        "without a counting allocator, always checked"
    );
    let b = Budget::counted(limits(u64::MAX, 1 << 30));
    b.begin(limits(u64::MAX, 1 << 30));
    assert!(b.grows_quickly(16));
    // The clock is looked at after CLOCK_EVERY_BYTES of growth, quick or not.
    assert!(b.grows_quickly(CLOCK_EVERY_BYTES - 17));
    assert!(!b.grows_quickly(1), "the clock is due");
    assert!(b.allocate(0, 1, false), "looked at, and it is not late");
    assert!(b.grows_quickly(1));
    assert!(
        !b.grows_quickly(CLOCK_EVERY_BYTES),
        "a big block is always checked"
    );
    // Near the limit: what the generation holds besides (its map) counts.
    let near = Budget::counted(limits(u64::MAX, 1 << 20));
    near.begin(limits(u64::MAX, 1 << 20));
    near.hold_bytes((1 << 20) - 1000);
    assert!(near.grows_quickly(1000));
    assert!(
        !near.grows_quickly(1001),
        "past the limit: checked, and refused"
    );
    assert!(!near.allocate(0, 1001, false));
    assert_eq!(near.exceeded(), Some(Exceeded::Memory));
    assert!(!near.grows_quickly(1), "no growth after the budget ran out");
    // Ended, the next generation starts afresh.
    near.end();
    near.begin(limits(u64::MAX, 1 << 20));
    assert!(near.grows_quickly(1));
}

#[test]
fn the_lua_heap_is_counted_by_the_blocks_the_allocator_moved() {
    let b = Budget::counted(limits(u64::MAX, 1 << 30));
    b.begin(limits(u64::MAX, 1 << 30));
    b.count_lua_blocks(4096);
    b.count_lua_blocks(-96);
    assert_eq!(b.lua_bytes(), 4000);
    b.count_lua_blocks(-5000);
    assert_eq!(b.lua_bytes(), 0, "never below nothing");
}

#[test]
fn charges_trip_the_instruction_budget_and_stay_tripped() {
    let b = Budget::new(limits(100, 1 << 20));
    assert!(
        b.charge(500, || None).is_ok(),
        "inactive budgets do not count"
    );
    b.begin(limits(100, 1 << 20));
    assert!(b.charge(60, || None).is_ok());
    assert_eq!(
        b.charge(60, || Some("t.lua:3".into())),
        Err(Exceeded::Instructions)
    );
    assert_eq!(b.charge(0, || None), Err(Exceeded::Instructions));
    assert!(
        !b.allocate(0, 16, false),
        "no growth after the budget ran out"
    );
    assert!(b.allocate(16, 0, false), "frees always succeed");
    let msg = b.message("t.lua").unwrap();
    assert!(msg.starts_with("t.lua:3: instruction budget exceeded (100 instructions"));
    b.end();
    assert_eq!(b.exceeded(), None);
    assert!(
        b.allocate(0, 1 << 30, true),
        "inactive budgets do not limit"
    );
    b.begin(limits(100, 1 << 20));
    assert!(b.charge(60, || None).is_ok());
}

#[test]
fn memory_counts_lua_and_rust_bytes_together() {
    let b = Budget::new(limits(u64::MAX, 1000));
    b.begin(limits(u64::MAX, 1000));
    assert!(b.allocate(0, 600, false));
    assert!(b.charge_bytes(300, || None).is_ok());
    assert!(!b.allocate(0, 200, false), "600 + 300 + 200 > 1000");
    assert_eq!(b.exceeded(), Some(Exceeded::Memory));
    assert_eq!(b.peak_bytes(), 900);
    b.note_location("lib.lua:7");
    b.end();
    b.begin(limits(u64::MAX, 1000));
    assert_eq!(b.lua_bytes(), 600, "memory held stays counted");
    assert!(b.charge_bytes(500, || None).is_err());
    assert!(b
        .message("t.lua")
        .unwrap()
        .starts_with("t.lua: memory limit"));
}

#[test]
fn the_clock_stops_allocation_and_charges() {
    let b = Budget::new(Limits::default());
    b.begin(Limits {
        instructions: u64::MAX,
        memory: usize::MAX,
        time: Duration::ZERO,
    });
    b.note_location("x.lua:2");
    std::thread::sleep(Duration::from_millis(2));
    assert!(
        b.allocate(0, 100, false),
        "small allocations skip the clock"
    );
    assert!(!b.allocate(0, CLOCK_EVERY_BYTES, false));
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
    let msg = b.message("t.lua").unwrap();
    assert!(msg.starts_with("x.lua:2: time budget exceeded"), "{msg}");
    assert!(msg.ends_with("(recipe t.lua)"), "{msg}");
}

/// A budget with one second on the clock, started `spent` ago.
fn one_second_budget(spent: Duration) -> Budget {
    let one_second = Limits {
        instructions: u64::MAX,
        memory: usize::MAX,
        time: Duration::from_secs(1),
    };
    let b = Budget::new(one_second);
    b.begin_at(one_second, Instant::now() - spent);
    b
}

#[test]
fn an_allocation_too_large_to_use_in_the_time_left_is_over_time() {
    // 10 ms left: a block under TOUCHED_GROW_BYTES is used in 2.5 ms per MiB at the expected
    // worst, its page faults included: 3 MiB in 7.5 ms, 3.5 MiB in 8.75 (a moved block is used
    // whole, not only its new bytes).
    let b = one_second_budget(Duration::from_millis(990));
    assert!(b.allocate(0, 3 << 20, false));
    assert_eq!(b.exceeded(), None);
    assert!(!b.allocate(3 << 20, 4 << 20, false), "4 MiB take 10 ms");
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
    // Half a second left: a larger block is faulted in by the allocator, which looks at the
    // clock as it goes; Lua's fill after is expected at 0.5 ms per MiB: 512 MiB in 256 ms, a
    // whole GiB in 512.
    let b = one_second_budget(Duration::from_millis(500));
    assert!(b.allocate(64 << 20, 512 << 20, false));
    assert!(!b.allocate(512 << 20, 1 << 30, false));
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
    let fresh = one_second_budget(Duration::ZERO);
    assert!(fresh.allocate(0, 1 << 30, false), "the whole second left");
}

#[test]
fn rust_side_data_too_large_to_use_in_the_time_left_are_over_time() {
    // Half a second left: 64 MiB are put to use in 160 ms at 2.5 ms per MiB, 256 MiB in 640.
    let b = one_second_budget(Duration::from_millis(500));
    assert_eq!(b.check_first_use(64 << 20, || None), Ok(()));
    assert_eq!(b.charge_bytes_for(64 << 20, "a field", || None), Ok(()));
    assert_eq!(b.check_first_use(256 << 20, || None), Err(Exceeded::Time));
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
    // A millisecond left: data under TOUCHED_GROW_BYTES pass, the binding's own work is charged
    // as it goes; 4 MiB (10 ms) do not.
    let late = one_second_budget(Duration::from_millis(999));
    assert_eq!(
        late.check_first_use(TOUCHED_GROW_BYTES - 1, || None),
        Ok(())
    );
    assert_eq!(
        late.charge_bytes_for(TOUCHED_GROW_BYTES, "a field", || None),
        Err(Exceeded::Time)
    );
    let between_runs = Budget::new(limits(u64::MAX, usize::MAX));
    assert_eq!(between_runs.check_first_use(1 << 40, || None), Ok(()));
}

#[test]
fn faulting_a_large_block_in_stops_when_its_fill_could_not_end_in_time() {
    let b = one_second_budget(Duration::from_millis(500));
    assert!(
        b.may_go_on_touching(512 << 20),
        "filled in 256 ms of the 500 left"
    );
    assert!(!b.may_go_on_touching(1 << 30), "512 ms to fill");
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
    let cancelled = one_second_budget(Duration::ZERO);
    cancelled.set_cancel(Some(Arc::new(AtomicBool::new(true))));
    assert!(!cancelled.may_go_on_touching(TOUCHED_GROW_BYTES));
    assert_eq!(cancelled.exceeded(), Some(Exceeded::Cancelled));
    let between_runs = Budget::new(limits(u64::MAX, usize::MAX));
    assert!(
        between_runs.may_go_on_touching(1 << 40),
        "no clock between generations"
    );
}

#[test]
fn a_collection_that_would_end_past_the_clock_waits() {
    // Half a second left: a step through 16 MiB is expected to take 6.4 ms, through 2 GiB 820.
    let b = one_second_budget(Duration::from_millis(500));
    assert!(b.may_collect(16 << 20));
    b.collected(16 << 20);
    assert!(!b.may_collect(2 << 30), "the step would end past the clock");
    b.end();
    assert!(
        b.may_collect(2 << 30),
        "between generations every step runs"
    );
}

#[test]
fn the_collection_gate_learns_how_long_steps_take() {
    let gib = 1 << 30;
    // Half a second left: 1 GiB is expected at 0.2 ms a MiB, twice over: 410 ms.
    let b = one_second_budget(Duration::from_millis(500));
    assert!(b.may_collect(gib));
    // Slow steps (2 ms a MiB) move the expectation a quarter of the way each: 0.65 ms a MiB
    // after one, 1.3 ms (twice over) for 1 GiB: past the clock.
    b.learn_collection(COLLECTION_TIMED_BYTES, Duration::from_millis(32));
    assert!(!b.may_collect(gib));
    // Fast steps bring it back down, never under the floor.
    for _ in 0..20 {
        b.learn_collection(COLLECTION_TIMED_BYTES, Duration::ZERO);
    }
    assert!(b.may_collect(gib));
    assert!(!b.may_collect(2 * gib), "0.2 ms a MiB at least");
    // A quarter of the way, not all of it: with a second left, 512 MiB at 1.3 ms a MiB runs
    // (666 ms), where the step's own 2 ms, twice over, would hold it back (2 s).
    let fresh = one_second_budget(Duration::ZERO);
    fresh.learn_collection(COLLECTION_TIMED_BYTES, Duration::from_millis(32));
    assert!(fresh.may_collect(512 << 20));
    assert!(!fresh.may_collect(gib));
    // Small steps teach nothing (their fixed costs would make every large step look slow).
    let small = one_second_budget(Duration::from_millis(500));
    small.learn_collection(COLLECTION_TIMED_BYTES - 1, Duration::from_secs(10));
    assert!(small.may_collect(gib));
}

#[test]
fn one_slowed_step_never_holds_every_collection_back() {
    // A step timed while the thread was descheduled for a second: the expectation moves a
    // quarter of the way and stops at 16 times the floor (3.2 ms a MiB), so with a whole
    // second left a 128 MiB step still runs (820 ms expected), where the raw rate (62 ms a
    // MiB) would hold back any step over 8 MiB until the memory limit forced one.
    let b = one_second_budget(Duration::ZERO);
    b.learn_collection(COLLECTION_TIMED_BYTES, Duration::from_secs(1));
    assert!(b.may_collect(128 << 20));
    assert!(!b.may_collect(256 << 20));
}

#[test]
fn charges_look_at_the_clock_once_per_checkpoint() {
    let b = Budget::new(Limits::default());
    b.begin(Limits {
        instructions: u64::MAX,
        memory: usize::MAX,
        time: Duration::from_millis(1),
    });
    // The clock is read when the budget begins: the first look is one interval on (a small
    // map's charges read it not at all), and every later one an interval after the last.
    std::thread::sleep(Duration::from_millis(2));
    assert!(
        b.charge(1, || None).is_ok(),
        "the first charge does not look"
    );
    assert!(b.charge(CLOCK_EVERY_INSTRUCTIONS - 2, || None).is_ok());
    assert_eq!(
        b.exceeded(),
        None,
        "no look at the clock before the checkpoint"
    );
    assert!(
        b.charge(1, || None).is_err(),
        "the checkpoint sees the time is up"
    );
    assert_eq!(b.exceeded(), Some(Exceeded::Time));
}

#[test]
fn a_run_that_begins_cancelled_stops_at_its_first_charge() {
    // The first look at the clock waits an interval, but not when the flag is already set: a
    // small map after a cancel ends at once, as `Host::set_cancel` promises.
    let b = Budget::new(Limits::default());
    b.set_cancel(Some(Arc::new(AtomicBool::new(true))));
    b.begin(limits(u64::MAX, usize::MAX));
    assert_eq!(b.charge(1, || None), Err(Exceeded::Cancelled));
}

#[test]
fn a_cancel_flag_stops_the_next_checkpoint() {
    let b = Budget::new(Limits::default());
    let flag = Arc::new(AtomicBool::new(false));
    b.set_cancel(Some(flag.clone()));
    b.begin(limits(u64::MAX, usize::MAX));
    assert!(b.charge(CLOCK_EVERY_INSTRUCTIONS, || None).is_ok());
    flag.store(true, Ordering::Relaxed);
    assert!(
        b.allocate(0, 100, false),
        "between checkpoints nothing looks"
    );
    assert_eq!(
        b.charge(CLOCK_EVERY_INSTRUCTIONS, || Some("t.lua:9".into())),
        Err(Exceeded::Cancelled)
    );
    assert_eq!(b.message("t.lua").unwrap(), "t.lua:9: generation cancelled");
}

#[test]
fn output_has_a_quota() {
    let b = Budget::new(Limits::default());
    b.begin(Limits::default());
    assert_eq!(b.output(MAX_OUTPUT_BYTES), Some(true));
    assert_eq!(b.output(1), Some(false));
    assert_eq!(b.output(1), None);
    b.begin(Limits::default());
    assert_eq!(b.output(10), Some(true));
}

#[test]
fn one_string_may_not_exceed_the_cap() {
    let b = Budget::new(Limits::default());
    b.begin(limits(u64::MAX, usize::MAX));
    assert!(b.allocate(0, MAX_STRING_BYTES, true));
    assert!(b.allocate(0, MAX_STRING_BYTES + 1, false), "not a string");
    assert!(!b.allocate(0, MAX_STRING_BYTES + 1, true));
    assert_eq!(b.exceeded(), Some(Exceeded::String));
}

#[test]
fn blocks_the_allocator_faults_in_keep_what_lua_had_in_them() {
    // Every block here from 4 MiB up is a fresh one the allocator faults in and copies the old
    // block into (TOUCHED_GROW_BYTES): a table's array and hash part growing through them, and
    // a string made in one.
    let recipe = r#"return {
        params = { width = { default = 8 }, height = { default = 8 } },
        generate = function(map)
        local n = 1 << 21
        local array = {}
        for i = 1, n do array[i] = i * 3 end
        local sum = 0
        for i = 1, #array do sum = sum + array[i] end
        assert(#array == n and sum == 3 * n * (n + 1) // 2, "the array: " .. #array .. " " .. sum)
        local hash = {}
        for i = 1, 1 << 18 do hash["k" .. i] = i end
        local count, keys = 0, 0
        for k, v in pairs(hash) do
            count = count + 1
            assert(k == "k" .. v, k)
            keys = keys + v
        end
        assert(count == 1 << 18 and keys == (1 << 17) * ((1 << 18) + 1), "the hash part")
        local s = string.rep("ab", 6 << 20)
        assert(#s == 12 << 20 and s:sub(-3) == "bab" and not s:find("aa", 1, true), "the string")
    end }"#;
    let dir = tempfile::tempdir().unwrap();
    let host = crate::common::host_for(dir.path(), "grow", recipe, Limits::default());
    crate::common::generate_at(&host, 1, &[], 1, None).expect("every grow keeps its contents");
}
