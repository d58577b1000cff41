use std::sync::Arc;
use warren_core::map::{Brush, Door, DoorState, TerrainTable};
use warren_core::map::{Map, Point, Rect, Room, TagValue};

const ROCK: u16 = 0;
const FLOOR: u16 = 1;

/// A 12×8 map of rock with a 4×2 room at (4, 3).
fn map() -> (Map, Room) {
    let table = TerrainTable::plain(&[("rock", '#', true), ("floor", '.', false)]);
    let mut m = Map::new(12, 8, ROCK, Arc::new(table)).unwrap();
    let rect = Rect::new(4, 3, 4, 2);
    let hall = m.region_id("hall");
    m.fill_rect(&rect, &Brush::new(FLOOR).region(hall)).unwrap();
    let room = Room {
        rect,
        kind: "room".into(),
        doors: Vec::new(),
    };
    m.notes.rooms.push(room.clone());
    (m, room)
}

fn open(m: &mut Map, cells: &[(i32, i32)]) {
    for &(x, y) in cells {
        m.write(Point::new(x, y), &Brush::new(FLOOR)).unwrap();
    }
}

#[test]
fn a_corridor_into_a_room_without_a_door_is_one_of_its_doors() {
    let (mut m, room) = map();
    assert!(
        m.room_doors(&room).is_empty(),
        "a walled room has no way in"
    );
    // A corridor from the west enters at (3, 4); one from the north is two cells wide.
    open(
        &mut m,
        &[(1, 4), (2, 4), (3, 4), (5, 2), (6, 2), (5, 1), (6, 1)],
    );
    assert_eq!(
        m.room_doors(&room),
        [Point::new(6, 2), Point::new(3, 4)],
        "the middle of each opening, top side first"
    );
}

#[test]
fn a_door_serves_the_opening_beside_it_and_recorded_doors_are_kept_as_they_are() {
    let (mut m, mut room) = map();
    // Incursion's tunnels may put the door just outside the wall: (2, 4) serves (3, 4).
    open(&mut m, &[(1, 4), (2, 4), (3, 4), (8, 3)]);
    m.add_door(Door::new(Point::new(2, 4), DoorState::Closed))
        .unwrap();
    assert_eq!(m.room_doors(&room), [Point::new(2, 4), Point::new(8, 3)]);
    room.doors = vec![Point::new(8, 3)];
    assert_eq!(m.room_doors(&room), [Point::new(8, 3)]);
}

#[test]
fn a_room_knows_its_region_by_its_cells() {
    let (m, mut room) = map();
    assert_eq!(m.room_region(&room), Some("hall"));
    room.rect = Rect::new(0, 0, 2, 2);
    assert_eq!(m.room_region(&room), None);
}

#[test]
fn the_entry_is_the_start_then_the_up_stairs_then_the_first_room() {
    let (mut m, _) = map();
    assert_eq!(
        m.entry(),
        Some(Point::new(5, 3)),
        "nearest the room's centre"
    );
    m.notes.stairs.up.push(Point::new(7, 4));
    assert_eq!(m.entry(), Some(Point::new(7, 4)));
    m.notes.tags.insert("start_x", TagValue::Int(4));
    m.notes.tags.insert("start_y", TagValue::Int(4));
    assert_eq!(m.entry(), Some(Point::new(4, 4)));
    m.notes.tags.insert("start_y", TagValue::Int(99));
    assert_eq!(m.entry(), Some(Point::new(7, 4)), "a start off the map");
}

#[test]
fn a_level_without_rooms_is_entered_on_its_first_standable_cell() {
    let (mut m, _) = map();
    m.notes.rooms.clear();
    assert_eq!(m.entry(), Some(Point::new(4, 3)));
    let table = TerrainTable::plain(&[("rock", '#', true)]);
    let solid = Map::new(4, 4, ROCK, Arc::new(table)).unwrap();
    assert_eq!(solid.entry(), None);
}
