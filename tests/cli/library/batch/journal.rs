//! `warren::batch::journal` (src/batch/journal.rs): the journal an interrupted batch continues
//! from.

use warren::batch::journal::{Fingerprint, Journal};
use warren::stats::records::{header_line, write_record};
use warren::stats::{Header, Outcome, Record, RecordNames, SeedPlan};

fn header() -> Header {
    Header {
        recipe: "r".into(),
        params: Default::default(),
        plan: Some(SeedPlan {
            start: 10,
            count: 5,
            shard: None,
        }),
    }
}

fn lines(seeds: std::ops::Range<u64>) -> Vec<u8> {
    let names = RecordNames::default();
    let mut out = Vec::new();
    for seed in seeds {
        let outcome = Outcome::Failed(format!("seed {seed}"));
        write_record(&mut out, &Record { seed, outcome }, &names);
    }
    out
}

#[test]
fn a_torn_last_line_is_cut_and_the_next_run_appends_after_the_last_whole_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let anchor = dir.path().join("r.jsonl");
    let print = *Fingerprint::default().add(b"x");
    let mut first = Journal::open(&anchor, print, &header(), 10, None).expect("opens");
    assert_eq!(first.done, 0);
    let mut written = lines(10..12);
    written.extend_from_slice(b"{\"seed\":12,\"err");
    first.journal.write(&written).expect("writes");
    assert!(
        Journal::open(&anchor, print, &header(), 10, None).is_err(),
        "locked while the first holds it"
    );
    drop(first);
    let mut again = Journal::open(&anchor, print, &header(), 10, None).expect("reopens");
    assert_eq!(again.done, 2);
    assert_eq!(again.data.maps(), 2);
    again.journal.write(&lines(12..15)).expect("writes");
    let path = again.journal.path().to_path_buf();
    let text = std::fs::read_to_string(&path).expect("journal");
    let mut expected = format!("{}\n", header_line(&header())).into_bytes();
    expected.extend(lines(10..15));
    assert_eq!(text.as_bytes(), expected);
    drop(again);
    // Another fingerprint: the old journal is stale and goes.
    let other = *Fingerprint::default().add(b"y");
    let fresh = Journal::open(&anchor, other, &header(), 10, None).expect("opens");
    assert_eq!(fresh.done, 0);
    assert!(!path.exists(), "the stale journal is removed");
}

#[test]
fn records_out_of_seed_order_end_what_is_read_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let anchor = dir.path().join("maps/rooms");
    std::fs::create_dir(dir.path().join("maps")).expect("dir");
    let print = Fingerprint::default();
    let mut first = Journal::open(&anchor, print, &header(), 10, None).expect("opens");
    let mut written = lines(10..12);
    written.extend(lines(13..14));
    first.journal.write(&written).expect("writes");
    drop(first);
    let again = Journal::open(&anchor, print, &header(), 10, None).expect("reopens");
    assert_eq!(again.done, 2);
    let path = again.journal.path().to_path_buf();
    again.journal.finish(&again.data).expect("finishes");
    assert!(!path.exists(), "without records, the journal goes");
}
