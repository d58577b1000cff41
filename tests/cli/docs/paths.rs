//! Every path the documentation names exists: in the pages' prose (code blocks run in
//! `examples`), in the comments of the shipped region files and recipes, and in the manifests'
//! comments. A region file's header pointing at a file that moved then fails the build.

use super::pages::{self, read};
use crate::common::root;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};

/// The top-level directories a repository path starts with.
const ROOTS: [&str; 9] = [
    "src/",
    "crates/",
    "tests/",
    "scripts/",
    "regions/",
    "docs/",
    "benches/",
    "examples/",
    "schemas/",
];

/// The repository paths named in `text`: words (split at spaces, quotes, backticks, brackets
/// and commas) that start with one of [`ROOTS`] (or `../` and one of them, from `docs/`), with
/// trailing punctuation removed. Patterns (`*`, `<`, `{`) and upper-case placeholders are not
/// paths.
pub fn named_paths(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || "`'\"()[]<>,|".contains(c))
        .map(|w| w.trim_end_matches(['.', ':', ';', '!', '?']))
        .map(|w| w.trim_start_matches("../"))
        .filter(|w| ROOTS.iter().any(|r| w.starts_with(r) && w.len() > r.len()))
        .filter(|w| !w.contains(['*', '{', '$', '=']))
        .filter(|w| !w.chars().any(|c| c.is_ascii_uppercase()) || w.ends_with(".md"))
        .map(str::to_string)
        .collect()
}

/// A page's prose: its text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) | Event::Code(t) if !in_code => {
                out.push_str(&t);
                out.push(' ');
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                out.push_str(&dest_url);
                out.push(' ');
            }
            _ => out.push(' '),
        }
    }
    out
}

/// The comment text of a TOML, Lua or manifest file.
fn comments(text: &str, marker: &str) -> String {
    text.lines()
        .filter_map(|l| l.find(marker).map(|i| &l[i + marker.len()..]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Files below `dir` with extension `ext`.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The paths a text names that do not exist, as `file: path`.
fn missing(file: &str, text: &str) -> Vec<String> {
    named_paths(text)
        .into_iter()
        .filter(|p| !root().join(p).exists() && !p.contains("/artifacts/"))
        .map(|p| format!("{file}: {p}"))
        .collect()
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut problems = Vec::new();
    for page in pages::all() {
        if page == Path::new("CHANGELOG.md") {
            // History may name files as they were.
            continue;
        }
        let text = read(&page);
        // Files the page's own examples write (`file=` blocks) are there when it names them.
        let written: Vec<String> = super::examples::blocks(&text)
            .into_iter()
            .filter_map(|b| b.attrs.get("file").cloned())
            .collect();
        problems.extend(
            missing(&page.display().to_string(), &prose(&text))
                .into_iter()
                .filter(|p| !written.iter().any(|w| p.ends_with(&format!(": {w}")))),
        );
    }
    let mut sources = Vec::new();
    files(&root().join("regions"), "toml", &mut sources);
    let mut lua = Vec::new();
    files(&root().join("scripts"), "lua", &mut lua);
    for (paths, marker) in [(sources, "#"), (lua, "--")] {
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.strip_prefix(root()).unwrap().display().to_string();
            problems.extend(missing(&name, &comments(&text, marker)));
        }
    }
    for manifest in [
        "Cargo.toml",
        "crates/core/Cargo.toml",
        "crates/lua/Cargo.toml",
        "crates/fuzz/Cargo.toml",
        "crates/lua-src/Cargo.toml",
        "examples/game-crate/Cargo.toml.in",
    ] {
        let text = std::fs::read_to_string(root().join(manifest)).unwrap();
        problems.extend(missing(manifest, &comments(&text, "#")));
    }
    assert!(
        problems.is_empty(),
        "paths that do not exist:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_stale_path_is_found() {
    let header =
        "# Every key is documented in\n# src/region/schema.rs.\nkey = 1 # see docs/regions.md\n";
    assert_eq!(
        missing("regions/x.toml", &comments(header, "#")),
        ["regions/x.toml: src/region/schema.rs"]
    );
    assert_eq!(
        named_paths("see [the guide](../docs/regions.md), `crates/core/src/region/schema.rs`: and tests/<area>/main.rs or DIR/SCRIPT-SEED.EXT"),
        ["docs/regions.md", "crates/core/src/region/schema.rs"]
    );
}
