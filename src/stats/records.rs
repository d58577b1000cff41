//! Per-map records on disk: JSON Lines (the shard summary that `warren stats merge` reads back)
//! and CSV (for spreadsheets and plotting tools).
//!
//! A JSON Lines file starts with a header line, then has one line per seed:
//!
//! ```text
//! {"warren_stats":1,"recipe":"rooms","params":{"width":80,…}}
//! {"seed":0,"metrics":{"components":1,"dead_ends":0,…},"time_us":{"total":11.2}}
//! {"seed":1,"error":"scripts/x.lua:3: boom"}
//! ```
//!
//! Numbers are written so that they read back exactly, so merged shards give exactly the
//! statistics of a single run.

use super::dataset::{Collector, Column, Dataset, Header, Outcome, Record};
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The version of the JSON Lines layout.
const VERSION: u64 = 1;

/// The dataset as JSON Lines.
pub fn to_jsonl(data: &Dataset) -> String {
    let mut out = String::new();
    let header = json!({
        "warren_stats": VERSION,
        "recipe": data.header.recipe,
        "params": data.header.params,
    });
    let _ = writeln!(out, "{header}");
    let mut failures = data.failures.iter().peekable();
    for (row, &seed) in data.seeds.iter().enumerate() {
        while let Some((s, msg)) = failures.next_if(|f| f.0 < seed) {
            let _ = writeln!(out, "{}", json!({ "seed": s, "error": msg }));
        }
        let line = json!({
            "seed": seed,
            "metrics": object(&data.metrics, row),
            "time_us": object(&data.times, row),
        });
        let _ = writeln!(out, "{line}");
    }
    for (s, msg) in failures {
        let _ = writeln!(out, "{}", json!({ "seed": s, "error": msg }));
    }
    out
}

/// One row of some columns as a JSON object (absent values left out).
fn object(columns: &[Column], row: usize) -> Value {
    let mut m = Map::new();
    for c in columns {
        if let Some(v) = c.values[row] {
            // Whole numbers are written as integers; both forms read back exactly.
            let v = if v.fract() == 0.0 && v.abs() < 9.0e15 {
                json!(v as i64)
            } else {
                json!(v)
            };
            m.insert(c.name.clone(), v);
        }
    }
    Value::Object(m)
}

/// Reads a JSON Lines file (named `file` in messages) into `into`, returning its header.
pub fn read_jsonl(text: &str, file: &str, into: &mut Collector) -> Result<Header, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines
        .next()
        .ok_or_else(|| format!("{file}: empty file (expected a warren stats header line)"))?;
    let header = parse_header(first).map_err(|e| format!("{file}:1: {e}"))?;
    for (i, line) in lines {
        let record = parse_record(line, into).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
        into.push(record);
    }
    Ok(header)
}

/// The header line.
fn parse_header(line: &str) -> Result<Header, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    match v.get("warren_stats").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(other) => {
            return Err(format!(
                "stats layout version {other} is not supported (this warren reads {VERSION})"
            ))
        }
        None => {
            return Err(
                "not a warren stats file: the first line needs \"warren_stats\": 1 (write one with warren batch --records FILE.jsonl)"
                    .into(),
            )
        }
    }
    let recipe = v
        .get("recipe")
        .and_then(Value::as_str)
        .ok_or("the header has no \"recipe\" string")?
        .to_string();
    let params = match v.get("params") {
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => return Err("the header has no \"params\" object".into()),
    };
    Ok(Header { recipe, params })
}

