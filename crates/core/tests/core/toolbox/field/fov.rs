use crate::common::ascii::{ascii_map, grid_map};
use warren_core::gen::area::{Area, Mask};
use warren_core::gen::field::fov::fov;
use warren_core::gen::meter::Unmetered;
use warren_core::map::{Map, Point};
use warren_core::rng::Rng;

fn seen_rows(map: &Map, origin: Point, radius: i32) -> Vec<String> {
    let m = fov(map, Area::Map, origin, radius, &mut Unmetered).unwrap();
    (0..map.height())
        .map(|y| {
            (0..map.width())
                .map(|x| if m.get(x, y) { 'v' } else { ' ' })
                .collect()
        })
        .collect()
}

/// Over 1,000 seeds of random maps and radii: for every pair of transparent cells, B is seen
/// from A exactly when A is seen from B; every cell seen lies within the radius; the origin
/// and, on an open map, every cell within the radius is seen.
#[test]
fn fov_is_symmetric_between_transparent_cells() {
    let mut rng = Rng::new(5);
    for seed in 0..1000 {
        let (w, h) = (rng.range(1, 14) as usize, rng.range(1, 11) as usize);
        let percent = rng.range(0, 45);
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(percent)).collect();
        let map = grid_map(w, h, &solid);
        let radius = rng.range(0, 12) as i32;
        let views: Vec<Mask> = (0..map.len())
            .map(|i| fov(&map, Area::Map, map.point(i), radius, &mut Unmetered).unwrap())
            .collect();
        for a in 0..map.len() {
            let pa = map.point(a);
            assert!(views[a].get(pa.x, pa.y), "seed {seed}: origin unseen");
            for b in 0..map.len() {
                let pb = map.point(b);
                if views[a].get(pb.x, pb.y) {
                    assert!(pa.dist2(pb) <= (radius as i64).pow(2), "seed {seed}");
                }
                if solid[a] || solid[b] {
                    continue;
                }
                assert_eq!(
                    views[a].get(pb.x, pb.y),
                    views[b].get(pa.x, pa.y),
                    "seed {seed}: {pa:?} and {pb:?} on {w}×{h}, radius {radius}"
                );
            }
        }
        if percent == 0 {
            for (a, view) in views.iter().enumerate() {
                let want = (0..map.len())
                    .filter(|&b| map.point(a).dist2(map.point(b)) <= (radius as i64).pow(2))
                    .count();
                assert_eq!(view.count(), want, "seed {seed}: open map");
            }
        }
    }
}

#[test]
fn walls_cast_shadows_and_show_themselves() {
    let map = ascii_map(&[
        "#########",
        "#.......#",
        "#...#...#",
        "#.......#",
        "#########",
    ]);
    assert_eq!(
        seen_rows(&map, Point::new(4, 3), 10),
        vec![
            "vvv   vvv",
            "vvvv vvvv",
            "vvvvvvvvv",
            "vvvvvvvvv",
            "vvvvvvvvv",
        ]
    );
    assert_eq!(
        seen_rows(&map, Point::new(4, 3), 1),
        vec![
            "         ",
            "         ",
            "    v    ",
            "   vvv   ",
            "    v    "
        ]
    );
}

#[test]
fn areas_are_opaque_outside_and_origins_must_be_on_the_map() {
    let map = ascii_map(&[".....", ".....", "....."]);
    let r = warren_core::map::Rect::new(0, 0, 3, 3);
    let m = fov(&map, Area::Rect(r), Point::new(1, 1), 9, &mut Unmetered).unwrap();
    assert_eq!(m.count(), 9);
    assert!(fov(&map, Area::Map, Point::new(5, 0), 3, &mut Unmetered).is_err());
    let m = fov(&map, Area::Map, Point::new(0, 0), -4, &mut Unmetered).unwrap();
    assert_eq!(m.count(), 1);
}
