//! Messages in a modder's words: which entry (by its name), which key, what was written and
//! what was expected, and "did you mean" for unknown names. The TOML reader's own messages
//! (`invalid type: string "2", expected f64`, `missing field `kind``, `room[0].weight`) never
//! reach the modder.

use super::locate::{Locator, Seg};

/// How far from a known name a typo may be: each kind of message keeps its own reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A third of the name's letters (at least one), case ignored; the name itself is no
    /// suggestion. Region files.
    Third,
    /// Two edits, or a quarter of the known name's length when that is more. The CLI's names
    /// (metrics).
    Quarter,
    /// As [`Reach::Quarter`], and a name of three or more letters that begins a known one
    /// abbreviates it (one edit); never a known name that differs in every letter. The Lua
    /// API's names (arguments, options, choices, globals).
    QuarterOrPrefix,
}

/// The closest of `known` to `name`, when it is close enough (`reach`) to be a likely typo:
/// the one "did you mean" of region files, the Lua API and the CLI.
pub fn nearest<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    reach: Reach,
) -> Option<&'a str> {
    if reach == Reach::Third {
        return nearest_ignoring_case(name, known);
    }
    let length = name.chars().count();
    known
        .into_iter()
        .filter_map(|k| {
            let most = 2.max(k.len() / 4);
            if reach == Reach::QuarterOrPrefix && name.len() >= 3 && k.starts_with(name) {
                return Some((1, k));
            }
            // The distance is at least the difference in length: a name far longer than any
            // candidate (a megabyte of text, say) is never compared character by character.
            if length.abs_diff(k.chars().count()) > most {
                return None;
            }
            Some((edit_distance(name, k), k)).filter(|&(d, _)| d <= most)
        })
        .filter(|&(d, k)| reach == Reach::Quarter || d < k.len())
        .min()
        .map(|(_, k)| k)
}

/// The closest of `known` to `name` within [`Reach::Third`] (region files): see
/// [`nearest`].
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    nearest(name, known, Reach::Third)
}

/// [`nearest`] for [`Reach::Third`]: the first of the closest, in `known`'s order.
fn nearest_ignoring_case<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let wanted: Vec<char> = name.to_lowercase().chars().collect();
    let limit = (wanted.len() / 3).max(1);
    known
        .into_iter()
        .filter(|k| *k != name)
        // The distance is at least the difference in length: a name far longer than any
        // known one (a megabyte of text, say) is never compared character by character.
        .filter(|k| wanted.len().abs_diff(k.chars().count()) <= limit)
        .map(|k| {
            (
                distance(&wanted, &k.to_lowercase().chars().collect::<Vec<_>>()),
                k,
            )
        })
        .filter(|&(d, k)| d <= limit && d < k.chars().count().max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Edit distance between two names, a swap of neighbouring letters counting as one edit
/// (optimal string alignment): how far a typo is from what was meant.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    distance(&a, &b)
}

