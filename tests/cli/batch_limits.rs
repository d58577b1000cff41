//! `warren batch` held to its limits through the real binary: memory that does not grow with
//! `--count`, and signals that stop a batch cleanly with its finished maps kept.
#![cfg(unix)]

use crate::common;
use crate::common::process::{finish, run, signal_when, warren_in};
use crate::common::{copy_regions, temp_tree};
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

/// Runs `slow.lua` over `count` seeds and signals it as soon as it has journaled `after`
/// maps (a few tens of milliseconds a map: far from done at any machine's speed), returning
/// how it ended.
fn interrupted(
    dir: &Path,
    (count, after): (u64, usize),
    signal: i32,
    extra: &[&str],
) -> common::process::Finished {
    let child = warren_in(dir)
        .args(slow_batch(count))
        .args(extra)
        .spawn()
        .expect("warren starts");
    signal_when(&child, signal, std::time::Duration::ZERO, || {
        journaled(dir, "r.jsonl", after)
    });
    finish(child)
}

/// Whether the resume journal of the records file `records` in `dir` holds `maps` maps or more
/// (a line each, after its header).
fn journaled(dir: &Path, records: &str, maps: usize) -> bool {
    journal_of(dir, records)
        .is_some_and(|j| std::fs::read_to_string(j).is_ok_and(|t| t.lines().count() > maps))
}

/// `warren batch slow.lua --count COUNT --records r.jsonl`.
fn slow_batch(count: u64) -> Vec<String> {
    [
        "batch",
        "slow.lua",
        "--count",
        &count.to_string(),
        "--records",
        "r.jsonl",
    ]
    .map(String::from)
    .to_vec()
}

/// The resume journal of `r.jsonl` in `dir`, once the batch has started generating.
fn journal(dir: &Path) -> Option<std::path::PathBuf> {
    journal_of(dir, "r.jsonl")
}

/// The resume journal of the records file `records` in `dir`, once its batch has started.
fn journal_of(dir: &Path, records: &str) -> Option<std::path::PathBuf> {
    let prefix = format!(".{records}.warren-resume-");
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
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
        (100_000, 4),
        libc::SIGINT,
        &["--jobs", "2", "--set", "width=20"],
    );
    assert_eq!(done.code, 130, "{}", done.stderr);
    assert!(
        temp_files(dir.path()).is_empty(),
        "{:?}",
        temp_files(dir.path())
    );
    assert!(
        !dir.path().join("r.jsonl").exists(),
        "the records file appears only when the batch completes"
    );
    let journal = journal(dir.path()).expect("the journal is kept");
    let kept = seeds(&journal);
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
    assert!(
        done.stderr
            .contains(&format!("interrupted by SIGINT after {n} of 100000 maps")),
        "{}",
        done.stderr
    );
    // The same command, every flag as given, continues after the last kept seed.
    let resume = "resume with: warren batch slow.lua --count 100000 --records r.jsonl --jobs 2 --set width=20\n";
    assert!(done.stderr.contains(resume), "{}", done.stderr);
    assert!(
        done.stderr
            .contains(&format!("(it continues from seed {n})")),
        "{}",
        done.stderr
    );
}

#[test]
fn sigterm_exits_143_and_the_same_command_completes_the_statistics() {
    let dir = tree();
    let count = 40;
    let done = interrupted(dir.path(), (count, 4), libc::SIGTERM, &["--jobs", "1"]);
    assert_eq!(done.code, 143, "{}", done.stderr);
    assert!(temp_files(dir.path()).is_empty());
    assert!(
        done.stderr.contains("interrupted by SIGTERM"),
        "{}",
        done.stderr
    );
    let n = seeds(&journal(dir.path()).expect("a journal")).len() as u64;
    // Run the printed command, and compare with one uninterrupted run.
    let line = done
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("resume with: warren "))
        .expect("a resume line");
    let rest = run(warren_in(dir.path()).args(line.split(' ')));
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    assert!(
        rest.stderr.contains(&format!(
            "continuing an interrupted batch: seeds 0..={} are done",
            n - 1
        )),
        "{}",
        rest.stderr
    );
    assert_eq!(
        seeds(&dir.path().join("r.jsonl")),
        (0..count).collect::<Vec<_>>()
    );
    assert_eq!(journal(dir.path()), None, "the journal became the records");
    let whole =
        run(warren_in(dir.path()).args(["batch", "slow.lua", "--count", &count.to_string()]));
    let statistics = |t: &str| t[..t.find("time µs").expect("times")].to_string();
    assert_eq!(statistics(&rest.stdout), statistics(&whole.stdout));
}

