//! The byte sizes bindings charge grow with what they hold (`api/cost.rs`).

use warren_core::map::{Annotations, Corridor, Point, Rect, Room};
use warren_lua::api::cost::{corridor, notes, room, text};

#[test]
fn sizes_grow_with_contents() {
    let short = Corridor {
        cells: vec![Point::new(0, 0)],
        region: None,
    };
    let long = Corridor {
        cells: vec![Point::new(0, 0); 10],
        region: Some("theme".into()),
    };
    assert_eq!(corridor(&long) - corridor(&short), 9 * 8 + text("theme"));
    let mut notes_ = Annotations::default();
    let empty = notes(&notes_);
    notes_.rooms.push(Room {
        rect: Rect::new(1, 1, 2, 2),
        kind: "vault".into(),
        doors: vec![Point::new(1, 1)],
    });
    assert_eq!(notes(&notes_) - empty, room(&notes_.rooms[0]));
}
