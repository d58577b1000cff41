//! Unit tests of step 2: streamers.

use crate::dungeon::test_support::{blank, render, ROCK, WATER};
use warren_core::gen::dungeon::{carry_chasms, write_streamer, StreamerKind, StreamerStyle};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, Brush, Point};
use warren_core::rng::Rng;

fn style(kind: StreamerKind, min: i32, max: i32) -> StreamerStyle {
    StreamerStyle {
        name: "stream".into(),
        kind,
        terrain: WATER,
        min_width: min,
        max_width: max,
        priority: kind.default_priority(),
    }
}

#[test]
fn rivers_cross_the_map_from_the_top_or_left_edge() {
    for seed in 0..100 {
        let mut map = blank(64, 48);
        let n = write_streamer(
            &mut map,
            &mut Rng::new(seed),
            &style(StreamerKind::River, 2, 4),
            &mut Unmetered,
        )
        .unwrap();
        let cells: Vec<Point> = (0..map.len())
            .filter(|&i| map.terrain_cells()[i] == WATER)
            .map(|i| map.point(i))
            .collect();
        assert_eq!(cells.len(), n);
        assert!(n >= 40, "seed {seed}: river of {n} cells\n{}", render(&map));
        assert!(
            cells.iter().any(|p| p.x <= 2 || p.y <= 2),
            "seed {seed}: starts inside"
        );
        assert!(cells.iter().all(|p| !map.is_edge(*p)));
        for p in cells {
            assert_eq!(map.priority_at(p).unwrap(), priority::RIVER_STREAMER);
            assert_eq!(map.region_name(map.region_at(p).unwrap()), "stream");
        }
    }
}

#[test]
fn veins_swell_no_wider_than_their_maximum_and_respect_priority() {
    for seed in 0..100 {
        let mut map = blank(64, 48);
        let vault = Brush::new(ROCK).priority(priority::VAULT);
        map.fill_rect(&warren_core::map::Rect::new(20, 20, 8, 8), &vault)
            .unwrap();
        write_streamer(
            &mut map,
            &mut Rng::new(seed),
            &style(StreamerKind::Rock, 1, 3),
            &mut Unmetered,
        )
        .unwrap();
        for y in 0..48 {
            let run = (0..64)
                .filter(|&x| map.terrain_at(Point::new(x, y)).unwrap() == WATER)
                .count();
            // A diagonal square of side 3 shifted one cell a step covers at most 3 + a few.
            assert!(run <= 40, "seed {seed}");
        }
        for p in warren_core::map::Rect::new(20, 20, 8, 8).cells() {
            assert_eq!(
                map.terrain_at(p).unwrap(),
                ROCK,
                "seed {seed}: wrote into a vault"
            );
        }
    }
}

#[test]
fn widths_are_validated() {
    let e = write_streamer(
        &mut blank(8, 8),
        &mut Rng::new(1),
        &style(StreamerKind::Chasm, 3, 2),
        &mut Unmetered,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "streamer 'stream' max_width is 2; valid: min_width (3)..=16"
    );
    assert!(style(StreamerKind::Lava, 0, 2).validate().is_err());
    assert_eq!(StreamerKind::from_name("lava"), Some(StreamerKind::Lava));
    assert_eq!(StreamerKind::from_name("mud"), None);
}

#[test]
fn chasms_carry_down_and_narrow() {
    let mut above = blank(32, 32);
    let chasm = above.region_id("rift");
    let brush = Brush::new(WATER)
        .priority(priority::RIVER_STREAMER)
        .region(chasm);
    above
        .fill_rect(&warren_core::map::Rect::new(10, 10, 5, 4), &brush)
        .unwrap();
    let names = vec!["rift".to_string()];
    let mut below = blank(32, 32);
    assert_eq!(
        carry_chasms(&mut below, &above, &names, false, &mut Unmetered).unwrap(),
        20
    );
    assert_eq!(below.terrain_at(Point::new(10, 10)).unwrap(), WATER);
    assert_eq!(
        below.region_name(below.region_at(Point::new(14, 13)).unwrap()),
        "rift"
    );
    let mut narrow = blank(32, 32);
    assert_eq!(
        carry_chasms(&mut narrow, &above, &names, true, &mut Unmetered).unwrap(),
        6,
        "{}",
        render(&narrow)
    );
    assert_eq!(narrow.terrain_at(Point::new(10, 10)).unwrap(), ROCK);
    assert_eq!(narrow.terrain_at(Point::new(11, 11)).unwrap(), WATER);
    // A bigger level below: centred.
    let mut big = blank(40, 36);
    carry_chasms(&mut big, &above, &names, false, &mut Unmetered).unwrap();
    assert_eq!(big.terrain_at(Point::new(14, 12)).unwrap(), WATER);
    assert_eq!(
        carry_chasms(
            &mut blank(32, 32),
            &above,
            &["other".to_string()],
            false,
            &mut Unmetered
        )
        .unwrap(),
        0
    );
}