#[test]
fn an_edited_recipe_starts_over_instead_of_continuing_an_old_journal() {
    let dir = tree();
    // Ten maps kept: seed 6's `seed_mod` is 6 only under the old recipe.
    let done = interrupted(dir.path(), (40, 10), libc::SIGINT, &["--jobs", "1"]);
    assert_eq!(done.code, 130, "{}", done.stderr);
    let old = journal(dir.path()).expect("a journal");
    let slow = dir.path().join("slow.lua");
    let edited = SLOW.replace("ctx.seed % 7", "ctx.seed % 5");
    std::fs::write(&slow, edited).expect("edit the recipe");
    let again = run(warren_in(dir.path())
        .args(slow_batch(40))
        .args(["--jobs", "1"]));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(!again.stderr.contains("continuing"), "{}", again.stderr);
    assert!(!old.exists(), "the stale journal is removed");
    let text = std::fs::read_to_string(dir.path().join("r.jsonl")).expect("records");
    assert!(
        text.contains("\"seed_mod\":4"),
        "every seed made by the edited recipe"
    );
    assert!(
        !text.contains("\"seed_mod\":6"),
        "no seed of the old recipe kept"
    );
}

/// A recipe of about a millisecond a map, whose maps differ by seed.
const MEDIUM: &str = r#"return {
  name = "medium",
  params = { width = { default = 24 }, height = { default = 12 } },
  generate = function(map, ctx)
    local x = 0
    for i = 1, 100000 do x = x + i end
    map:fill("rock wall")
    local rng = ctx.rng
    for _ = 1, 30 do
      map:set(rng:int(1, map.width - 2), rng:int(1, map.height - 2), "floor")
    end
    ctx.metric("seed_mod", ctx.seed % 13)
  end,
}"#;

/// Every file under `dir` (names relative to it) with its bytes; record files without their
/// timings, which differ from run to run.
fn outputs(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut found = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).expect("below").display().to_string();
            let bytes = std::fs::read(&path).expect("readable");
            let bytes = if name.ends_with(".jsonl") {
                without_times(&bytes)
            } else {
                bytes
            };
            found.insert(name, bytes);
        }
    }
    found
}

