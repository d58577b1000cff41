//! Unit tests of `makestreet` and what it updates.

use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{
    CellStatus, Heading, Town, TownError, TownParams, BLANK, HDOOR, LIVE, STREET, VDOOR, WALL,
};
use warren_core::rng::Rng;

fn town(straightness: i64) -> Town {
    Town::new(
        &TownParams {
            height: 15,
            width: 17,
            straightness,
            ..TownParams::default()
        },
        &mut Unmetered,
    )
    .unwrap()
}

fn char_at(t: &Town, x: i32, y: i32) -> u8 {
    t.chars()[y as usize * t.width() + x as usize]
}

#[test]
fn a_lone_street_gets_doors_and_wakes_its_neighbours() {
    let mut t = town(0);
    let mut rng = Rng::new(1);
    // Cell (2, 3): centre (7, 5). Cell grid is 7 × 8.
    assert!(t.make_street(&mut rng, 2, 3, Some(Heading::East)).unwrap());
    assert_eq!(t.status(2, 3).unwrap(), CellStatus::Street);
    assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
    assert_eq!(char_at(&t, 7, 4), HDOOR);
    assert_eq!(char_at(&t, 7, 6), HDOOR);
    assert_eq!(char_at(&t, 6, 5), VDOOR);
    assert_eq!(char_at(&t, 8, 5), VDOOR);
    for (r, c) in [(1, 3), (3, 3), (2, 2), (2, 4)] {
        assert_eq!(t.status(r, c).unwrap(), CellStatus::Live, "({r}, {c})");
    }
    assert_eq!(t.distinct_streets(), 1);
    assert_eq!(t.street_number(2, 3).unwrap(), Some(0));
    assert_eq!(t.street_number(2, 4).unwrap(), None);
}

#[test]
fn border_cells_and_cells_without_isolated_neighbours_become_dead() {
    let mut t = town(0);
    let mut rng = Rng::new(1);
    assert!(t.make_street(&mut rng, 0, 3, Some(Heading::South)).unwrap());
    assert_eq!(t.status(0, 2).unwrap(), CellStatus::Dead);
    assert_eq!(t.status(0, 4).unwrap(), CellStatus::Dead);
    assert_eq!(t.status(1, 3).unwrap(), CellStatus::Live);
    // The outer wall of a border street is a gate.
    assert_eq!(char_at(&t, 7, 0), HDOOR);
    // Surround (2, 5) with streets on three sides: its last isolated neighbour goes.
    for (r, c) in [(1, 5), (2, 4), (2, 6)] {
        t.make_street(&mut rng, r, c, Some(Heading::East)).unwrap();
    }
    assert_eq!(t.status(2, 5).unwrap(), CellStatus::Live);
    t.make_street(&mut rng, 3, 5, Some(Heading::East)).unwrap();
    assert_eq!(t.status(2, 5).unwrap(), CellStatus::Dead);
}

/// Every status agrees with its definition (border and UNUSED neighbours stay DEAD).
fn assert_statuses_consistent(t: &Town) {
    for cell in 0..t.grid.len() {
        let status = t.status_of(cell);
        let isolated = t.has_isolated_neighbour(cell);
        let street = t
            .grid
            .neighbours(cell)
            .any(|(_, n)| t.lists().of(n) == STREET);
        let may_live = t.grid.is_interior(cell) && !t.touches_unused(cell);
        match status {
            CellStatus::Live => assert!(street && isolated && may_live, "cell {cell}"),
            CellStatus::Dead => assert!(street && !(isolated && may_live), "cell {cell}"),
            CellStatus::Isolated => assert!(!street, "cell {cell}"),
            _ => {}
        }
        assert_eq!(
            t.growth.of(cell),
            t.growth_kind(cell),
            "growth pool of {cell}"
        );
    }
}

