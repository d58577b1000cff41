//! Lua 5.4's pattern matcher (`lstrlib.c`), ported to Rust so that every matching step can be
//! charged to the instruction budget. The C matcher backtracks with no hook to stop it: a
//! pattern like `("a-"):rep(30) .. "b"` against `("a"):rep(30)` runs for years. This one makes
//! the same decisions in the same order (so it finds the same matches and raises the same
//! errors) but pays for each step, and stops when the budget says so.
//!
//! Strings and patterns are bytes; character classes use the C locale, as `lua` does by default.

/// At most this many captures per pattern (`LUA_MAXCAPTURES`).
pub const MAX_CAPTURES: usize = 32;
/// Maximum recursion depth of the matcher (`MAXCCALLS` in `lstrlib.c`).
const MAX_DEPTH: usize = 200;
/// Steps are passed to the charger in batches of this size.
const CHARGE_EVERY: u64 = 1000;

/// Why matching stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The pattern is malformed or too complex; the message is Lua's. (Boxed: a one-word error
    /// keeps the matcher's results in registers, which makes it much faster.)
    Error(Box<String>),
    /// The charger refused further steps (a budget ran out).
    Budget,
}

/// "No match" in the matcher's internal results, which are subject offsets.
const NO: usize = usize::MAX;

/// An internal matcher result: the end of a match, or [`NO`].
type Found = Result<usize, Stop>;

/// Pays for matching steps; `Err(())` stops the match.
pub type Charger<'c> = &'c mut dyn FnMut(u64) -> Result<(), ()>;

/// One capture as Lua reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// A substring `src[start..end]`.
    Text(usize, usize),
    /// A position capture `()`: the 1-based position.
    Position(usize),
}

/// Length markers of captures still open or position captures (as in `lstrlib.c`).
const UNFINISHED: isize = -1;
const POSITION: isize = -2;

/// The state of one match attempt over `src` with `pat`.
pub struct Matcher<'a, 'c> {
    src: &'a [u8],
    pat: &'a [u8],
    depth: usize,
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    charge: Charger<'c>,
    pending: u64,
}

fn error<T>(msg: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Error(Box::new(msg.into())))
}

/// `isspace` in the C locale (Rust's `is_ascii_whitespace` leaves out `\v`).
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Whether byte `c` is in class `%cl` (`match_class`).
fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => is_space(c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0, // deprecated in Lua 5.2, still matched by 5.4
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() {
        !res
    } else {
        res
    }
}

impl<'a, 'c> Matcher<'a, 'c> {
    /// A matcher of `pat` (without its `^` anchor) against `src`, paying with `charge`.
    pub fn new(src: &'a [u8], pat: &'a [u8], charge: Charger<'c>) -> Self {
        Matcher {
            src,
            pat,
            depth: MAX_DEPTH,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            charge,
            pending: 0,
        }
    }

    /// Pays for `n` steps (in batches).
    #[inline]
    fn step(&mut self, n: u64) -> Result<(), Stop> {
        self.pending = self.pending.saturating_add(n);
        if self.pending >= CHARGE_EVERY {
            let due = std::mem::take(&mut self.pending);
            (self.charge)(due).map_err(|_| Stop::Budget)?;
        }
        Ok(())
    }

    /// Pays for the steps not charged yet.
    pub fn settle(&mut self) -> Result<(), Stop> {
        let due = std::mem::take(&mut self.pending);
        (self.charge)(due).map_err(|_| Stop::Budget)
    }

    /// Pattern byte at `i`; past the end reads as the terminating `\0` C sees.
    #[inline]
    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    /// Subject byte at `i`; past the end reads as `\0`.
    #[inline]
    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// Tries to match at `s`: the end of the match, or `None`. Resets captures first.
    pub fn try_at(&mut self, s: usize) -> Result<Option<usize>, Stop> {
        self.level = 0;
        self.depth = MAX_DEPTH;
        let end = self.do_match(s, 0)?;
        Ok((end != NO).then_some(end))
    }

    /// Number of captures of the last successful match.
    pub fn level(&self) -> usize {
        self.level
    }

    /// Capture `i` of a match `src[s..e]` (`get_onecapture`): with no captures, capture 0 is
    /// the whole match.
    pub fn capture(&self, i: usize, s: usize, e: usize) -> Result<Cap, Stop> {
        if i >= self.level {
            if i != 0 {
                return error(format!("invalid capture index %{}", i + 1));
            }
            return Ok(Cap::Text(s, e));
        }
        let (init, len) = self.capture[i];
        match len {
            UNFINISHED => error("unfinished capture"),
            POSITION => Ok(Cap::Position(init + 1)),
            len => Ok(Cap::Text(init, init + len as usize)),
        }
    }

