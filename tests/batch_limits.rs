//! `warren batch` held to its limits through the real binary: memory that does not grow with
//! `--count`, and signals that stop a batch cleanly with its finished maps kept.
#![cfg(unix)]

mod common;
use common::process::{finish, run, signal_when, warren_in};
use common::{copy_regions, temp_tree};
use std::path::Path;

/// A recipe that costs next to nothing per map, so many maps run in little time.
const TINY: &str = r#"return {
  name = "tiny",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    map:fill("floor")
    ctx.metric("seed_mod", ctx.seed % 1000)
  end,
}"#;

/// A recipe that takes a few milliseconds per map, so a batch is still running when signalled.
const SLOW: &str = r#"return {
  name = "slow",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local x = 0
    for i = 1, 2000000 do x = x + i end
    map:fill("floor")
    ctx.metric("seed_mod", ctx.seed % 7)
  end,
}"#;

fn tree() -> tempfile::TempDir {
    let dir = temp_tree(&[("tiny.lua", TINY), ("slow.lua", SLOW)]);
    copy_regions(dir.path());
    dir
}

/// Peak memory of a one-job batch of `count` tiny maps with records and a plot.
fn batch_peak(dir: &Path, count: u64) -> u64 {
    let done = run(warren_in(dir).args([
        "batch",
        "tiny.lua",
        "--jobs",
        "1",
        "--count",
        &count.to_string(),
        "--records",
        "r.jsonl",
        "--plot",
        "p.png",
    ]));
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(done.stdout.starts_with(&format!("tiny: {count} maps")));
    done.peak_kib
}

#[test]
fn batch_memory_does_not_grow_with_the_count() {
    let dir = tree();
    let small = batch_peak(dir.path(), 10_000);
    let large = batch_peak(dir.path(), 300_000);
    // Keeping each map's record (some 300 bytes) would add about 85 MiB for the extra maps.
    assert!(
        large < small + 8 * 1024,
        "peak {small} KiB at 10,000 maps but {large} KiB at 300,000"
    );
    let lines = std::fs::read_to_string(dir.path().join("r.jsonl")).expect("records");
    assert_eq!(lines.lines().count(), 300_001, "a header and every map");
}

/// Runs `slow.lua` over `count` seeds and signals it 0.4 s after it started generating,
/// returning how it ended.
fn interrupted(dir: &Path, count: u64, signal: i32, extra: &[&str]) -> common::process::Finished {
    let child = warren_in(dir)
        .args([
            "batch",
            "slow.lua",
            "--count",
            &count.to_string(),
            "--records",
            "r.jsonl",
        ])
        .args(extra)
        .spawn()
        .expect("warren starts");
    // The records' temporary file appears once the batch has started generating.
    let started = || temp_files(dir).iter().any(|f| f.contains("r.jsonl"));
    signal_when(
        &child,
        signal,
        std::time::Duration::from_millis(400),
        started,
    );
    finish(child)
}

/// Files in `dir` that look like warren's temporary files.
fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// The seeds of a records file, header skipped.
fn seeds(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .expect("records written")
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("JSON")["seed"]
                .as_u64()
                .expect("seed")
        })
        .collect()
}

#[test]
fn sigint_keeps_the_finished_maps_and_says_how_to_resume() {
    let dir = tree();
    let done = interrupted(
        dir.path(),
        100_000,
        libc::SIGINT,
        &["--jobs", "2", "--set", "width=20"],
    );
    assert_eq!(done.code, 130, "{}", done.stderr);
    assert!(
        temp_files(dir.path()).is_empty(),
        "{:?}",
        temp_files(dir.path())
    );
    let kept = seeds(&dir.path().join("r.jsonl"));
    let n = kept.len() as u64;
    assert!(n > 0 && n < 100_000, "{n} maps kept");
    assert_eq!(
        kept,
        (0..n).collect::<Vec<_>>(),
        "the finished maps, in order, without a gap"
    );
    assert!(
        done.stdout
            .starts_with(&format!("slow: {n} maps (seeds 0..={})", n - 1)),
        "{}",
        done.stdout
    );
    let resume = format!(
        "resume with: warren batch slow.lua --seed-start {n} --count {} --set width=20 --records r-from-{n}.jsonl",
        100_000 - n
    );
    assert!(
        done.stderr
            .contains(&format!("interrupted by SIGINT after {n} of 100000 maps")),
        "{}",
        done.stderr
    );
    assert!(done.stderr.contains(&resume), "{}", done.stderr);
    assert!(done.stderr.contains(&format!(
        "then join them: warren stats merge r.jsonl r-from-{n}.jsonl"
    )));
}

#[test]
fn sigterm_exits_143_and_resuming_completes_the_statistics() {
    let dir = tree();
    let count = 400;
    let done = interrupted(dir.path(), count, libc::SIGTERM, &["--jobs", "1"]);
    assert_eq!(done.code, 143, "{}", done.stderr);
    assert!(temp_files(dir.path()).is_empty());
    let n = seeds(&dir.path().join("r.jsonl")).len() as u64;
    assert!(
        done.stderr.contains("interrupted by SIGTERM"),
        "{}",
        done.stderr
    );
    // The merge refuses the interrupted file alone, naming what is missing.
    let alone = run(warren_in(dir.path()).args(["stats", "merge", "r.jsonl"]));
    assert_eq!(alone.code, 1);
    assert!(
        alone
            .stderr
            .contains(&format!("seeds {n}..={} missing", count - 1)),
        "{}",
        alone.stderr
    );
    // Run the printed command, merge, and compare with one uninterrupted run.
    let line = done
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("resume with: warren "))
        .expect("a resume line");
    let rest = run(warren_in(dir.path()).args(line.split(' ')));
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    let merged = run(warren_in(dir.path()).args([
        "stats",
        "merge",
        "r.jsonl",
        &format!("r-from-{n}.jsonl"),
    ]));
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let whole =
        run(warren_in(dir.path()).args(["batch", "slow.lua", "--count", &count.to_string()]));
    let statistics = |t: &str| t[..t.find("time µs").expect("times")].to_string();
    assert_eq!(statistics(&merged.stdout), statistics(&whole.stdout));
}
