//! Unit tests of the word-parallel flood fill over bit-packed rows.

use warren_core::gen::connectivity::fill::{fill_row, spread_down};
/// `reached` after filling one row of `open` (a single row grid) from the seed bits.
fn row_fill(open: &[u64], seeds: &[u64]) -> Vec<u64> {
    let mut reached = vec![0; open.len()];
    fill_row(open, seeds, 0, open.len() - 1, &mut reached);
    reached
}

#[test]
fn row_fill_covers_exactly_the_seeded_spans() {
    // Spans: bits 0..=3, 5..=9, 12..=12; seed in the middle span.
    let open = [0b1_0011_1110_1111u64];
    assert_eq!(row_fill(&open, &[1 << 7]), vec![0b0_0011_1110_0000]);
    assert_eq!(row_fill(&open, &[1 << 12 | 1]), vec![0b1_0000_0000_1111]);
    assert_eq!(
        row_fill(&open, &[1 << 5 | 1 << 9]),
        vec![0b0_0011_1110_0000]
    );
}

#[test]
fn spread_down_stops_at_the_first_closed_cell() {
    let open = 0b1111_0111_1111_1110u64 | 1 << 63;
    assert_eq!(spread_down(open, 1 << 14), 0b0111_0000_0000_0000);
    assert_eq!(spread_down(open, 1 << 10), 0b0111_1111_1110);
    assert_eq!(spread_down(u64::MAX, 1 << 63), u64::MAX);
    assert_eq!(spread_down(open, 1 << 63), 1 << 63);
}

#[test]
fn row_fill_carries_across_words_both_ways() {
    let open = [u64::MAX << 60, u64::MAX, 0b111, 0];
    let want = vec![u64::MAX << 60, u64::MAX, 0b111, 0];
    assert_eq!(row_fill(&open, &[0, 0, 0b10, 0]), want);
    assert_eq!(row_fill(&open, &[1 << 62, 0, 0, 0]), want);
    assert_eq!(row_fill(&open, &[0, 1 << 20, 0, 0]), want);
}
