//! `warren::stats::records` (src/stats/records.rs): records written and read back.

use serde_json::json;
use std::collections::BTreeMap;
use warren::stats::records::{header_line, write_csv, write_record, Reader};
use warren::stats::{Aggregate, Header, Outcome, Record, RecordNames, SeedPlan, Shard};

fn sample() -> (Header, Vec<Record>, RecordNames) {
    let mut names = RecordNames::default();
    let odd = names.metrics.id("odd, \"quoted\"");
    let mut records: Vec<Record> = [2u64, 5, 9]
        .iter()
        .map(|&seed| Record {
            seed,
            outcome: Outcome::Measured {
                metrics: vec![(0, 0.1 + seed as f64 / 3.0), (odd, 1.0)],
                times: vec![(0, 12.5)],
            },
        })
        .collect();
    records.insert(
        2,
        Record {
            seed: 7,
            outcome: Outcome::Failed("x.lua:1: boom".into()),
        },
    );
    let header = Header {
        recipe: "rooms".into(),
        params: BTreeMap::from([("width".to_string(), json!(80))]),
        plan: Some(SeedPlan {
            start: 0,
            count: 30,
            shard: Some(Shard { index: 0, count: 3 }),
        }),
    };
    (header, records, names)
}

fn jsonl() -> String {
    let (header, records, names) = sample();
    let mut out = format!("{}\n", header_line(&header)).into_bytes();
    for r in &records {
        write_record(&mut out, r, &names);
    }
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn jsonl_reads_back_exactly() {
    let (header, records, names) = sample();
    let text = jsonl();
    let (back_header, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("valid");
    assert_eq!(back_header, header);
    let mut back = Vec::new();
    while let Some(r) = reader.next_record() {
        back.push(r.expect("valid record").0);
    }
    assert_eq!(back, records);
    assert_eq!(reader.names(), &names);
}

#[test]
fn bad_lines_are_located() {
    let e = Reader::new("{\"x\":1}\n".as_bytes(), "a.jsonl")
        .err()
        .expect("no header");
    assert!(e.starts_with("a.jsonl:1: not a warren stats file"), "{e}");
    let e = Reader::new("seed,floor_fraction\n".as_bytes(), "a.csv")
        .err()
        .expect("CSV");
    assert!(
        e.contains("CSV records file") && e.contains("--records FILE.jsonl"),
        "{e}"
    );
    let text = "{\"warren_stats\":1,\"recipe\":\"r\",\"params\":{}}\n\n{\"seed\":-1}\n";
    let (_, mut reader) = Reader::new(text.as_bytes(), "b.jsonl").expect("header");
    let e = reader.next_record().expect("a line").expect_err("bad seed");
    assert!(
        e.starts_with("b.jsonl:3: the record has no \"seed\""),
        "{e}"
    );
}

#[test]
fn csv_has_one_row_per_seed_and_quotes_odd_fields() {
    let (header, records, names) = sample();
    let mut data = Aggregate::new(header);
    data.absorb(&records, &names);
    let text = jsonl();
    let (_, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("valid");
    let mut csv = Vec::new();
    write_csv(&mut reader, &data, &mut csv).expect("in memory");
    let csv = String::from_utf8(csv).expect("UTF-8");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[0],
        "seed,floor_fraction,\"odd, \"\"quoted\"\"\",time_us.total,error"
    );
    assert!(lines[3].starts_with("7,") && lines[3].ends_with(",x.lua:1: boom"));
    assert!(lines[4].starts_with("9,3.1"));
}
