//! Mutations of text inputs. Coverage-free: no instrumentation tells which input is new, so the
//! mutations aim at what breaks parsers and validators — numbers at their limits, strings that
//! are empty or huge, tokens of the language, lines dropped, doubled, swapped or spliced from
//! other inputs — and stack a few at a time.

use warren_core::rng::Rng;

/// What a mutator draws from: fragments of the input language and values at the edges.
pub struct Dictionary {
    /// Snippets worth inserting (section headers, keys, API calls).
    pub snippets: Vec<String>,
    /// Numbers to put where a number was.
    pub numbers: &'static [&'static str],
    /// Strings to put inside a string literal.
    pub strings: Vec<String>,
}

/// Characters that break things: controls, quotes, brackets, multi-byte and invisible ones.
const CHARS: &[char] = &[
    '\0',
    '\t',
    '\r',
    '\n',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    ' ',
    '"',
    '\'',
    '\\',
    '[',
    ']',
    '{',
    '}',
    '(',
    ')',
    '=',
    '.',
    ',',
    ':',
    ';',
    '#',
    '<',
    '>',
    '-',
    '+',
    '*',
    '%',
    '~',
    'e',
    'x',
    '0',
    '9',
    'é',
    '\u{feff}',
    '\u{202e}',
    '\u{10ffff}',
    '🦀',
];

/// The largest input a mutation may produce (past it, mutations only shrink).
const MAX_LEN: usize = 256 << 10;

/// `input` changed by one to eight mutations.
pub fn mutate(rng: &mut Rng, input: &str, dict: &Dictionary, corpus: &[String]) -> String {
    let mut s = input.to_string();
    let rounds = 1 + rng.below(8);
    for _ in 0..rounds {
        s = once(rng, &s, dict, corpus);
        if s.len() > MAX_LEN {
            let cut = floor(&s, MAX_LEN);
            s.truncate(cut);
        }
    }
    s
}

/// One mutation.
fn once(rng: &mut Rng, s: &str, dict: &Dictionary, corpus: &[String]) -> String {
    let pick = |rng: &mut Rng, n: usize| rng.below(n.max(1) as u64) as usize;
    match rng.below(13) {
        0 => {
            let at = position(rng, s);
            let c = CHARS[pick(rng, CHARS.len())];
            let end = ceil(s, at + 1);
            format!("{}{c}{}", &s[..at], &s[end.min(s.len())..])
        }
        1 => {
            let at = position(rng, s);
            let c = CHARS[pick(rng, CHARS.len())];
            format!("{}{c}{}", &s[..at], &s[at..])
        }
        2 => {
            let (a, b) = range(rng, s, 16);
            format!("{}{}", &s[..a], &s[b..])
        }
        3 => {
            let (a, b) = range(rng, s, 64);
            format!("{}{}{}", &s[..b], &s[a..b], &s[b..])
        }
        4 => edit_lines(rng, s, |rng, lines| {
            if !lines.is_empty() {
                let i = pick(rng, lines.len());
                lines.remove(i);
            }
        }),
        5 => edit_lines(rng, s, |rng, lines| {
            if !lines.is_empty() {
                let i = pick(rng, lines.len());
                let times = if rng.below(4) == 0 {
                    1 + pick(rng, 64)
                } else {
                    1
                };
                for _ in 0..times {
                    lines.insert(i, lines[i].clone());
                }
            }
        }),
        6 => edit_lines(rng, s, |rng, lines| {
            if lines.len() > 1 {
                let (i, j) = (pick(rng, lines.len()), pick(rng, lines.len()));
                lines.swap(i, j);
            }
        }),
        7 => replace_token(rng, s, is_number_char, dict.numbers),
        8 => replace_string(rng, s, &dict.strings),
        9 => {
            let snippet = &dict.snippets[pick(rng, dict.snippets.len())];
            let at = if rng.below(2) == 0 {
                line_start(rng, s)
            } else {
                position(rng, s)
            };
            format!("{}{snippet}{}", &s[..at], &s[at..])
        }
        10 | 11 => {
            // Splice in lines of another input.
            let other = &corpus[pick(rng, corpus.len())];
            let lines: Vec<&str> = other.lines().collect();
            if lines.is_empty() {
                return s.to_string();
            }
            let a = pick(rng, lines.len());
            let b = (a + 1 + pick(rng, 8)).min(lines.len());
            let at = line_start(rng, s);
            format!("{}{}\n{}", &s[..at], lines[a..b].join("\n"), &s[at..])
        }
        _ => {
            // Cut the input short: unterminated strings, tables, blocks.
            let at = position(rng, s);
            s[..at].to_string()
        }
    }
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | '_' | 'e' | 'E' | 'x' | 'X')
}