/// One record line, its names interned in `names`.
fn parse_record(line: &str, names: &mut Collector) -> Result<Record, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let seed = v
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or("the record has no \"seed\" (a non-negative integer)")?;
    if let Some(msg) = v.get("error") {
        let msg = msg.as_str().ok_or("\"error\" must be a string")?;
        return Ok(Record {
            seed,
            outcome: Outcome::Failed(msg.to_string()),
        });
    }
    let pairs = |key: &str| -> Result<Vec<(String, f64)>, String> {
        match v.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, x)| {
                    x.as_f64()
                        .map(|f| (k.clone(), f))
                        .ok_or_else(|| format!("\"{key}\".\"{k}\" must be a number, got {x}"))
                })
                .collect(),
            Some(other) => Err(format!("\"{key}\" must be an object, got {other}")),
        }
    };
    let metrics = pairs("metrics")?
        .into_iter()
        .map(|(k, x)| (names.metric_id(&k), x))
        .collect();
    let times = pairs("time_us")?
        .into_iter()
        .map(|(k, x)| (names.time_id(&k), x))
        .collect();
    Ok(Record {
        seed,
        outcome: Outcome::Measured { metrics, times },
    })
}

/// The dataset as CSV: `seed`, every metric, every time as `time_us.NAME`, and `error`. Failed
/// seeds have only `seed` and `error`.
pub fn to_csv(data: &Dataset) -> String {
    let mut out = String::from("seed");
    for c in &data.metrics {
        let _ = write!(out, ",{}", quote(&c.name));
    }
    for c in &data.times {
        let _ = write!(out, ",{}", quote(&format!("time_us.{}", c.name)));
    }
    out.push_str(",error\n");
    let blanks = ",".repeat(data.metrics.len() + data.times.len());
    let mut failures = data.failures.iter().peekable();
    for (row, &seed) in data.seeds.iter().enumerate() {
        while let Some((s, msg)) = failures.next_if(|f| f.0 < seed) {
            let _ = writeln!(out, "{s}{blanks},{}", quote(msg));
        }
        let _ = write!(out, "{seed}");
        for c in data.metrics.iter().chain(&data.times) {
            match c.values[row] {
                Some(v) => {
                    let _ = write!(out, ",{v}");
                }
                None => out.push(','),
            }
        }
        out.push_str(",\n");
    }
    for (s, msg) in failures {
        let _ = writeln!(out, "{s}{blanks},{}", quote(msg));
    }
    out
}

/// A CSV field, quoted when it needs to be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn sample() -> Dataset {
        let mut c = Collector::new();
        let odd = c.metric_id("odd, \"quoted\"");
        for seed in [5u64, 2, 9] {
            c.push(Record {
                seed,
                outcome: Outcome::Measured {
                    metrics: vec![(0, 0.1 + seed as f64 / 3.0), (odd, 1.0)],
                    times: vec![(0, 12.5)],
                },
            });
        }
        c.push(Record {
            seed: 7,
            outcome: Outcome::Failed("x.lua:1: boom".into()),
        });
        let header = Header {
            recipe: "rooms".into(),
            params: BTreeMap::from([("width".to_string(), json!(80))]),
        };
        c.finish(header).expect("distinct seeds")
    }

    #[test]
    fn jsonl_reads_back_exactly() {
        let data = sample();
        let text = to_jsonl(&data);
        let mut c = Collector::new();
        let header = read_jsonl(&text, "a.jsonl", &mut c).expect("valid");
        let back = c.finish(header).expect("distinct seeds");
        assert_eq!(back, data);
    }

    #[test]
    fn bad_lines_are_located() {
        let mut c = Collector::new();
        let e = read_jsonl("{\"x\":1}\n", "a.jsonl", &mut c).expect_err("no header");
        assert!(e.starts_with("a.jsonl:1: not a warren stats file"), "{e}");
        let text = "{\"warren_stats\":1,\"recipe\":\"r\",\"params\":{}}\n\n{\"seed\":-1}\n";
        let e = read_jsonl(text, "b.jsonl", &mut c).expect_err("bad seed");
        assert!(
            e.starts_with("b.jsonl:3: the record has no \"seed\""),
            "{e}"
        );
    }

    #[test]
    fn csv_has_one_row_per_seed_and_quotes_odd_fields() {
        let csv = to_csv(&sample());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("seed,floor_fraction,"));
        assert!(lines[0].ends_with(",\"odd, \"\"quoted\"\"\",time_us.total,error"));
        assert!(lines[3].starts_with("7,") && lines[3].ends_with(",x.lua:1: boom"));
        assert!(lines[4].starts_with("9,3.1"));
    }
}
