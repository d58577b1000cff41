//! `--jobs 2` against `--jobs 1`: a 20,000-map batch of `scripts/rooms.lua` through the real
//! binary, whole process (start-up, both workers, the last straggler, exit), with the
//! machine's own ceiling measured in the same rounds: two independent one-job processes of
//! 10,000 maps each, started together. On an idle two-core machine the ceiling is close to 2;
//! when something else runs on the second core, the ceiling and the `--jobs 2` ratio fall
//! together, and the last line shows how much of the ceiling one process with two workers
//! reaches. A one-map batch measures what every batch pays once, whatever its jobs (start-up
//! and exit), and with it the best `--jobs 2` could do if its two workers split the rest
//! exactly in half. Rounds alternate (one job, two jobs, two processes, one map, …), and medians
//! are printed:
//!
//! ```text
//! cargo bench --bench jobs
//! ```

use std::process::{Command, Stdio};
use std::time::Instant;

mod common;
use common::median;

/// Maps per batch, and rounds.
const MAPS: u64 = 20_000;
const ROUNDS: usize = 15;

/// `warren batch scripts/rooms.lua` over `count` seeds from `first`, with `jobs` workers.
fn batch(count: u64, first: u64, jobs: u32) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_warren"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["batch", "scripts/rooms.lua", "--count", &count.to_string()])
        .args([
            "--seed-start",
            &first.to_string(),
            "--jobs",
            &jobs.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Seconds from starting every command to the last one's exit.
fn wall(commands: impl IntoIterator<Item = Command>) -> f64 {
    let started = Instant::now();
    let children: Vec<_> = commands
        .into_iter()
        .map(|mut c| match c.spawn() {
            Ok(child) => child,
            Err(e) => panic!("warren batch starts: {e}"),
        })
        .collect();
    for mut child in children {
        match child.wait() {
            Ok(status) if status.success() => {}
            other => panic!("warren batch: {other:?}"),
        }
    }
    started.elapsed().as_secs_f64()
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 {
        println!("jobs: one core here, nothing to compare");
        return;
    }
    let one = || wall([batch(MAPS, 0, 1)]);
    let two = || wall([batch(MAPS, 0, 2)]);
    let pair = || wall([batch(MAPS / 2, 0, 1), batch(MAPS / 2, MAPS / 2, 1)]);
    let fixed = || wall([batch(1, 0, 1)]);
    // Warm-up: the binary, the recipe and the region files in the page cache.
    let _ = (one(), two(), pair(), fixed());
    let mut rounds = [(); 4].map(|()| Vec::with_capacity(ROUNDS));
    for _ in 0..ROUNDS {
        rounds[0].push(one());
        rounds[1].push(two());
        rounds[2].push(pair());
        rounds[3].push(fixed());
    }
    let [one, two, pair, fixed] = rounds.map(median);
    println!("{MAPS} rooms maps, whole process, medians of {ROUNDS} alternating rounds:");
    println!(
        "  --jobs 1:                                  {:8.1} ms",
        one * 1e3
    );
    println!(
        "  --jobs 2:                                  {:8.1} ms",
        two * 1e3
    );
    println!(
        "  two --jobs 1 processes of half each:       {:8.1} ms",
        pair * 1e3
    );
    println!(
        "  one map (start-up and exit, paid once):    {:8.1} ms",
        fixed * 1e3
    );
    println!(
        "  --jobs 2 speed-up:                         {:8.2}",
        one / two
    );
    println!(
        "  best with that start-up (the rest halved): {:8.2}",
        one / (fixed + (one - fixed) / 2.0)
    );
    println!(
        "  the machine's ceiling (two processes):     {:8.2}",
        one / pair
    );
    println!(
        "  share of the ceiling --jobs 2 reaches:     {:8.2}",
        pair / two
    );
}