    /// All captures of a match `src[s..e]`, or of a `find` (`whole = false`: no implicit
    /// whole-match capture).
    pub fn captures(&self, s: usize, e: usize, whole: bool) -> Result<Vec<Cap>, Stop> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n).map(|i| self.capture(i, s, e)).collect()
    }

    fn class_end(&self, mut p: usize) -> Result<usize, Stop> {
        let c = self.p(p);
        p += 1;
        match c {
            b'%' => {
                if p == self.pat.len() {
                    return error("malformed pattern (ends with '%')");
                }
                Ok(p + 1)
            }
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    if p == self.pat.len() {
                        return error("malformed pattern (missing ']')");
                    }
                    let c = self.p(p);
                    p += 1;
                    if c == b'%' && p < self.pat.len() {
                        p += 1;
                    }
                    if self.p(p) == b']' {
                        return Ok(p + 1);
                    }
                }
            }
            _ => Ok(p),
        }
    }

    /// `[set]` starting at `p` with its `]` at `ec`.
    fn match_bracket_class(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                return !sig;
            }
            if self.p(p) == b'%' {
                p += 1;
                if match_class(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return sig;
                }
            } else if self.p(p) == c {
                return sig;
            }
        }
    }

    #[inline]
    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        if s >= self.src.len() {
            return false;
        }
        let c = self.src[s];
        match self.p(p) {
            b'.' => true,
            b'%' => match_class(c, self.p(p + 1)),
            b'[' => self.match_bracket_class(c, p, ep - 1),
            pc => pc == c,
        }
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Found {
        if p + 1 >= self.pat.len() {
            return error("malformed pattern (missing arguments to '%b')");
        }
        if self.s(s) != self.p(p) {
            return Ok(NO);
        }
        let (open, close) = (self.p(p), self.p(p + 1));
        let mut depth = 1;
        let mut s = s + 1;
        while s < self.src.len() {
            self.step(1)?;
            let c = self.src[s];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(s + 1);
                }
            } else if c == open {
                depth += 1;
            }
            s += 1;
        }
        Ok(NO)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Found {
        let mut i = 0;
        while self.single_match(s + i, p, ep) {
            self.step(1)?;
            i += 1;
        }
        loop {
            let end = self.do_match(s + i, ep + 1)?;
            if end != NO || i == 0 {
                return Ok(end);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Found {
        loop {
            let end = self.do_match(s, ep + 1)?;
            if end != NO || !self.single_match(s, p, ep) {
                return Ok(end);
            }
            s += 1;
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Found {
        if self.level >= MAX_CAPTURES {
            return error("too many captures");
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let res = self.do_match(s, p)?;
        if res == NO {
            self.level -= 1;
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Found {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == UNFINISHED)
        else {
            return error("invalid pattern capture");
        };
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let res = self.do_match(s, p)?;
        if res == NO {
            self.capture[l].1 = UNFINISHED;
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Found {
        let l = digit as isize - b'1' as isize;
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == UNFINISHED {
            return error(format!("invalid capture index %{}", l + 1));
        }
        let (init, len) = self.capture[l as usize];
        // A position capture has no text; C compares its length, -2 read as a huge size_t,
        // with what is left of the subject, which never matches.
        let Ok(len) = usize::try_from(len) else {
            return Ok(NO);
        };
        self.step(len as u64)?;
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(s + len)
        } else {
            Ok(NO)
        }
    }

    fn do_match(&mut self, s: usize, p: usize) -> Found {
        if self.depth == 0 {
            return error("pattern too complex");
        }
        self.depth -= 1;
        let res = self.match_here(s, p);
        self.depth += 1;
        res
    }

    /// The body of `match` in `lstrlib.c`; its `goto init` tail calls are the loop.
    fn match_here(&mut self, mut s: usize, mut p: usize) -> Found {
        loop {
            self.step(1)?;
            if p == self.pat.len() {
                return Ok(s);
            }
            match self.p(p) {
                b'(' => {
                    return if self.p(p + 1) == b')' {
                        self.start_capture(s, p + 2, POSITION)
                    } else {
                        self.start_capture(s, p + 1, UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok(if s == self.src.len() { s } else { NO });
                }
                b'%' if self.p(p + 1) == b'b' => {
                    s = self.match_balance(s, p + 2)?;
                    if s == NO {
                        return Ok(NO);
                    }
                    p += 4;
                }
                b'%' if self.p(p + 1) == b'f' => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return error("missing '[' after '%f' in pattern");
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.match_bracket_class(previous, p, ep - 1)
                        && self.match_bracket_class(self.s(s), p, ep - 1)
                    {
                        p = ep;
                        continue;
                    }
                    return Ok(NO);
                }
                b'%' if self.p(p + 1).is_ascii_digit() => {
                    s = self.match_capture(s, self.p(p + 1))?;
                    if s == NO {
                        return Ok(NO);
                    }
                    p += 2;
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let suffix = self.p(ep);
                    if !self.single_match(s, p, ep) {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        return Ok(NO);
                    }
                    match suffix {
                        b'?' => {
                            let end = self.do_match(s + 1, ep + 1)?;
                            if end != NO {
                                return Ok(end);
                            }
                            p = ep + 1;
                        }
                        b'+' => return self.max_expand(s + 1, p, ep),
                        b'*' => return self.max_expand(s, p, ep),
                        b'-' => return self.min_expand(s, p, ep),
                        _ => {
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }
}

/// Whether `pat` has none of the characters that make it a pattern (`nospecials`).
pub fn no_specials(pat: &[u8]) -> bool {
    !pat.iter().any(|c| b"^$*+?.([%-".contains(c))
}

/// The first occurrence of `needle` in `hay` (`lmemfind`), paying one step per byte compared.
pub fn find_plain(hay: &[u8], needle: &[u8], charge: Charger) -> Result<Option<usize>, Stop> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0));
    };
    if needle.len() > hay.len() {
        return Ok(None);
    }
    let last_start = hay.len() - needle.len();
    let mut pending = 0u64;
    let mut at = 0;
    while at <= last_start {
        let Some(off) = hay[at..=last_start].iter().position(|&c| c == first) else {
            return Ok(None);
        };
        let start = at + off;
        pending += off as u64 + 1 + rest.len() as u64;
        if pending >= CHARGE_EVERY {
            charge(std::mem::take(&mut pending)).map_err(|_| Stop::Budget)?;
        }
        if hay[start + 1..start + needle.len()] == *rest {
            return Ok(Some(start));
        }
        at = start + 1;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `string.find(s, p)` with a generous budget: (start, end) 1-based, or None.
    fn find(s: &str, p: &str) -> Result<Option<(usize, usize)>, Stop> {
        let mut free = |_| Ok(());
        let (anchor, pat) = match p.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, p),
        };
        let mut m = Matcher::new(s.as_bytes(), pat.as_bytes(), &mut free);
        let mut at = 0;
        loop {
            if let Some(e) = m.try_at(at)? {
                return Ok(Some((at + 1, e)));
            }
            at += 1;
            if anchor || at > s.len() {
                return Ok(None);
            }
        }
    }

    #[test]
    fn matches_like_lua() {
        assert_eq!(find("hello world", "o w"), Ok(Some((5, 7))));
        assert_eq!(find("hello", "l+"), Ok(Some((3, 4))));
        assert_eq!(find("hello", "^h.-o$"), Ok(Some((1, 5))));
        assert_eq!(find("x = (a(b)c)", "%b()"), Ok(Some((5, 11))));
        assert_eq!(find("THE (quick) fox", "%f[%a]%a+"), Ok(Some((1, 3))));
        assert_eq!(find("abab", "(ab)%1"), Ok(Some((1, 4))));
        assert_eq!(
            find("a\u{b}b", "%s"),
            Ok(Some((2, 2))),
            "\\v is a space in C"
        );
        assert_eq!(find("abc", "[^%a]"), Ok(None));
        assert_eq!(find("a-z", "[a%-]+"), Ok(Some((1, 2))));
        assert_eq!(find("", "x*"), Ok(Some((1, 0))));
        assert_eq!(
            find("aa", "()%1"),
            Ok(None),
            "a position capture never matches text"
        );
        assert_eq!(find("a\0b", "%z"), Ok(Some((2, 2))));
    }

    #[test]
    fn errors_like_lua() {
        let e = |p: &str| match find(&"a".repeat(300), p) {
            Err(Stop::Error(m)) => *m,
            other => panic!("{p}: {other:?}"),
        };
        assert_eq!(e("[a"), "malformed pattern (missing ']')");
        assert_eq!(e("a%"), "malformed pattern (ends with '%')");
        assert_eq!(e("%b"), "malformed pattern (missing arguments to '%b')");
        assert_eq!(e("%fa"), "missing '[' after '%f' in pattern");
        assert_eq!(e("(a%2)"), "invalid capture index %2");
        assert_eq!(e("a)"), "invalid pattern capture");
        assert_eq!(e(&"(".repeat(33)), "too many captures");
        assert_eq!(e(&"a?".repeat(300)), "pattern too complex");
    }

    #[test]
    fn pathological_patterns_are_stopped_by_the_charger() {
        let src = "a".repeat(30);
        let pat = format!("{}b", "a-".repeat(30));
        let mut paid = 0u64;
        let mut charge = |n| {
            paid += n;
            if paid > 1_000_000 {
                Err(())
            } else {
                Ok(())
            }
        };
        let mut m = Matcher::new(src.as_bytes(), pat.as_bytes(), &mut charge);
        assert_eq!(m.try_at(0), Err(Stop::Budget));
        assert!(paid > 1_000_000 && paid < 1_002_000, "{paid}");
    }

    #[test]
    fn plain_find_pays_per_byte_compared() {
        let hay = "a".repeat(5000);
        let needle = format!("{}b", "a".repeat(2000));
        let mut paid = 0u64;
        let mut charge = |n| {
            paid += n;
            Ok(())
        };
        assert_eq!(
            find_plain(hay.as_bytes(), needle.as_bytes(), &mut charge),
            Ok(None)
        );
        assert!(paid > 2000 * 2900, "{paid}");
        let mut free = |_| Ok(());
        assert_eq!(find_plain(b"hello", b"llo", &mut free), Ok(Some(2)));
        assert_eq!(find_plain(b"hello", b"", &mut free), Ok(Some(0)));
    }
}
