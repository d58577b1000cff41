//! Every crate's tests are one binary, `tests/<area>/main.rs`, and every file beside it is one
//! of its modules (`tests/README.md`): a stray `tests/x.rs` would be a binary of its own, and a
//! file no `mod` names would never be compiled. A library that `cargo test` builds keeps no
//! unit tests in `src/`: they would compile the library a second time.

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

/// What keeps the library of the crate at `krate` from being compiled only once by `cargo test`:
/// a `#[cfg(test)]` in its `src/` (unit tests compile the whole library again with `cfg(test)`,
/// about two minutes of a fresh `cargo test` for the three crates), or a `[lib]` without
/// `test = false` (cargo builds that second copy even when it holds no test).
fn second_compiles(krate: &Path) -> Vec<String> {
    let src = krate.join("src");
    if !src.join("lib.rs").is_file() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let manifest_path = krate.join("Cargo.toml");
    let manifest: toml::Table = std::fs::read_to_string(&manifest_path)
        .unwrap()
        .parse()
        .unwrap();
    let tested = manifest
        .get("lib")
        .and_then(|lib| lib.get("test"))
        .and_then(toml::Value::as_bool)
        != Some(false);
    if tested {
        out.push(format!(
            "{}: [lib] without `test = false`",
            manifest_path.display()
        ));
    }
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        if let Some(n) = text.lines().position(|l| l.contains("#[cfg(test)]")) {
            out.push(format!(
                "{}:{}: unit tests in the library",
                file.display(),
                n + 1
            ));
        }
    }
    out
}

/// The crates the README's `cargo test` builds: the workspace's default members.
fn tested_crates(root: &Path) -> Vec<PathBuf> {
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    manifest["workspace"]["default-members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| root.join(m.as_str().unwrap()))
        .collect()
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
    let mut found: Vec<String> = crates.iter().flat_map(|c| problems(c)).collect();
    let tested = tested_crates(&root);
    assert!(tested.len() >= 3, "{tested:?}");
    found.extend(tested.iter().flat_map(|c| second_compiles(c)));
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

#[test]
fn the_check_finds_unit_tests_in_a_library_and_a_lib_built_for_tests() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path();
    std::fs::create_dir_all(krate.join("src/gen")).unwrap();
    std::fs::write(krate.join("src/lib.rs"), "pub mod gen;\n").unwrap();
    std::fs::write(krate.join("src/gen/mod.rs"), "pub fn f() {}\n").unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"x\"\n\n[lib]\ntest = false\n",
    )
    .unwrap();
    assert_eq!(second_compiles(krate), Vec::<String>::new());

    std::fs::write(
        krate.join("src/gen/mod.rs"),
        "pub fn f() {}\n\n#[cfg(test)]\nmod tests {}\n",
    )
    .unwrap();
    std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    let tail = |s: &String| s.rsplit(['/', '\\']).next().unwrap().to_string();
    assert_eq!(
        second_compiles(krate).iter().map(tail).collect::<Vec<_>>(),
        [
            "Cargo.toml: [lib] without `test = false`",
            "mod.rs:3: unit tests in the library",
        ]
    );
}
