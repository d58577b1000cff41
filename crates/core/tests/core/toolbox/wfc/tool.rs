use crate::common::ascii::{terrains, CHASM, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::area::Mask;
use warren_core::gen::meter::{Tally, Unmetered};
use warren_core::gen::tool_error::ToolError;
use warren_core::gen::wfc::{collapse, patterns, Patterns, Sample, Symmetry};
use warren_core::map::Rect;
use warren_core::map::{Brush, Map, Point, TerrainId};
use warren_core::rng::Rng;

/// A sample from rows of `#` (rock), `.` (floor) and `~` (chasm).
fn sample(rows: &[&str], periodic: bool) -> Sample {
    let rows: Vec<Vec<TerrainId>> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    '#' => ROCK,
                    '.' => FLOOR,
                    _ => CHASM,
                })
                .collect()
        })
        .collect();
    match Sample::from_rows("test", &rows, periodic) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

/// A random `w × h` sample of two or three terrains.
fn random_sample(rng: &mut Rng) -> Sample {
    let (w, h) = (rng.range(3, 8) as usize, rng.range(3, 8) as usize);
    let kinds = rng.range(2, 3) as u16;
    let rows: Vec<Vec<TerrainId>> = (0..h)
        .map(|_| (0..w).map(|_| rng.below(kinds as u64) as u16).collect())
        .collect();
    Sample::from_rows("random", &rows, rng.percent(50)).unwrap()
}

fn forced(sample: &Sample) -> Vec<Brush> {
    sample
        .terrains
        .iter()
        .map(|&t| Brush::new(t).forced())
        .collect()
}

fn map(w: i64, h: i64) -> Map {
    // A terrain no sample uses, so unwritten cells show.
    Map::new(w, h, crate::common::ascii::DOOR, terrains()).unwrap()
}

/// The cells of `rect` on `map` as palette indices of `sample` (`None` for other terrains).
fn palette_cells(map: &Map, sample: &Sample, rect: Rect) -> Vec<Option<u8>> {
    let mut out = Vec::new();
    for y in rect.y..rect.y + rect.h {
        for x in rect.x..rect.x + rect.w {
            let t = map.terrain_at(Point::new(x, y)).unwrap();
            out.push(
                sample
                    .terrains
                    .iter()
                    .position(|&u| u == t)
                    .map(|i| i as u8),
            );
        }
    }
    out
}

/// Every `n × n` window of `rect` on `map` is one of `patterns`.
fn every_window_is_a_pattern(map: &Map, sample: &Sample, patterns: &Patterns, rect: Rect) {
    let n = patterns.n as i32;
    let cells = palette_cells(map, sample, rect);
    for y in 0..=rect.h - n {
        for x in 0..=rect.w - n {
            let window: Vec<u8> = (0..n * n)
                .map(|k| {
                    let i = (x + k % n) + (y + k / n) * rect.w;
                    cells[i as usize].expect("every cell of the area is written")
                })
                .collect();
            assert!(
                patterns.contains(&window),
                "window at ({x}, {y}) {window:?} is not a pattern of the sample"
            );
        }
    }
}

