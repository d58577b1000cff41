//! Limits that hold for everything a command does, through the real binary: outputs never land
//! on inputs, error messages are capped, only regular files are read, region files cannot raise
//! the budgets, weights add up to a finite total, long list arguments convert.

use crate::common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Long enough for a loaded test machine; a hang is what these tests catch.
const PATIENCE: Duration = Duration::from_secs(60);

/// A recipe that requires a module, with a private copy of the shipped regions.
fn tree() -> tempfile::TempDir {
    let dir = temp_tree(&[
        (
            "r.lua",
            "local style = require \"lib.style\"\n\
             return { params = { width = { default = 12 }, height = { default = 6 } },\n\
             generate = function(map, ctx) map:fill(style.fill) end }\n",
        ),
        ("lib/style.lua", "return { fill = \"floor\" }\n"),
    ]);
    copy_regions(dir.path());
    dir
}

/// `warren ARGS` in `dir`, with a time limit.
fn warren_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut c = assert_cmd::Command::cargo_bin("warren").unwrap();
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .timeout(PATIENCE)
        .args(args);
    c.output().unwrap()
}

/// Every file below `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Asserts a failed run (exit 1) whose stderr contains `expected`; returns stderr.
fn fails_with(out: &std::process::Output, expected: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(expected), "expected '{expected}' in:\n{err}");
    err
}

