//! The map model: cells, priority writes, rectangles and dog-legs, resets; its parts a file each.

/// Annotations: rooms, corridors, doors, tags.
mod annotations;
/// Maps read from and written as ASCII.
mod ascii;
/// Where a level and its rooms are entered: doors, openings, regions.
mod entrances;
/// Geometry: points, rectangles, lines.
mod geom;
/// Layers of values over a map.
mod layer;
/// Writes a row at a time, against the same cells one by one.
mod rows;

use std::sync::Arc;
use warren_core::map::annotations::Door;
use warren_core::map::door::DoorState;
use warren_core::map::geom::{dogleg_cells, DogLeg, Point, Rect};
use warren_core::map::terrain::{Rgb, Terrain, TerrainId, TerrainTable};
use warren_core::map::{fill, fill_by_doubling, priority, Brush, Map, MapError, Planes};

#[test]
fn fill_writes_every_cell_of_any_length_and_nothing_else() {
    // From every offset into a buffer (so the 8-byte words start anywhere in the slice), and
    // the cells on either side untouched.
    for len in 0..300 {
        for from in 0..5 {
            // The fill of this target, and the portable one other targets use.
            for (how, filler) in [
                ("fill", fill::<u16> as fn(&mut [u16], u16)),
                ("doubling", fill_by_doubling),
            ] {
                let mut cells: Vec<u16> = (0..(len + from + 3) as u16).collect();
                filler(&mut cells[from..from + len], 0xbeef);
                let (before, rest) = cells.split_at(from);
                let (filled, after) = rest.split_at(len);
                assert!(
                    filled.iter().all(|&c| c == 0xbeef),
                    "{how}: length {len} from {from}"
                );
                assert!(
                    before.iter().copied().eq(0..from as u16),
                    "{how}: before, {len} from {from}"
                );
                let beyond = (from + len) as u16..(from + len + 3) as u16;
                assert!(
                    after.iter().copied().eq(beyond),
                    "{how}: after, {len} from {from}"
                );
            }
            let mut bytes: Vec<u8> = vec![7; len + from + 3];
            fill(&mut bytes[from..from + len], 0xa5);
            let expected = (0..bytes.len()).map(|i| {
                if (from..from + len).contains(&i) {
                    0xa5
                } else {
                    7
                }
            });
            assert!(
                bytes.iter().copied().eq(expected),
                "bytes, {len} from {from}"
            );
        }
    }
}

fn table() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::new(vec![
        Terrain {
            name: "rock".into(),
            glyph: '#',
            color: Rgb(1, 1, 1),
            solid: true,
            hazard: false,
            move_cost: None,
        },
        Terrain {
            name: "floor".into(),
            glyph: '.',
            color: Rgb(2, 2, 2),
            solid: false,
            hazard: false,
            move_cost: None,
        },
    ]))
}

/// Over 1,000 seeds, writing the cells of a rectangle a test accepts is the same as
/// writing each of them in turn, whatever the priorities, the region, the force and the map
/// edge (rows up to 80 cells; `rows.rs` has rows longer than the write's chunk).
#[test]
fn rect_writes_where_a_test_accepts_equal_writes_one_by_one() {
    let mut rng = warren_core::rng::Rng::new(5);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 80) as i32, rng.range(1, 12) as i32);
        let x = rng.range(0, w as i64 - 1) as i32;
        let y = rng.range(0, h as i64 - 1) as i32;
        let rect = Rect::new(
            x,
            y,
            rng.range(1, (w - x) as i64) as i32,
            rng.range(1, (h - y) as i64) as i32,
        );
        masked_write_equals_one_by_one((w, h), rect, &mut rng, &format!("seed {seed}"));
    }
    let mut m = Map::new(4, 4, 0, table()).unwrap();
    let off = Rect::new(2, 2, 3, 3);
    assert!(m.write_rect_where(&off, &Brush::new(1), |_| true).is_err());
}

