//! `warren batch` and `warren stats merge` through the real binary: the same seeds give the same
//! statistics for any number of jobs and any sharding; outputs and failures behave.

use crate::common::*;
use assert_cmd::Command;
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

/// A folder holding the regions and `NAME.lua`, a 20×20 recipe named NAME whose `generate`
/// runs `body` (its first line is the recipe's line 5).
fn recipe_dir(name: &str, body: &str) -> tempfile::TempDir {
    let recipe = format!(
        "return {{\n  name = \"{name}\",\n  params = {{ width = {{ default = 20 }}, height = \
         {{ default = 20 }} }},\n  generate = function(map, ctx)\n{body}\n  end,\n}}"
    );
    let file = format!("{name}.lua");
    let dir = temp_tree(&[(file.as_str(), recipe.as_str())]);
    copy_regions(dir.path());
    dir
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
fn no_more_workers_start_than_there_are_seeds() {
    // Each worker loads the recipe before its first map: a worker without a seed would load
    // it for nothing. The timing line says how many ran.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = |args: &[&str]| {
        let out = ok(&[&["batch", "scripts/rooms.lua", "--timing"], args].concat());
        let line = out
            .lines()
            .find(|l| l.starts_with("timing: "))
            .expect("a timing line");
        line.split(" with ").nth(1).expect("a job count")[..2]
            .trim()
            .to_string()
    };
    assert_eq!(jobs(&["--count", "1", "--jobs", "2"]), "1");
    assert_eq!(
        jobs(&["--count", "5", "--shard", "1/5", "--jobs", "2"]),
        "1"
    );
    if cores >= 2 {
        assert_eq!(jobs(&["--count", "2", "--jobs", "2"]), "2");
    }
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
    assert!(
        err.contains("overlap in seeds 100..=119: merging them would count those maps twice"),
        "{err}"
    );
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
    assert!(
        out.contains("\nstate between maps: 0 resets (0 objects put back), 0 reloads\n"),
        "{out}"
    );
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
    let dir = recipe_dir(
        "flaky",
        r#"    if ctx.seed % 3 == 0 then error("seed " .. ctx.seed .. " is unlucky") end
    map:fill("floor")
    ctx.metric("lucky", 1)
    ctx.phase("fill")"#,
    );
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

/// Runs warren with `args` expecting exit code `code`; returns stderr.
fn fails(args: &[&str], code: i32) -> String {
    let out = warren().args(args).output().expect("warren runs");
    assert_eq!(out.status.code(), Some(code), "warren {args:?}");
    String::from_utf8(out.stderr).expect("UTF-8")
}

/// Runs shards `indices` of 3 over seeds 100..=159 into `dir/shard-I.jsonl`.
fn shards(dir: &Path, indices: &[u64], extra: &[&str]) -> Vec<String> {
    indices
        .iter()
        .map(|i| {
            let f = dir.join(format!("shard-{i}.jsonl"));
            let shard = format!("{i}/3");
            let args = [
                &ROOMS[..],
                &["--shard", &shard, "--records", f.to_str().unwrap()],
            ];
            ok(&[&args.concat()[..], extra].concat());
            f.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn shard_records_carry_their_plan_and_a_merge_names_missing_shards() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = shards(dir.path(), &[0, 2], &[]);
    let header: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&files[1])
            .expect("records")
            .lines()
            .next()
            .expect("a header"),
    )
    .expect("JSON");
    assert_eq!(header["shard"], "2/3");
    assert_eq!(
        (header["seed_start"].clone(), header["seed_count"].clone()),
        (100.into(), 60.into())
    );

    let err = fails(&["stats", "merge", &files[0], &files[1]], 1);
    assert!(
        err.contains(
            "the records do not cover seeds 100..=159: seeds 120..=139 (shard 1/3) missing"
        ) && err.contains("--allow-partial"),
        "{err}"
    );
    let partial = warren()
        .args(["stats", "merge", "--allow-partial", &files[0], &files[1]])
        .output()
        .expect("runs");
    assert!(partial.status.success());
    let out = String::from_utf8_lossy(&partial.stdout);
    assert!(out.starts_with("rooms: 40 maps (seeds 100..=159)"), "{out}");
    assert!(String::from_utf8_lossy(&partial.stderr).contains("warning: the records do not cover"));

    // With every shard, in any order, the merge is the whole run, records in seed order.
    let all = shards(dir.path(), &[1], &[]);
    let merged = dir.path().join("merged.jsonl");
    let m = ok(&[
        "stats",
        "merge",
        &files[1],
        &all[0],
        &files[0],
        "--records",
        merged.to_str().unwrap(),
    ]);
    assert!(
        m.starts_with("rooms: 60 maps (seeds 100..=159), 0 failed"),
        "{m}"
    );
    let seeds: Vec<u64> = records(&merged)[1..]
        .iter()
        .map(|r| r["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, (100..160).collect::<Vec<_>>());
}

#[test]
fn merge_errors_say_plainly_what_is_wrong() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = shards(dir.path(), &[0], &[]);
    let b = shards(&dir.path().join(""), &[1], &["--set", "corridors=bsp"]);
    let err = fails(&["stats", "merge", &a[0], &b[0]], 1);
    assert!(
        err.contains("corridors = \"nearest\" in") && err.contains("corridors = \"bsp\" in"),
        "{err}"
    );
    assert!(
        !err.contains("String(") && !err.contains("Bool("),
        "no Rust Debug: {err}"
    );

    let csv = dir.path().join("r.csv");
    ok(&[
        "batch",
        "scripts/rooms.lua",
        "--count",
        "3",
        "--records",
        csv.to_str().unwrap(),
    ]);
    let err = fails(&["stats", "merge", csv.to_str().unwrap()], 1);
    assert!(
        err.contains("r.csv:1: this is a CSV records file") && err.contains("--records FILE.jsonl"),
        "{err}"
    );
}

#[test]
fn plot_metric_typos_are_caught_before_the_batch_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maps = dir.path().join("maps");
    let png = dir.path().join("p.png");
    let recs = dir.path().join("r.jsonl");
    let base = [
        "batch",
        "scripts/cave.lua",
        "--count",
        "100000",
        "--out-dir",
        maps.to_str().unwrap(),
        "--records",
        recs.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
        "--metrics",
    ];
    let err = fails(&[&base[..], &["floor_fracton"]].concat(), 1);
    assert!(
        err.contains("--metrics: no metric 'floor_fracton' (did you mean 'floor_fraction'?"),
        "{err}"
    );
    // A recipe metric, checked on the first map: the cave records `components_before`.
    let err = fails(&[&base[..], &["components_befor"]].concat(), 1);
    assert!(err.contains("did you mean 'components_before'?"), "{err}");
    assert!(
        !maps.exists() && !recs.exists() && !png.exists(),
        "nothing was generated or written"
    );
    let small = [
        "batch",
        "scripts/cave.lua",
        "--count",
        "2",
        "--plot",
        png.to_str().unwrap(),
        "--metrics",
        "components_before,time_us.total",
    ];
    ok(&small);
    assert!(png.exists());
}

#[test]
fn plots_read_right_for_constant_metrics_long_names_and_outlying_times() {
    let dir = recipe_dir(
        "odd",
        r#"    map:fill("floor")
    if ctx.seed == 3 then local x = 0 for i = 1, 3000000 do x = x + i end end
    ctx.metric("a_recipe_metric_with_a_name_far_longer_than_one_panel_of_the_plot", ctx.seed % 5)"#,
    );
    let out = warren()
        .current_dir(dir.path())
        .args(["batch", "odd.lua", "--count", "40", "--plot", "p.png", "--metrics"])
        .arg("components,a_recipe_metric_with_a_name_far_longer_than_one_panel_of_the_plot,time_us.total")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(
        std::fs::read(dir.path().join("p.png")).unwrap(),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut px = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut px).expect("a frame");
    let (w, h) = (info.width as usize, info.height as usize);
    assert_eq!((w, h), (840, 460), "three panels, two a row");
    let count = |x0: usize, y0: usize, x1: usize, y1: usize, rgb: [u8; 3]| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| px[(x + y * w) * 3..][..3] == rgb)
            .count()
    };
    const BAR: [u8; 3] = [70, 120, 190];
    const INK: [u8; 3] = [40, 40, 40];
    const OUTLIER: [u8; 3] = [220, 120, 40];
    // `components` is 1 on every map: one narrow bar, not a box over the whole plot.
    let bar = count(0, 0, 420, 230, BAR);
    assert!(
        bar > 0 && bar < 2_000,
        "{bar} bar pixels in the constant panel"
    );
    // The long name stays inside its panel: nothing drawn in the margin beside the next panel.
    assert_eq!(
        count(420 - 14, 0, 420, 60, INK),
        0,
        "the title runs past its panel"
    );
    // Seed 3's slow map is a bar of its own; the other 39 spread over several bars.
    assert!(count(0, 230, 420, 460, OUTLIER) > 0, "no outlier bar");
    let bars_used = (16..404)
        .step_by(9)
        .filter(|&x| (230..460).any(|y| px[(x + y * w) * 3..][..3] == BAR))
        .count();
    assert!(
        bars_used >= 4,
        "the times are squeezed into {bars_used} bars"
    );
}

