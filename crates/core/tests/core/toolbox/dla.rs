use crate::common::ascii::{grid_map, FLOOR};
use warren_core::gen::area::Area;
use warren_core::gen::connectivity::components;
use warren_core::gen::dla::{grow, Dla, DlaMode};
use warren_core::gen::drunkard::Symmetry;
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::{Adjacency, Rect};
use warren_core::map::{Brush, Map, Point};
use warren_core::rng::Rng;

fn rock(w: usize, h: usize) -> Map {
    grid_map(w, h, &vec![true; w * h])
}

const MODES: [DlaMode; 3] = [
    DlaMode::WalkInwards,
    DlaMode::WalkOutwards,
    DlaMode::CentralAttractor,
];
const MIRRORS: [Symmetry; 4] = [
    Symmetry::None,
    Symmetry::Horizontal,
    Symmetry::Vertical,
    Symmetry::Both,
];

/// Over 1,000 seeds, every mode, brush and mirror: the aggregate reaches its share, stays
/// inside its rectangle, is one 4-connected area, and the same seed grows the same way.
#[test]
fn aggregates_are_one_area_inside_their_rectangle() {
    let mut rng = Rng::new(31);
    for seed in 0..1000 {
        let (w, h) = (rng.range(5, 36) as usize, rng.range(5, 26) as usize);
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let options = Dla {
            mode: MODES[seed as usize % 3],
            floor_percent: rng.range(1, 60) as u32,
            brush: rng.range(1, 3) as u32,
            symmetry: MIRRORS[rng.below(4) as usize],
            start: None,
        };
        let run = |seed| {
            let mut map = rock(w, h);
            let grown = grow(
                &mut map,
                Area::Rect(area),
                &options,
                &mut Rng::new(seed),
                &Brush::new(FLOOR),
                &mut Unmetered,
            )
            .unwrap();
            (map, grown)
        };
        let (map, grown) = run(seed);
        let what = format!("seed {seed}: {options:?} {grown:?}");
        assert_eq!(map.terrain_cells(), run(seed).0.terrain_cells(), "{what}");
        assert!(grown.open >= grown.wanted, "{what}");
        assert_eq!(grown.open, map.open_count(), "{what}");
        for i in 0..map.len() {
            let p = map.point(i);
            assert!(area.contains(p) || map.is_solid(p).unwrap(), "{what}");
        }
        assert_eq!(components(&map, Adjacency::Four).len(), 1, "{what}");
    }
}

#[test]
fn options_are_checked_and_work_is_metered() {
    let mut map = rock(10, 10);
    let floor = Brush::new(FLOOR);
    let bad = Dla {
        floor_percent: 0,
        ..Dla::default()
    };
    let e = grow(
        &mut map,
        Area::Map,
        &bad,
        &mut Rng::new(1),
        &floor,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "dla option floor_percent = 0 is out of range: 1..=100"
    );
    let outside = Dla {
        start: Some(Point::new(0, 0)),
        ..Dla::default()
    };
    let area = Area::Rect(Rect::new(2, 2, 3, 3));
    let e = grow(
        &mut map,
        area,
        &outside,
        &mut Rng::new(1),
        &floor,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "the aggregation's start (0, 0) is not in the area"
    );
    let mut big = rock(60, 60);
    let mut t = Tally::with_limit(100);
    let e = grow(
        &mut big,
        Area::Map,
        &Dla::default(),
        &mut Rng::new(1),
        &floor,
        &mut t,
    );
    assert!(matches!(e, Err(ToolError::Stopped(_))));
}
