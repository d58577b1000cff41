//! `warren::serve::payload` (src/serve/payload.rs): the page's data.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use warren::serve::payload::Cells;

#[test]
fn cells_use_the_fewest_bytes_that_hold_the_largest_value() {
    let c = Cells::pack([1u32, 2, 255].into_iter(), 255);
    assert_eq!(
        (c.bytes, STANDARD.decode(&c.data).unwrap()),
        (1, vec![1, 2, 255])
    );
    let c = Cells::pack([1u32, 300].into_iter(), 300);
    assert_eq!(
        (c.bytes, STANDARD.decode(&c.data).unwrap()),
        (2, vec![1, 0, 44, 1])
    );
    let c = Cells::pack([70_000u32].into_iter(), 70_000);
    assert_eq!(
        (c.bytes, STANDARD.decode(&c.data).unwrap()),
        (4, vec![0x70, 0x11, 1, 0])
    );
}
