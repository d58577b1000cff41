use warren_core::gen::meter::{Batched, Meter, Stopped, Tally, Unmetered};

#[test]
fn a_tally_counts_and_stops_past_its_limit() {
    let mut t = Tally::with_limit(10);
    assert_eq!(t.work(6), Ok(()));
    assert_eq!(t.work(4), Ok(()));
    assert_eq!(t.work(1), Err(Stopped));
    assert_eq!(t.cells, 11);
    assert_eq!(Unmetered.work(u64::MAX), Ok(()));
}

#[test]
fn batches_report_everything_in_few_calls() {
    let mut t = Tally::new();
    let mut b = Batched::new(&mut t);
    for _ in 0..3000 {
        b.work(1).unwrap();
    }
    b.finish().unwrap();
    assert_eq!(t.cells, 3000);
    let mut short = Tally::with_limit(1500);
    let mut b = Batched::new(&mut short);
    assert!((0..3000).try_for_each(|_| b.work(1)).is_err());
}
