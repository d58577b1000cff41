use std::borrow::Cow;
use warren_core::message::{cap, MAX_MESSAGE_BYTES};

#[test]
fn short_messages_are_untouched() {
    let m = "x".repeat(MAX_MESSAGE_BYTES);
    assert!(matches!(cap(&m), Cow::Borrowed(_)));
}

#[test]
fn long_messages_keep_both_ends_and_count_the_rest() {
    let m = format!("t.lua:3: {}END", "é".repeat(1 << 20));
    let c = cap(&m);
    assert!(c.len() <= MAX_MESSAGE_BYTES, "{}", c.len());
    let (head, rest) = c.split_once(" … [").unwrap();
    let (omitted, tail) = rest.split_once(" bytes omitted] … ").unwrap();
    assert!(head.starts_with("t.lua:3: é") && m.starts_with(head));
    assert!(tail.ends_with("éEND") && m.ends_with(tail));
    assert_eq!(
        head.len() + omitted.parse::<usize>().unwrap() + tail.len(),
        m.len()
    );
}
