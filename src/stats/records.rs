//! Per-map records on disk: JSON Lines (the shard summary that `warren stats merge` reads back),
//! CSV (for spreadsheets and plotting tools) and Parquet (for analysis tools, and read back by
//! `warren stats merge` too: [`super::parquet_file`]). JSON Lines are written as the maps are
//! made; CSV and Parquet are converted from them at the end. Files are read back one record at a
//! time, so no file is ever held in memory.
//!
//! A JSON Lines file starts with a header line (the recipe, its parameters and the seeds the run
//! was asked for: `seed_start`, `seed_count` and, for a shard, `shard` as `"I/N"`), then has one
//! line per seed, in seed order:
//!
//! ```text
//! {"warren_stats":1,"recipe":"rooms","params":{"width":80,…},"seed_start":0,"seed_count":900,"shard":"1/3"}
//! {"seed":300,"metrics":{"components":1,"dead_ends":0,…},"time_us":{"total":11.2}}
//! {"seed":301,"error":"scripts/x.lua:3: boom"}
//! ```
//!
//! Numbers are written so that they read back exactly, so merged shards give exactly the
//! statistics of a single run.

use super::aggregate::{Aggregate, Header, Names, Outcome, Record, RecordNames};
use super::plan::{SeedPlan, Shard};
use crate::output::AtomicFile;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// The version of the JSON Lines layout.
const VERSION: u64 = 1;

/// The header line (without its newline).
pub fn header_line(header: &Header) -> String {
    let mut v = json!({
        "warren_stats": VERSION,
        "recipe": header.recipe,
        "params": header.params,
    });
    if let (Some(plan), Some(o)) = (&header.plan, v.as_object_mut()) {
        o.insert("seed_start".into(), json!(plan.start));
        o.insert("seed_count".into(), json!(plan.count));
        if let Some(shard) = plan.shard {
            o.insert("shard".into(), json!(shard.to_string()));
        }
    }
    v.to_string()
}

/// Appends one record's line (with its newline) to `out`.
pub fn write_record(out: &mut Vec<u8>, record: &Record, names: &RecordNames) {
    out.extend_from_slice(b"{\"seed\":");
    out.extend_from_slice(itoa::Buffer::new().format(record.seed).as_bytes());
    match &record.outcome {
        Outcome::Failed(msg) => {
            out.extend_from_slice(b",\"error\":");
            let _ = serde_json::to_writer(&mut *out, msg);
        }
        Outcome::Measured { metrics, times } => {
            out.extend_from_slice(b",\"metrics\":");
            object(
                out,
                metrics.iter().map(|&(id, v)| (names.metrics.name(id), v)),
            );
            out.extend_from_slice(b",\"time_us\":");
            object(out, times.iter().map(|&(id, v)| (names.times.name(id), v)));
        }
    }
    out.extend_from_slice(b"}\n");
}

/// `{"name":value,…}`; whole numbers as integers (both forms read back exactly, -0 too).
fn object<'a>(out: &mut Vec<u8>, pairs: impl Iterator<Item = (&'a str, f64)>) {
    out.push(b'{');
    for (i, (name, v)) in pairs.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut *out, name);
        out.push(b':');
        match integer_form(v) {
            Some(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            None => {
                let _ = serde_json::to_writer(&mut *out, &v);
            }
        }
    }
    out.push(b'}');
}

/// `v` as the integer whose digits alone write it exactly, when there is one: a whole number
/// below 9e15, but not -0 (as digits it would read back as 0; JSON writes it `-0.0`, `Display`
/// `-0`). The integer formatter takes a fraction of the float formatter's time.
fn integer_form(v: f64) -> Option<i64> {
    let exact = v.fract() == 0.0 && v.abs() < 9.0e15 && !super::column::is_negative_zero(v);
    exact.then_some(v as i64)
}

/// Reads a JSON Lines records file one line at a time.
pub struct Reader<R> {
    lines: std::io::Lines<R>,
    file: String,
    line: usize,
    names: RecordNames,
}

impl Reader<BufReader<std::fs::File>> {
    /// Opens `path` and reads its header.
    pub fn open(path: &Path) -> Result<(Header, Self), String> {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Reader::new(BufReader::new(file), &path.display().to_string())
    }
}

impl<R: BufRead> Reader<R> {
    /// Reads the header of `input` (named `file` in messages).
    pub fn new(input: R, file: &str) -> Result<(Header, Self), String> {
        let mut reader = Reader {
            lines: input.lines(),
            file: file.to_string(),
            line: 0,
            names: RecordNames::default(),
        };
        let first = reader
            .next_line()
            .ok_or_else(|| format!("{file}: empty file (expected a warren stats header line)"))??;
        let header = parse_header(&first).map_err(|e| format!("{file}:{}: {e}", reader.line))?;
        Ok((header, reader))
    }