/// Replaces one run of number characters that starts with a digit.
fn replace_token(rng: &mut Rng, s: &str, part: fn(char) -> bool, values: &[&str]) -> String {
    let starts: Vec<usize> = s
        .char_indices()
        .filter(|&(i, c)| c.is_ascii_digit() && !s[..i].ends_with(part))
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() || values.is_empty() {
        return s.to_string();
    }
    let a = starts[rng.below(starts.len() as u64) as usize];
    let b = s[a..].find(|c: char| !part(c)).map_or(s.len(), |n| a + n);
    let v = values[rng.below(values.len() as u64) as usize];
    format!("{}{v}{}", &s[..a], &s[b..])
}

/// Replaces the inside of one double- or single-quoted string.
fn replace_string(rng: &mut Rng, s: &str, values: &[String]) -> String {
    let quotes: Vec<usize> = s
        .char_indices()
        .filter(|&(_, c)| c == '"' || c == '\'')
        .map(|(i, _)| i)
        .collect();
    if quotes.len() < 2 || values.is_empty() {
        return s.to_string();
    }
    let k = rng.below(quotes.len() as u64 - 1) as usize;
    let (a, b) = (quotes[k] + 1, quotes[k + 1]);
    let v = &values[rng.below(values.len() as u64) as usize];
    format!("{}{v}{}", &s[..a], &s[b..])
}

fn edit_lines(rng: &mut Rng, s: &str, f: impl FnOnce(&mut Rng, &mut Vec<String>)) -> String {
    let mut lines: Vec<String> = s.lines().map(str::to_string).collect();
    f(rng, &mut lines);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A random character boundary of `s`.
fn position(rng: &mut Rng, s: &str) -> usize {
    floor(s, rng.below(s.len() as u64 + 1) as usize)
}

/// The start of a random line of `s`.
fn line_start(rng: &mut Rng, s: &str) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(s.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    starts[rng.below(starts.len() as u64) as usize]
}

/// A random range of at most `most` bytes, on character boundaries.
fn range(rng: &mut Rng, s: &str, most: usize) -> (usize, usize) {
    let a = position(rng, s);
    let b = ceil(s, (a + 1 + rng.below(most as u64) as usize).min(s.len()));
    (a, b.min(s.len()))
}

fn floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i.min(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_keep_text_valid_and_bounded() {
        let dict = Dictionary {
            snippets: vec!["[[terrain]]\n".into(), "é🦀".into()],
            numbers: &["1.7e308", "-1"],
            strings: vec![String::new(), "x".repeat(1000)],
        };
        let corpus = vec![
            "a = 1\nb = \"é\"\n".to_string(),
            "[x]\ny = 2.5\n".to_string(),
        ];
        let mut rng = Rng::new(1);
        let mut s = corpus[0].clone();
        for _ in 0..20_000 {
            s = mutate(&mut rng, &s, &dict, &corpus);
            assert!(s.len() <= MAX_LEN + 4096);
            if s.is_empty() {
                s = corpus[1].clone();
            }
        }
    }
}
