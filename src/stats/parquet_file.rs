//! Records as Apache Parquet (`--records FILE.parquet`), for analysis tools that read columns
//! directly (DuckDB, polars, pandas, Spark) instead of parsing text again.
//!
//! The columns are the CSV's, typed: `seed` (unsigned 64-bit integer), every metric, every time
//! as `time_us.NAME`, and `error` (a string, null for a map that was measured). A metric or
//! time column is a 64-bit integer when every value it holds is a whole number below 2^53 and
//! none is -0 (an integer would read back as 0), else a double; a map that did not record a
//! column has null there. The file's key-value metadata says what made it:
//!
//! | key | value |
//! |---|---|
//! | `warren.version` | warren's version |
//! | `warren.recipe` | the recipe's name |
//! | `warren.params` | its parameters, a JSON object |
//! | `warren.stats` | the JSON Lines header line (recipe, parameters, the seeds planned, the shard), which `warren stats merge` reads |
//!
//! The file is written from the batch's JSON Lines journal once the batch completes (a Parquet
//! file is readable only once its footer is written, so the journal is what keeps an
//! interrupted batch's finished maps), in row groups of [`ROW_GROUP`] maps: the maps' values
//! are held one row group at a time; the metadata of the row groups written, which the footer
//! needs, is kept to the end (about 2.5 MB a million maps, BENCHMARKS.md).

use super::aggregate::{Aggregate, Header, Outcome, Record, RecordNames};
use super::records::{header_line, parse_header, ColumnsById, Reader};
use parquet::basic::{
    Compression, ConvertedType, IntType, LogicalType, Repetition, Type as Physical,
};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::record::reader::RowIter;
use parquet::record::Field;
use parquet::schema::types::Type;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// Maps per row group: a few megabytes of buffered columns at most.
pub const ROW_GROUP: usize = 65_536;

/// The first bytes of every Parquet file.
const MAGIC: &[u8; 4] = b"PAR1";

/// The metadata key holding the JSON Lines header line.
const HEADER_KEY: &str = "warren.stats";

/// Whether the file at `path` starts as a Parquet file does.
pub fn is_parquet(path: &Path) -> bool {
    let mut start = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|_| &start == MAGIC)
}

/// One value column (a metric or a time) and the maps' values in the row group being filled.
struct ValueColumn {
    name: String,
    /// Every value is a whole number that an `i64` holds exactly.
    integer: bool,
    values: Vec<f64>,
    /// 1 where the map has a value, 0 where it is null.
    defined: Vec<i16>,
}

/// Writes the records `reader` yields as Parquet to `out`, with `data`'s columns (the
/// aggregate of the same records) and `header` as metadata.
pub fn write<R: BufRead>(
    reader: &mut Reader<R>,
    header: &Header,
    data: &Aggregate,
    out: &mut (impl Write + Send),
) -> Result<(), String> {
    let column = |name: String, stats: &super::ColumnStats| ValueColumn {
        integer: stats.is_integral()
            && stats
                .summary()
                .is_some_and(|s| whole(s.min) && whole(s.max)),
        name,
        values: Vec::with_capacity(ROW_GROUP),
        defined: Vec::with_capacity(ROW_GROUP),
    };
    let mut metrics: Vec<ValueColumn> = data
        .metrics()
        .iter()
        .map(|c| column(c.name.to_string(), c.stats))
        .collect();
    let mut times: Vec<ValueColumn> = data
        .times()
        .iter()
        .map(|c| column(format!("time_us.{}", c.name), c.stats))
        .collect();
    let schema = schema(metrics.iter().chain(&times)).map_err(|e| e.to_string())?;
    let metadata = vec![
        KeyValue::new(
            "warren.version".into(),
            env!("CARGO_PKG_VERSION").to_string(),
        ),
        KeyValue::new("warren.recipe".into(), header.recipe.clone()),
        KeyValue::new(
            "warren.params".into(),
            serde_json::to_string(&header.params).unwrap_or_default(),
        ),
        KeyValue::new(HEADER_KEY.into(), header_line(header)),
    ];
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP))
        .set_key_value_metadata(Some(metadata))
        .build();
    let mut writer =
        SerializedFileWriter::new(out, schema, Arc::new(props)).map_err(|e| e.to_string())?;
    let mut seeds: Vec<i64> = Vec::with_capacity(ROW_GROUP);
    let mut errors: Vec<ByteArray> = Vec::new();
    let mut errors_defined: Vec<i16> = Vec::with_capacity(ROW_GROUP);
    // Positions of the reader's name ids among the columns (names appear as records are read).
    let (mut metric_at, mut time_at) = (ColumnsById::default(), ColumnsById::default());
    while let Some(next) = reader.next_record() {
        let (record, _) = next?;
        seeds.push(record.seed as i64);
        for c in metrics.iter_mut().chain(times.iter_mut()) {
            c.values.push(0.0);
            c.defined.push(0);
        }
        match &record.outcome {
            Outcome::Failed(msg) => {
                errors.push(ByteArray::from(msg.as_str()));
                errors_defined.push(1);
            }
            Outcome::Measured {
                metrics: m,
                times: t,
            } => {
                errors_defined.push(0);
                let names = reader.names();
                place(m, &names.metrics, &mut metric_at, &mut metrics, "");
                place(t, &names.times, &mut time_at, &mut times, "time_us.");
            }
        }
        if seeds.len() == ROW_GROUP {
            flush(
                &mut writer,
                &mut seeds,
                &mut metrics,
                &mut times,
                &mut errors,
                &mut errors_defined,
            )
            .map_err(|e| e.to_string())?;
        }
    }
    if !seeds.is_empty() {
        flush(
            &mut writer,
            &mut seeds,
            &mut metrics,
            &mut times,
            &mut errors,
            &mut errors_defined,
        )
        .map_err(|e| e.to_string())?;
    }
    writer.close().map_err(|e| e.to_string())?;
    Ok(())
}

