//! `warren batch` and `warren stats merge` through the real binary: the same seeds give the same
//! statistics for any number of jobs and any sharding; outputs and failures behave.

mod common;
use assert_cmd::Command;
use common::*;
use std::path::Path;

fn warren() -> Command {
    let mut c = Command::cargo_bin("warren").expect("the warren binary");
    c.current_dir(root());
    c
}

/// Runs warren with `args`, expecting success; returns stdout.
fn ok(args: &[&str]) -> String {
    let out = warren().args(args).output().expect("warren runs");
    assert!(
        out.status.success(),
        "warren {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The deterministic part of the statistics table (timings vary and come last).
fn statistics(table: &str) -> &str {
    let end = table.find("time µs").expect("a timing section");
    &table[..end]
}

/// Record lines without their timings.
fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("records written")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            if let Some(o) = v.as_object_mut() {
                o.remove("time_us");
            }
            v
        })
        .collect()
}

const ROOMS: [&str; 6] = [
    "batch",
    "scripts/rooms.lua",
    "--count",
    "60",
    "--seed-start",
    "100",
];

#[test]
fn jobs_do_not_change_the_statistics() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let one = ok(&[
        &ROOMS[..],
        &["--jobs", "1", "--records", a.to_str().unwrap()],
    ]
    .concat());
    let two = ok(&[
        &ROOMS[..],
        &["--jobs", "2", "--records", b.to_str().unwrap()],
    ]
    .concat());
    assert_eq!(statistics(&one), statistics(&two));
    assert!(
        one.starts_with("rooms: 60 maps (seeds 100..=159), 0 failed"),
        "{one}"
    );
    for metric in [
        "floor_fraction",
        "components",
        "dead_ends",
        "corridor_cells",
    ] {
        assert!(one.contains(&format!("\n{metric} ")), "{metric} in {one}");
    }
    let (ra, rb) = (records(&a), records(&b));
    assert_eq!(ra.len(), 61, "a header and one line per seed");
    assert_eq!(ra, rb);
    assert_eq!(ra[1]["seed"], 100);
    assert_eq!(ra[1]["metrics"]["components"], 1, "rooms are joined");
}

#[test]
fn merged_shards_give_the_statistics_of_one_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let whole = ok(&[&ROOMS[..], &["--jobs", "2"]].concat());
    let mut files = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("shard-{i}.jsonl"));
        let shard = format!("{i}/3");
        ok(&[
            &ROOMS[..],
            &[
                "--jobs",
                "1",
                "--shard",
                &shard,
                "--records",
                f.to_str().unwrap(),
            ],
        ]
        .concat());
        files.push(f);
    }
    let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let merged = ok(&[&["stats", "merge"][..], &names].concat());
    assert_eq!(statistics(&merged), statistics(&whole));
    let shard0 = records(&files[0]);
    assert_eq!(shard0.len(), 21, "seeds 100..=119");
    assert_eq!(shard0[20]["seed"], 119);

    // The same shard twice overlaps.
    let twice = warren()
        .args(["stats", "merge", names[0], names[0]])
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&twice.get_output().stderr).into_owned();
    assert!(err.contains("seed 100 appears more than once"), "{err}");
}

#[test]
fn merging_different_parameters_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let two = ["batch", "scripts/rooms.lua", "--count", "2", "--records"];
    ok(&[&two[..], &[a.to_str().unwrap()]].concat());
    ok(&[&two[..], &[b.to_str().unwrap(), "--set", "corridors=bsp"]].concat());
    let out = warren()
        .args(["stats", "merge", a.to_str().unwrap(), b.to_str().unwrap()])
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("only runs of the same recipe and parameters merge"),
        "{err}"
    );
}

#[test]
fn outputs_files_csv_and_plot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maps = dir.path().join("maps");
    let csv = dir.path().join("r.csv");
    let png = dir.path().join("h.png");
    let out = ok(&[
        "batch",
        "scripts/cave.lua",
        "--count",
        "3",
        "--seed-start",
        "7",
        "--out-dir",
        maps.to_str().unwrap(),
        "--format",
        "ascii",
        "--records",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
        "--metrics",
        "dead_ends,time_us.total",
        "--timing",
    ]);
    assert!(out.contains("\ntiming: 3 maps in "), "{out}");
    for seed in 7..10 {
        let text = std::fs::read_to_string(maps.join(format!("cave-{seed}.txt"))).expect("map");
        let single = ok(&[
            "run",
            "scripts/cave.lua",
            "--seed",
            &seed.to_string(),
            "--format",
            "ascii",
        ]);
        assert_eq!(text, single, "seed {seed} as `warren run` makes it");
    }
    let csv = std::fs::read_to_string(csv).expect("CSV written");
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.starts_with("seed,floor_fraction,components,dead_ends,"));
    let bytes = std::fs::read(png).expect("plot written");
    assert_eq!(&bytes[1..4], b"PNG");
}

#[test]
fn failing_seeds_are_reported_and_the_rest_measured() {
    let dir = temp_tree(&[(
        "flaky.lua",
        r#"return {
  name = "flaky",
  params = { width = { default = 20 }, height = { default = 20 } },
  generate = function(map, ctx)
    if ctx.seed % 3 == 0 then error("seed " .. ctx.seed .. " is unlucky") end
    map:fill("floor")
    ctx.metric("lucky", 1)
    ctx.phase("fill")
  end,
}"#,
    )]);
    copy_regions(dir.path());
    let recs = dir.path().join("r.jsonl");
    let out = warren()
        .args(["batch", "flaky.lua", "--count", "6", "--records", "r.jsonl"])
        .current_dir(dir.path())
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stdout.starts_with("flaky: 6 maps (seeds 0..=5), 2 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nlucky "),
        "recipe metrics are listed: {stdout}"
    );
    assert!(stdout.contains("\nfill "), "phases are timed: {stdout}");
    assert!(
        stderr.contains("2 of 6 maps failed; the first, seed 0: flaky.lua:5: seed 0 is unlucky"),
        "{stderr}"
    );
    let lines = records(&recs);
    assert_eq!(lines[1]["error"], "flaky.lua:5: seed 0 is unlucky");
    assert_eq!(lines[2]["metrics"]["lucky"], 1);
}

#[test]
fn bad_arguments_are_usage_errors() {
    warren()
        .args([
            "batch",
            "scripts/rooms.lua",
            "--count",
            "5",
            "--shard",
            "3/3",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("0 <= I < N"));
    warren()
        .args(["batch", "scripts/rooms.lua", "--count", "0"])
        .assert()
        .code(2);
    warren()
        .args([
            "batch",
            "scripts/rooms.lua",
            "--count",
            "2",
            "--set",
            "width=3",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("width"));
}
