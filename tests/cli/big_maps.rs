//! Big maps through the real binary: a generation plus its text output in about 5 bytes a cell
//! (the map itself; nothing per cell beside it), measured as the process's peak memory.
#![cfg(unix)]

use crate::common::process::{run, warren_in};
use crate::common::root;

/// Peak memory (KiB) of `warren run scripts/cave.lua` at `side`², text to stdout.
fn cave_peak(side: u32) -> u64 {
    let size = side.to_string();
    let done = run(warren_in(&root()).args([
        "run",
        "scripts/cave.lua",
        "--seed",
        "1",
        "--set",
        &format!("width={size}"),
        "--set",
        &format!("height={size}"),
        "--format",
        "ascii",
    ]));
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(done.stdout.lines().count(), side as usize);
    done.peak_kib
}

#[test]
fn a_big_cave_and_its_text_take_under_six_bytes_a_cell() {
    let base = cave_peak(64);
    let side = 2048u64;
    let big = cave_peak(side as u32);
    let per_cell = (big.saturating_sub(base) * 1024) as f64 / (side * side) as f64;
    assert!(
        per_cell <= 6.0,
        "{per_cell:.2} bytes a cell ({big} KiB at {side}², {base} KiB at 64²)"
    );
}