/// Whether `v` is a whole number an `f64` and an `i64` both hold exactly.
fn whole(v: f64) -> bool {
    v.fract() == 0.0 && v.abs() < 9.0e15
}

/// Puts a record's `(id, value)` pairs in the last row of `columns`, finding each id's column
/// (named `prefix` + the name) once.
fn place(
    pairs: &[(u32, f64)],
    names: &super::aggregate::Names,
    at: &mut ColumnsById,
    columns: &mut [ValueColumn],
    prefix: &str,
) {
    for &(id, v) in pairs {
        let named = |name: &str| {
            let name = format!("{prefix}{name}");
            columns.iter().position(|c| c.name == name)
        };
        if let Some(i) = at.of(names, id, named) {
            let c = &mut columns[i];
            *c.values.last_mut().expect("a row was started") = v;
            *c.defined.last_mut().expect("a row was started") = 1;
        }
    }
}

/// The file's schema: `seed`, the value columns, `error`.
fn schema<'a>(
    columns: impl Iterator<Item = &'a ValueColumn>,
) -> parquet::errors::Result<Arc<Type>> {
    let mut fields = vec![Arc::new(
        Type::primitive_type_builder("seed", Physical::INT64)
            .with_repetition(Repetition::REQUIRED)
            .with_logical_type(Some(LogicalType::Integer(IntType {
                bit_width: 64,
                is_signed: false,
            })))
            .with_converted_type(ConvertedType::UINT_64)
            .build()?,
    )];
    for c in columns {
        let physical = if c.integer {
            Physical::INT64
        } else {
            Physical::DOUBLE
        };
        fields.push(Arc::new(
            Type::primitive_type_builder(&c.name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .build()?,
        ));
    }
    fields.push(Arc::new(
        Type::primitive_type_builder("error", Physical::BYTE_ARRAY)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(Some(LogicalType::String))
            .with_converted_type(ConvertedType::UTF8)
            .build()?,
    ));
    Ok(Arc::new(
        Type::group_type_builder("warren_records")
            .with_fields(fields)
            .build()?,
    ))
}

/// Writes the buffered rows as one row group and empties the buffers.
fn flush<W: Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    seeds: &mut Vec<i64>,
    metrics: &mut [ValueColumn],
    times: &mut [ValueColumn],
    errors: &mut Vec<ByteArray>,
    errors_defined: &mut Vec<i16>,
) -> parquet::errors::Result<()> {
    let mut group = writer.next_row_group()?;
    let mut value_columns = metrics.iter_mut().chain(times.iter_mut());
    let mut index = 0;
    while let Some(mut column) = group.next_column()? {
        if index == 0 {
            column.typed::<Int64Type>().write_batch(seeds, None, None)?;
        } else if let Some(c) = value_columns.next() {
            let present: Vec<f64> = c
                .values
                .iter()
                .zip(&c.defined)
                .filter(|(_, &d)| d == 1)
                .map(|(&v, _)| v)
                .collect();
            if c.integer {
                let ints: Vec<i64> = present.iter().map(|&v| v as i64).collect();
                column
                    .typed::<Int64Type>()
                    .write_batch(&ints, Some(&c.defined), None)?;
            } else {
                column
                    .typed::<DoubleType>()
                    .write_batch(&present, Some(&c.defined), None)?;
            }
            c.values.clear();
            c.defined.clear();
        } else {
            column
                .typed::<ByteArrayType>()
                .write_batch(errors, Some(errors_defined), None)?;
        }
        column.close()?;
        index += 1;
    }
    group.close()?;
    seeds.clear();
    errors.clear();
    errors_defined.clear();
    Ok(())
}

