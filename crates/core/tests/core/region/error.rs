use warren_core::region::error::line_col;

#[test]
fn line_col_counts_from_one() {
    let t = "a = 1\nbé = 2\n";
    assert_eq!(line_col(t, 0), (1, 1));
    assert_eq!(line_col(t, 6), (2, 1));
    assert_eq!(line_col(t, 9), (2, 3));
}
