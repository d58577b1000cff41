//! The binary holds transparent huge pages back through a batch's start-up and lets them go
//! once its workers have loaded their recipes; every other command lets them go once its
//! arguments are read; `MIMALLOC_ALLOW_THP` leaves them alone (see `warren::memory`). Read from
//! the running process's `/proc/PID/status` (`THP_enabled`, Linux 5.0 and later) while a recipe
//! that loads for seconds loads.
#![cfg(target_os = "linux")]

use crate::common::*;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: the machine running the tests may be busy.
const PATIENCE: Duration = Duration::from_secs(60);

/// A recipe that takes seconds to load, under the limits [`LIMITS`] raises (the setting is read
/// meanwhile), and then makes small maps quickly.
const SLOW_TO_LOAD: &str = r#"local x = 0
for i = 1, 400000000 do x = x + i end
return { params = { width = { default = 8 }, height = { default = 8 } },
  generate = function(map, ctx) map:tag("sum", x) end }
"#;

/// Limits [`SLOW_TO_LOAD`] stays within for a minute.
const LIMITS: [&str; 4] = ["--max-instructions", "100000000000", "--max-seconds", "60"];

/// A running `warren`, killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `warren ARGS` in `dir` with `env` set.
fn start(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Running {
    let child = Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(dir)
        .args(args)
        .env_remove("MIMALLOC_ALLOW_THP")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Running(child)
}

/// The process's `THP_enabled`, once it runs warren's own code (its name is `warren`); `None`
/// before. Panics if it has ended.
fn read(p: &mut Running) -> Option<bool> {
    assert!(
        p.0.try_wait().unwrap().is_none(),
        "warren ended before its setting was read"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", p.0.id())).unwrap();
    if !status.lines().any(|l| l == "Name:\twarren") {
        return None;
    }
    let line = status
        .lines()
        .find(|l| l.starts_with("THP_enabled:"))
        .expect("/proc/PID/status has THP_enabled (Linux 5.0 and later)");
    Some(line.ends_with('1'))
}

/// Polls [`read`] until `done` holds for what it reads, or [`PATIENCE`] runs out.
fn poll(p: &mut Running, done: impl Fn(Option<bool>) -> bool) -> Option<bool> {
    let started = Instant::now();
    loop {
        let now = read(p);
        if done(now) || started.elapsed() > PATIENCE {
            return now;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The process's `THP_enabled` a moment after it started warren's own code (its start-up over,
/// its recipe loading).
fn huge_pages_enabled(p: &mut Running) -> bool {
    assert!(
        poll(p, |now| now.is_some()).is_some(),
        "warren did not start"
    );
    std::thread::sleep(Duration::from_millis(300));
    read(p).unwrap_or_default()
}

/// Whether the process's `THP_enabled` becomes 1 within [`PATIENCE`].
fn becomes_enabled(p: &mut Running) -> bool {
    poll(p, |now| now == Some(true)) == Some(true)
}

/// A directory holding [`SLOW_TO_LOAD`] and the region files.
fn slow_recipe() -> tempfile::TempDir {
    let dir = temp_tree(&[("slow.lua", SLOW_TO_LOAD)]);
    copy_regions(dir.path());
    dir
}

/// A batch holds huge pages back while its workers load, and lets them go after.
#[test]
fn a_batch_holds_huge_pages_back_while_it_loads() {
    for jobs in ["1", "2"] {
        let dir = slow_recipe();
        let args = [
            &["batch", "slow.lua", "--count", "100000000", "--jobs", jobs],
            &LIMITS[..],
        ];
        let mut p = start(dir.path(), &args.concat(), &[]);
        assert!(!huge_pages_enabled(&mut p), "--jobs {jobs}");
        assert!(becomes_enabled(&mut p), "--jobs {jobs}");
    }
}

/// A single map gets them from the start.
#[test]
fn a_single_map_has_huge_pages_from_the_start() {
    let dir = slow_recipe();
    let mut p = start(
        dir.path(),
        &[&["run", "slow.lua"], &LIMITS[..]].concat(),
        &[],
    );
    assert!(huge_pages_enabled(&mut p));
}

/// `MIMALLOC_ALLOW_THP` leaves the choice to mimalloc: with it set to 1, a batch holds nothing
/// back.
#[test]
fn mimalloc_allow_thp_leaves_them_alone() {
    let dir = slow_recipe();
    let args = [&["batch", "slow.lua", "--count", "1"], &LIMITS[..]].concat();
    let mut p = start(dir.path(), &args, &[("MIMALLOC_ALLOW_THP", "1")]);
    assert!(huge_pages_enabled(&mut p));
}
