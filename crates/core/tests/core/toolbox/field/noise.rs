use warren_core::gen::area::Area;
use warren_core::gen::field::noise::{fill, Noise, NoiseKind, NoiseOptions, MAX_OCTAVES};
use warren_core::gen::field::Field;
use warren_core::gen::meter::Unmetered;
use warren_core::rng::Rng;

fn noise(kind: NoiseKind, seed: u64, w: i32, h: i32, options: NoiseOptions) -> Field {
    let mut f = Field::new(w, h, -1.0);
    let options = NoiseOptions { kind, ..options };
    fill(
        &mut f,
        Area::Map,
        &options,
        &mut Rng::new(seed),
        &mut Unmetered,
    )
    .unwrap();
    f
}

/// Over 1,000 seeds: every kind is reproducible (same seed, same field) and in `0..=1`;
/// lattice noises are continuous (a step of 1/1000 of a cell moves a single octave by at
/// most its largest slope times the step) and differ between seeds.
#[test]
fn noise_is_reproducible_bounded_and_continuous() {
    let options = NoiseOptions {
        frequency: 0.2,
        octaves: 3,
        ..NoiseOptions::default()
    };
    for seed in 0..1000 {
        for kind in [NoiseKind::White, NoiseKind::Value, NoiseKind::Perlin] {
            let a = noise(kind, seed, 12, 9, options);
            assert_eq!(a, noise(kind, seed, 12, 9, options), "seed {seed}");
            assert!(a.values().iter().all(|v| (0.0..=1.0).contains(v)));
            assert_ne!(a, noise(kind, seed + 1000, 12, 9, options));
        }
        let mut rng = Rng::new(seed);
        for kind in [NoiseKind::Value, NoiseKind::Perlin] {
            let n = Noise::new(kind, &mut rng);
            let (x, y) = (rng.float() * 300.0, rng.float() * 300.0);
            let step = 1e-3;
            // Both noises' slopes are bounded: the fade curve's slope is at most 1.875 and
            // scales differences of at most 1 (value noise's lattice values) or 4 (two
            // gradient products of at most 2 each), and the gradient products' own slopes
            // are at most 1 per axis; Perlin is then halved. 8 covers both along a diagonal.
            let bound = 8.0 * step;
            for (dx, dy) in [(step, 0.0), (0.0, step), (step, step)] {
                let d = (n.sample(x + dx, y + dy) - n.sample(x, y)).abs();
                assert!(d <= bound, "{kind:?} seed {seed}: jump {d} at ({x}, {y})");
            }
        }
    }
}

#[test]
fn fbm_of_one_octave_is_the_octave_and_stays_in_range() {
    let n = Noise::new(NoiseKind::Perlin, &mut Rng::new(3));
    let one = NoiseOptions {
        octaves: 1,
        ..NoiseOptions::default()
    };
    let (ox, oy) = n.offsets[0];
    let v = n.fbm(5.0, 7.0, &one);
    assert_eq!(v, n.perlin(5.0 / 16.0 + ox, 7.0 / 16.0 + oy));
    let many = NoiseOptions {
        octaves: MAX_OCTAVES,
        gain: 1.0,
        ..NoiseOptions::default()
    };
    assert!((0.0..=1.0).contains(&n.fbm(5.0, 7.0, &many)));
}

#[test]
fn noise_fills_only_its_area_and_checks_its_options() {
    let mut m = warren_core::gen::area::Mask::new(4, 4, false);
    m.set(warren_core::map::Point::new(1, 2), true).unwrap();
    let mut f = Field::new(4, 4, -1.0);
    let options = NoiseOptions::default();
    fill(
        &mut f,
        Area::Mask(&m),
        &options,
        &mut Rng::new(1),
        &mut Unmetered,
    )
    .unwrap();
    assert_eq!(f.values().iter().filter(|&&v| v != -1.0).count(), 1);
    assert!(f.get(warren_core::map::Point::new(1, 2)).unwrap() >= 0.0);
    for bad in [
        NoiseOptions {
            octaves: 0,
            ..options
        },
        NoiseOptions {
            frequency: 0.0,
            ..options
        },
        NoiseOptions {
            gain: f64::NAN,
            ..options
        },
        NoiseOptions {
            lacunarity: 0.5,
            ..options
        },
    ] {
        assert!(bad.check().is_err(), "{bad:?}");
    }
    assert_eq!(
        NoiseOptions {
            octaves: 13,
            ..options
        }
        .check()
        .unwrap_err()
        .to_string(),
        "noise option octaves = 13 is out of range: 1..=12"
    );
}

/// `fill` works row by row and octave by octave; each cell it writes is still exactly
/// [`Noise::fbm`] of that cell (the same octaves added in the same order), over the whole
/// map, a rectangle and a mask, for every lattice kind and a spread of options; the cells
/// outside the area keep their value.
#[test]
fn each_filled_cell_is_the_fbm_of_that_cell_bit_for_bit() {
    use warren_core::gen::area::Mask;
    use warren_core::map::{Point, Rect};
    let (w, h) = (37, 23);
    let mut mask = Mask::new(w, h, false);
    for y in 0..h {
        for x in (0..w).filter(|x| (x * 7 + y * 3) % 5 != 0) {
            mask.set(Point::new(x, y), true).unwrap();
        }
    }
    for seed in 0..60u64 {
        for kind in [NoiseKind::Perlin, NoiseKind::Value] {
            let s = seed as usize;
            let options = NoiseOptions {
                kind,
                frequency: [1.0 / 16.0, 0.3, 1.7, 100.0, 1024.0][s % 5],
                octaves: 1 + (seed as u32 % MAX_OCTAVES),
                lacunarity: [2.0, 1.0, 3.3, 16.0][s % 4],
                gain: [0.5, 1.0, 0.37][s % 3],
            };
            let noise = Noise::new(kind, &mut Rng::new(seed));
            for area in [
                Area::Map,
                Area::Rect(Rect::new(3, 2, 20, 15)),
                Area::Mask(&mask),
            ] {
                let mut f = Field::new(w, h, -1.0);
                fill(&mut f, area, &options, &mut Rng::new(seed), &mut Unmetered).unwrap();
                let scope = area.scope(w, h).unwrap();
                for p in Rect::new(0, 0, w, h).cells() {
                    let want = match scope.contains(p.x, p.y) {
                        true => noise.fbm(p.x as f64, p.y as f64, &options) as f32,
                        false => -1.0,
                    };
                    let got = f.get(p).unwrap();
                    assert_eq!(got.to_bits(), want.to_bits(), "{options:?} {area:?} {p:?}");
                }
            }
        }
    }
}
