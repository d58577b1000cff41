//! `warren stats merge`, and the statistics outputs it shares with `warren batch`.

use crate::cli::stats::{OutputArgs, StatsAction, StatsArgs};
use crate::output::{write_atomic, Inputs};
use crate::stats::plan::{gaps, seed_range_text};
use crate::stats::records::{RecordFile, Source};
use crate::stats::{plot, table, Aggregate, Header, SeedPlan};
use std::ops::Range;
use std::path::{Path, PathBuf};
use warren_lua::error::{Error, Result};

/// Executes `warren stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    match args.action {
        StatsAction::Merge(m) => {
            let mut inputs = Inputs::new();
            inputs.add_all(&m.files, "a records file");
            check_stat_outputs(&m.output, &inputs)?;
            let data = merge(&m.files, m.allow_partial, m.output.records.as_deref())?;
            print!("{}", table(&data));
            write_plot(&data, &m.output)
        }
    }
}

/// One records file: its header, and the seeds its records cover.
struct Part<'a> {
    file: &'a Path,
    header: Header,
    covers: Option<Range<u64>>,
}

/// Reads and combines records files in one pass each, writing the merged records to `records`
/// if asked. Files must share recipe and parameters, must not overlap, and (unless
/// `allow_partial`) must cover every seed of the range they were planned for.
pub fn merge(files: &[PathBuf], allow_partial: bool, records: Option<&Path>) -> Result<Aggregate> {
    // Read in seed order, so merged records come out in seed order too.
    let mut parts = Vec::with_capacity(files.len());
    for file in files {
        let (header, mut reader) = Source::open(file).map_err(Error::Param)?;
        let first = match reader.next_record(None) {
            Some(r) => Some(r.map_err(Error::Param)?.seed),
            None => None,
        };
        parts.push((first.unwrap_or(u64::MAX), file.as_path(), header));
    }
    parts.sort_by_key(|p| p.0);
    let first_header = parts
        .first()
        .map(|p| p.2.clone())
        .ok_or_else(|| Error::Param("stats merge: no files given".into()))?;
    for (_, file, header) in &parts[1..] {
        same_run(&first_header, parts[0].1, header, file)?;
    }
    let hull = planned_range(parts.iter().map(|p| &p.2));
    let mut data = Aggregate::new(Header {
        plan: hull.as_ref().map(|r| SeedPlan {
            start: r.start,
            count: r.end - r.start,
            shard: None,
        }),
        ..first_header.clone()
    });
    let mut out = match records {
        Some(path) => Some(RecordFile::create(path, &data.header).map_err(Error::Io)?),
        None => None,
    };
    let mut read = Vec::with_capacity(parts.len());
    for (_, file, header) in parts {
        let covers = read_part(file, &mut data, out.as_mut())?;
        read.push(Part {
            file,
            header,
            covers,
        });
    }
    check_coverage(&read, hull, allow_partial)?;
    if let Some(out) = out {
        out.finish(&data).map_err(Error::Io)?;
    }
    Ok(data)
}

/// Folds one file's records into `data` (and copies their lines to `out`); returns the seeds
/// they cover. Records must be in ascending seed order without a gap.
fn read_part(
    file: &Path,
    data: &mut Aggregate,
    mut out: Option<&mut RecordFile>,
) -> Result<Option<Range<u64>>> {
    let (_, mut reader) = Source::open(file).map_err(Error::Param)?;
    let mut covers: Option<Range<u64>> = None;
    let mut line = Vec::new();
    while let Some(next) = reader.next_record(out.is_some().then_some(&mut line)) {
        let record = next.map_err(Error::Param)?;
        covers = match covers {
            None => Some(record.seed..record.seed + 1),
            Some(r) if record.seed == r.end => Some(r.start..r.end + 1),
            Some(r) => {
                return Err(Error::Param(format!(
                    "{}: seed {} follows seed {}: records must list every seed in ascending order, as warren batch writes them",
                    reader.location(),
                    record.seed,
                    r.end - 1
                )))
            }
        };
        data.absorb(std::slice::from_ref(&record), reader.names());
        if let Some(out) = out.as_deref_mut() {
            out.write(&line).map_err(Error::Io)?;
            line.clear();
        }
    }
    Ok(covers)
}

