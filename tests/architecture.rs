//! The module structure stays acyclic: within each crate of the workspace, no top-level module
//! reaches (through `crate::…`/`super::…` paths in its code) a module that reaches back to it.
//! Test-only code (`#[cfg(test)]` modules and files) and comments do not count.

mod common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The code of a file without comments and without its inline `#[cfg(test)] mod … { … }`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Names of the modules a file declares as test-only (`#[cfg(test)]` then `mod name;`).
fn test_modules(text: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[cfg(test)]")
        .filter_map(|w| w[1].strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The top-level modules of the crate rooted at `src`, each with the top-level modules its
/// code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut skipped: BTreeSet<PathBuf> = BTreeSet::new();
    for f in &files {
        let dir = if f
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
        {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        for m in test_modules(&std::fs::read_to_string(f).unwrap()) {
            skipped.insert(dir.join(format!("{m}.rs")));
            skipped.insert(dir.join(&m).join("mod.rs"));
        }
    }
    let top = |f: &Path| -> Option<String> {
        let rel = f.strip_prefix(src).ok()?;
        let first = rel
            .components()
            .next()?
            .as_os_str()
            .to_string_lossy()
            .to_string();
        let name = first.trim_end_matches(".rs").to_string();
        (name != "lib" && name != "main").then_some(name)
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top(f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| !skipped.contains(*f)) {
        let Some(from) = top(f) else { continue };
        let depth = f.strip_prefix(src).unwrap().components().count()
            - usize::from(f.file_name().is_some_and(|n| n == "mod.rs"));
        let text = code(&std::fs::read_to_string(f).unwrap());
        let mut named = BTreeSet::new();
        // `crate::x`, `crate::{x, y::z}`, and `super::x` where `super` is the crate root.
        let mut prefixes = vec!["crate::".to_string()];
        if depth == 1 {
            prefixes.push("super::".into());
        }
        if depth == 2 {
            prefixes.push("super::super::".into());
        }
        for prefix in &prefixes {
            for (i, _) in text.match_indices(prefix.as_str()) {
                let rest = &text[i + prefix.len()..];
                let group = if let Some(inner) = rest.strip_prefix('{') {
                    inner[..inner.find('}').unwrap_or(inner.len())].to_string()
                } else {
                    rest.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect()
                };
                for word in group.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                    if modules.contains(word) && word != from {
                        named.insert(word.to_string());
                    }
                }
            }
        }
        edges.entry(from).or_default().extend(named);
    }
    edges
}

/// A cycle through `start`, if there is one.
fn cycle_from(start: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in edges.get(&at).into_iter().flatten() {
            if next == start {
                let mut cycle = path.clone();
                cycle.push(start.to_string());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_crate_has_a_cycle_between_its_modules() {
    let root = common::root();
    for src in ["src", "crates/core/src", "crates/lua/src"] {
        let edges = graph(&root.join(src));
        assert!(edges.len() > 5, "{src}: the modules were not found");
        for module in edges.keys() {
            if let Some(cycle) = cycle_from(module, &edges) {
                panic!("{src}: a module cycle: {}", cycle.join(" → "));
            }
        }
    }
}

#[test]
fn the_checker_finds_a_cycle_when_there_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::thing;\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "// crate::a in a comment\nuse super::{c, x};\n",
    )
    .unwrap();
    std::fs::write(src.join("c.rs"), "fn f() { crate::a::go() }\n").unwrap();
    let edges = graph(src);
    assert_eq!(
        cycle_from("a", &edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    std::fs::write(src.join("c.rs"), "fn f() {}\n").unwrap();
    assert_eq!(cycle_from("a", &graph(src)), None);
}
