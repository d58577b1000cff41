//! The one pass over the words of the open bits that reads each word's neighbourhood: it counts
//! the dead ends ([`super::dead_ends`]) and surveys each word for the area counter
//! ([`Survey`]), so that the words and their shifted copies are loaded once for both.
//!
//! The pass runs straight through the flat array of open bits, from row 0's first word to the
//! last row's last (gutter words between the rows hold no cells, so no dead ends and nothing
//! to survey), the same steps for every word: the compiler runs it several words at a time in
//! vector registers.

use super::areas::{surveyed, Survey};
use super::dead_ends::Ring;
use super::open_bits::OpenBits;

/// Fills `survey` from `open` and returns the number of dead-end cells.
#[inline(always)]
pub fn sweep(open: &OpenBits, survey: &mut Survey) -> usize {
    let stride = open.stride();
    let first = open.start(0);
    let len = open.height() * stride - 1;
    // Each word of `plane` at offset `d` from the words of the pass (|d| ≤ stride: the guard
    // rows keep every slice inside the array).
    fn at(plane: &[u64], first: usize, d: isize, len: usize) -> &[u64] {
        &plane[(first as isize + d) as usize..][..len]
    }
    let (words, west, east, s) = (open.words(), open.west(), open.east(), stride as isize);
    let (n, ne, nw) = (
        at(words, first, -s, len),
        at(east, first, -s, len),
        at(west, first, -s, len),
    );
    let (mid, e, w) = (
        at(words, first, 0, len),
        at(east, first, 0, len),
        at(west, first, 0, len),
    );
    let (s, se, sw) = (
        at(words, first, s, len),
        at(east, first, s, len),
        at(west, first, s, len),
    );
    let mut out = survey.out(open, first, len);
    let mut dead_ends = 0;
    for i in 0..len {
        // Bit x of each: the neighbour of cell x in that direction.
        let ring = Ring {
            n: n[i],
            ne: ne[i],
            e: e[i],
            se: se[i],
            s: s[i],
            sw: sw[i],
            w: w[i],
            nw: nw[i],
        };
        dead_ends += (mid[i] & ring.single_short_arc()).count_ones() as usize;
        out.store(i, surveyed(mid[i], w[i], e[i], n[i], nw[i], ne[i]));
    }
    dead_ends
}