    /// The next non-blank line.
    fn next_line(&mut self) -> Option<Result<String, String>> {
        loop {
            self.line += 1;
            match self.lines.next()? {
                Err(e) => return Some(Err(format!("{}: cannot read: {e}", self.file))),
                Ok(l) if l.trim().is_empty() => continue,
                Ok(l) => return Some(Ok(l)),
            }
        }
    }

    /// The next record with its line as written, or `None` at the end.
    pub fn next_record(&mut self) -> Option<Result<(Record, String), String>> {
        let line = match self.next_line()? {
            Ok(l) => l,
            Err(e) => return Some(Err(e)),
        };
        Some(
            parse_record(&line, &mut self.names)
                .map(|r| (r, line))
                .map_err(|e| format!("{}:{}: {e}", self.file, self.line)),
        )
    }

    /// The names the records read so far use.
    pub fn names(&self) -> &RecordNames {
        &self.names
    }

    /// The number of the line read last.
    pub fn line(&self) -> usize {
        self.line
    }
}

/// The header line.
pub(crate) fn parse_header(line: &str) -> Result<Header, String> {
    let not_jsonl = || {
        "not a warren stats file: the first line needs \"warren_stats\": 1 (write one with warren batch --records FILE.jsonl)"
            .to_string()
    };
    if line.starts_with("seed,") {
        return Err("this is a CSV records file; warren stats merge reads the JSON Lines or Parquet records: run the batch with --records FILE.jsonl or FILE.parquet (CSV is for spreadsheets)".into());
    }
    let v: Value = serde_json::from_str(line).map_err(|_| not_jsonl())?;
    match v.get("warren_stats").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(other) => {
            return Err(format!(
                "stats layout version {other} is not supported (this warren reads {VERSION})"
            ))
        }
        None => return Err(not_jsonl()),
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
    let plan = match (v.get("seed_start"), v.get("seed_count")) {
        (None, None) => None,
        (Some(start), Some(count)) => {
            let number = |v: &Value, key: &str| {
                v.as_u64()
                    .ok_or_else(|| format!("\"{key}\" must be a non-negative integer, got {v}"))
            };
            let shard = match v.get("shard") {
                None => None,
                Some(Value::String(s)) => Some(s.parse::<Shard>()?),
                Some(other) => return Err(format!("\"shard\" must be \"I/N\", got {other}")),
            };
            Some(SeedPlan {
                start: number(start, "seed_start")?,
                count: number(count, "seed_count")?,
                shard,
            })
        }
        _ => return Err("the header needs both \"seed_start\" and \"seed_count\"".into()),
    };
    Ok(Header {
        recipe,
        params,
        plan,
    })
}

/// One record line, its names interned in `names`.
pub fn parse_record(line: &str, names: &mut RecordNames) -> Result<Record, String> {
    match serde_json::from_str::<Measured>(line) {
        Ok(m) if !m.error.0 => Ok(Record {
            seed: m.seed,
            outcome: Outcome::Measured {
                metrics: m.metrics.interned(&mut names.metrics),
                times: m.time_us.interned(&mut names.times),
            },
        }),
        // A failed seed's line, or one this reading does not take: read whole, which also says
        // what is wrong with a bad one.
        _ => parse_any_record(line, names),
    }
}

/// A measured seed's line as `warren batch` writes it, its names borrowed from the line: most
/// lines, read without building a JSON value of each (a third of the time of converting
/// records to CSV or Parquet). Any other line (a failed seed's, `null` where an object belongs,
/// a value that is no number) is left to [`parse_any_record`].
#[derive(serde::Deserialize)]
struct Measured<'a> {
    seed: u64,
    /// Whether the line has an `"error"` at all (`null` too), whatever it holds.
    #[serde(default)]
    error: Present,
    #[serde(default, borrow)]
    metrics: Pairs<'a>,
    #[serde(default, borrow)]
    time_us: Pairs<'a>,
}

/// Whether a field is there: any value, `null` too.
#[derive(Default)]
struct Present(bool);

impl<'de> serde::Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Present(true))
    }
}

/// An object of numbers, in the order written; its names borrowed from the line where they
/// have no escapes.
#[derive(Default)]
struct Pairs<'a>(Vec<(Cow<'a, str>, f64)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> serde::de::Visitor<'de> for Object {
            type Value = Pairs<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of numbers")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Pairs<'de>, M::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some((Name(name), v)) = map.next_entry::<Name<'de>, f64>()? {
                    pairs.push((name, v));
                }
                Ok(Pairs(pairs))
            }
        }
        d.deserialize_map(Object)
    }
}

