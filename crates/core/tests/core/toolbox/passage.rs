use warren_core::gen::passage::natural_passage;
use warren_core::map::{Dir, Point};
use warren_core::rng::Rng;

#[test]
fn passages_join_their_ends_orthogonally_inside_the_edge() {
    let mut rng = Rng::new(1);
    for seed in 0..500 {
        let mut r = Rng::new(seed);
        let from = Point::new(r.range(1, 78) as i32, r.range(1, 48) as i32);
        let to = Point::new(r.range(1, 78) as i32, r.range(1, 48) as i32);
        let cells = natural_passage(from, to, (80, 50), &mut rng);
        assert_eq!(cells.first(), Some(&from));
        assert!(cells.contains(&to));
        for c in &cells {
            assert!(c.x >= 1 && c.y >= 1 && c.x <= 78 && c.y <= 48, "{c:?}");
        }
        // Every cell shares a side with an earlier one: the passage is 4-connected.
        let mut seen = std::collections::BTreeSet::from([from]);
        for &c in &cells[1..] {
            let joined = Dir::CARDINAL.iter().any(|&d| seen.contains(&c.step(d)));
            assert!(joined || seen.contains(&c), "seed {seed}: {c:?} floats");
            seen.insert(c);
        }
    }
}

/// What the cave's old joins lacked: turns and a varying width.
#[test]
fn passages_wind_and_vary_in_width() {
    let mut rng = Rng::new(2);
    let (mut winding, mut wide) = (0, 0);
    for _ in 0..200 {
        let cells = natural_passage(Point::new(5, 25), Point::new(60, 10), (80, 50), &mut rng);
        let walk: Vec<Point> = cells
            .windows(2)
            .filter(|w| (w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs() == 1)
            .map(|w| Point::new(w[1].x - w[0].x, w[1].y - w[0].y))
            .collect();
        let turns = walk.windows(2).filter(|w| w[0] != w[1]).count();
        winding += (turns > 10) as usize;
        let distinct: std::collections::BTreeSet<Point> = cells.iter().copied().collect();
        wide += (distinct.len() > 80) as usize;
    }
    assert!(
        winding >= 180 && wide >= 195,
        "{winding} winding, {wide} wide"
    );
}