/// Edit distance with transpositions (optimal string alignment).
fn distance(a: &[char], b: &[char]) -> usize {
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// "unknown WHAT 'name'; did you mean 'x'?" when one of `known` is close, else the list of
/// the known names.
pub fn unknown(what: &str, name: &str, known: &[&str]) -> String {
    format!("unknown {what} '{name}'{}", suggestion(name, known))
}

/// How a message about an unknown `name` ends: "; did you mean 'x'?" when one of `known` is
/// close, else " (known: 'a', 'b', …)".
pub fn suggestion(name: &str, known: &[&str]) -> String {
    match did_you_mean(name, known.iter().copied()) {
        Some(s) => format!("; did you mean '{s}'?"),
        None => format!(
            " (known: {})",
            known
                .iter()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The sections a region file may have, and whether each is a list (`[[name]]`).
const SECTIONS: [(&str, bool); 13] = [
    ("terrain", true),
    ("map", false),
    ("dungeon", false),
    ("corridor", true),
    ("room", true),
    ("streamer", true),
    ("vault", true),
    ("door", true),
    ("rooms", false),
    ("cave", false),
    ("town", false),
    ("spawn", true),
    ("limits", false),
];

/// How a section is written: `[[room]]` or `[dungeon]`.
fn section(name: &str) -> String {
    match SECTIONS.iter().find(|(s, _)| *s == name) {
        Some((_, true)) => format!("[[{name}]]"),
        _ => format!("[{name}]"),
    }
}

/// Names what `path` points at the way the modder wrote it: `dungeon.turn_chance`,
/// `room 'great hall': weight`, `corridor 'c': constants.turn_chance`, `room #2` (an entry
/// without a name, counted from 1). `name_at` gives the `name` of a list entry.
pub fn describe(path: &[Seg], name_at: impl Fn(&[Seg]) -> Option<String>) -> String {
    let mut out = String::new();
    let mut after_entry = false;
    for (i, seg) in path.iter().enumerate() {
        match seg {
            Seg::Key(k) => {
                if after_entry {
                    out.push_str(": ");
                    after_entry = false;
                } else if !out.is_empty() {
                    out.push('.');
                }
                if is_bare(k) {
                    out.push_str(k);
                } else {
                    out.push_str(&format!("{k:?}"));
                }
            }
            Seg::Index(n) => {
                let mut name_path = path[..=i].to_vec();
                name_path.push(Seg::Key("name".into()));
                match name_at(&name_path) {
                    Some(name) => out.push_str(&format!(" '{name}'")),
                    None => out.push_str(&format!(" #{}", n + 1)),
                }
                after_entry = true;
            }
        }
    }
    out
}

/// Whether a key can be written without quotes in TOML.
fn is_bare(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The plain-words message of a TOML reading error at `span` in `text`, and the offset it is
/// located at.
pub fn parse_error(text: &str, message: &str, span: Option<std::ops::Range<usize>>) -> String {
    let locator = Locator::new(text);
    let Some(span) = span else {
        return message.trim().to_string();
    };
    let path = locator.path_at(span.start);
    if path.is_empty() {
        if let Some(plain) = syntax_error(text, message, span.start) {
            return plain;
        }
    }
    let name_at = |p: &[Seg]| locator.string(p);
    let what = describe(&path, name_at);
    let written = text
        .get(span.clone())
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(shorten);
    if let Some(header) = written.as_deref().filter(|w| w.starts_with('[')) {
        if let Some(plain) = wrong_brackets(header) {
            return plain;
        }
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let shown = written.unwrap_or_else(|| found.to_string());
            return format!(
                "{what} = {shown} is {}, but must be {}",
                found_kind(found),
                expected_kind(expected.trim())
            );
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.trim_end().trim_end_matches('`');
        let entry = if what.is_empty() {
            "the file".to_string()
        } else {
            what
        };
        return format!("{entry} has no '{key}', which is required");
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (key, known) = rest.split_once('`').unwrap_or((rest, ""));
        let known: Vec<&str> = known
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|k| !k.is_empty())
            .collect();
        let parent = describe(&path[..path.len().saturating_sub(1)], name_at);
        if parent.is_empty() {
            // A top-level key is a section.
            let sections: Vec<String> = SECTIONS.iter().map(|(s, _)| section(s)).collect();
            return match did_you_mean(key, SECTIONS.iter().map(|(s, _)| *s)) {
                Some(s) => format!("unknown section '{key}'; did you mean {}?", section(s)),
                None => format!(
                    "unknown section '{key}' (sections: {})",
                    sections.join(", ")
                ),
            };
        }
        return match did_you_mean(key, known.iter().copied()) {
            Some(s) => format!("{parent}: unknown key '{key}'; did you mean '{s}'?"),
            None => format!("{parent}: unknown key '{key}' (keys: {})", known.join(", ")),
        };
    }
    match (what.is_empty(), written) {
        (true, _) => message.trim().to_string(),
        (false, Some(w)) if message.contains("number overflowed") => {
            format!("{what} = {w} is too large to be a number")
        }
        (false, Some(w)) => format!("{what} = {w}: {}", message.trim()),
        (false, None) => format!("{what}: {}", message.trim()),
    }
}

/// The plain-words message of a TOML syntax error at byte `at` (the document does not parse,
/// so nothing can be located by its path): a key or section written twice, text without
/// quotes, text not closed, more after a value. `None` for the reader's own message.
fn syntax_error(text: &str, message: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let line_no = |offset: usize| text[..offset].matches('\n').count() + 1;
    // The `[…]` or `[[…]]` header the line starting `l` is, if it is one.
    let header = |l: &str| -> Option<String> {
        let l = l.lines().next().unwrap_or("").trim();
        l.starts_with('[').then(|| {
            let end = l.find(']').map_or(l.len(), |i| i + 1);
            let end = if l[end..].starts_with(']') {
                end + 1
            } else {
                end
            };
            l[..end].to_string()
        })
    };
    let bare = |h: &str| h.trim_matches(['[', ']']).trim().to_string();
    // The section the error is in: its header, and the offset the section starts at.
    let section = text[..line_start]
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain([0])
        .filter(|&i| i < line_start)
        .filter_map(|i| header(&text[i..]).map(|h| (h, i)))
        .max_by_key(|&(_, i)| i);
    let (key, value) = line.split_once('=').unwrap_or((line, ""));
    let key = key.trim();
    let value = value.split(" #").next().unwrap_or("").trim();
    let place = || match &section {
        Some((h, start)) => {
            let body = &text[*start..line_start];
            let name = body.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                let v = v.trim().strip_prefix('"')?;
                let end = v.find('"')?;
                (k.trim() == "name").then(|| v[..end].to_string())
            });
            match name {
                Some(n) if h.starts_with("[[") => format!("{} '{n}'", bare(h)),
                _ => h.clone(),
            }
        }
        None => "the file".to_string(),
    };
    if message.starts_with("duplicate key") {
        if let Some(h) = header(line) {
            let name = bare(&h);
            let first = text[..line_start]
                .match_indices('\n')
                .map(|(i, _)| i + 1)
                .chain([0])
                .filter(|&i| header(&text[i..]).is_some_and(|e| bare(&e) == name))
                .min()?;
            let earlier = header(&text[first..])?;
            return Some(if earlier == h {
                format!(
                    "{h} is written twice (first on line {}); write each section once, with all of its keys",
                    line_no(first)
                )
            } else {
                format!(
                    "{h} after {earlier} on line {}: {name} is a list, so each of its entries is written {earlier}",
                    line_no(first)
                )
            });
        }
        let start = section.as_ref().map_or(0, |(_, i)| *i);
        let first = text[start..line_start]
            .match_indices('\n')
            .map(|(i, _)| start + i + 1)
            .chain([start])
            .filter(|&i| {
                text[i..]
                    .lines()
                    .next()
                    .and_then(|l| l.split_once('='))
                    .is_some_and(|(k, _)| k.trim() == key)
            })
            .min()?;
        return Some(format!(
            "{}: '{key}' is given twice (first on line {}); keep one",
            place(),
            line_no(first)
        ));
    }
    let shown = |v: &str| format!("{key} = {}", shorten(v));
    if message.starts_with("string values must be quoted") || message.starts_with("invalid boolean")
    {
        if value.is_empty() {
            return Some(format!("{}: '{key}' has no value after '='", place()));
        }
        if value.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c)) {
            return Some(format!(
                "{}: {} is not a value; a number is written without spaces, text in quotes",
                place(),
                shown(value)
            ));
        }
        return Some(format!(
            "{}: {} is not a value; write text in quotes: {key} = \"{value}\"",
            place(),
            shown(value)
        ));
    }
    if message.starts_with("invalid basic string") || message.starts_with("invalid literal string")
    {
        let quote = if message.contains("basic") { '"' } else { '\'' };
        return Some(format!(
            "{}: {} is not closed: end the text with {quote} on the same line",
            place(),
            shown(value)
        ));
    }
    if message.starts_with("unexpected key or value, expected newline") {
        return Some(format!(
            "{}: {} has more after its value; write one key = value per line (comments start with #)",
            place(),
            shown(value)
        ));
    }
    None
}