/// Refuses `--records` or `--plot` pointed at an input.
pub fn check_stat_outputs(out: &OutputArgs, inputs: &Inputs) -> Result<()> {
    if let Some(path) = &out.records {
        inputs.check("--records", path)?;
    }
    if let Some(path) = &out.plot {
        inputs.check("--plot", path)?;
    }
    Ok(())
}

/// An error unless two headers describe runs of the same recipe with the same parameters,
/// naming the first parameter that differs and both its values.
fn same_run(a: &Header, a_file: &Path, b: &Header, b_file: &Path) -> Result<()> {
    let refuse = |what: String| {
        Err(Error::Param(format!(
            "{} and {} were made with different {what}; only runs of the same recipe and parameters merge",
            a_file.display(),
            b_file.display()
        )))
    };
    if a.recipe != b.recipe {
        return refuse(format!("recipes: '{}' and '{}'", a.recipe, b.recipe));
    }
    let keys = a.params.keys().chain(b.params.keys());
    for key in keys {
        let (x, y) = (a.params.get(key), b.params.get(key));
        if x != y {
            let show = |v: Option<&serde_json::Value>| match v {
                Some(v) => v.to_string(),
                None => "(not set)".into(),
            };
            return refuse(format!(
                "parameters: {key} = {} in {}, but {key} = {} in {}",
                show(x),
                a_file.display(),
                show(y),
                b_file.display()
            ));
        }
    }
    Ok(())
}

/// The smallest range holding every file's planned seeds.
fn planned_range<'a>(headers: impl Iterator<Item = &'a Header>) -> Option<Range<u64>> {
    headers
        .filter_map(|h| h.plan.as_ref().map(SeedPlan::whole))
        .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end))
}

/// Refuses files whose seeds overlap, and (unless `allow_partial`) seeds of the planned range
/// that no file covers, naming them and the shards they belong to.
fn check_coverage(parts: &[Part], hull: Option<Range<u64>>, allow_partial: bool) -> Result<()> {
    let mut covered: Vec<(&Range<u64>, &Path)> = parts
        .iter()
        .filter_map(|p| p.covers.as_ref().map(|c| (c, p.file)))
        .collect();
    covered.sort_by_key(|(r, _)| r.start);
    for pair in covered.windows(2) {
        let ((a, a_file), (b, b_file)) = (pair[0], pair[1]);
        if b.start < a.end {
            let both = b.start..a.end.min(b.end);
            return Err(Error::Param(format!(
                "{} ({}) and {} ({}) overlap in {}: merging them would count those maps twice",
                a_file.display(),
                seed_range_text(a),
                b_file.display(),
                seed_range_text(b),
                seed_range_text(&both)
            )));
        }
    }
    let Some(hull) = hull else {
        return Ok(());
    };
    let ranges: Vec<Range<u64>> = covered.iter().map(|(r, _)| (*r).clone()).collect();
    let missing = gaps(&hull, &ranges);
    if missing.is_empty() {
        return Ok(());
    }
    let described: Vec<String> = missing
        .iter()
        .map(|gap| {
            let shards: Vec<String> = parts
                .iter()
                .filter_map(|p| p.header.plan)
                .flat_map(|plan| plan.shards_in(gap))
                .map(|s| s.to_string())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            match shards.len() {
                0 => seed_range_text(gap),
                1 => format!("{} (shard {})", seed_range_text(gap), shards[0]),
                _ => format!("{} (shards {})", seed_range_text(gap), shards.join(", ")),
            }
        })
        .collect();
    let text = format!(
        "the records do not cover {}: {} missing",
        seed_range_text(&hull),
        described.join("; ")
    );
    if allow_partial {
        eprintln!("warning: {text}; merging what is there (--allow-partial)");
        Ok(())
    } else {
        Err(Error::Param(format!(
            "{text}; add the missing records, or pass --allow-partial to merge what is there"
        )))
    }
}

/// Writes `--plot`.
pub fn write_plot(data: &Aggregate, out: &OutputArgs) -> Result<()> {
    if let Some(path) = &out.plot {
        let png = plot::histograms(data, &out.metrics).map_err(Error::Param)?;
        write_atomic(path, &png)
            .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}
