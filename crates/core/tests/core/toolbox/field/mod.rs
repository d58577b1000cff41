//! Fields; distance maps, field of view and noise in their own files.

/// Distance (Dijkstra) maps against plain reference searches.
mod distance;
/// Field of view.
mod fov;
/// Noise fields.
mod noise;

use std::sync::Arc;
use warren_core::gen::area::Area;
use warren_core::gen::field::{Combine, Field, UNREACHABLE};
use warren_core::gen::meter::Unmetered;
use warren_core::gen::tool_error::ToolError;
use warren_core::map::{Brush, Map, Point};
use warren_core::map::{Rect, TerrainTable};

fn map(w: i64, h: i64) -> Map {
    let t = TerrainTable::plain(&[("rock", '#', true), ("floor", '.', false)]);
    Map::new(w, h, 0, Arc::new(t)).unwrap()
}

#[test]
fn combinations_work_cell_by_cell() {
    let mut a = Field::new(2, 1, 3.0);
    let mut b = Field::new(2, 1, 1.0);
    b.set(Point::new(1, 0), 5.0).unwrap();
    for (op, want) in [
        (Combine::Add, [4.0, 8.0]),
        (Combine::Sub, [2.0, -2.0]),
        (Combine::Mul, [3.0, 15.0]),
        (Combine::Min, [1.0, 3.0]),
        (Combine::Max, [3.0, 5.0]),
    ] {
        a.combine(&b, op).unwrap();
        assert_eq!(a.values(), want, "{op:?}");
        a = Field::new(2, 1, 3.0);
    }
    assert!(a.combine(&Field::new(1, 1, 0.0), Combine::Add).is_err());
    assert_eq!(Combine::from_name("max"), Some(Combine::Max));
    assert!(Combine::NAMES
        .iter()
        .all(|n| Combine::from_name(n).is_some()));
}

#[test]
fn normalize_stretches_finite_values_and_keeps_unreachable() {
    let mut f = Field::new(3, 1, 2.0);
    f.set(Point::new(1, 0), 6.0).unwrap();
    f.set(Point::new(2, 0), UNREACHABLE).unwrap();
    assert_eq!(f.range(), Some((2.0, 6.0)));
    f.normalize();
    assert_eq!(f.values(), [0.0, 1.0, UNREACHABLE]);
    f.scale(2.0, 1.0);
    f.clamp(0.0, 2.5);
    assert_eq!(f.values(), [1.0, 2.5, 2.5]);
    assert_eq!(Field::new(2, 2, UNREACHABLE).range(), None);
}

#[test]
fn threshold_writes_only_inside_the_band_and_the_area() {
    let mut m = map(6, 4);
    let mut f = Field::like(&m, 0.0);
    for (i, v) in f.values_mut().iter_mut().enumerate() {
        *v = (i % 6) as f32;
    }
    let area = Area::Rect(Rect::new(1, 1, 4, 1));
    let n = f
        .threshold(&mut m, area, (2.0, 9.0), &Brush::new(1), &mut Unmetered)
        .unwrap();
    assert_eq!(n, 3);
    let open: Vec<_> = (0..6)
        .map(|x| !m.is_solid(Point::new(x, 1)).unwrap())
        .collect();
    assert_eq!(open, [false, false, true, true, true, false]);
    assert_eq!(m.open_count(), 3);
    let e = f
        .threshold(
            &mut m,
            Area::Map,
            (f32::NAN, 1.0),
            &Brush::new(1),
            &mut Unmetered,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the lower bound is not a number; give a finite value or ±infinity"
    );
    let small = Field::new(2, 2, 0.0);
    let e = small
        .threshold(
            &mut m,
            Area::Map,
            (0.0, 1.0),
            &Brush::new(1),
            &mut Unmetered,
        )
        .unwrap_err();
    assert!(matches!(e, ToolError::Size(_)));
}

#[test]
fn layers_show_finite_values_as_a_digit_ramp() {
    let mut f = Field::new(3, 1, 0.0);
    f.set(Point::new(1, 0), 10.0).unwrap();
    f.set(Point::new(2, 0), UNREACHABLE).unwrap();
    let l = f.to_layer();
    assert_eq!(l.get(Point::new(0, 0)).unwrap().unwrap().0, '0');
    assert_eq!(l.get(Point::new(1, 0)).unwrap().unwrap().0, '9');
    assert_eq!(l.get(Point::new(2, 0)).unwrap(), None);
    let m = f.mask(0.0, 10.0);
    assert_eq!(m.cells(), [true, true, false]);
    assert_eq!(Field::from_mask(&m, 1.0, 0.0).values(), [1.0, 1.0, 0.0]);
}
