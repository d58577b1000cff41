use warren_core::gen::area::{Area, Mask};
use warren_core::map::{Point, Rect};

#[test]
fn bounds_hold_every_cell_set() {
    let mut m = Mask::new(6, 5, false);
    assert_eq!(m.bounds(), None);
    m.set(Point::new(4, 1), true).unwrap();
    m.set(Point::new(1, 3), true).unwrap();
    assert_eq!(m.bounds(), Some(Rect::new(1, 1, 4, 3)));
    assert!(m.set(Point::new(6, 0), true).is_err());
}

#[test]
fn scopes_check_their_area_against_the_map() {
    let r = Area::Rect(Rect::new(2, 2, 3, 3)).scope(5, 5).unwrap();
    assert!(r.contains(4, 4) && !r.contains(1, 2));
    assert!(Area::Rect(Rect::new(2, 2, 4, 3)).scope(5, 5).is_err());
    assert!(Area::Rect(Rect::new(2, 2, 0, 3)).scope(5, 5).is_err());
    let mask = Mask::new(4, 4, true);
    let e = Area::Mask(&mask).scope(5, 5).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a 4×4 grid was given where the 5×5 map's size is needed"
    );
    let mut mask = Mask::new(5, 5, false);
    mask.set(Point::new(3, 1), true).unwrap();
    let s = Area::Mask(&mask).scope(5, 5).unwrap();
    assert_eq!(s.cells().collect::<Vec<_>>(), vec![Point::new(3, 1)]);
    assert_eq!(s.to_mask(5), mask);
}

#[test]
fn indices_and_counts_are_the_cells_of_every_kind_of_area() {
    let mut mask = Mask::new(7, 6, false);
    for p in [(0, 0), (6, 0), (3, 2), (4, 2), (1, 5), (6, 5)] {
        mask.set(Point::new(p.0, p.1), true).unwrap();
    }
    let areas = [
        Area::Map,
        Area::Rect(Rect::new(2, 1, 4, 3)),
        Area::Rect(Rect::new(6, 5, 1, 1)),
        Area::Mask(&mask),
    ];
    for area in areas {
        let s = area.scope(7, 6).unwrap();
        let by_point: Vec<usize> = s.cells().map(|p| (p.x + p.y * 7) as usize).collect();
        assert_eq!(s.indices().collect::<Vec<_>>(), by_point, "{area:?}");
        assert_eq!(s.cell_count(), by_point.len(), "{area:?}");
    }
    assert_eq!(Area::Map.scope(7, 6).unwrap().cell_count(), 42);
    assert_eq!(Area::Mask(&mask).scope(7, 6).unwrap().cell_count(), 6);
}
