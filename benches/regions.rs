//! Loading many region files: a whole `warren run` of `scripts/rooms.lua` through the real
//! binary with the shipped regions plus 1,000, 3,000 and 10,000 small files (each one
//! `[[terrain]]` or one `[[room]]`). Loading is linear in the number of files, so the time
//! above the shipped regions' own grows ten-fold from 1,000 to 10,000 files, not a hundred-fold
//! (it once grew 49-fold: every file was compared with every other one as it was listed among
//! the run's inputs). Medians of a few rounds are printed:
//!
//! ```text
//! cargo bench --bench regions
//! ```

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

mod common;
use common::median;

/// Rounds per size.
const ROUNDS: usize = 5;

/// A regions directory: the shipped files and `extra` small ones.
fn regions(extra: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("regions");
    for entry in std::fs::read_dir(shipped).expect("the shipped regions") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().expect("a file name");
        std::fs::copy(&path, dir.path().join(name)).expect("copied");
    }
    for i in 0..extra {
        let text = if i % 2 == 0 {
            format!(
                "[[terrain]]\nname = \"t{i}\"\nglyph = \"x\"\ncolor = \"#102030\"\nsolid = true\n"
            )
        } else {
            format!(
                "[[room]]\nname = \"r{i}\"\nweight = 1\nkind = \"normal\"\nfloor = \"floor\"\nwall = \"room wall\"\ndoor = \"oak door\"\n"
            )
        };
        std::fs::write(dir.path().join(format!("extra-{i:05}.toml")), text).expect("written");
    }
    dir
}

/// Seconds of one `warren run` with the region files of `dir`.
fn run(dir: &Path) -> f64 {
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_warren"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scripts/rooms.lua", "--seed", "1", "--regions"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("warren runs");
    assert!(
        status.success(),
        "warren run with {}: {status}",
        dir.display()
    );
    started.elapsed().as_secs_f64()
}

fn main() {
    let shipped = regions(0);
    let base = median((0..ROUNDS).map(|_| run(shipped.path())).collect());
    println!("shipped regions only: {:.3} s", base);
    let mut above = Vec::new();
    for extra in [1_000, 3_000, 10_000] {
        let dir = regions(extra);
        let secs = median((0..ROUNDS).map(|_| run(dir.path())).collect());
        println!(
            "{extra:>6} more files: {secs:.3} s ({:.3} s above the shipped)",
            secs - base
        );
        above.push(secs - base);
    }
    println!(
        "10,000 files against 1,000: {:.1}× the time (linear: 10×)",
        above[2] / above[0].max(1e-9)
    );
}
