//! The pages hang together: the index lists every page, every link between pages (and into the
//! repository) resolves, anchors included, and the README stays short.

use super::pages::{self, anchors, links, read};
use crate::common::root;
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `..` resolved, without touching the file system.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The broken links of `text`, a page at `page` (relative to the root), as `page:line: why`.
/// `exists` says whether a file (relative to the root) exists; `text_of` reads a page.
fn broken_links(
    page: &Path,
    text: &str,
    exists: &dyn Fn(&Path) -> bool,
    text_of: &dyn Fn(&Path) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for link in links(text) {
        let t = &link.target;
        if t.starts_with("http://") || t.starts_with("https://") || t.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match t.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (t.as_str(), None),
        };
        let target = if file.is_empty() {
            page.to_path_buf()
        } else {
            normal(&page.parent().unwrap_or(Path::new("")).join(file))
        };
        let at = format!("{}:{}", page.display(), link.line);
        if target.starts_with("..") || !exists(&target) {
            out.push(format!(
                "{at}: {t} points at {}, which does not exist",
                target.display()
            ));
            continue;
        }
        if let Some(anchor) = anchor {
            if target.extension().is_some_and(|e| e == "md")
                && !anchors(&text_of(&target)).iter().any(|a| a == anchor)
            {
                out.push(format!(
                    "{at}: {t}: {} has no heading #{anchor}",
                    target.display()
                ));
            }
        }
    }
    out
}

#[test]
fn every_link_between_pages_resolves() {
    let mut problems = Vec::new();
    for page in pages::all() {
        problems.extend(broken_links(
            &page,
            &read(&page),
            &|p| root().join(p).exists(),
            &|p| read(p),
        ));
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_anchor() {
    let text = "# T\n\n## Real heading\n\nSee [a](gone.md), [b](#real-heading), [c](#nope),\n[d](other.md#there) and [e](https://example.com).\n";
    let exists = |p: &Path| p == Path::new("docs/page.md") || p == Path::new("docs/other.md");
    let text_of = |p: &Path| match p.to_str() {
        Some("docs/other.md") => "# Other\n\n## Elsewhere\n".to_string(),
        _ => text.to_string(),
    };
    let found = broken_links(Path::new("docs/page.md"), text, &exists, &text_of);
    assert_eq!(
        found,
        [
            "docs/page.md:5: gone.md points at docs/gone.md, which does not exist",
            "docs/page.md:5: #nope: docs/page.md has no heading #nope",
            "docs/page.md:6: other.md#there: docs/other.md has no heading #there",
        ]
    );
}

#[test]
fn the_index_lists_every_page_under_docs() {
    let index = Path::new("docs/README.md");
    let listed: BTreeSet<PathBuf> = links(&read(index))
        .into_iter()
        .map(|l| normal(&Path::new("docs").join(l.target.split('#').next().unwrap())))
        .collect();
    let missing: Vec<String> = pages::docs_pages()
        .into_iter()
        .filter(|p| p != index && !listed.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "docs/README.md does not link to: {} (add a line for each to the index)",
        missing.join(", ")
    );
}

#[test]
fn every_page_has_a_title() {
    for page in pages::all() {
        assert!(
            pages::title(&read(&page)).is_some(),
            "{}: no `# Title` heading",
            page.display()
        );
    }
}

#[test]
fn headings_get_githubs_anchors() {
    assert_eq!(
        pages::slug("Many maps: `warren batch`"),
        "many-maps-warren-batch"
    );
    assert_eq!(pages::slug("JSON format 2"), "json-format-2");
    assert_eq!(
        anchors("# A\n## Migrating from format 1\n## A\n"),
        ["a", "migrating-from-format-1", "a-1"]
    );
}

/// The README is the first thing a newcomer reads: at most 15 KB, the rest one click away.
#[test]
fn the_readme_stays_short() {
    let size = read(Path::new("README.md")).len();
    assert!(
        size <= 15 * 1024,
        "README.md is {size} bytes; keep it within 15 KB and move detail into docs/"
    );
}
