//! `warren::stats::summary` (src/stats/summary.rs): numbers as the table prints them.

use warren::stats::summary::number;

#[test]
fn numbers_read_naturally() {
    assert_eq!(number(12.0), "12");
    assert_eq!(number(0.31234), "0.3123");
    assert_eq!(number(12.345), "12.35");
    assert_eq!(number(1234.56), "1234.6");
}
