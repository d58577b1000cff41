//! `warren::stats::font` (src/stats/font.rs): the plots' 5×7 font.

use warren::stats::font::{glyph, GLYPHS, HEIGHT};

#[test]
fn glyphs_are_distinct_and_case_folded() {
    for (i, (a, ga)) in GLYPHS.iter().enumerate() {
        for (b, gb) in &GLYPHS[i + 1..] {
            assert!(a != b && ga != gb, "{a:?} and {b:?}");
        }
    }
    assert_eq!(glyph('A'), glyph('a'));
    assert_eq!(glyph(' '), [0; HEIGHT]);
    assert_eq!(glyph('☃'), glyph('€'), "unknown characters share the box");
}