#[test]
fn outputs_pointed_at_inputs_are_refused_and_the_inputs_stay_untouched() {
    let dir = tree();
    let before = snapshot(dir.path());
    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "r.lua", "--format", "ascii", "--out", "r.lua"],
            "--out r.lua: refusing to write onto the recipe",
        ),
        (
            &[
                "run",
                "r.lua",
                "--format",
                "ascii",
                "--out",
                "./lib/../r.lua",
            ],
            "refusing to write onto the recipe",
        ),
        (
            &[
                "run",
                "r.lua",
                "--format",
                "ascii",
                "--out",
                "lib/style.lua",
            ],
            "refusing to write onto a module the recipe requires",
        ),
        (
            &[
                "run",
                "r.lua",
                "--format",
                "ascii",
                "--out",
                "regions/terrain.toml",
            ],
            "refusing to write onto a region file",
        ),
        (
            &[
                "run",
                "r.lua",
                "--format",
                "ascii",
                "--out",
                "regions/new.toml",
            ],
            "it would be loaded as a region file",
        ),
        (
            &[
                "run",
                "r.lua",
                "--format",
                "json",
                "--out",
                "regions/sub/new.toml",
            ],
            "it would be loaded as a region file",
        ),
        (
            &["run", "r.lua", "--frames", "r.lua"],
            "--frames r.lua: refusing to write onto the recipe",
        ),
        (
            &[
                "watch",
                "r.lua",
                "--format",
                "ascii",
                "--out",
                "lib/style.lua",
            ],
            "refusing to write onto a module the recipe requires",
        ),
        (
            &["batch", "r.lua", "--count", "3", "--records", "r.lua"],
            "--records r.lua: refusing to write onto the recipe",
        ),
        (
            &[
                "batch",
                "r.lua",
                "--count",
                "3",
                "--records",
                "lib/style.lua",
            ],
            "refusing to write onto a module the recipe requires",
        ),
        (
            &[
                "batch",
                "r.lua",
                "--count",
                "3",
                "--plot",
                "regions/rooms.toml",
            ],
            "--plot regions/rooms.toml: refusing to write onto a region file",
        ),
        (
            &["batch", "r.lua", "--count", "3", "--out-dir", "r.lua"],
            "--out-dir r.lua: refusing to write onto the recipe",
        ),
        (&["stubs", "--out", "r.lua"], "is not a stubs file"),
        (
            &["stubs", "--out", "regions/cave.toml"],
            "is not a stubs file",
        ),
    ];
    for (args, expected) in cases {
        fails_with(&warren_in(dir.path(), args), expected);
        assert_eq!(snapshot(dir.path()), before, "{args:?} changed the tree");
    }
    // Records merged onto one of the records read.
    let records = dir.path().join("a.jsonl");
    let out = warren_in(
        dir.path(),
        &["batch", "r.lua", "--count", "2", "--records", "a.jsonl"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = std::fs::read(&records).unwrap();
    let out = warren_in(
        dir.path(),
        &["stats", "merge", "a.jsonl", "--records", "a.jsonl"],
    );
    fails_with(
        &out,
        "--records a.jsonl: refusing to write onto a records file",
    );
    assert_eq!(std::fs::read(&records).unwrap(), kept);
    // Regenerating the stubs over a stubs file is what `--out` is for.
    let stubs = dir.path().join("warren.d.lua");
    for _ in 0..2 {
        let out = warren_in(dir.path(), &["stubs", "--out", "warren.d.lua"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(std::fs::read(stubs).unwrap().starts_with(b"---@meta"));
}

#[test]
fn a_module_required_during_generation_is_an_input_too() {
    let dir = temp_tree(&[
        (
            "r.lua",
            "return { params = { width = { default = 8 }, height = { default = 4 } },\n\
             generate = function(map, ctx) map:fill(require(\"lib.late\").fill) end }\n",
        ),
        ("lib/late.lua", "return { fill = \"floor\" }\n"),
    ]);
    copy_regions(dir.path());
    let before = snapshot(dir.path());
    fails_with(
        &warren_in(
            dir.path(),
            &[
                "run",
                "r.lua",
                "--seed",
                "1",
                "--format",
                "ascii",
                "--out",
                "lib/late.lua",
            ],
        ),
        "refusing to write onto a module the recipe requires",
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn error_messages_are_capped_with_the_omitted_length() {
    let dir = temp_tree(&[
        (
            "huge.lua",
            "return { params = { width = { default = 8 }, height = { default = 4 } },\n\
             generate = function(map, ctx)\n\
             error(string.rep('x', 15 * 1000 * 1000) .. 'END')\n\
             end }\n",
        ),
        (
            "name.lua",
            "return { params = { width = { default = 8 }, height = { default = 4 } },\n\
             generate = function(map, ctx) map:fill(string.rep('y', 10 * 1000 * 1000)) end }\n",
        ),
    ]);
    copy_regions(dir.path());
    let regions = dir.path().join("long-regions");
    std::fs::create_dir(&regions).unwrap();
    let long = format!("[map]\nfill = \"{}\"\n{TEST_TERRAIN}", "z".repeat(900_000));
    std::fs::write(regions.join("zz.toml"), long).unwrap();

    let runs: &[(&[&str], &str)] = &[
        (&["run", "huge.lua", "--seed", "1"], "huge.lua:3: xxx"),
        (
            &["batch", "huge.lua", "--count", "4", "--jobs", "1"],
            "huge.lua:3: xxx",
        ),
        (
            &["run", "name.lua", "--seed", "1"],
            "name.lua:2: map:fill: unknown terrain 'yyy",
        ),
        (
            &["run", "huge.lua", "--regions", "long-regions"],
            "zz.toml:2:8: map.fill = 'zzz",
        ),
        (
            &["check", "--regions", "long-regions", "huge.lua"],
            "zz.toml:2:8: map.fill = 'zzz",
        ),
    ];
    for (args, start) in runs {
        let out = warren_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(start),
            "{args:?}: {}",
            &text[..text.len().min(300)]
        );
        assert!(text.contains("bytes omitted]"), "{args:?}");
        assert!(
            text.len() < 40_000,
            "{args:?}: {} bytes of output",
            text.len()
        );
        for line in text.lines() {
            assert!(
                line.len() <= 4200,
                "{args:?}: a line of {} bytes",
                line.len()
            );
        }
    }
    // The end of a long message stays: here, what comes after the repeated text.
    let out = warren_in(dir.path(), &["run", "huge.lua", "--seed", "1"]);
    assert!(String::from_utf8_lossy(&out.stderr)
        .trim_end()
        .ends_with("xEND"));
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn fifos_and_directories_are_refused_instead_of_read() {
    let dir = tree();
    mkfifo(&dir.path().join("fifo.lua"));
    std::fs::create_dir(dir.path().join("dir.lua")).unwrap();
    mkfifo(&dir.path().join("lib/pipe.lua"));
    std::fs::write(
        dir.path().join("needs-pipe.lua"),
        "local p = require \"lib.pipe\"\nreturn {}\n",
    )
    .unwrap();
    let fifo_regions = dir.path().join("fifo-regions");
    std::fs::create_dir(&fifo_regions).unwrap();
    std::fs::copy(
        dir.path().join("regions/terrain.toml"),
        fifo_regions.join("terrain.toml"),
    )
    .unwrap();
    mkfifo(&fifo_regions.join("pipe.toml"));

    let cases: &[(&[&str], &str)] = &[
        (&["run", "fifo.lua"], "fifo.lua: is a FIFO (named pipe), not a regular file; recipes and modules must be regular files"),
        (&["run", "dir.lua"], "dir.lua: is a directory, not a regular file"),
        (&["run", "/dev/zero", "--regions", "regions"], "/dev/zero: is a character device, not a regular file"),
        (&["batch", "fifo.lua", "--count", "2"], "is a FIFO (named pipe)"),
        (&["watch", "fifo.lua", "--list-params"], "is a FIFO (named pipe)"),
        (&["check", "fifo.lua"], "fifo.lua: is a FIFO (named pipe), not a regular file"),
        (&["run", "needs-pipe.lua"], "needs-pipe.lua:1: require: module 'lib.pipe': ./lib/pipe.lua is a FIFO (named pipe), not a regular file"),
        (&["run", "r.lua", "--regions", "fifo-regions"], "pipe.toml: is a FIFO (named pipe), not a regular file; region files must be regular files"),
        (&["check", "--regions", "fifo-regions", "r.lua"], "pipe.toml: is a FIFO (named pipe), not a regular file"),
    ];
    for (args, expected) in cases {
        let out = warren_in(dir.path(), args);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        assert!(
            text.contains(expected),
            "{args:?}: expected '{expected}' in:\n{text}"
        );
    }
}

/// A tree whose regions ask for `limits` and whose recipe `spin.lua` never stops.
fn limits_tree(limits: &str) -> tempfile::TempDir {
    let dir = temp_tree(&[
        (
            "spin.lua",
            "return { params = { width = { default = 8 }, height = { default = 4 } },\n\
             generate = function(map, ctx)\n\
             local x = 0 while true do x = x + 1 end\n\
             end }\n",
        ),
        ("regions/limits.toml", limits),
    ]);
    copy_regions(dir.path());
    dir
}

/// Runs `spin.lua` (from [`limits_tree`]) with seed 1 and `extra` flags.
fn run_spin(dir: &Path, extra: &[&str]) -> std::process::Output {
    let args = [&["run", "spin.lua", "--seed", "1"], extra].concat();
    warren_in(dir, &args)
}

#[test]
fn region_files_cannot_raise_the_budgets() {
    let dir = limits_tree(
        "# a stranger's region file\n[limits]\nmax_instructions = 100_000_000_000\n\
         max_memory_mib = 16384\nmax_seconds = 600\n",
    );
    let started = std::time::Instant::now();
    let out = run_spin(dir.path(), &[]);
    let err = fails_with(&out, "spin.lua:3: ");
    assert!(
        err.contains("instruction budget exceeded (400000000 instructions; raise it with --max-instructions)")
            || err.contains("time budget exceeded (4 s; raise it with --max-seconds)"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    for warning in [
        "regions/limits.toml:3:20: limits.max_instructions = 100000000000 is above the limit in force (400000000 instructions); region files may only lower limits, so 400000000 instructions applies (raise it with --max-instructions)",
        "regions/limits.toml:4:18: limits.max_memory_mib = 16384 is above the limit in force (512 MiB)",
        "regions/limits.toml:5:15: limits.max_seconds = 600 is above the limit in force (4 s)",
    ] {
        let line = err.lines().find(|l| l.ends_with(warning) || l.contains(warning));
        let line = line.unwrap_or_else(|| panic!("expected '{warning}' in:\n{err}"));
        assert!(line.starts_with("warning: "), "{line}");
    }

    // A flag sets what the user allows; the region file still cannot go beyond it.
    let out = run_spin(dir.path(), &["--max-instructions", "5000000"]);
    let err = fails_with(
        &out,
        "spin.lua:3: instruction budget exceeded (5000000 instructions",
    );
    assert!(
        err.contains("above the limit in force (5000000 instructions)"),
        "{err}"
    );

    // The same in a batch (warned once, before the maps) and in `warren check`.
    let out = warren_in(
        dir.path(),
        &[
            "batch",
            "spin.lua",
            "--count",
            "2",
            "--jobs",
            "1",
            "--max-instructions",
            "5000000",
        ],
    );
    let err = fails_with(&out, "instruction budget exceeded (5000000 instructions");
    assert_eq!(
        err.matches("limits.max_seconds = 600 is above").count(),
        1,
        "{err}"
    );
    let out = warren_in(dir.path(), &["check", "spin.lua"]);
    let problems = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        problems.contains(
            "regions/limits.toml:5:15: limits.max_seconds = 600 is above the limit in force (4 s)"
        ),
        "{problems}"
    );
}

#[test]
fn region_files_lower_the_budgets_quietly() {
    let dir = limits_tree("[limits]\nmax_instructions = 2_000_000\n");
    let out = run_spin(dir.path(), &[]);
    let err = fails_with(
        &out,
        "spin.lua:3: instruction budget exceeded (2000000 instructions",
    );
    assert!(!err.contains("warning"), "{err}");
    // Below a raised flag, the region's own lower value holds.
    let out = run_spin(dir.path(), &["--max-instructions", "900000000"]);
    fails_with(&out, "instruction budget exceeded (2000000 instructions");
}

#[test]
fn weights_must_add_up_to_a_finite_total() {
    let dir = tree();
    std::fs::write(
        dir.path().join("pick.lua"),
        "return { params = { width = { default = 8 }, height = { default = 4 } },\n\
         generate = function(map, ctx)\n\
         local got = ctx.rng:weighted({ { weight = 1.7e308, t = 'floor' }, { weight = 1.7e308, t = 'floor' } })\n\
         map:fill(got.t)\n\
         end }\n",
    )
    .unwrap();
    let out = warren_in(dir.path(), &["run", "pick.lua", "--seed", "1"]);
    fails_with(
        &out,
        "pick.lua:3: rng:weighted: item 2 has weight 1.7e308, which takes the total past the largest number (about 1.8e308); weights must add up to a finite total",
    );

    let huge = |name: &str| {
        format!(
            "[[corridor]]\nname = \"{name}\"\nweight = 1.7e308\nfloor = \"floor\"\n\
             walls = \"rock wall\"\ndoor = \"door\"\n"
        )
    };
    std::fs::write(
        dir.path().join("regions/heavy.toml"),
        format!("{}\n{}", huge("heavy a"), huge("heavy b")),
    )
    .unwrap();
    let out = warren_in(dir.path(), &["run", "r.lua", "--seed", "1"]);
    fails_with(
        &out,
        "regions/heavy.toml:10:10: corridor 'heavy b': weight = 1.7e308 takes the total of the corridor weights past the largest number (about 1.8e308); weights must add up to a finite total",
    );
}

#[test]
fn list_arguments_of_a_million_tables_or_strings_convert() {
    // Over a million tables and strings in the lists of four bindings; each once ran out of
    // mlua's auxiliary stack (exit 3, internal error).
    let dir = temp_tree(&[(
        "big.lua",
        "return { params = { width = { default = 16 }, height = { default = 8 } },\n\
         generate = function(map, ctx)\n\
           local rooms, cells, names = {}, {}, {}\n\
           for i = 1, 1100000 do\n\
             rooms[i] = { x = 1, y = 1, w = 2, h = 2, weight = i % 3 }\n\
             cells[i] = { x = 1 + i % 4, y = 1 }\n\
             names[i] = 'name ' .. (i % 1000)\n\
           end\n\
           warren.gen.start_and_stairs(map, rooms, { terrain = 'floor' })\n\
           map:add_corridor(cells)\n\
           assert(ctx.rng:pick(rooms).w == 2)\n\
           assert(ctx.rng:weighted(rooms).h == 2)\n\
           ctx.rng:shuffle(names)\n\
           assert(#names == 1100000)\n\
         end }\n",
    )]);
    copy_regions(dir.path());
    let out = warren_in(
        dir.path(),
        &[
            "run",
            "big.lua",
            "--seed",
            "1",
            "--max-instructions",
            "10000000000",
            "--max-seconds",
            "300",
            "--max-memory",
            "4096",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 8);
}

#[test]
fn an_endless_list_is_a_clean_error_under_the_default_budgets() {
    // The hostile corpus's endless list, through the binary with nothing raised: it stops at a
    // budget or the list cap, at the recipe line, never as an internal error.
    let dir = temp_tree(&[(
        "endless.lua",
        "return { params = { width = { default = 16 }, height = { default = 16 } },\n\
         generate = function(map, ctx)\n\
         warren.gen.connect_rooms(map, ctx.rng, setmetatable({}, { __index = function() return { x = 1, y = 1, w = 1, h = 1 } end }), { terrain = 'floor' })\n\
         end }\n",
    )]);
    copy_regions(dir.path());
    let out = warren_in(dir.path(), &["run", "endless.lua", "--seed", "1"]);
    let err = fails_with(&out, "endless.lua:3: ");
    assert!(
        [
            "budget exceeded",
            "memory limit exceeded",
            "the list has more than 4194304 items"
        ]
        .iter()
        .any(|m| err.contains(m)),
        "{err}"
    );
}

#[test]
fn errors_caused_by_a_recipe_name_its_line() {
    let body = |b: &str| {
        format!(
            "return {{ params = {{ width = {{ default = 8 }}, height = {{ default = 4 }} }},\n\
             generate = function(map, ctx)\n{b}\nend }}\n"
        )
    };
    let cases: Vec<(String, &str)> = vec![
        ("return 5\n".into(), "x.lua:1: a recipe must return a table"),
        (
            "local r = {\n  params = { width = { default = 8 }, height = { default = 4 } },\n}\nreturn r\n".into(),
            "x.lua:4: recipe needs generate = function(map, ctx) … end, got nil",
        ),
        ("local x = 1\nlocal y = 2\n".into(), "x.lua:2: a recipe must return a table"),
        (
            "return { params = 5, generate = function() end }\n".into(),
            "x.lua:1: params must be a table, got integer",
        ),
        (
            "return {\n  params = {\n    width = { default = 100000 },\n    height = { default = 10 },\n  },\n  generate = function() end }\n".into(),
            "x.lua:3: map size 100000×10 is not allowed",
        ),
        (
            body("warren.dungeon.init_level(5)"),
            "x.lua:3: warren.dungeon.init_level: argument 1 (map) must be a map, got 5",
        ),
        (body("error({})"), "x.lua:3: error({})"),
        (body("error('why', 0)"), "x.lua:3: why"),
        // Nested past Lua's C-call limit (found by warren-fuzz): a syntax error at its line.
        (
            format!("local x = {}1{}\nreturn {{}}\n", "(".repeat(300), ")".repeat(300)),
            "x.lua:1: chunk has too many nested levels",
        ),
    ];
    for (recipe, expected) in cases {
        let dir = temp_tree(&[("x.lua", recipe.as_str())]);
        copy_regions(dir.path());
        let out = warren_in(dir.path(), &["run", "x.lua", "--seed", "1"]);
        fails_with(&out, &format!("error: {expected}"));
    }
}

/// `--out` on a disk that fills up: the error names the file, and nothing is left behind.
/// (A full disk is simulated with a file-size limit, `ulimit -f`, whose writes fail as a full
/// disk's do; SIGXFSZ is ignored so that the write fails instead of the process.)
#[cfg(unix)]
#[test]
fn a_full_disk_names_the_file_and_leaves_nothing() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_warren"));
    command
        .current_dir(root())
        .args([
            "run",
            "scripts/rooms.lua",
            "--seed",
            "1",
            "--set",
            "width=300",
        ])
        .args(["--set", "height=300", "--out"])
        .arg(dir.path().join("big.json"));
    // SAFETY: between fork and exec only async-signal-safe calls: signal and setrlimit.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 16 * 1024,
                rlim_max: 16 * 1024,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("big.json: cannot write: File too large"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