/// What a column of a records file holds.
#[derive(Clone, Copy)]
enum Role {
    Seed,
    Metric(u32),
    Time(u32),
    Error,
}

/// Reads a Parquet records file one row at a time.
pub struct Rows {
    rows: RowIter<'static>,
    roles: Vec<Role>,
    names: RecordNames,
    file: String,
    row: u64,
}

impl Rows {
    /// Opens `path` and reads its header from the metadata.
    pub fn open(path: &Path) -> Result<(Header, Rows), String> {
        let file = path.display().to_string();
        let reader = SerializedFileReader::try_from(path)
            .map_err(|e| format!("{file}: not a readable Parquet file: {e}"))?;
        let meta = reader.metadata().file_metadata();
        let line = meta
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|kv| kv.key == HEADER_KEY))
            .and_then(|kv| kv.value.clone())
            .ok_or_else(|| {
                format!("{file}: not warren records: the Parquet file has no \"{HEADER_KEY}\" metadata (write one with warren batch --records FILE.parquet)")
            })?;
        let header = parse_header(&line).map_err(|e| format!("{file}: {HEADER_KEY}: {e}"))?;
        let mut names = RecordNames::default();
        let mut roles = Vec::new();
        let mut seed = false;
        for column in meta.schema_descr().columns() {
            let name = column.name();
            roles.push(match name {
                "seed" => {
                    seed = true;
                    Role::Seed
                }
                "error" => Role::Error,
                _ => match name.strip_prefix("time_us.") {
                    Some(time) => Role::Time(names.times.id(time)),
                    None => Role::Metric(names.metrics.id(name)),
                },
            });
        }
        if !seed {
            return Err(format!("{file}: not warren records: no \"seed\" column"));
        }
        let rows = Rows {
            rows: reader.into_iter(),
            roles,
            names,
            file,
            row: 0,
        };
        Ok((header, rows))
    }

    /// The next record, or `None` at the end.
    pub fn next_record(&mut self) -> Option<Result<Record, String>> {
        let row = self.rows.next()?;
        self.row += 1;
        let at = |e: String| format!("{}: row {}: {e}", self.file, self.row);
        let row = match row {
            Ok(row) => row,
            Err(e) => return Some(Err(at(e.to_string()))),
        };
        let mut seed = None;
        let mut error = None;
        let (mut metrics, mut times) = (Vec::new(), Vec::new());
        for (role, (name, field)) in self.roles.iter().zip(row.get_column_iter()) {
            let number = match field {
                Field::Null => continue,
                Field::Double(v) => Some(*v),
                Field::Long(v) => Some(*v as f64),
                Field::ULong(v) => Some(*v as f64),
                Field::Int(v) => Some(f64::from(*v)),
                _ => None,
            };
            match (role, field) {
                (Role::Seed, Field::ULong(v)) => seed = Some(*v),
                (Role::Seed, Field::Long(v)) if *v >= 0 => seed = Some(*v as u64),
                (Role::Error, Field::Str(s)) => error = Some(s.clone()),
                (Role::Metric(id), _) if number.is_some() => {
                    metrics.push((*id, number.unwrap_or_default()))
                }
                (Role::Time(id), _) if number.is_some() => {
                    times.push((*id, number.unwrap_or_default()))
                }
                _ => {
                    return Some(Err(at(format!(
                        "column \"{name}\" holds {field}, which is not what warren writes there"
                    ))))
                }
            }
        }
        let Some(seed) = seed else {
            return Some(Err(at("no seed".into())));
        };
        let outcome = match error {
            Some(msg) => Outcome::Failed(msg),
            None => Outcome::Measured { metrics, times },
        };
        Some(Ok(Record { seed, outcome }))
    }

    /// The names the records use.
    pub fn names(&self) -> &RecordNames {
        &self.names
    }

    /// Where the row read last is, for messages (`FILE: row N`).
    pub fn location(&self) -> String {
        format!("{}: row {}", self.file, self.row)
    }
}
