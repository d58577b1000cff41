use std::collections::BTreeMap;
use warren_core::map::layer::Layer;
use warren_core::map::{Point, Rgb};

#[test]
fn rows_become_marks_and_spaces_stay_clear() {
    let colors = BTreeMap::from([('a', Rgb(1, 2, 3))]);
    let l = Layer::from_rows(3, 2, &["a b".into(), "   ".into()], &colors).unwrap();
    assert_eq!(l.get(Point::new(0, 0)).unwrap(), Some(('a', Rgb(1, 2, 3))));
    assert_eq!(l.get(Point::new(1, 0)).unwrap(), None);
    assert_eq!(
        l.get(Point::new(2, 0)).unwrap(),
        Some(('b', Rgb(255, 255, 255)))
    );
    assert!(l.get(Point::new(3, 0)).is_err());
}

#[test]
fn rows_must_match_the_map() {
    let none = BTreeMap::new();
    let e = Layer::from_rows(3, 2, &["abc".into()], &none).unwrap_err();
    assert_eq!(e, "1 rows given; the map has 2 rows");
    let e = Layer::from_rows(3, 1, &["ab".into()], &none).unwrap_err();
    assert_eq!(e, "row 1 has 2 characters; the map is 3 cells wide");
}
