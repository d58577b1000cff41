use warren_core::map::annotations::{Annotations, Corridor, KindName};
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

/// A room's kind reads, compares and exports as its text, whether fixed in the code or shared;
/// a binding's usual kind is held fixed (no count to raise when rooms are copied).
#[test]
fn a_kind_is_its_text_however_it_is_held() {
    let fixed = KindName::from("interior");
    let shared = KindName::from(std::sync::Arc::<str>::from("interior"));
    assert_eq!(fixed, shared);
    assert!(fixed == "interior" && shared == *"interior");
    assert_ne!(fixed, KindName::from("bsp"));
    assert_eq!(shared.len(), 8);
    assert_eq!(format!("{shared}/{fixed}"), "interior/interior");
    assert_eq!(
        serde_json::to_string(&[&fixed, &shared]).unwrap(),
        r#"["interior","interior"]"#
    );
    assert!(matches!(
        KindName::named("room", "room"),
        KindName::Fixed("room")
    ));
    assert!(matches!(KindName::named("hall", "room"), KindName::Shared(ref s) if &**s == "hall"));
}