/// Over 1,000 seeds, random samples (tiling or not), sides, symmetries and output rectangles:
/// every window of a finished output is a pattern of the sample, and the same seed gives the
/// same map.
#[test]
fn every_window_of_the_output_is_a_pattern_of_the_sample() {
    let mut rng = Rng::new(36);
    let mut finished = 0;
    for seed in 0..1000u64 {
        let s = random_sample(&mut rng);
        let n = rng.range(2, 3.min(s.width.min(s.height) as i64)) as usize;
        let symmetry = Symmetry {
            rotate: rng.percent(50),
            reflect: rng.percent(50),
        };
        let p = patterns(&s, n, symmetry).unwrap();
        let rect = Rect::new(
            1,
            1,
            rng.range(n as i64, 12) as i32,
            rng.range(n as i64, 9) as i32,
        );
        let run = |seed| {
            let mut m = map(14, 11);
            let r = collapse(
                &mut m,
                Area::Rect(rect),
                &p,
                5,
                &mut Rng::new(seed),
                &forced(&s),
                &mut Unmetered,
            );
            (m, r)
        };
        let (m, r) = run(seed);
        match r {
            Ok(c) => {
                finished += 1;
                assert_eq!(c.patterns, p.len());
                every_window_is_a_pattern(&m, &s, &p, rect);
                assert_eq!(c.written, (rect.w * rect.h) as usize);
                let (again, _) = run(seed);
                assert_eq!(again.terrain_cells(), m.terrain_cells(), "seed {seed}");
            }
            Err(ToolError::Contradiction { sample, attempts }) => {
                assert_eq!((sample.as_str(), attempts), ("random", 6));
                assert!(m
                    .terrain_cells()
                    .iter()
                    .all(|&t| t == crate::common::ascii::DOOR));
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    // Random noise makes poor samples; still most of them finish.
    assert!(finished > 700, "only {finished} of 1,000 finished");
}

/// With rotations and reflections, the turned and mirrored windows are patterns too, and the
/// output uses them: a sample of east-west corridors gives north-south ones as well.
#[test]
fn symmetries_add_the_turned_windows() {
    let s = sample(&["####", "....", "####", "...."], true);
    let plain = patterns(&s, 3, Symmetry::NONE).unwrap();
    let turned = patterns(&s, 3, Symmetry::ALL).unwrap();
    assert!(plain.len() < turned.len());
    let vertical = [1u8, 0, 1, 1, 0, 1, 1, 0, 1];
    assert!(!plain.contains(&vertical) && turned.contains(&vertical));
    let mut m = map(20, 20);
    let r = collapse(
        &mut m,
        Area::Map,
        &plain,
        10,
        &mut Rng::new(1),
        &forced(&s),
        &mut Unmetered,
    );
    r.unwrap();
    // Without turns every row is one terrain.
    for y in 0..20 {
        let row: Vec<_> = (0..20)
            .map(|x| m.terrain_at(Point::new(x, y)).unwrap())
            .collect();
        assert!(row.iter().all(|&t| t == row[0]), "row {y}");
    }
}

/// A mask confines the writes to its cells; the windows inside the mask's rectangle still
/// come from the sample where every cell is written.
#[test]
fn masks_confine_the_writes() {
    let s = sample(&["#..#", "#..#", "#~~#", "#..#"], true);
    let p = patterns(&s, 2, Symmetry::ALL).unwrap();
    let mut mask = Mask::new(12, 10, false);
    for y in 2..8 {
        for x in 3..9 {
            if (x + y) % 5 != 0 {
                mask.set(Point::new(x, y), true).unwrap();
            }
        }
    }
    let mut m = map(12, 10);
    let c = collapse(
        &mut m,
        Area::Mask(&mask),
        &p,
        10,
        &mut Rng::new(5),
        &forced(&s),
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(c.written, mask.count());
    for i in 0..m.len() {
        let written = m.terrain_cells()[i] != crate::common::ascii::DOOR;
        assert_eq!(written, mask.cells()[i], "cell {i}");
    }
}

#[test]
fn errors_name_the_sample_the_side_and_the_area() {
    // One pattern that cannot stand beside itself: every attempt contradicts.
    let s = sample(&["#.", "#."], false);
    let p = patterns(&s, 2, Symmetry::NONE).unwrap();
    let mut m = map(6, 6);
    let e = collapse(
        &mut m,
        Area::Map,
        &p,
        3,
        &mut Rng::new(1),
        &forced(&s),
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "wave function collapse from sample 'test' met a contradiction on each of its 4 attempts; more retries, a larger or more varied sample, a smaller n, or rotations and reflections give it more ways to succeed"
    );
    let e = patterns(&s, 3, Symmetry::NONE).unwrap_err();
    assert_eq!(
        e.to_string(),
        "sample 'test' is 2×2; wave function collapse with n = 3 needs at least 3×3"
    );
    let e = patterns(&s, 4, Symmetry::NONE).unwrap_err();
    assert_eq!(e.to_string(), "wfc option n = 4 is out of range: 2..=3");
    let e = collapse(
        &mut m,
        Area::Rect(Rect::new(0, 0, 1, 5)),
        &p,
        0,
        &mut Rng::new(1),
        &forced(&s),
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "the area is 1×5; wave function collapse with n = 2 needs at least 2×2"
    );
    let e = collapse(
        &mut m,
        Area::Map,
        &p,
        5000,
        &mut Rng::new(1),
        &forced(&s),
        &mut Unmetered,
    );
    assert!(matches!(e, Err(ToolError::Range { key: "retries", .. })));
    let wide: Vec<Vec<TerrainId>> = vec![vec![ROCK; 65]];
    assert_eq!(
        Sample::from_rows("wide", &wide, false).unwrap_err(),
        "sample 'wide' is 65×1; samples are at most 64×64"
    );
    let ragged = vec![vec![ROCK; 3], vec![ROCK; 2]];
    assert_eq!(
        Sample::from_rows("ragged", &ragged, false).unwrap_err(),
        "sample 'ragged' row 2 is 2 cells long; every row must be 3 long, like row 1"
    );
    // A meter stops the collapse.
    let s = sample(&["#..#", "#..#", "#~~#", "#..#"], true);
    let p = patterns(&s, 2, Symmetry::ALL).unwrap();
    let mut t = Tally::with_limit(100);
    let e = collapse(
        &mut m,
        Area::Map,
        &p,
        0,
        &mut Rng::new(1),
        &forced(&s),
        &mut t,
    );
    assert!(matches!(e, Err(ToolError::Stopped(_))));
}
