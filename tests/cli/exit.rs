//! The binary ends without the libraries' exit handlers (`exit` in `src/main.rs`), and loses
//! nothing by it: what it writes to a pipe is whole, byte for byte what it writes to a file,
//! and mimalloc's statistics still print when asked for. (Every failing command's exit code and
//! message, through the same exit, is checked where the command is: `cli.rs`, `first_run.rs`.)

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