/// A name, borrowed from the line when it has no escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Name<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> serde::de::Visitor<'de> for Text {
            type Value = Cow<'de, str>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a name")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Cow::Owned(v.to_owned()))
            }
        }
        d.deserialize_str(Text).map(Name)
    }
}

impl Pairs<'_> {
    /// The pairs with their names interned in `names`, in the order a JSON object sorts its
    /// keys, the last of a name written twice: as [`parse_any_record`] reads them, so both give
    /// the same ids in the same order.
    fn interned(mut self, names: &mut Names) -> Vec<(u32, f64)> {
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(u32, f64)> = Vec::with_capacity(self.0.len());
        let mut last: Option<&str> = None;
        for (name, v) in &self.0 {
            match out.last_mut() {
                Some(kept) if last == Some(&**name) => kept.1 = *v,
                _ => out.push((names.id(name), *v)),
            }
            last = Some(name);
        }
        out
    }
}

/// One record line of any form, read as a JSON value, its names interned in `names`.
fn parse_any_record(line: &str, names: &mut RecordNames) -> Result<Record, String> {
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
        .map(|(k, x)| (names.metrics.id(&k), x))
        .collect();
    let times = pairs("time_us")?
        .into_iter()
        .map(|(k, x)| (names.times.id(&k), x))
        .collect();
    Ok(Record {
        seed,
        outcome: Outcome::Measured { metrics, times },
    })
}

/// The layouts a records file can have, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// JSON Lines (any name but the two below).
    Jsonl,
    /// CSV (`.csv`).
    Csv,
    /// Apache Parquet (`.parquet`).
    Parquet,
}

impl Layout {
    /// The layout a file called `path` gets.
    pub fn of(path: &Path) -> Layout {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Layout::Csv,
            Some("parquet") => Layout::Parquet,
            _ => Layout::Jsonl,
        }
    }
}

/// Writes `target` (CSV or Parquet, by its name) from the JSON Lines records in `jsonl`, with
/// `data`'s columns (the aggregate of the same records). The file appears whole or not at all.
pub fn convert(jsonl: &Path, target: &Path, data: &Aggregate) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", target.display());
    let (header, mut reader) = Reader::open(jsonl)?;
    let mut out = AtomicFile::create(target).map_err(cannot)?;
    match Layout::of(target) {
        Layout::Csv => write_csv(&mut reader, data, &mut out).map_err(cannot)?,
        Layout::Parquet => super::parquet_file::write(&mut reader, &header, data, &mut out)
            .map_err(|e| format!("{}: cannot write: {e}", target.display()))?,
        Layout::Jsonl => {
            std::io::copy(&mut std::fs::File::open(jsonl).map_err(cannot)?, &mut out)
                .map_err(cannot)?;
        }
    }
    out.commit().map_err(cannot)
}

/// A records file being read: JSON Lines or Parquet, told apart by their first bytes.
pub enum Source {
    /// JSON Lines.
    Jsonl(Reader<BufReader<std::fs::File>>),
    /// Parquet.
    Parquet(super::parquet_file::Rows),
}

impl Source {
    /// Opens `path` and reads its header.
    pub fn open(path: &Path) -> Result<(Header, Source), String> {
        if super::parquet_file::is_parquet(path) {
            let (header, rows) = super::parquet_file::Rows::open(path)?;
            Ok((header, Source::Parquet(rows)))
        } else {
            let (header, reader) = Reader::open(path)?;
            Ok((header, Source::Jsonl(reader)))
        }
    }

    /// The next record, or `None` at the end. With `line`, its JSON Lines line (with its
    /// newline) is appended there: as read, or as written for it.
    pub fn next_record(&mut self, line: Option<&mut Vec<u8>>) -> Option<Result<Record, String>> {
        match self {
            Source::Jsonl(reader) => Some(reader.next_record()?.map(|(record, text)| {
                if let Some(out) = line {
                    out.extend_from_slice(text.as_bytes());
                    out.push(b'\n');
                }
                record
            })),
            Source::Parquet(rows) => Some(rows.next_record()?.inspect(|record| {
                if let Some(out) = line {
                    write_record(out, record, rows.names());
                }
            })),
        }
    }

    /// The names the records read so far use.
    pub fn names(&self) -> &RecordNames {
        match self {
            Source::Jsonl(reader) => reader.names(),
            Source::Parquet(rows) => rows.names(),
        }
    }

    /// Where the record read last is, for messages (`FILE:LINE`, or `FILE: row N`).
    pub fn location(&self) -> String {
        match self {
            Source::Jsonl(reader) => format!("{}:{}", reader.file, reader.line),
            Source::Parquet(rows) => rows.location(),
        }
    }
}