#[test]
fn secondary_live_cells_die_when_their_last_isolated_neighbour_wakes() {
    let mut t = town(0);
    let mut rng = Rng::new(1);
    // A street down column 2 makes (2, 3) LIVE, with (2, 4) its only isolated neighbour.
    for r in 1..=3 {
        t.make_street(&mut rng, r, 2, Some(Heading::South)).unwrap();
    }
    assert_eq!(t.status(2, 3).unwrap(), CellStatus::Live);
    assert_eq!(t.status(2, 4).unwrap(), CellStatus::Isolated);
    assert_statuses_consistent(&t);
    // A street at (2, 5) wakes (2, 4), two links away from (2, 3), which must die.
    t.make_street(&mut rng, 2, 5, Some(Heading::South)).unwrap();
    assert_eq!(t.status(2, 4).unwrap(), CellStatus::Live);
    assert_eq!(t.status(2, 3).unwrap(), CellStatus::Dead);
    assert_statuses_consistent(&t);
    // Random streets keep every status true to its definition.
    for _ in 0..30 {
        if let Some(cell) = t.lists().pick_from(LIVE, &mut rng) {
            t.build_street(&mut rng, cell, None);
            assert_statuses_consistent(&t);
        }
    }
}

#[test]
fn streets_that_meet_merge_to_the_lower_number_and_open_the_wall() {
    let mut t = town(0);
    let mut rng = Rng::new(1);
    t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
    t.make_street(&mut rng, 2, 4, Some(Heading::West)).unwrap();
    assert_eq!(t.distinct_streets(), 2);
    assert_eq!(t.street_number(2, 4).unwrap(), Some(1));
    t.make_street(&mut rng, 2, 3, None).unwrap();
    assert_eq!(t.distinct_streets(), 1);
    assert_eq!(t.street_number(2, 4).unwrap(), Some(0));
    assert_eq!(char_at(&t, 6, 5), BLANK);
    assert_eq!(char_at(&t, 8, 5), BLANK);
    // (2, 3) continues both: the last one visited (west neighbour, heading east) wins.
    assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
}

#[test]
fn unused_neighbours_refuse_and_misuse_is_an_error() {
    let mut t = town(0);
    let mut rng = Rng::new(1);
    // (0, 1) touches the UNUSED corner (0, 0).
    assert!(!t.make_street(&mut rng, 0, 1, Some(Heading::South)).unwrap());
    assert_eq!(t.status(0, 1).unwrap(), CellStatus::Isolated);
    assert_eq!(char_at(&t, 3, 0), WALL);
    assert!(matches!(
        t.make_street(&mut rng, 0, 0, None),
        Err(TownError::NotARoom {
            status: CellStatus::Unused,
            ..
        })
    ));
    let err = t.make_street(&mut rng, 7, 0, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cell (row 7, column 0) is outside the town: rows 0..7, columns 0..8"
    );
    t.make_street(&mut rng, 3, 3, Some(Heading::North)).unwrap();
    assert!(t.make_street(&mut rng, 3, 3, None).is_err());
    assert_eq!(t.count(CellStatus::Street), 1);
}

#[test]
fn straightness_refuses_bends_but_never_continuations() {
    let mut rng = Rng::new(9);
    // Straightness 998: a bend next to a street going east is almost always refused …
    let mut refused = 0;
    for _ in 0..200 {
        let mut t = town(998);
        t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
        if !t.make_street(&mut rng, 3, 2, None).unwrap() {
            refused += 1;
        }
        // … while continuing it east always succeeds and keeps the heading.
        assert!(t.make_street(&mut rng, 2, 3, None).unwrap());
        assert_eq!(t.heading(2, 3).unwrap(), Some(Heading::East));
    }
    assert!(refused >= 190, "refused {refused} of 200");
    // Straightness 0 never refuses; a bend runs on away from the street it left.
    let mut t = town(0);
    t.make_street(&mut rng, 2, 2, Some(Heading::East)).unwrap();
    assert!(t.make_street(&mut rng, 3, 2, None).unwrap());
    assert_eq!(t.heading(3, 2).unwrap(), Some(Heading::South));
    // A given heading is kept unless the cell continues a street.
    assert!(t.make_street(&mut rng, 3, 3, Some(Heading::West)).unwrap());
    assert_eq!(t.heading(3, 3).unwrap(), Some(Heading::West));
    assert!(t.make_street(&mut rng, 4, 2, Some(Heading::West)).unwrap());
    assert_eq!(t.heading(4, 2).unwrap(), Some(Heading::South));
}
