//! `short_text::same_bytes`, the host's comparison of parameter and terrain names without
//! `memcmp`, answers as slice equality for every length, and on strings that differ in one
//! byte anywhere (the words it reads overlap; a byte missed would go unseen).

use proptest::prelude::*;
use warren_lua::short_text::{same_bytes, same_text};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any two byte strings, of any lengths up to past the word path's 16.
    #[test]
    fn answers_as_slice_equality(
        a in proptest::collection::vec(any::<u8>(), 0..40),
        b in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        prop_assert_eq!(same_bytes(&a, &b), a == b);
    }

    /// A string against itself with one byte changed, at every length and place.
    #[test]
    fn sees_every_byte(
        a in proptest::collection::vec(any::<u8>(), 1..40),
        at in any::<prop::sample::Index>(),
        change in 1..=255u8,
    ) {
        let mut b = a.clone();
        let i = at.index(a.len());
        b[i] = b[i].wrapping_add(change);
        prop_assert!(same_bytes(&a, &a.clone()));
        prop_assert!(!same_bytes(&a, &b), "byte {} of {} unseen", i, a.len());
    }
}

/// Names as the host meets them: equal, different lengths, one letter off.
#[test]
fn compares_names() {
    assert!(same_text("", ""));
    assert!(same_text("width", "width"));
    assert!(same_text("corridor_spawns", "corridor_spawns"));
    assert!(!same_text("width", "widths"));
    assert!(!same_text("height", "weight"));
    assert!(!same_text("max_rooms", "max_roomz"));
    assert!(!same_text(
        "a rather long terrain name",
        "a rather long terrain nam!"
    ));
}
