//! Every crate's tests are one binary, `tests/<area>/main.rs`, and every file beside it is one
//! of its modules (`tests/README.md`): a stray `tests/x.rs` would be a binary of its own, and a
//! file no `mod` names would never be compiled.

use crate::common;
use std::path::{Path, PathBuf};

/// What is wrong with the tests of the crate at `krate`, one line each.
fn problems(krate: &Path) -> Vec<String> {
    let tests = krate.join("tests");
    let Ok(entries) = std::fs::read_dir(&tests) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut binaries = Vec::new();
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            out.push(format!("{}: a test binary of its own", path.display()));
        } else if path.join("main.rs").is_file() {
            binaries.push(path);
        }
    }
    if binaries.len() > 1 {
        out.push(format!(
            "{}: {} test binaries",
            tests.display(),
            binaries.len()
        ));
    }
    for dir in &binaries {
        let mut files = Vec::new();
        rust_files(dir, &mut files);
        for file in files.iter().filter(|f| **f != dir.join("main.rs")) {
            if !declared(dir, file) {
                out.push(format!("{}: no `mod` names it", file.display()));
            }
        }
    }
    out
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether the module file above `file` (in the binary rooted at `root`) declares it.
fn declared(root: &Path, file: &Path) -> bool {
    let (name, dir) = if file.file_name().is_some_and(|n| n == "mod.rs") {
        let dir = file.parent().unwrap();
        (dir.file_name().unwrap(), dir.parent().unwrap())
    } else {
        (file.file_stem().unwrap(), file.parent().unwrap())
    };
    let parents = if dir == root {
        vec![root.join("main.rs")]
    } else {
        vec![dir.join("mod.rs"), dir.with_extension("rs")]
    };
    let wanted = format!("mod {};", name.to_string_lossy());
    parents.iter().any(|p| {
        std::fs::read_to_string(p).is_ok_and(|text| {
            text.lines()
                .any(|l| l.trim().trim_start_matches("pub ") == wanted)
        })
    })
}

#[test]
fn every_crate_has_one_test_binary_naming_every_file() {
    let root = common::root();
    let mut crates = vec![root.clone()];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        crates.push(entry.unwrap().path());
    }
    let found: Vec<String> = crates.iter().flat_map(|c| problems(c)).collect();
    assert!(
        found.is_empty(),
        "see tests/README.md:\n{}",
        found.join("\n")
    );
    for area in [
        "tests/cli",
        "crates/lua/tests/lua",
        "crates/core/tests/core",
    ] {
        assert!(root.join(area).join("main.rs").is_file(), "{area}");
    }
}

#[test]
fn the_check_finds_a_second_binary_and_a_file_no_mod_names() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("tests");
    std::fs::create_dir_all(tests.join("area/common")).unwrap();
    std::fs::write(tests.join("area/main.rs"), "mod common;\npub mod a;\n").unwrap();
    std::fs::write(tests.join("area/common/mod.rs"), "mod helpers;\n").unwrap();
    std::fs::write(tests.join("area/common/helpers.rs"), "").unwrap();
    std::fs::write(tests.join("area/a.rs"), "").unwrap();
    assert_eq!(problems(dir.path()), Vec::<String>::new());

    std::fs::write(tests.join("area/b.rs"), "").unwrap();
    std::fs::write(tests.join("area/common/more.rs"), "").unwrap();
    std::fs::write(tests.join("stray.rs"), "").unwrap();
    let mut found = problems(dir.path());
    found.sort();
    let tail = |s: &str| s.rsplit("tests/").next().unwrap().to_string();
    assert_eq!(
        found.iter().map(|s| tail(s)).collect::<Vec<_>>(),
        [
            "area/b.rs: no `mod` names it",
            "area/common/more.rs: no `mod` names it",
            "stray.rs: a test binary of its own",
        ]
    );
}
