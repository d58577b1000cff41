//! Unit tests of the status lists.

use proptest::prelude::*;
use warren_core::gen::town::StatusLists;
use warren_core::rng::Rng;

const NAMES: [&str; 5] = ["isolated", "live", "dead", "street", "unused"];

/// Every cell is on exactly one list, at the slot it remembers, and the list is its status.
fn assert_consistent(lists: &StatusLists) {
    let mut seen = vec![0u32; lists.len()];
    let mut total = 0;
    for status in 0..lists.status_count() {
        let cells = lists.cells(status).unwrap();
        total += cells.len();
        assert_eq!(lists.count(status).unwrap(), cells.len());
        for (slot, &cell) in cells.iter().enumerate() {
            seen[cell as usize] += 1;
            assert_eq!(lists.status_of(cell as usize).unwrap(), status);
            assert_eq!(lists.slot[cell as usize] as usize, slot);
        }
    }
    assert_eq!(total, lists.len());
    assert!(
        seen.iter().all(|&n| n == 1),
        "a cell is on no list or on two"
    );
}

#[test]
fn starts_with_every_cell_on_the_initial_list_in_order() {
    let lists = StatusLists::new(6, &NAMES, 2).unwrap();
    assert_eq!(lists.cells(2).unwrap(), &[0, 1, 2, 3, 4, 5]);
    assert_eq!(lists.count(0).unwrap(), 0);
    assert_eq!(lists.status_named("street"), Some(3));
    assert_eq!(lists.name(4).unwrap(), "unused");
    assert_consistent(&lists);
}

#[test]
fn moves_update_lists_counts_and_status() {
    let mut lists = StatusLists::new(5, &NAMES, 0).unwrap();
    lists.move_to(1, 3).unwrap();
    lists.move_to(4, 3).unwrap();
    lists.move_to(1, 3).unwrap(); // already there: no change
    assert_eq!(lists.cells(3).unwrap(), &[1, 4]);
    assert_eq!(lists.cells(0).unwrap(), &[0, 3, 2]);
    assert_eq!(lists.status_of(4).unwrap(), 3);
    lists.move_to(1, 0).unwrap();
    assert_eq!(lists.cells(3).unwrap(), &[4]);
    assert_consistent(&lists);
}

#[test]
fn reset_puts_every_cell_back_in_index_order() {
    let mut lists = StatusLists::new(4, &NAMES, 0).unwrap();
    lists.move_to(2, 3).unwrap();
    lists.move_to(0, 1).unwrap();
    lists.reset(2).unwrap();
    assert_eq!(lists.cells(2).unwrap(), &[0, 1, 2, 3]);
    assert_eq!(lists.count(3).unwrap(), 0);
    assert_consistent(&lists);
    assert!(lists.reset(5).is_err());
}

#[test]
fn bad_input_is_an_error_naming_the_range() {
    let mut lists = StatusLists::new(3, &NAMES, 0).unwrap();
    let err = lists.move_to(3, 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cell 3 does not exist: valid cells are 0..3"
    );
    let err = lists.move_to(0, 5).unwrap_err();
    assert_eq!(
        err.to_string(),
        "status 5 does not exist: valid statuses are 0..=4"
    );
    assert!(lists.pick(9, &mut Rng::new(1)).is_err());
    assert!(StatusLists::new(3, &[], 0).is_err());
    assert!(StatusLists::new(3, &["a", "a"], 0).is_err());
    assert!(StatusLists::new(3, &["a", ""], 0).is_err());
    assert!(StatusLists::new(3, &["a"], 1).is_err());
}

#[test]
fn pick_from_an_empty_list_is_none() {
    let lists = StatusLists::new(4, &NAMES, 0).unwrap();
    assert_eq!(lists.pick(1, &mut Rng::new(3)).unwrap(), None);
}

#[test]
fn picks_are_uniform_by_chi_square() {
    // 25 cells left on the list after swap-removes; 250,000 picks. The 0.1% critical value
    // of χ² with 24 degrees of freedom is 51.18.
    let mut lists = StatusLists::new(60, &NAMES, 0).unwrap();
    for cell in (0..60).step_by(2) {
        lists.move_to(cell, 1).unwrap();
    }
    for cell in [0, 14, 30, 46, 58] {
        lists.move_to(cell, 2).unwrap();
    }
    let members: Vec<u32> = lists.cells(1).unwrap().to_vec();
    let mut rng = Rng::new(2024);
    let draws = 250_000usize;
    let mut hits = vec![0usize; 60];
    for _ in 0..draws {
        hits[lists.pick(1, &mut rng).unwrap().unwrap()] += 1;
    }
    let expected = draws as f64 / members.len() as f64;
    let chi2: f64 = members
        .iter()
        .map(|&c| (hits[c as usize] as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 51.18, "χ² = {chi2}");
    let off_list: usize = (0..60)
        .filter(|c| !members.contains(&(*c as u32)))
        .map(|c| hits[c])
        .sum();
    assert_eq!(off_list, 0);
}

proptest! {
    #[test]
    fn any_move_sequence_keeps_every_cell_on_exactly_one_list(
        cells in 1usize..40,
        moves in proptest::collection::vec((0usize..40, 0usize..5), 0..200),
    ) {
        let mut lists = StatusLists::new(cells, &NAMES, 0).unwrap();
        let mut model = vec![0usize; cells];
        for (cell, status) in moves {
            let result = lists.move_to(cell, status);
            if cell < cells {
                prop_assert!(result.is_ok());
                model[cell] = status;
            } else {
                prop_assert!(result.is_err());
            }
        }
        assert_consistent(&lists);
        for (cell, &status) in model.iter().enumerate() {
            prop_assert_eq!(lists.status_of(cell).unwrap(), status);
        }
        for status in 0..5 {
            let expected = model.iter().filter(|&&s| s == status).count();
            prop_assert_eq!(lists.count(status).unwrap(), expected);
        }
    }
}
