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

/// Numbers at the edges of how records write them: zeros of both signs, whole and not, the
/// largest whole numbers written as integers and the first beyond, the extremes.
const ODD_NUMBERS: [f64; 11] = [
    0.0,
    -0.0,
    3.0,
    -3.0,
    0.1,
    2.5e-8,
    9.0e15,
    8_999_999_999_999_999.0,
    -1.0e16,
    1.0e300,
    f64::MIN_POSITIVE,
];

#[test]
fn journal_numbers_read_back_bit_for_bit() {
    // -0 among them: `==` takes it for 0, so the bits are compared.
    let values = ODD_NUMBERS;
    let mut names = RecordNames::default();
    let metrics = (0..values.len())
        .map(|i| (names.metrics.id(&format!("m{i}")), values[i]))
        .collect();
    let record = Record {
        seed: 1,
        outcome: Outcome::Measured {
            metrics,
            times: vec![(names.times.id("total"), -0.0)],
        },
    };
    let header = Header {
        recipe: "r".into(),
        params: BTreeMap::new(),
        plan: None,
    };
    let mut text = format!("{}\n", header_line(&header)).into_bytes();
    write_record(&mut text, &record, &names);
    let (_, mut reader) = Reader::new(text.as_slice(), "a.jsonl").expect("header");
    let back = reader.next_record().expect("a line").expect("valid").0;
    // By name: the reader numbers names in its own order.
    let bits = |r: &Record, names: &RecordNames| match &r.outcome {
        Outcome::Measured { metrics, times } => {
            let metrics = metrics.iter().map(|&(id, v)| (names.metrics.name(id), v));
            let times = times.iter().map(|&(id, v)| (names.times.name(id), v));
            (metrics.chain(times))
                .map(|(name, v)| (name.to_string(), v.to_bits()))
                .collect::<BTreeMap<_, _>>()
        }
        Outcome::Failed(e) => panic!("failed: {e}"),
    };
    assert_eq!(
        bits(&back, reader.names()),
        bits(&record, &names),
        "{}",
        String::from_utf8_lossy(&text)
    );
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

/// A header and `lines`, as a records file.
fn file_of(lines: &[&str]) -> String {
    let mut text = "{\"warren_stats\":1,\"recipe\":\"r\",\"params\":{}}\n".to_string();
    for line in lines {
        text += line;
        text.push('\n');
    }
    text
}

#[test]
fn record_lines_read_as_json_objects_whatever_their_form() {
    // Keys out of order, a name written twice (the last kept), a name with an escape, unknown
    // fields, and a failed seed's line with metrics beside its error: as a JSON object reads
    // them, each object's names in sorted order.
    let text = file_of(&[
        r#"{"seed":4,"metrics":{"zeta":1,"alpha":2.5,"alpha":3,"es\u0063aped":-0.0},"extra":[1,{}],"time_us":{"total":7,"b":2}}"#,
        r#"{"time_us":{},"seed":5}"#,
        r#"{"seed":6,"metrics":{"zeta":8},"error":"x.lua:2: boom"}"#,
    ]);
    let (_, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("header");
    let mut back = Vec::new();
    while let Some(r) = reader.next_record() {
        back.push(r.expect("a valid record").0);
    }
    let names = reader.names();
    let named =
        |pairs: &[(u32, f64)], all: &warren::stats::aggregate::Names| -> Vec<(String, f64)> {
            pairs
                .iter()
                .map(|&(id, v)| (all.name(id).to_string(), v))
                .collect()
        };
    match &back[0].outcome {
        Outcome::Measured { metrics, times } => {
            let metrics = named(metrics, &names.metrics);
            assert_eq!(
                metrics,
                [
                    ("alpha".into(), 3.0),
                    ("escaped".into(), -0.0),
                    ("zeta".into(), 1.0)
                ]
            );
            assert!(metrics[1].1.is_sign_negative(), "-0 kept");
            let times = named(times, &names.times);
            assert_eq!(times, [("b".into(), 2.0), ("total".into(), 7.0)]);
        }
        other => panic!("seed 4: {other:?}"),
    }
    assert_eq!(
        back[1].outcome,
        Outcome::Measured {
            metrics: vec![],
            times: vec![]
        }
    );
    assert_eq!(back[2].outcome, Outcome::Failed("x.lua:2: boom".into()));
}

#[test]
fn record_lines_of_the_wrong_form_say_what_is_wrong() {
    for (line, expected) in [
        (r#"{"seed":1,"error":null}"#, r#""error" must be a string"#),
        (
            r#"{"seed":1,"metrics":null}"#,
            r#""metrics" must be an object, got null"#,
        ),
        (
            r#"{"seed":1,"time_us":[1]}"#,
            r#""time_us" must be an object, got [1]"#,
        ),
        (
            r#"{"seed":1,"metrics":{"x":"y"}}"#,
            r#""metrics"."x" must be a number, got "y""#,
        ),
        (r#"{"seed":1.5}"#, r#"the record has no "seed""#),
        (
            r#"{"seed":1,"metrics":{"x":1e400}}"#,
            "not JSON: number out of range",
        ),
    ] {
        let text = file_of(&[line]);
        let (_, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("header");
        let e = reader.next_record().expect("a line").expect_err(line);
        assert!(
            e.starts_with("a.jsonl:2: ") && e.contains(expected),
            "{line}: {e}"
        );
    }
}

#[test]
fn csv_numbers_are_written_as_rust_displays_them() {
    let values = ODD_NUMBERS;
    let pairs: Vec<String> = (0..values.len())
        .map(|i| format!("\"m{i:02}\":{:?}", values[i]))
        .collect();
    let line = format!("{{\"seed\":3,\"metrics\":{{{}}}}}", pairs.join(","));
    let text = file_of(&[&line]);
    let mut data = Aggregate::new(Header {
        recipe: "r".into(),
        params: BTreeMap::new(),
        plan: None,
    });
    let (_, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("header");
    let record = reader.next_record().expect("a line").expect("valid").0;
    data.absorb(&[record], reader.names());
    let (_, mut reader) = Reader::new(text.as_bytes(), "a.jsonl").expect("header");
    let mut csv = Vec::new();
    write_csv(&mut reader, &data, &mut csv).expect("in memory");
    let csv = String::from_utf8(csv).expect("UTF-8");
    let row = csv.lines().nth(1).expect("a row");
    let written: Vec<&str> = row.split(',').collect();
    for (i, v) in values.iter().enumerate() {
        let column = data
            .metrics()
            .iter()
            .position(|c| c.name == format!("m{i:02}"))
            .expect("a column");
        assert_eq!(written[1 + column], format!("{v}"), "m{i:02}");
    }
}