#[test]
fn every_priority_pair_follows_the_strictly_higher_rule() {
    let mut m = Map::new(5, 5, 0, table()).unwrap();
    let p = Point::new(2, 2);
    for &(_, a) in &priority::NAMED {
        for &(_, b) in &priority::NAMED {
            m.write(p, &Brush::new(0).priority(a).forced()).unwrap();
            let ok = m.write(p, &Brush::new(1).priority(b)).unwrap();
            assert_eq!(ok, b >= a, "write {b} over {a}");
            assert_eq!(m.terrain_at(p).unwrap(), if ok { 1 } else { 0 });
            assert_eq!(m.priority_at(p).unwrap(), if ok { b } else { a });
        }
    }
}

#[test]
fn edge_needs_force() {
    let mut m = Map::new(4, 4, 0, table()).unwrap();
    assert!(!m.write(Point::new(0, 2), &Brush::new(1)).unwrap());
    assert!(!m
        .write(Point::new(3, 3), &Brush::new(1).priority(120))
        .unwrap());
    assert!(m.write(Point::new(0, 2), &Brush::new(1).forced()).unwrap());
    assert!(!m.is_solid(Point::new(0, 2)).unwrap());
}

#[test]
fn out_of_bounds_is_an_error_naming_the_cell() {
    let mut m = Map::new(4, 3, 0, table()).unwrap();
    let e = m.write(Point::new(4, 0), &Brush::new(1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(4, 0) is outside the 4×3 map (x 0..=3, y 0..=2)"
    );
    assert!(m.fill_rect(&Rect::new(2, 1, 3, 1), &Brush::new(1)).is_err());
    assert!(m
        .write_all(&[Point::new(1, 1), Point::new(-1, 1)], &Brush::new(1))
        .is_err());
    assert_eq!(
        m.terrain_at(Point::new(1, 1)).unwrap(),
        0,
        "nothing written on error"
    );
}

/// A row that does not fit is refused with the error a forced fill of its rectangle gives,
/// and changes nothing; an empty row writes nothing, wherever it is.
#[test]
fn rows_off_the_map_are_refused_as_their_rectangles_are() {
    let base = Map::new(5, 3, 0, table()).unwrap();
    for (x, y, len) in [
        (-1, 0, 2),
        (4, 0, 2),
        (0, 3, 1),
        (0, -1, 1),
        (0, 0, 6),
        (3, 2, 9),
        (-1, 0, 6),
        (0, -1, 6),
        (-3, 0, 6),
        (5, 1, 7),
    ] {
        let mut m = base.clone();
        let row = vec![1; len];
        let rect = Rect::new(x, y, len as i32, 1);
        let expected = m
            .clone()
            .fill_rect(&rect, &Brush::new(1).forced())
            .unwrap_err();
        assert_eq!(
            m.write_terrain_row(x, y, &row).unwrap_err(),
            expected,
            "({x}, {y}) × {len}"
        );
        assert!(same(&m, &base));
    }
    let mut m = base.clone();
    assert_eq!(m.write_terrain_row(99, -7, &[]).unwrap(), 0);
    assert!(same(&m, &base));
}

#[test]
fn sizes_are_checked_before_allocation() {
    assert!(Map::new(0, 5, 0, table()).is_err());
    assert!(Map::new(100_000_000, 1, 0, table()).is_err());
    assert!(Map::new(5000, 5000, 0, table()).is_err());
}

#[test]
fn carve_path_reports_changed_cells_only() {
    let mut m = Map::new(6, 6, 0, table()).unwrap();
    m.write(Point::new(2, 2), &Brush::new(1)).unwrap();
    let path = [Point::new(1, 2), Point::new(2, 2), Point::new(3, 2)];
    let carved = m.carve_path(&path, &Brush::new(1)).unwrap();
    assert_eq!(carved, vec![Point::new(1, 2), Point::new(3, 2)]);
}

/// A map written with `writes` (single cells, rectangles and dog-legs; terrain, priority,
/// region, forced or not), doors and connected marks: every plane touched.
fn scribble(m: &mut Map, writes: &[(i32, i32, u8, Option<u8>, bool)]) {
    for &(x, y, t, priority, region) in writes {
        let p = Point::new(x % m.width(), y % m.height());
        let mut b = Brush::new(TerrainId::from(t % 2));
        b.priority = priority;
        b.region = region.then(|| m.region_id("hall"));
        b.force = x % 3 == 0;
        match y % 3 {
            0 => drop(m.write(p, &b).unwrap()),
            1 => drop(m.fill_rect(&Rect::new(0, 0, p.x + 1, p.y + 1), &b).unwrap()),
            _ => m
                .carve_dogleg(
                    Point::new(0, 0),
                    p,
                    DogLeg::VerticalFirst,
                    &b,
                    &mut Vec::new(),
                )
                .unwrap(),
        }
        if y % 5 == 0 {
            m.add_door(Door::new(p, DoorState::Closed)).unwrap();
        }
        if x % 4 == 1 {
            m.set_connected(p, true).unwrap();
        }
    }
}

/// On a `w × h` map of cells at random priorities, writing the cells of `rect` that a random
/// mask accepts, with a brush drawn from `rng` (ranked, forced or stamping a region, or not),
/// writes what writing each of them in turn does, and counts them alike.
pub(crate) fn masked_write_equals_one_by_one(
    (w, h): (i32, i32),
    rect: Rect,
    rng: &mut warren_core::rng::Rng,
    case: &str,
) {
    let mut a = Map::new(w as i64, h as i64, 0, table()).unwrap();
    for i in 0..a.len() {
        let p = rng.below(4) as u8 * 40;
        a.write_index(i, &Brush::new(rng.below(2) as u16).priority(p).forced());
    }
    let mut b = a.clone();
    let mut brush = Brush::new(1).priority(rng.below(4) as u8 * 40);
    if rng.percent(30) {
        brush = brush.forced();
    }
    if rng.percent(30) {
        brush.region = Some(3);
    }
    let keep: Vec<bool> = (0..a.len()).map(|_| rng.percent(50)).collect();
    let mut one_by_one = 0;
    for p in rect.cells() {
        if keep[p.x as usize + p.y as usize * w as usize] {
            one_by_one += a.write(p, &brush).unwrap() as usize;
        }
    }
    let at_once = b.write_rect_where(&rect, &brush, |i| keep[i]).unwrap();
    assert_eq!(at_once, one_by_one, "{case}");
    assert!(same(&a, &b), "{case}");
}

/// The dog-leg from `a` to `b` carved on copies of `base` by `Map::carve_dogleg` and cell by
/// cell with `Map::write`: each map, with the cells whose terrain changed.
pub(crate) fn dogleg_both_ways(
    base: Map,
    (a, b): (Point, Point),
    order: DogLeg,
    brush: &Brush,
) -> ((Map, Vec<Point>), (Map, Vec<Point>)) {
    let (mut fast, mut slow) = (base.clone(), base);
    let mut carved = Vec::new();
    fast.carve_dogleg(a, b, order, brush, &mut carved).unwrap();
    let mut expected = Vec::new();
    for p in dogleg_cells(a, b, order) {
        let before = slow.terrain_at(p).unwrap();
        if slow.write(p, brush).unwrap() && before != brush.terrain {
            expected.push(p);
        }
    }
    ((fast, carved), (slow, expected))
}

/// Every plane and note of two maps.
pub(crate) fn same(a: &Map, b: &Map) -> bool {
    (a.width(), a.height()) == (b.width(), b.height())
        && a.terrain_cells() == b.terrain_cells()
        && a.priority_cells() == b.priority_cells()
        && a.region_cells() == b.region_cells()
        && a.flag_cells() == b.flag_cells()
        && a.region_names() == b.region_names()
        && a.notes == b.notes
}

proptest::proptest! {
    /// A reused map, reset (which skips the planes it knows are still as its last reset
    /// left them), is the new map of that size, whatever was written to it before; and a
    /// plain fill with the reset's own terrain (which writes nothing), before or after
    /// doors and connected marks, does what it does on a map that knows nothing.
    #[test]
    fn reset_maps_equal_new_ones(
        sizes in proptest::collection::vec((1i64..12, 1i64..12), 1..4),
        writes in proptest::collection::vec(
            (0i32..40, 0i32..40, 0u8..2, proptest::option::of(0u8..3), proptest::bool::ANY),
            0..12,
        ),
        fill in 0u8..2,
        then_fill in proptest::option::of((0u8..2, proptest::bool::ANY)),
    ) {
        let fill = TerrainId::from(fill);
        let mut reused = Map::new(7, 5, 1 - fill, table()).unwrap();
        for (i, &(w, h)) in sizes.iter().enumerate() {
            if i % 2 == 1 {
                scribble(&mut reused, &writes);
            }
            reused.reset(w, h, fill).unwrap();
            let mut fresh = Map::new(w, h, fill, table()).unwrap();
            fresh.known = Planes::default();
            if let Some((t, force)) = then_fill {
                let mut b = Brush::new(TerrainId::from(t));
                b.force = force;
                proptest::prop_assert_eq!(reused.fill(&b), fresh.fill(&b));
            }
            proptest::prop_assert!(same(&reused, &fresh));
            scribble(&mut reused, &writes);
            scribble(&mut fresh, &writes);
            if let Some((t, force)) = then_fill {
                let mut b = Brush::new(TerrainId::from(t));
                b.force = force;
                proptest::prop_assert_eq!(reused.fill(&b), fresh.fill(&b));
            }
            proptest::prop_assert!(same(&reused, &fresh));
        }
    }

    /// Rectangles (written a row of slices at a time) write what writing their cells one
    /// at a time does, on and off the edge, over cells of higher and lower priority (rows
    /// up to 40 cells: long enough for the vectorised loop and its remainder).
    #[test]
    fn rectangles_write_like_their_cells_one_by_one(
        (x, y, w, h) in (0i32..40, 0i32..6, 1i32..41, 1i32..7),
        force: bool,
        priority in proptest::option::of(0u8..3),
        region: bool,
        pre in proptest::collection::vec((0i32..40, 0i32..6, 0u8..3), 0..60),
    ) {
        let rect = Rect::new(x, y, w.min(40 - x), h.min(6 - y));
        let mut base = Map::new(40, 6, 0, table()).unwrap();
        for (x, y, p) in pre {
            base.write(Point::new(x, y), &Brush::new(0).priority(p).forced()).unwrap();
        }
        let mut brush = Brush::new(1);
        brush.priority = priority;
        brush.region = region.then(|| base.region_id("hall"));
        brush.force = force;
        let (mut fast, mut slow) = (base.clone(), base);
        let written = fast.fill_rect(&rect, &brush).unwrap();
        let mut expected = 0;
        for y in rect.y..=rect.y2() {
            for x in rect.x..=rect.x2() {
                expected += usize::from(slow.write(Point::new(x, y), &brush).unwrap());
            }
        }
        proptest::prop_assert_eq!(written, expected);
        proptest::prop_assert!(same(&fast, &slow));
    }

    /// A row painted in one pass is the map that forced, plain writes of its cells one at a
    /// time make, over cells of any priority, region and door, and the map goes on as that
    /// one does (a whole fill after, which a map it knows to be of one terrain skips).
    #[test]
    fn rows_paint_like_their_cells_written_one_by_one(
        (x, y) in (0i32..40, 0i32..6),
        row in proptest::collection::vec(0u16..2, 1..41),
        pre in proptest::collection::vec((0i32..40, 0i32..6, 0u8..3, proptest::bool::ANY), 0..20),
        then_fill in 0u16..2,
    ) {
        let row = &row[..row.len().min((40 - x) as usize)];
        let mut base = Map::new(40, 6, 0, table()).unwrap();
        for (x, y, p, region) in pre {
            let mut brush = Brush::new(TerrainId::from(p % 2)).priority(p).forced();
            brush.region = region.then(|| base.region_id("hall"));
            base.write(Point::new(x, y), &brush).unwrap();
            if p == 2 {
                base.add_door(Door::new(Point::new(x, y), DoorState::Open)).unwrap();
            }
        }
        let (mut fast, mut slow) = (base.clone(), base);
        proptest::prop_assert_eq!(fast.write_terrain_row(x, y, row).unwrap(), row.len());
        for (dx, &terrain) in row.iter().enumerate() {
            slow.write(Point::new(x + dx as i32, y), &Brush::new(terrain).forced()).unwrap();
        }
        proptest::prop_assert!(same(&fast, &slow));
        proptest::prop_assert_eq!(
            fast.fill(&Brush::new(then_fill)),
            slow.fill(&Brush::new(then_fill))
        );
        proptest::prop_assert!(same(&fast, &slow));
    }

    /// Dog-legs (plain brushes take a shortcut) carve what writing their cells one at a time
    /// does, on and off the edge, over cells already carved or not.
    #[test]
    fn dog_legs_carve_like_their_cells_one_by_one(
        (ax, ay, bx, by) in (0i32..7, 0i32..6, 0i32..7, 0i32..6),
        vertical_first: bool,
        force: bool,
        priority in proptest::option::of(0u8..3),
        region: bool,
        pre in proptest::collection::vec((0i32..7, 0i32..6), 0..8),
    ) {
        let mut brush = Brush::new(1);
        brush.priority = priority;
        brush.region = region.then_some(0);
        brush.force = force;
        let mut base = Map::new(7, 6, 0, table()).unwrap();
        for (x, y) in pre {
            let mut b = Brush::new(1).forced();
            b.priority = Some(1);
            base.write(Point::new(x, y), &b).unwrap();
        }
        let (a, b) = (Point::new(ax, ay), Point::new(bx, by));
        let order = if vertical_first { DogLeg::VerticalFirst } else { DogLeg::HorizontalFirst };
        let ((fast, carved), (slow, expected)) = dogleg_both_ways(base, (a, b), order, &brush);
        proptest::prop_assert_eq!(carved, expected);
        proptest::prop_assert_eq!(fast.terrain_cells(), slow.terrain_cells());
        proptest::prop_assert_eq!(fast.priority_cells(), slow.priority_cells());
        proptest::prop_assert_eq!(fast.region_cells(), slow.region_cells());
        proptest::prop_assert_eq!(fast.flag_cells(), slow.flag_cells());
    }

}

/// `rect_in_bounds` says what `check_rect` checks, and `check_rect`'s error is the one it was
/// before `rect_in_bounds` (empty; else the first corner off the map, top-left then
/// bottom-right), for every rectangle about the edges of every map up to 6×6, and of a map as
/// wide as a side may be.
#[test]
fn rect_in_bounds_is_check_rect() {
    let sizes = (1..=6).flat_map(|w| (1..=6).map(move |h| (w, h)));
    for (w, h) in sizes.chain([(65_536, 1)]) {
        let map = Map::new(w, h, 0, table()).unwrap();
        let (mw, mh) = (w as i32, h as i32);
        let xs = (-2..=mw.min(8) + 1).chain([mw - 2, mw - 1, mw, mw + 1]);
        for x in xs {
            for y in -2..=mh + 1 {
                for rw in (-1..=mw.min(8) + 2).chain([mw - 1, mw, mw + 1]) {
                    for rh in -1..=mh + 2 {
                        let r = Rect::new(x, y, rw, rh);
                        let far = (x + rw - 1, y + rh - 1);
                        let on = |cx: i32, cy: i32| cx >= 0 && cy >= 0 && cx < mw && cy < mh;
                        let expected = if r.is_empty() {
                            Err(MapError::EmptyRect { x, y, w: rw, h: rh })
                        } else if !on(x, y) {
                            Err(MapError::OutOfBounds {
                                x: x.into(),
                                y: y.into(),
                                width: mw,
                                height: mh,
                            })
                        } else if !on(far.0, far.1) {
                            Err(MapError::OutOfBounds {
                                x: far.0.into(),
                                y: far.1.into(),
                                width: mw,
                                height: mh,
                            })
                        } else {
                            Ok(())
                        };
                        assert_eq!(map.rect_in_bounds(&r), expected.is_ok(), "{r:?} on {w}x{h}");
                        assert_eq!(map.check_rect(&r), expected, "{r:?} on {w}x{h}");
                    }
                }
            }
        }
    }
}

/// A far corner past `i32::MAX` is off the map (compared in 64 bits, not wrapped onto it).
#[test]
fn rects_past_i32_max_are_not_in_bounds() {
    let map = Map::new(10, 10, 0, table()).unwrap();
    let max = i32::MAX;
    for (x, y, w, h) in [
        (1, 0, max, 1),
        (9, 0, max, 1),
        (0, 1, 1, max),
        (0, 0, max, max),
        (max, 0, 1, 1),
        (i32::MIN, 0, max, 1),
        (0, i32::MIN, 1, max),
    ] {
        assert!(
            !map.rect_in_bounds(&Rect::new(x, y, w, h)),
            "({x}, {y}, {w}, {h})"
        );
    }
}