/// JSON Lines with every `time_us` object removed.
fn without_times(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    let mut out = String::new();
    for line in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        if let Some(o) = v.as_object_mut() {
            o.remove("time_us");
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn a_batch_killed_at_random_points_and_run_again_equals_an_uninterrupted_one() {
    let command = |dir: &Path| {
        let mut c = warren_in(dir);
        c.args([
            "batch",
            "medium.lua",
            "--count",
            "600",
            "--jobs",
            "2",
            "--set",
            "width=30",
            "--out-dir",
            "out/maps",
            "--records",
            "out/r.jsonl",
        ]);
        c
    };
    let tree = || {
        let dir = temp_tree(&[("medium.lua", MEDIUM)]);
        copy_regions(dir.path());
        std::fs::create_dir(dir.path().join("out")).expect("out");
        dir
    };
    let whole = tree();
    let done = run(&mut command(whole.path()));
    assert_eq!(done.code, 0, "{}", done.stderr);
    let expected = outputs(&whole.path().join("out"));
    assert_eq!(expected.len(), 601, "600 maps and the records");

    let cut = tree();
    let out = cut.path().join("out");
    // Files a killed earlier run left behind, by a process that is gone (no PID is this large).
    std::fs::create_dir(out.join("maps")).expect("maps");
    std::fs::write(out.join("maps/.medium-0007.json.warren-999999999.tmp"), "{").expect("temp");
    std::fs::write(out.join(".r.jsonl.warren-999999999.records.tmp"), "{").expect("temp");
    // Random points, reproducible from the printed seed.
    let mut state = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos() as u64
        | 1;
    eprintln!("interrupt points from seed {state}");
    let mut random = move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    };
    let signals = [
        libc::SIGKILL,
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGKILL,
        libc::SIGKILL,
        libc::SIGINT,
    ];
    let mut finished = false;
    for (round, &signal) in signals.iter().enumerate() {
        let child = command(cut.path()).spawn().expect("warren starts");
        let journal_out = out.clone();
        let started = move || {
            std::fs::read_dir(&journal_out).is_ok_and(|mut d| {
                d.any(|e| {
                    e.is_ok_and(|e| e.file_name().to_string_lossy().contains("warren-resume"))
                })
            })
        };
        let delay = std::time::Duration::from_millis(random(300));
        signal_when(&child, signal, delay, started);
        let ended = finish(child);
        eprintln!(
            "round {round}: signal {signal} {delay:?} after the start: exit {}",
            ended.code
        );
        let expected_code = match signal {
            libc::SIGKILL => 128 + libc::SIGKILL,
            s => 128 + s,
        };
        if ended.code == 0 {
            // The batch finished before the signal came.
            finished = true;
            break;
        }
        assert_eq!(ended.code, expected_code, "round {round}: {}", ended.stderr);
    }
    if !finished {
        let last = run(&mut command(cut.path()));
        assert_eq!(last.code, 0, "{}", last.stderr);
    }
    let got = outputs(&out);
    let extra: Vec<&String> = got.keys().filter(|k| !expected.contains_key(*k)).collect();
    let missing: Vec<&String> = expected.keys().filter(|k| !got.contains_key(*k)).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "extra {extra:?}, missing {missing:?}"
    );
    for (name, bytes) in &expected {
        assert!(
            got[name] == *bytes,
            "{name} differs from the uninterrupted run"
        );
    }
}

#[test]
fn an_interrupted_batch_with_parquet_records_resumes_into_one_whole_file() {
    let dir = tree();
    let args = [
        "batch",
        "slow.lua",
        "--count",
        "40",
        "--jobs",
        "1",
        "--records",
        "r.parquet",
    ];
    let journal = || journal_of(dir.path(), "r.parquet");
    let child = warren_in(dir.path()).args(args).spawn().expect("starts");
    signal_when(&child, libc::SIGTERM, std::time::Duration::ZERO, || {
        journaled(dir.path(), "r.parquet", 4)
    });
    let done = finish(child);
    assert_eq!(done.code, 143, "{}", done.stderr);
    let parquet = dir.path().join("r.parquet");
    assert!(
        !parquet.exists(),
        "no Parquet file before the batch completes"
    );
    let kept = seeds(&journal().expect("the journal is kept")).len();
    assert!(kept > 0 && kept < 40, "{kept} maps kept");
    let rest = run(warren_in(dir.path()).args(args));
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    assert!(
        rest.stderr.contains("continuing an interrupted batch"),
        "{}",
        rest.stderr
    );
    assert_eq!(journal(), None, "the journal became the Parquet file");
    let merged = run(warren_in(dir.path()).args(["stats", "merge", "r.parquet"]));
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let whole = run(warren_in(dir.path()).args(["batch", "slow.lua", "--count", "40"]));
    let statistics = |t: &str| t[..t.find("time µs").expect("times")].to_string();
    assert_eq!(statistics(&merged.stdout), statistics(&whole.stdout));
    assert!(
        merged
            .stdout
            .starts_with("slow: 40 maps (seeds 0..=39), 0 failed"),
        "{}",
        merged.stdout
    );
}