/// The message for a section written with the wrong brackets: `[[cave]]` for the one `[cave]`,
/// `[room]` for an entry of the list `[[room]]`. `None` when the brackets are right.
fn wrong_brackets(written: &str) -> Option<String> {
    let list = written.starts_with("[[");
    let name = written.trim_matches(['[', ']']).trim();
    let (_, is_list) = SECTIONS.iter().find(|(s, _)| *s == name)?;
    match (list, is_list) {
        (true, false) => Some(format!(
            "{written} is one section, not a list: write [{name}]"
        )),
        (false, true) => Some(format!(
            "{written} is a list of entries: write each entry as [[{name}]]"
        )),
        _ => None,
    }
}

/// A value as written, cut to a readable length.
fn shorten(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 40 {
        format!("{}…", one_line.chars().take(39).collect::<String>())
    } else {
        one_line
    }
}

/// Serde's description of a found value (`string "2"`, `floating point `1.5``) in plain words.
fn found_kind(found: &str) -> &'static str {
    match found.split([' ', '`']).next().unwrap_or("") {
        "string" => "text",
        "integer" => "a whole number",
        "floating" => "a fractional number",
        "boolean" => "true or false",
        "sequence" => "a list",
        "map" => "a table",
        "datetime" => "a date",
        _ => "of the wrong type",
    }
}

/// Serde's description of an expected type (`f64`, `a boolean`) in plain words.
fn expected_kind(expected: &str) -> &str {
    match expected {
        "f64" | "f32" => "a number",
        "i64" | "i32" | "u64" | "u32" | "u16" | "u8" | "usize" => "a whole number",
        "a boolean" => "true or false",
        "a string" | "a borrowed string" => "text in quotes",
        "a sequence" => "a list",
        e if e.starts_with("struct ") || e == "a map" => "a table",
        e => e,
    }
}
