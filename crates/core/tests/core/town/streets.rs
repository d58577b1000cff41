//! Unit tests of street numbers and their merging.

use proptest::prelude::*;
use warren_core::gen::town::StreetNumbers;

#[test]
fn merging_keeps_the_lower_number_and_counts_distinct_streets() {
    let mut streets = StreetNumbers::new();
    let ids: Vec<u32> = (0..5).map(|_| streets.open()).collect();
    assert_eq!(ids, [0, 1, 2, 3, 4]);
    assert_eq!(streets.distinct(), 5);
    assert!(streets.merge(3, 4).unwrap());
    assert_eq!(streets.number(4).unwrap(), 3);
    assert!(streets.merge(4, 1).unwrap());
    assert_eq!(streets.number(3).unwrap(), 1);
    assert!(!streets.merge(3, 1).unwrap(), "already one street");
    assert_eq!(streets.distinct(), 3);
    assert_eq!(streets.number(0).unwrap(), 0);
    assert_eq!(streets.number(2).unwrap(), 2);
    assert_eq!(streets.opened(), 5);
}

#[test]
fn unknown_streets_are_errors() {
    let mut streets = StreetNumbers::new();
    streets.open();
    let err = streets.number(1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "street 1 does not exist: 1 streets were opened (numbers 0..1)"
    );
    assert!(streets.merge(0, 7).is_err());
    assert_eq!(streets.distinct(), 1);
}

proptest! {
    /// Labels equal those of TownMaze's walk: relabel every cell of the higher number.
    #[test]
    fn labels_match_the_relabel_walk(
        count in 1usize..30,
        merges in proptest::collection::vec((0u32..30, 0u32..30), 0..60),
    ) {
        let mut streets = StreetNumbers::new();
        let mut walk: Vec<u32> = (0..count as u32).collect();
        for _ in 0..count {
            streets.open();
        }
        for (a, b) in merges {
            let (a, b) = (a % count as u32, b % count as u32);
            let (la, lb) = (walk[a as usize], walk[b as usize]);
            let (low, high) = (la.min(lb), la.max(lb));
            for label in walk.iter_mut().filter(|l| **l == high) {
                *label = low;
            }
            prop_assert_eq!(streets.merge(a, b).unwrap(), la != lb);
        }
        for (id, &label) in walk.iter().enumerate() {
            prop_assert_eq!(streets.number(id as u32).unwrap(), label);
        }
        let mut distinct = walk.clone();
        distinct.sort_unstable();
        distinct.dedup();
        prop_assert_eq!(streets.distinct(), distinct.len());
    }
}
