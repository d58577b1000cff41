//! Reading the documentation's Markdown: which pages there are, their links and headings.

use crate::common::root;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every page of the documentation, relative to the root: the README, every `docs/*.md`,
/// `BENCHMARKS.md` and `CHANGELOG.md`, in name order.
pub fn all() -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("BENCHMARKS.md"),
        PathBuf::from("CHANGELOG.md"),
    ];
    pages.extend(docs_pages());
    pages
}

/// Every `docs/*.md` (the index included), relative to the root, in name order.
pub fn docs_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    pages.sort();
    pages
}

/// The text of a page.
pub fn read(page: &Path) -> String {
    std::fs::read_to_string(root().join(page))
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", page.display()))
}

/// A link on a page: where it points and the line it is on.
pub struct Link {
    pub target: String,
    pub line: usize,
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// The 1-based line of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Every link and image on a page.
pub fn links(text: &str) -> Vec<Link> {
    Parser::new_ext(text, options())
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => Some(Link {
                target: dest_url.to_string(),
                line: line_of(text, range.start),
            }),
            _ => None,
        })
        .collect()
}

/// The anchors a page's headings get on GitHub (and in most Markdown renderers): the heading's
/// text in lower case, punctuation dropped, spaces as hyphens; a repeated anchor gets `-1`,
/// `-2`, ….
pub fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, options()) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let slug = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(slug.clone()).or_insert(0);
                out.push(match *n {
                    0 => slug.clone(),
                    k => format!("{slug}-{k}"),
                });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

/// GitHub's anchor for a heading's text.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The first-level heading of a page (its title).
pub fn title(text: &str) -> Option<String> {
    let mut title: Option<String> = None;
    let mut inside = false;
    for event in Parser::new_ext(text, options()) {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) => {
                inside = true;
                title = Some(String::new());
            }
            Event::Text(t) | Event::Code(t) if inside => title.as_mut().unwrap().push_str(&t),
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => return title,
            _ => {}
        }
    }
    None
}
