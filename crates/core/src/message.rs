//! Error messages of bounded size. A message can quote what a recipe or region file holds (a
//! Lua error value, a terrain name, a region value), and those may be megabytes long; every
//! message warren prints goes through [`cap`], which keeps its beginning (where the location
//! and the explanation are) and its end, and says how much it left out.

use std::borrow::Cow;

/// The longest message warren prints, in bytes (notes of omission included).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// How much of the end of a long message is kept (the list of valid names, say).
const TAIL_BYTES: usize = 512;

/// `message` if it fits in [`MAX_MESSAGE_BYTES`], else its beginning and end around a note
/// such as `… [20480 bytes omitted] …`. Cuts fall on character boundaries.
pub fn cap(message: &str) -> Cow<'_, str> {
    if message.len() <= MAX_MESSAGE_BYTES {
        return Cow::Borrowed(message);
    }
    // The note is at most this long (the count has at most 20 digits).
    const NOTE_BYTES: usize = 48;
    let head_end = floor_boundary(message, MAX_MESSAGE_BYTES - TAIL_BYTES - NOTE_BYTES);
    let tail_start = ceil_boundary(message, message.len() - TAIL_BYTES);
    let omitted = tail_start - head_end;
    Cow::Owned(format!(
        "{} … [{omitted} bytes omitted] … {}",
        &message[..head_end],
        &message[tail_start..]
    ))
}

/// The largest character boundary of `s` at or before `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `s` at or after `i`.
fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}
