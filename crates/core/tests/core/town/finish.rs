//! Unit tests of finishing (steps 7–9): doors, surplus gates, lone pillars.

use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{CellStatus, Heading, Town, TownParams, BLANK, HDOOR, VDOOR, WALL};
use warren_core::rng::Rng;

fn small() -> Town {
    Town::new(
        &TownParams {
            height: 15,
            width: 17,
            gates: 3,
            leftgates: 1,
            ..TownParams::default()
        },
        &mut Unmetered,
    )
    .unwrap()
}

#[test]
fn close_doors_leaves_exactly_one_door_per_room() {
    let mut t = small();
    let mut rng = Rng::new(5);
    // Streets on both sides of (2, 3) give it two doors.
    t.make_street(&mut rng, 2, 2, Some(Heading::South)).unwrap();
    t.make_street(&mut rng, 2, 4, Some(Heading::South)).unwrap();
    t.make_street(&mut rng, 1, 3, Some(Heading::South)).unwrap();
    t.make_street(&mut rng, 3, 3, Some(Heading::South)).unwrap();
    assert_eq!(t.status(2, 3).unwrap(), CellStatus::Dead);
    let cell = t.grid.cell(2, 3).unwrap();
    let doors = |t: &Town| {
        Heading::ALL
            .iter()
            .filter(|&&h| matches!(t.chars[t.grid.wall_index(cell, h)], HDOOR | VDOOR))
            .count()
    };
    assert_eq!(doors(&t), 4);
    t.close_doors(&mut rng, &mut Unmetered).unwrap();
    assert_eq!(doors(&t), 1);
}

#[test]
fn close_gates_keeps_leftgates_open() {
    let mut t = small();
    let mut rng = Rng::new(8);
    assert_eq!(t.make_gates(&mut rng, &mut Unmetered).unwrap(), 3);
    assert_eq!(t.gate_indices().len(), 3);
    assert_eq!(t.close_gates(&mut rng, &mut Unmetered).unwrap(), 2);
    assert_eq!(t.gate_indices().len(), 1);
    assert_eq!(t.close_gates(&mut rng, &mut Unmetered).unwrap(), 0);
}

#[test]
fn cleanup_removes_only_pillars_with_four_open_arms() {
    let mut t = small();
    let w = t.width();
    // Junction (4, 4) with all four arms open; junction (8, 4) with one arm a door.
    for arm in [3 * w + 4, 5 * w + 4, 4 * w + 3, 4 * w + 5] {
        t.chars[arm] = BLANK;
    }
    for arm in [3 * w + 8, 5 * w + 8, 4 * w + 7] {
        t.chars[arm] = BLANK;
    }
    t.chars[4 * w + 9] = HDOOR;
    assert_eq!(t.cleanup_map(&mut Unmetered).unwrap(), 1);
    assert_eq!(t.chars[4 * w + 4], BLANK);
    assert_eq!(t.chars[4 * w + 8], WALL);
    assert_eq!(t.cleanup_map(&mut Unmetered).unwrap(), 0);
}