#[test]
fn batch_usage_is_plain() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maps = dir.path().join("maps");
    ok(&[
        "batch",
        "scripts/rooms.lua",
        "--count",
        "12",
        "--out-dir",
        maps.to_str().unwrap(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&maps)
        .expect("maps written")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names[..3],
        ["rooms-00.json", "rooms-01.json", "rooms-02.json"]
    );
    assert_eq!(names[11], "rooms-11.json");

    let err = fails(&["batch", "scripts/rooms.lua", "--count", "0"], 2);
    assert!(err.contains("a batch needs at least 1 map"), "{err}");
    assert!(!err.contains("18446744073709551615"), "{err}");

    let err = fails(
        &[
            "batch",
            "scripts/rooms.lua",
            "--count",
            "2",
            "--set",
            "corridors=zigzag",
        ],
        1,
    );
    assert!(
        err.contains(
            "corridors = 'zigzag' is not one of its choices: 'nearest', 'lines', 'dogleg', 'bsp'"
        ),
        "{err}"
    );
}

#[test]
fn more_jobs_than_cores_warn_and_keep_time_budgets() {
    let out = warren()
        .args([
            "batch",
            "scripts/dungeon.lua",
            "--count",
            "24",
            "--jobs",
            "1024",
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: --jobs 1024 is more than the"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("24 maps (seeds 0..=23), 0 failed"));
}

#[test]
fn with_several_jobs_a_first_load_that_fails_is_one_error_and_the_others_stop() {
    // The other workers load their recipe while the first does; when the first cannot start,
    // they must not run or hang, and the one error is the first worker's.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("r.lua");
    std::fs::copy(root().join("scripts/rooms.lua"), &recipe).unwrap();
    let r = recipe.to_str().unwrap();
    let regions = root().join("regions");
    let fails_once = |extra: &[&str]| -> String {
        let out = warren()
            .args(["batch", r, "--count", "50", "--jobs", "2"])
            .args(["--regions", regions.to_str().unwrap()])
            .args(extra)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    // The records would overwrite the recipe: refused before anything is written.
    let err = fails_once(&["--records", r]);
    assert!(err.contains("r.lua"), "{err}");
    assert_eq!(
        std::fs::read(&recipe).unwrap(),
        std::fs::read(root().join("scripts/rooms.lua")).unwrap()
    );
    // A recipe that does not load at all.
    std::fs::write(&recipe, "return {").unwrap();
    let err = fails_once(&[]);
    assert!(err.contains("r.lua:1"), "{err}");
}

#[test]
fn parquet_shards_merge_to_the_statistics_and_records_of_one_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let single = dir.path().join("one.jsonl");
    let whole = ok(&[&ROOMS[..], &["--records", single.to_str().unwrap()]].concat());
    let mut files = Vec::new();
    for i in 0..3 {
        // Parquet and JSON Lines shards merge together.
        let ext = if i == 1 { "jsonl" } else { "parquet" };
        let f = dir.path().join(format!("shard-{i}.{ext}"));
        let shard = format!("{i}/3");
        ok(&[
            &ROOMS[..],
            &["--shard", &shard, "--records", f.to_str().unwrap()],
        ]
        .concat());
        files.push(f);
    }
    let bytes = std::fs::read(&files[0]).expect("Parquet written");
    assert_eq!(
        (&bytes[..4], &bytes[bytes.len() - 4..]),
        (&b"PAR1"[..], &b"PAR1"[..])
    );
    let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let merged_records = dir.path().join("merged.jsonl");
    let merged = ok(&[
        &["stats", "merge"][..],
        &names,
        &["--records", merged_records.to_str().unwrap()],
    ]
    .concat());
    assert_eq!(statistics(&merged), statistics(&whole));
    // Record by record, the same measurements as one run's (timings aside).
    let (mut got, want) = (records(&merged_records), records(&single));
    assert_eq!(got.len(), 61);
    assert_eq!(got.split_off(1), want[1..].to_vec());

    // A merged Parquet file reads back to the same statistics.
    let again = dir.path().join("all.parquet");
    ok(&[
        &["stats", "merge"][..],
        &names,
        &["--records", again.to_str().unwrap()],
    ]
    .concat());
    let reread = ok(&["stats", "merge", again.to_str().unwrap()]);
    assert_eq!(statistics(&reread), statistics(&whole));
}

#[test]
fn a_negative_zero_metric_keeps_its_sign_through_parquet() {
    // -0 is a whole number an integer column cannot hold: the column is written as doubles.
    let dir = recipe_dir(
        "tilt",
        r#"    map:fill("floor")
    ctx.metric("tilt", ctx.seed % 2 == 0 and -0.0 or 3)"#,
    );
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let recipe = at("tilt.lua");
    let batch = ["batch", &recipe, "--count", "4", "--regions"];
    let regions = at("regions");
    ok(&[&batch[..], &[&regions, "--records", &at("r.parquet")]].concat());
    ok(&[&batch[..], &[&regions, "--records", &at("r.csv")]].concat());
    ok(&[
        "stats",
        "merge",
        &at("r.parquet"),
        "--records",
        &at("back.csv"),
    ]);
    let tilts = |file: &str| -> Vec<String> {
        let text = std::fs::read_to_string(at(file)).expect("CSV written");
        let mut rows = text.lines().map(|l| l.split(',').collect::<Vec<_>>());
        let header = rows.next().expect("a header");
        let column = header
            .iter()
            .position(|&c| c == "tilt")
            .expect("a tilt column");
        rows.map(|r| r[column].to_string()).collect()
    };
    assert_eq!(tilts("r.csv"), ["-0", "3", "-0", "3"]);
    assert_eq!(tilts("back.csv"), tilts("r.csv"));
}

#[test]
fn merge_explains_parquet_files_it_cannot_use() {
    let dir = tempfile::tempdir().expect("temp dir");
    let torn = dir.path().join("torn.parquet");
    std::fs::write(&torn, b"PAR1 and then nothing").expect("write");
    let err = fails(&["stats", "merge", torn.to_str().unwrap()], 1);
    assert!(
        err.contains("torn.parquet: not a readable Parquet file"),
        "{err}"
    );
}
