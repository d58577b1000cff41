//! Equality of the short strings the host compares on every map (parameter names and values,
//! terrain names) without a call into the C library: `==` on byte slices calls `memcmp`, whose
//! call and dispatch cost more than comparing a dozen bytes. A rooms map made 28 such calls
//! (24 checking its parameters, 4 looking up terrain names: about 80 ns of its 5 µs).

/// Whether `a` and `b` hold the same bytes. Up to 16 bytes, each side is read as at most two
/// overlapping words (or three bytes below 4), which together cover every byte; longer strings
/// are compared as slices.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        // Bytes 0, n / 2 and n − 1 are every byte of a string of 1 to 3.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

/// [`same_bytes`] of two strings.
#[inline]
pub fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// The `N` bytes of `s` from `at` (in bounds), as an array compared as one word.
#[inline(always)]
fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
    s[at..at + N].try_into().expect("N bytes in bounds")
}
