//! The module structure stays acyclic: within each crate of the workspace, no top-level module
//! reaches (through `crate::…`/`super::…` paths in its code) a module that reaches back to it.
//! Inside the Lua bindings (`crates/lua/src/api/`) the same holds file by file, and every file
//! keeps to the floor the floor plan in `api/mod.rs` gives it: it uses files of its own floor
//! and of the floors below, never above. Test-only code (`#[cfg(test)]` modules and files) and
//! comments do not count.

use crate::common;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
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
fn cycle_from<N: Ord + Clone>(start: &N, edges: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    let mut stack = vec![(start.clone(), vec![start.clone()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in edges.get(&at).into_iter().flatten() {
            if next == start {
                let mut cycle = path.clone();
                cycle.push(start.clone());
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

/// The security layer knows nothing of the domain API: `sandbox::new_state` makes a bare, safe
/// state and the host installs the API through `api::install`.
#[test]
fn the_sandbox_does_not_install_the_api() {
    let edges = graph(&common::root().join("crates/lua/src"));
    let used = &edges["sandbox"];
    assert!(
        used.contains("budget"),
        "the sandbox's modules were not found"
    );
    assert!(
        !used.contains("api"),
        "sandbox.rs uses the api module: {used:?}"
    );
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
        cycle_from(&"a".to_string(), &edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    std::fs::write(src.join("c.rs"), "fn f() {}\n").unwrap();
    assert_eq!(cycle_from(&"a".to_string(), &graph(src)), None);
}

/// A file of `api/` by its module path below `api` (`[]` for `api/mod.rs`, `["map"]` for
/// `api/map/mod.rs`, `["map", "bulk"]` for `api/map/bulk.rs`).
type ModPath = Vec<String>;

/// How a module path is written in messages: `mod.rs`, `map`, `map/bulk`.
fn shown(m: &[String]) -> String {
    if m.is_empty() {
        "mod.rs".into()
    } else {
        m.join("/")
    }
}

/// The module path of `file`, a file below `api`.
fn mod_path(api: &Path, file: &Path) -> ModPath {
    let mut path: ModPath = file
        .strip_prefix(api)
        .unwrap()
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// The paths a piece of code names after one of its prefixes, as lists of segments: `a::b`,
/// `a::{b, c::d}` and `{a, b}` give `[a, b]`, `[a, b]` and `[a, c, d]`, `[a]` and `[b]`.
fn paths_in(text: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> usize {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    // The items of a `{…}` group (the text after its `{`), split at its own commas.
    fn items(group: &str) -> Vec<&str> {
        let (mut depth, mut start, mut out) = (0, 0, Vec::new());
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.push(&group[start..i]);
                    return out;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(&group[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        out.push(&group[start..]);
        out
    }
    let mut out = Vec::new();
    let mut segments = Vec::new();
    let mut rest = text.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            for item in items(group) {
                for tail in paths_in(item) {
                    out.push([segments.clone(), tail].concat());
                }
            }
            return out;
        }
        let n = ident(rest);
        if n == 0 {
            break;
        }
        segments.push(rest[..n].to_string());
        match rest[n..].strip_prefix("::") {
            Some(next) => rest = next.trim_start(),
            None => break,
        }
    }
    out.push(segments);
    out
}

/// The files of `api` (skipping test-only ones), each with the files its code uses: the
/// children it declares (`mod x;`) and those its `crate::api::…`, `super::…` and `self::…`
/// paths name (a path names the longest module path it starts with; a path into the
/// assembly's own items, `crate::api::decls`, names `api/mod.rs`).
fn api_graph(api: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut files = Vec::new();
    rust_files(api, &mut files);
    let mut skipped = BTreeSet::new();
    for f in &files {
        let here = mod_path(api, f);
        for m in test_modules(&std::fs::read_to_string(f).unwrap()) {
            skipped.insert([here.clone(), vec![m]].concat());
        }
    }
    let modules: BTreeMap<ModPath, &PathBuf> = files
        .iter()
        .map(|f| (mod_path(api, f), f))
        .filter(|(m, _)| !skipped.iter().any(|s| m.starts_with(s)))
        .collect();
    let resolve = |segments: &[String]| -> ModPath {
        (0..=segments.len())
            .rev()
            .map(|n| segments[..n].to_vec())
            .find(|m| modules.contains_key(m))
            .unwrap_or_default()
    };
    let mut graph = BTreeMap::new();
    for (here, file) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let parent: ModPath = here[..here.len().saturating_sub(1)].to_vec();
        let mut uses = BTreeSet::new();
        for line in text.lines() {
            let line = line.trim();
            let decl = line.strip_prefix("pub ").unwrap_or(line);
            if let Some(child) = decl.strip_prefix("mod ").and_then(|c| c.strip_suffix(';')) {
                let child = [here.clone(), vec![child.to_string()]].concat();
                if modules.contains_key(&child) {
                    uses.insert(child);
                }
            }
        }
        let prefixes: [(&str, &ModPath); 3] = [
            ("crate::api::", &Vec::new()),
            ("self::", here),
            ("super::", &parent),
        ];
        for (prefix, base) in prefixes {
            for (i, _) in text.match_indices(prefix) {
                // `super::super::x`: each further `super::` climbs one more level.
                let before = &text[..i];
                if prefix == "super::" && before.ends_with("super::") {
                    continue;
                }
                if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let mut base = base.clone();
                let mut rest = &text[i + prefix.len()..];
                while let Some(next) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = next;
                }
                for segments in paths_in(rest) {
                    let used = resolve(&[base.clone(), segments].concat());
                    if &used != here {
                        uses.insert(used);
                    }
                }
            }
        }
        graph.insert(here.clone(), uses);
    }
    graph
}

/// The floor of each entry of `api/` as the floor plan in `api/mod.rs` gives it: the rows of
/// its table, `//! | 2 | `gen`, `dungeon/`, … | …`, with `mod.rs` for the assembly.
fn floors(api: &Path) -> BTreeMap<String, u32> {
    let text = std::fs::read_to_string(api.join("mod.rs")).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(row) = line.strip_prefix("//! | ") else {
            continue;
        };
        let cells: Vec<&str> = row.split(" | ").collect();
        let Ok(floor) = cells[0].trim().parse::<u32>() else {
            continue;
        };
        for name in cells[1].split('`').skip(1).step_by(2) {
            let name = name.trim_end_matches('/').trim_end_matches(".rs");
            out.insert(name.to_string(), floor);
        }
    }
    out
}

/// What breaks the floor plan of `api`: a file on no floor, a file that uses one on a floor
/// above its own, and every circle of files.
fn api_problems(api: &Path) -> Vec<String> {
    let graph = api_graph(api);
    let floors = floors(api);
    let floor_of = |m: &ModPath| -> Option<u32> {
        let entry = m.first().map_or("mod", String::as_str);
        floors.get(entry).copied()
    };
    let mut problems = Vec::new();
    for (from, uses) in &graph {
        let Some(floor) = floor_of(from) else {
            problems.push(format!(
                "{} is on no floor of the floor plan (api/mod.rs)",
                shown(from)
            ));
            continue;
        };
        for to in uses {
            if floor_of(to).is_some_and(|f| f < floor) {
                problems.push(format!(
                    "{} (floor {floor}) uses {} on floor {}, above it",
                    shown(from),
                    shown(to),
                    floor_of(to).unwrap()
                ));
            }
        }
    }
    let mut cycles = BTreeSet::new();
    for start in graph.keys() {
        if let Some(cycle) = cycle_from(start, &graph) {
            // One report per circle, whichever file it is found from.
            let mut key: Vec<ModPath> = cycle[1..].to_vec();
            key.sort();
            if cycles.insert(key) {
                let mut msg = String::from("a circle: ");
                let names: Vec<String> = cycle.iter().map(|m| shown(m)).collect();
                let _ = write!(msg, "{}", names.join(" → "));
                problems.push(msg);
            }
        }
    }
    problems
}

#[test]
fn the_api_files_keep_their_floors_and_use_each_other_in_no_circle() {
    let api = common::root().join("crates/lua/src/api");
    let graph = api_graph(&api);
    assert!(graph.len() > 20, "the files of api/ were not found");
    let problems = api_problems(&api);
    assert!(
        problems.is_empty(),
        "the floor plan of crates/lua/src/api (see its mod.rs) is broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_floor_check_finds_circles_and_files_above_their_floor() {
    let dir = tempfile::tempdir().unwrap();
    let api = dir.path();
    let write = |path: &str, text: &str| {
        let path = api.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "mod.rs",
        "//! | floor | files | what |\n//! |---|---|---|\n//! | 1 | `mod.rs` | the assembly |\n\
         //! | 2 | `gen`, `town` | modules |\n//! | 3 | `map/`, `rng` | objects |\n\
         //! | 4 | `call` | calling |\n\
         pub mod call;\npub mod gen;\npub mod map;\npub mod rng;\npub mod town;\n\
         #[cfg(test)]\nmod coverage;\n",
    );
    write("coverage.rs", "use super::gen::x;\n");
    write(
        "gen.rs",
        "use super::map::{self, notes::list};\nuse super::town;\n",
    );
    write("town.rs", "use crate::api::rng::Rng;\n");
    write(
        "rng.rs",
        "// super::gen in a comment\nuse super::call::Call;\n",
    );
    write("call.rs", "pub fn shown() {}\n");
    write(
        "map/mod.rs",
        "mod notes;\npub type LuaMap = super::rng::Rng;\n",
    );
    write("map/notes.rs", "use crate::api::call::{shown, Call};\n");
    assert_eq!(api_problems(api), Vec::<String>::new(), "a clean plan");
    let graph = api_graph(api);
    let m = |s: &str| -> ModPath { s.split('/').map(String::from).collect() };
    assert_eq!(
        graph[&m("gen")],
        [m("map"), m("map/notes"), m("town")].into_iter().collect()
    );
    assert!(
        !graph.contains_key(&m("coverage")),
        "test-only files do not count"
    );

    // A child that uses its parent, an object that uses a module above it (which uses it: a
    // circle too), and a file on no floor.
    write(
        "map/notes.rs",
        "use crate::api::call::Call;\nfn f() { super::LuaMap::new() }\n",
    );
    write("rng.rs", "use super::{call::Call, town::Town};\n");
    write("extra.rs", "use super::call::Call;\n");
    write(
        "mod.rs",
        &(std::fs::read_to_string(api.join("mod.rs")).unwrap() + "pub mod extra;\n"),
    );
    let problems = api_problems(api);
    assert_eq!(
        problems,
        [
            "extra is on no floor of the floor plan (api/mod.rs)",
            "rng (floor 3) uses town on floor 2, above it",
            "a circle: map → map/notes → map",
            "a circle: rng → town → rng",
        ],
        "{problems:#?}"
    );
    // A circle across floors, through `super::super` and a `crate::api` path, and one through
    // the assembly's own items.
    write("rng.rs", "use super::call::Call;\n");
    write("call.rs", "fn f() { crate::api::decls() }\n");
    write("map/notes.rs", "use super::super::call::Call;\n");
    let problems = api_problems(api);
    assert!(
        problems.contains(&"call (floor 4) uses mod.rs on floor 1, above it".to_string())
            && problems
                .iter()
                .any(|p| p.starts_with("a circle: ") && p.contains("call")),
        "{problems:#?}"
    );
}
