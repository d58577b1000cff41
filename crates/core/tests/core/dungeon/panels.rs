//! Unit tests of the panel grid.

use crate::dungeon::test_support::{blank, ROCK, WALL};
use warren_core::gen::dungeon::{init_level, Panels};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, Point, Rect};

#[test]
fn level_must_divide_evenly_into_at_most_32_panels() {
    assert!(Panels::new(128, 128, 32, 32).is_ok());
    let e = Panels::new(130, 128, 32, 32).unwrap_err().to_string();
    assert_eq!(
        e,
        "level width is 130; valid: a multiple of panel_width = 32 (e.g. 128, 160)"
    );
    let e = Panels::new(128, 8 * 33, 32, 8).unwrap_err().to_string();
    assert!(e.contains("at most 32 panels of 8 cells (256)"), "{e}");
    let e = Panels::new(128, 128, 4, 32).unwrap_err().to_string();
    assert_eq!(e, "panel_width is 4; valid: 8..=256");
    assert!(Panels::new(16, 128, 32, 32).is_err());
}

#[test]
fn panels_cover_the_level_column_by_column() {
    let p = Panels::new(96, 64, 32, 32).unwrap();
    assert_eq!((p.across, p.down, p.len()), (3, 2, 6));
    let all = p.all();
    assert_eq!(all[1], Point::new(0, 1));
    for (i, &q) in all.iter().enumerate() {
        assert_eq!(p.index(q), i);
    }
    assert_eq!(p.rect(Point::new(2, 1)), Rect::new(64, 32, 32, 32));
}

#[test]
fn init_writes_rock_inside_a_maximum_priority_edge() {
    let mut map = blank(8, 8);
    let panels = init_level(&mut map, 64, 32, (32, 32), ROCK, WALL, &mut Unmetered).unwrap();
    assert_eq!((map.width(), map.height(), panels.across), (64, 32, 2));
    assert_eq!(map.terrain_at(Point::new(0, 5)).unwrap(), WALL);
    assert_eq!(map.priority_at(Point::new(63, 31)).unwrap(), priority::MAX);
    assert_eq!(map.terrain_at(Point::new(5, 5)).unwrap(), ROCK);
    assert!(map.priority_at(Point::new(5, 5)).unwrap() < priority::EMPTY);
    let before = map.clone();
    assert!(init_level(&mut map, 60, 32, (32, 32), ROCK, WALL, &mut Unmetered).is_err());
    assert_eq!(map.width(), before.width(), "unchanged on error");
}