/// Records on their way to a file: JSON Lines appended as maps are finished, into a temporary
/// file that [`RecordFile::finish`] puts in place (converted to CSV or Parquet by the name).
/// Dropped unfinished, it leaves nothing behind.
pub struct RecordFile {
    jsonl: AtomicFile,
    target: std::path::PathBuf,
}

impl RecordFile {
    /// Starts the records of `path`, writing the header line.
    pub fn create(path: &Path, header: &Header) -> Result<RecordFile, String> {
        let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", path.display());
        let mut jsonl = AtomicFile::create_tagged(path, "records").map_err(cannot)?;
        writeln!(jsonl, "{}", header_line(header)).map_err(cannot)?;
        Ok(RecordFile {
            jsonl,
            target: path.to_path_buf(),
        })
    }

    /// Appends record lines.
    pub fn write(&mut self, lines: &[u8]) -> Result<(), String> {
        self.jsonl
            .write_all(lines)
            .map_err(|e| format!("{}: cannot write: {e}", self.target.display()))
    }

    /// Puts the file in place: the JSON Lines as written, or converted to CSV or Parquet with
    /// `data`'s columns.
    pub fn finish(mut self, data: &Aggregate) -> Result<(), String> {
        let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", self.target.display());
        if Layout::of(&self.target) == Layout::Jsonl {
            return self.jsonl.commit().map_err(cannot);
        }
        self.jsonl.flush().map_err(cannot)?;
        convert(self.jsonl.temp(), &self.target, data)
        // The JSON Lines temporary file is removed as `self` drops.
    }
}

/// The records of `reader` as CSV: `seed`, every metric of `data`, every time as
/// `time_us.NAME`, and `error`. Failed seeds have only `seed` and `error`.
pub fn write_csv<R: BufRead>(
    reader: &mut Reader<R>,
    data: &Aggregate,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let metrics: Vec<String> = data.metrics().iter().map(|c| c.name.to_string()).collect();
    let times: Vec<String> = data.times().iter().map(|c| c.name.to_string()).collect();
    write!(out, "seed")?;
    for m in &metrics {
        write!(out, ",{}", quote(m))?;
    }
    for t in &times {
        write!(out, ",{}", quote(&format!("time_us.{t}")))?;
    }
    writeln!(out, ",error")?;
    let blanks = ",".repeat(metrics.len() + times.len());
    let (mut metric_columns, mut time_columns) = (ColumnsById::default(), ColumnsById::default());
    let column_in = |columns: &[String], name: &str| columns.iter().position(|n| n == name);
    let mut row: Vec<Option<f64>> = Vec::new();
    while let Some(next) = reader.next_record() {
        let (record, _) = next.map_err(std::io::Error::other)?;
        match &record.outcome {
            Outcome::Failed(msg) => writeln!(out, "{}{blanks},{}", record.seed, quote(msg))?,
            Outcome::Measured {
                metrics: m,
                times: t,
            } => {
                let names = reader.names();
                row.clear();
                row.resize(metrics.len() + times.len(), None);
                for &(id, v) in m {
                    if let Some(i) =
                        metric_columns.of(&names.metrics, id, |n| column_in(&metrics, n))
                    {
                        row[i] = Some(v);
                    }
                }
                for &(id, v) in t {
                    if let Some(i) = time_columns.of(&names.times, id, |n| column_in(&times, n)) {
                        row[metrics.len() + i] = Some(v);
                    }
                }
                out.write_all(itoa::Buffer::new().format(record.seed).as_bytes())?;
                for v in &row {
                    out.write_all(b",")?;
                    if let Some(v) = v {
                        write_number(out, *v)?;
                    }
                }
                out.write_all(b",\n")?;
            }
        }
    }
    Ok(())
}

/// The output column of each name a records file's ids stand for, found once an id (the CSV's
/// and the Parquet file's writers).
#[derive(Default)]
pub(super) struct ColumnsById(Vec<Option<usize>>);

impl ColumnsById {
    /// The column of the name `names` gives `id`, which `find` looks up by name the first time.
    pub(super) fn of(
        &mut self,
        names: &Names,
        id: u32,
        find: impl Fn(&str) -> Option<usize>,
    ) -> Option<usize> {
        let id = id as usize;
        while self.0.len() <= id {
            let column = find(names.name(self.0.len() as u32));
            self.0.push(column);
        }
        self.0[id]
    }
}

/// `v` as `Display` writes it: an [`integer_form`] through [`itoa`], the rest through the float
/// formatter.
fn write_number(out: &mut impl Write, v: f64) -> std::io::Result<()> {
    match integer_form(v) {
        Some(n) => out.write_all(itoa::Buffer::new().format(n).as_bytes()),
        None => write!(out, "{v}"),
    }
}

/// A CSV field, quoted when it needs to be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
