use warren_core::map::annotations::{Annotations, Corridor};
use warren_core::map::geom::Point;

fn corridor(notes: &mut Annotations, len: i32) {
    let mut cells = notes.corridor_cells(len as usize);
    cells.extend((0..len).map(|x| Point::new(x, 0)));
    notes.corridors.push(Corridor {
        cells,
        region: None,
    });
}

#[test]
fn cleared_corridor_lists_are_reused_and_no_more_are_kept_than_the_last_map_held() {
    let mut notes = Annotations::default();
    for len in [5, 80, 7] {
        corridor(&mut notes, len);
    }
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 3);
    // A corridor takes a kept list: empty, with room for what it asks.
    let cells = notes.corridor_cells(40);
    assert!(cells.is_empty() && cells.capacity() >= 40);
    assert_eq!(notes.spare_cells.0.len(), 2);
    // A map whose corridors came from elsewhere (none taken) replaces what was kept.
    notes.corridors.push(Corridor {
        cells: vec![Point::new(1, 1)],
        region: None,
    });
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 1);
    notes.clear();
    assert!(
        notes.spare_cells.0.is_empty(),
        "kept past the map that held them"
    );
    // Kept lists are not part of what a map says.
    let mut other = Annotations::default();
    corridor(&mut other, 3);
    other.clear();
    assert_eq!(other, Annotations::default());
    assert!(other.clone().spare_cells.0.is_empty());
}
