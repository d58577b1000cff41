//! Unit tests of `gen::tunnel`'s steering: the start direction, `CorrectDir`, the stubborn turn and the edge clamp.

use warren_core::gen::tunnel::steer::{
    clamp_at_edge, correct_dir, incursion_dist, initial_dir, random_turn, within_reach,
};
use warren_core::map::{Dir, Point};
use warren_core::rng::Rng;
const P: fn(i32, i32) -> Point = Point::new;

#[test]
fn the_edge_clamp_keeps_every_walk_within_reach() {
    // Wherever a walk stands and whichever way it heads, the clamp turns it so that its
    // next step stays within reach (or moves it back towards the band).
    let (w, h) = (12, 10);
    for x in 2..=w - 3 {
        for y in 2..=h - 3 {
            for dir in [Dir::North, Dir::South, Dir::East, Dir::West] {
                let next = P(x, y).step(clamp_at_edge(P(x, y), dir, w, h));
                assert!(within_reach(next, w, h), "{x},{y} {dir:?} -> {next:?}");
            }
        }
    }
    assert!(within_reach(P(2, 2), w, h) && within_reach(P(9, 7), w, h));
    assert!(!within_reach(P(1, 5), w, h) && !within_reach(P(10, 5), w, h));
    assert!(!within_reach(P(5, 1), w, h) && !within_reach(P(5, 8), w, h));
}

#[test]
fn dist_is_long_axis_plus_half_short_axis() {
    assert_eq!(incursion_dist(P(0, 0), P(0, 0)), 0);
    assert_eq!(incursion_dist(P(0, 0), P(6, 0)), 6);
    assert_eq!(incursion_dist(P(0, 0), P(4, 3)), 5);
    assert_eq!(incursion_dist(P(4, 3), P(0, 0)), 5);
    assert_eq!(incursion_dist(P(0, 0), P(3, 7)), 8);
}

#[test]
fn initial_dir_follows_the_longer_axis_and_ties_go_vertical() {
    assert_eq!(initial_dir(P(5, 5), P(9, 6)), Dir::East);
    assert_eq!(initial_dir(P(5, 5), P(1, 6)), Dir::West);
    assert_eq!(initial_dir(P(5, 5), P(6, 1)), Dir::North);
    assert_eq!(initial_dir(P(5, 5), P(6, 9)), Dir::South);
    assert_eq!(initial_dir(P(5, 5), P(8, 8)), Dir::South);
    assert_eq!(initial_dir(P(5, 5), P(5, 5)), Dir::South);
}

#[test]
fn correct_dir_heads_straight_when_aligned() {
    let mut rng = Rng::new(1);
    assert_eq!(
        correct_dir(P(5, 5), P(5, 1), Dir::East, &mut rng),
        Dir::North
    );
    assert_eq!(
        correct_dir(P(5, 5), P(5, 9), Dir::West, &mut rng),
        Dir::South
    );
    assert_eq!(
        correct_dir(P(5, 5), P(1, 5), Dir::North, &mut rng),
        Dir::West
    );
    assert_eq!(
        correct_dir(P(5, 5), P(9, 5), Dir::East, &mut rng),
        Dir::East
    );
}

#[test]
fn correct_dir_refuses_to_reverse_when_aligned_behind() {
    // Destination straight behind: the aligned choice is diametric, so an axis choice is
    // made instead, and that never reverses either.
    let mut rng = Rng::new(2);
    for _ in 0..200 {
        assert_eq!(
            correct_dir(P(5, 5), P(1, 5), Dir::East, &mut rng),
            Dir::South
        );
        assert_eq!(
            correct_dir(P(5, 5), P(5, 9), Dir::North, &mut rng),
            Dir::East
        );
    }
}

#[test]
fn correct_dir_is_never_diametric() {
    let mut rng = Rng::new(3);
    for x in 0..9 {
        for y in 0..9 {
            for curr in Dir::CARDINAL {
                for _ in 0..8 {
                    let d = correct_dir(P(x, y), P(4, 4), curr, &mut rng);
                    assert!(!d.is_diametric(curr), "({x},{y}) {curr:?} -> {d:?}");
                    assert!(Dir::CARDINAL.contains(&d));
                }
            }
        }
    }
}

#[test]
fn correct_dir_prefers_the_longer_axis_and_swaps_a_quarter_of_the_time() {
    // lx = 10 > ly = 5: east is preferred, south is the 25% swap.
    let mut rng = Rng::new(4);
    let n = 20_000;
    let south = (0..n)
        .filter(|_| correct_dir(P(10, 10), P(20, 15), Dir::East, &mut rng) == Dir::South)
        .count();
    let share = south as f64 / n as f64;
    assert!((0.23..0.27).contains(&share), "swap share {share}");
    // ly > lx: south is preferred, east is the swap.
    let east = (0..n)
        .filter(|_| correct_dir(P(10, 10), P(12, 30), Dir::South, &mut rng) == Dir::East)
        .count();
    let share = east as f64 / n as f64;
    assert!((0.23..0.27).contains(&share), "swap share {share}");
}

#[test]
fn random_turn_changes_direction_and_is_uniform() {
    let mut rng = Rng::new(5);
    let mut counts = [0usize; 4];
    for _ in 0..12_000 {
        let d = random_turn(Dir::North, &mut rng);
        assert_ne!(d, Dir::North);
        counts[Dir::CARDINAL.iter().position(|&c| c == d).unwrap_or(0)] += 1;
    }
    assert_eq!(counts[0], 0);
    for c in &counts[1..] {
        assert!((3_600..4_400).contains(c), "{counts:?}");
    }
}

#[test]
fn clamp_at_edge_checks_left_top_right_bottom_in_order() {
    let (w, h) = (20, 12);
    assert_eq!(clamp_at_edge(P(2, 6), Dir::West, w, h), Dir::East);
    assert_eq!(clamp_at_edge(P(1, 1), Dir::North, w, h), Dir::East);
    assert_eq!(clamp_at_edge(P(8, 2), Dir::North, w, h), Dir::South);
    assert_eq!(clamp_at_edge(P(17, 2), Dir::North, w, h), Dir::South);
    assert_eq!(clamp_at_edge(P(17, 6), Dir::East, w, h), Dir::West);
    assert_eq!(clamp_at_edge(P(17, 9), Dir::South, w, h), Dir::West);
    assert_eq!(clamp_at_edge(P(8, 9), Dir::South, w, h), Dir::North);
    assert_eq!(clamp_at_edge(P(3, 3), Dir::West, w, h), Dir::West);
    assert_eq!(clamp_at_edge(P(16, 8), Dir::East, w, h), Dir::East);
}
