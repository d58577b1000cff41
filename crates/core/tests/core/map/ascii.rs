use crate::common::terrain;
use std::sync::Arc;
use warren_core::map::{priority, DoorKind};
use warren_core::map::{AsciiCell, AsciiLegend};
use warren_core::map::{Door, DoorState, Map, Point, TerrainTable};
use warren_core::render::{text, View};

fn plain() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
        ("door", '+', true),
        ("rubble", '.', false),
    ]))
}

#[test]
fn text_reads_back_and_matches_the_text_renderer() {
    let rows = ["#####", "#.+.#", "#####"];
    let map = Map::from_ascii(rows, plain()).unwrap();
    assert_eq!(map.to_ascii(), rows.join("\n") + "\n");
    assert_eq!(text::ascii(&View::terrain(&map)), map.to_ascii());
    let again = Map::from_ascii(map.to_ascii().lines(), plain()).unwrap();
    assert_eq!(again.terrain_cells(), map.terrain_cells());
    // A glyph two terrains share reads as the first.
    assert_eq!(map.terrain_at(Point::new(1, 1)), Ok(1));
    assert_eq!(map.priority_cells(), &[0; 15]);
    assert!(map.notes.doors.is_empty());
}

#[test]
fn a_legend_sets_priority_region_and_doors() {
    let legend = AsciiLegend::new(plain())
        .with(
            'o',
            AsciiCell::terrain(1)
                .priority(priority::ROOM_FLOOR)
                .region("hall"),
        )
        .with(',', AsciiCell::terrain(1).region("corridor"))
        .with('+', AsciiCell::terrain(2).door(DoorState::Locked));
    let map = Map::from_ascii_with(["#,o+", "#oo,"], &legend).unwrap();
    assert_eq!(map.region_names(), ["", "corridor", "hall"]);
    assert_eq!(map.priority_at(Point::new(2, 0)), Ok(priority::ROOM_FLOOR));
    assert_eq!(map.priority_at(Point::new(1, 0)), Ok(0));
    assert_eq!(
        map.region_name(map.region_at(Point::new(1, 1)).unwrap()),
        "hall"
    );
    assert_eq!(
        map.notes.doors,
        [Door::new(Point::new(3, 0), DoorState::Locked)]
    );
    assert_eq!(map.is_passable(Point::new(3, 0)), Ok(true));
    assert_eq!(map.to_ascii(), "#..+\n#...\n");
}

#[test]
fn declared_door_kinds_make_doors_of_their_terrains() {
    let table = TerrainTable::new(vec![
        terrain("rock", '#', true),
        terrain("floor", '.', false),
        terrain("door", '+', true),
        terrain("open door", '\'', false),
        terrain("broken door", '.', false),
    ])
    .with_doors(vec![DoorKind {
        name: "oak".into(),
        closed: 2,
        open: 3,
        locked: 2,
        broken: 4,
        secret: None,
        weights: Default::default(),
        wooden: true,
    }]);
    let map = Map::from_ascii(["#+'.#"], Arc::new(table)).unwrap();
    assert_eq!(
        map.notes.doors,
        [
            Door::new(Point::new(1, 0), DoorState::Closed),
            Door::new(Point::new(2, 0), DoorState::Open)
        ]
    );
    // `.` is floor, the first terrain drawn with it: no broken door there.
    assert_eq!(map.terrain_at(Point::new(3, 0)), Ok(1));
}

#[test]
fn bad_text_is_an_error_that_says_where() {
    let err = |rows: &[&str]| Map::from_ascii(rows, plain()).unwrap_err().to_string();
    assert_eq!(
        err(&["###", "#.#", "##"]),
        "ASCII map, row 3, column 3: the row is 2 cells wide, the first 3"
    );
    assert_eq!(
        err(&["###", "#x#"]),
        "ASCII map, row 2, column 2: 'x' is not in the legend (known: '#', '+', '.')"
    );
    assert!(err(&[]).starts_with("map size 0×0 is not allowed"));
    assert!(err(&["", ""]).starts_with("map size 0×2 is not allowed"));
    let legend = AsciiLegend::new(plain()).with('?', AsciiCell::terrain(9));
    assert_eq!(
        Map::from_ascii_with(["#?"], &legend)
            .unwrap_err()
            .to_string(),
        "ASCII map, row 1, column 2: '?' stands for terrain 9, but the table has 4"
    );
}
