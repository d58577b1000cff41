//! `warren::stats::plan` (src/stats/plan.rs): seed plans and shards.

use proptest::prelude::*;
use std::ops::Range;
use warren::stats::plan::{gaps, seed_range_text, SeedPlan, Shard};

#[test]
fn parses_and_rejects() {
    assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
    for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
        let e = bad.parse::<Shard>().expect_err(bad);
        assert!(e.contains(bad) && e.contains("0 <= I < N"), "{e}");
    }
}

#[test]
fn gaps_name_what_is_missing() {
    assert_eq!(gaps(&(0..10), &[2..4, 4..6, 8..9]), [0..2, 6..8, 9..10]);
    assert_eq!(gaps(&(0..10), &[0..4, 4..10]), Vec::<Range<u64>>::new());
    let plan = SeedPlan {
        start: 0,
        count: 9,
        shard: Some(Shard { index: 0, count: 3 }),
    };
    assert_eq!(plan.seeds(), 0..3);
    let names: Vec<String> = plan
        .shards_in(&(2..7))
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, ["0/3", "1/3", "2/3"]);
    assert_eq!(seed_range_text(&(3..6)), "seeds 3..=5");
    assert_eq!(seed_range_text(&(3..4)), "seed 3");
}

proptest! {
    #[test]
    fn shards_tile_the_range(start in 0u64..1_000, count in 0u64..10_000, n in 1u64..20) {
        let mut next = start;
        for index in 0..n {
            let r = Shard { index, count: n }.seeds(start, count);
            prop_assert_eq!(r.start, next);
            prop_assert!(r.end - r.start <= count / n + 1);
            next = r.end;
        }
        prop_assert_eq!(next, start + count);
    }
}
