use warren_core::map::geom::{
    bresenham, dogleg, sort_rects_by_cell, sort_rects_by_key, DogLeg, Point, Rect,
};

#[test]
fn bresenham_includes_both_ends_and_is_8_connected() {
    for &(a, b) in &[
        (Point::new(0, 0), Point::new(7, 3)),
        (Point::new(5, 9), Point::new(1, 0)),
        (Point::new(2, 2), Point::new(2, 2)),
        (Point::new(0, 4), Point::new(9, 4)),
    ] {
        let line = bresenham(a, b);
        assert_eq!(line[0], a);
        assert_eq!(*line.last().unwrap(), b);
        for w in line.windows(2) {
            assert_eq!(w[0].chebyshev(w[1]), 1);
        }
        assert_eq!(line.len() as i32, a.chebyshev(b) + 1);
    }
}

#[test]
fn dogleg_orders_bend_at_expected_corner() {
    let a = Point::new(1, 1);
    let b = Point::new(4, 3);
    let h = dogleg(a, b, DogLeg::HorizontalFirst);
    assert!(h.contains(&Point::new(4, 1)));
    let v = dogleg(a, b, DogLeg::VerticalFirst);
    assert!(v.contains(&Point::new(1, 3)));
    for path in [h, v] {
        assert_eq!(path.len(), 6);
        for w in path.windows(2) {
            assert_eq!((w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs(), 1);
        }
    }
}

#[test]
fn rect_outline_visits_each_border_cell_once() {
    let r = Rect::new(2, 3, 4, 3);
    let o = r.outline();
    assert_eq!(o.len(), 10);
    let mut sorted = o.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 10);
    assert_eq!(Rect::new(0, 0, 1, 5).outline().len(), 5);
}

#[test]
fn intersects_respects_margin() {
    let a = Rect::new(0, 0, 3, 3);
    let touching = Rect::new(3, 0, 3, 3);
    assert!(!a.intersects(&touching, 0));
    assert!(a.intersects(&touching, 1));
    assert!(a.intersects(&Rect::new(2, 2, 1, 1), 0));
}

proptest::proptest! {
    /// `sort_rects_by_key` sorts as the standard library's stable sort, ties in the list's
    /// order, on lists short enough to be ranked and longer ones, with many equal keys.
    #[test]
    fn rectangles_sort_as_a_stable_sort_does(
        rects in proptest::collection::vec((-3i32..4, -3i32..4, 1i32..4, 1i32..4), 0..48),
    ) {
        let rects: Vec<Rect> = rects.into_iter().map(|(x, y, w, h)| Rect::new(x, y, w, h)).collect();
        /// A sort key of a test.
        type Key = fn(&Rect) -> (i32, i32);
        let keys: [Key; 3] = [|r| (r.x, r.y), |r| (r.y, r.x), |r| (-(r.w * r.h), 0)];
        for key in keys {
            let mut ranked = rects.clone();
            sort_rects_by_key(&mut ranked, key);
            let mut stable = rects.clone();
            stable.sort_by_key(key);
            proptest::prop_assert_eq!(ranked, stable);
        }
    }
}

proptest::proptest! {
    /// `sort_rects_by_cell` sorts as the standard library's stable sort on the pair, ties in
    /// the list's order, whether it ranks packed keys (every pair in `0..4096`, at most 32
    /// long) or sorts by the whole pair: coordinates on both sides of each bound, lists on both
    /// sides of 32.
    #[test]
    fn rectangles_sort_by_cell_as_a_stable_sort_does(
        rects in proptest::collection::vec(
            (
                proptest::prop_oneof![0i32..6, 4092i32..4097, -2i32..0],
                proptest::prop_oneof![0i32..6, 4092i32..4097],
                1i32..4,
            ),
            0..36,
        ),
        transposed in proptest::bool::ANY,
    ) {
        let rects: Vec<Rect> = rects.into_iter().map(|(x, y, w)| Rect::new(x, y, w, 1)).collect();
        let corner = |r: &Rect| if transposed { (r.y, r.x) } else { (r.x, r.y) };
        let mut by_cell = rects.clone();
        sort_rects_by_cell(&mut by_cell, corner);
        let mut expected = rects;
        expected.sort_by_key(corner);
        proptest::prop_assert_eq!(by_cell, expected);
    }
}

proptest::proptest! {
    /// Lists whose corners all lie on a map's cells, of every length up to 40, with many equal
    /// corners: ranked up to 32 long, sorted by the whole pair beyond, as the stable sort does
    /// either way (a list the ranks cannot hold whole is not half sorted).
    #[test]
    fn lists_on_the_map_sort_by_cell_at_every_length(
        rects in proptest::collection::vec((0i32..6, 0i32..3), 0..40),
    ) {
        let rects: Vec<Rect> = rects.into_iter().map(|(x, y)| Rect::new(x, y, 1, 1)).collect();
        let mut by_cell = rects.clone();
        sort_rects_by_cell(&mut by_cell, |r| (r.x, r.y));
        let mut expected = rects;
        expected.sort_by_key(|r| (r.x, r.y));
        proptest::prop_assert_eq!(by_cell, expected);
    }
}
