//! The binary ends without the libraries' exit handlers (`exit` in `src/main.rs`), and loses
//! nothing by it: what it writes to a pipe is whole, byte for byte what it writes to a file,
//! and mimalloc's statistics still print when asked for. (Every failing command's exit code and
//! message, through the same exit, is checked where the command is: `cli.rs`, `first_run.rs`.)
//! On glibc Linux it also starts without the standard library's start (`main` there), and keeps
//! what that start gave it: SIGPIPE ignored, and no standard stream left closed.

use crate::common::*;

/// `args` with `--out FILE` added writes to the file exactly what `args` alone writes to
/// standard output (a pipe here).
fn piped_equals_saved(args: &[&str], file: &str) {
    let piped = stdout(args);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    let out = path.to_str().unwrap();
    stdout(&[args, &["--out", out]].concat());
    let saved = std::fs::read(&path).unwrap();
    assert!(!piped.is_empty(), "{args:?} printed nothing");
    assert!(
        piped == saved,
        "{args:?}: the pipe got {} bytes, the file {}",
        piped.len(),
        saved.len()
    );
}

#[test]
fn a_big_map_on_a_pipe_is_whole() {
    let cave = ["run", "scripts/cave.lua", "--seed", "3"];
    let big = ["--set", "width=1024", "--set", "height=1024"];
    piped_equals_saved(
        &[&cave[..], &big, &["--format", "json"]].concat(),
        "cave.json",
    );
    piped_equals_saved(&[&cave[..], &big].concat(), "cave.txt");
}

#[test]
fn the_stubs_on_a_pipe_are_whole() {
    piped_equals_saved(&["stubs"], "warren.d.lua");
}

#[test]
fn mimalloc_statistics_still_print_when_asked_for() {
    let out = warren()
        .args(["run", "scripts/rooms.lua", "--seed", "1"])
        .env("MIMALLOC_SHOW_STATS", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // mimalloc's table at exit: its rows of pages with their peak, total and current.
    assert!(err.contains("pages") && err.contains("peak"), "{err}");
    let quiet = warren()
        .args(["run", "scripts/rooms.lua", "--seed", "1"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("peak"));
    assert_eq!(out.stdout, quiet.stdout);
}

/// A reader that goes away is a write error warren reports (exit code 1), not a signal that
/// ends it unheard: SIGPIPE is ignored, as the standard library's start ignores it.
#[cfg(unix)]
#[test]
fn a_closed_pipe_is_a_write_error() {
    let mut child = crate::common::process::warren_in(&root())
        .args(["run", "scripts/cave.lua", "--seed", "3"])
        .args(["--set", "width=1024", "--set", "height=1024"])
        .spawn()
        .unwrap();
    // A map of a megabyte: the pipe's buffer fills and the reader is gone.
    drop(child.stdout.take());
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{:?}: {stderr}", done.status);
    assert!(
        stderr.contains("error: writing the map: Broken pipe"),
        "{stderr}"
    );
}

/// An error that cannot be written (standard error full) still ends the process with its own
/// exit code, not a panic's (101) or an abort's.
#[cfg(target_os = "linux")]
#[test]
fn an_error_on_a_full_standard_error_keeps_its_exit_code() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let done = crate::common::process::warren_in(&root())
        .args(["run", "no/such/recipe.lua"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(1), "{:?}", done.status);
}

/// Standard streams the process was started without are open on `/dev/null` before it opens
/// anything, so that no file it opens takes their numbers (and what is written to them).
#[cfg(target_os = "linux")]
#[test]
fn closed_standard_streams_are_opened_on_dev_null() {
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};
    let dir = temp_tree(&[(
        "busy.lua",
        "return { params = { width = { default = 8 }, height = { default = 8 } },\n\
         generate = function(map, ctx) while true do end end }\n",
    )]);
    copy_regions(dir.path());
    let mut command = crate::common::process::warren_in(dir.path());
    command.args(["run", "busy.lua", "--max-instructions", "100000000000"]);
    command.args(["--max-seconds", "60", "--out", "o.txt"]);
    // SAFETY: `close` is async-signal-safe; it runs in the child between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::close(0);
            libc::close(1);
            Ok(())
        })
    };
    let mut child = command.spawn().unwrap();
    let fds = format!("/proc/{}/fd", child.id());
    // Looked at once the recipe has looped for a tenth of a second of CPU time (a start takes a
    // few milliseconds): the region files and the recipe are closed again by then.
    let pid = child.id() as libc::pid_t;
    let busy = || crate::common::process::cpu_so_far(pid) >= Duration::from_millis(100);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !busy() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let ran = busy();
    let links: Vec<_> = (0..2)
        .map(|fd| std::fs::read_link(format!("{fds}/{fd}")).ok())
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(ran, "the recipe never ran");
    let dev_null = Some(std::path::PathBuf::from("/dev/null"));
    assert_eq!(links, [dev_null.clone(), dev_null]);
}
