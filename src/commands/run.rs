//! `warren run`: generate and print or save.

use crate::cli::RunArgs;
use crate::frames::{generate_frames, FrameOptions};
use crate::output::Inputs;
use crate::render::{tileset_path, Format, LayerChoice, Output};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use warren_core::region::Registry;
use warren_lua::error::{Error, Result};
use warren_lua::run::{display_path, generate_levels, load_registry, GeneratedLevel};
use warren_lua::{Host, ParamValue};

/// Executes `warren run`.
pub fn run(args: RunArgs) -> Result<()> {
    let gen = &args.gen;
    let format = choose_format(&args)?;
    let registry = Arc::new(load_registry(gen.regions.as_deref(), &gen.script)?);
    let limits = super::limits(gen, Some(&registry))?;
    let host = Host::load(&gen.script, registry.clone(), limits)?;
    let done = run_loaded(&args, format, &registry, &host);
    // The process exits next, whether the run made its map or failed: closing the Lua state
    // would only delay it (freeing, one by one, the millions of objects a runaway recipe may
    // have made when its budget stopped it).
    host.leave_to_exit();
    done
}

/// `warren run` once the recipe is loaded.
fn run_loaded(args: &RunArgs, format: Format, registry: &Arc<Registry>, host: &Host) -> Result<()> {
    let gen = &args.gen;
    if args.list_params {
        print!("{}", list_params(host));
        return Ok(());
    }
    // Refused before generating, and again before writing (the recipe may require more
    // modules while it runs).
    let inputs = || super::inputs(host, registry, gen.regions.as_deref());
    check_outputs(args, format, inputs)?;
    let params = host.resolve_params(&super::assignments(gen)?)?;
    let seed = super::seed(gen);
    let layer = LayerChoice::from_name(&args.layer);
    let (levels, frames) = match &args.frames {
        Some(dir) => {
            let frames = FrameOptions {
                dir,
                layer: &layer,
                scale: args.scale,
                inputs: &inputs,
            };
            let (levels, frames) = generate_frames(host, seed, &params, gen.levels, &frames)?;
            (levels, Some(frames))
        }
        None => (generate_levels(host, seed, &params, gen.levels)?, None),
    };
    let output = Output {
        levels: &levels,
        recipe: &host.recipe().name,
        params: &params,
        scale: args.scale,
        layer: &layer,
    };
    // Validates a recipe layer's name before anything is written.
    if let Some(level) = levels.first() {
        layer.check(&level.map).map_err(Error::Param)?;
    }
    check_outputs(args, format, inputs)?;
    check_drawing(host, &output, format, args.out.as_deref())?;
    if let Some(frames) = frames {
        frames.commit(&inputs())?;
    }
    match &args.out {
        Some(path) => {
            output.save(format, path)?;
            eprintln!("{}", summary(path, format, &output));
        }
        None => {
            let stdout = std::io::stdout();
            let terminal = stdout.is_terminal();
            let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            output.write(format, &mut out).and_then(|()| {
                out.flush()
                    .map_err(|e| Error::Io(format!("writing the map: {e}")))
            })?;
            drop(out);
            if terminal && matches!(format, Format::Ascii | Format::Ansi) {
                if let Some(note) = too_wide(&levels, terminal_columns()) {
                    eprintln!("{note}");
                }
            }
        }
    }
    if matches!(format, Format::Ascii | Format::Ansi) {
        if let Some(legend) = output.legend_text() {
            eprintln!("{legend}");
        }
    }
    Ok(())
}

/// Checks, before anything is written, that drawing `output` in `format` (to `out`, or standard
/// output) fits in the memory limit beside its levels.
pub(super) fn check_drawing(
    host: &Host,
    output: &Output,
    format: Format,
    out: Option<&Path>,
) -> Result<()> {
    let held: usize = output.levels.iter().map(|l| l.map.bytes()).sum();
    let what = match out {
        Some(path) => format!("--out {}: drawing it", path.display()),
        None => "drawing the map".into(),
    };
    host.check_memory(output.memory_needed(format), held, &what)
}

/// Refuses `--out` (and a Tiled map's tileset image beside it) or `--frames` pointed at an
/// input of the run. The inputs are listed only when there is an output to check (listing
/// resolves every file's path: a fifth of the system calls of a small run).
pub(super) fn check_outputs(
    args: &RunArgs,
    format: Format,
    inputs: impl FnOnce() -> Inputs,
) -> Result<()> {
    if args.out.is_none() && args.frames.is_none() {
        return Ok(());
    }
    let inputs = inputs();
    if let Some(path) = &args.out {
        inputs.check("--out", path)?;
        if format == Format::Tiled {
            inputs.check("--out", &tileset_path(path))?;
        }
    }
    if let Some(dir) = &args.frames {
        inputs.check("--frames", dir)?;
    }
    Ok(())
}

/// The format asked for, or the natural default for the destination. Asking for what cannot
/// be done (a PNG to standard output, an output file of unknown type) is a usage error.
pub(super) fn choose_format(args: &RunArgs) -> Result<Format> {
    let named = args.format.as_deref().and_then(Format::from_name);
    let format = match (named, &args.out) {
        (Some(f), _) => f,
        (None, Some(path)) => Format::from_extension(path).ok_or_else(|| {
            Error::Usage(format!(
                "--out {}: cannot tell the format from the file name; use {}, or name one with --format",
                path.display(),
                Format::EXTENSIONS
            ))
        })?,
        (None, None) => {
            if std::io::stdout().is_terminal() && color_allowed() {
                Format::Ansi
            } else {
                Format::Ascii
            }
        }
    };
    if format.needs_file() && args.out.is_none() {
        let (name, ext) = match format {
            Format::Tiled => ("tiled", "tmx"),
            _ => ("png", "png"),
        };
        return Err(Error::Usage(format!(
            "--format {name} writes a file: add --out FILE.{ext} (it is never written to standard output)"
        )));
    }
    Ok(format)
}

/// Colour unless `NO_COLOR` is set to a non-empty value (<https://no-color.org>).
fn color_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The terminal's width: `COLUMNS` when set, else what the terminal reports.
fn terminal_columns() -> Option<usize> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&c: &usize| c > 0)
        .or_else(|| {
            console::Term::stdout()
                .size_checked()
                .map(|(_, cols)| cols as usize)
        })
}

/// A note for maps wider than the terminal they were printed on.
fn too_wide(levels: &[GeneratedLevel], columns: Option<usize>) -> Option<String> {
    let columns = columns?;
    let width = levels.iter().map(|l| l.map.width()).max()? as usize;
    (width > columns).then(|| {
        format!(
            "note: the map is {width} columns wide and this terminal {columns}: its lines wrap.\n      \
             See it whole as an image with --out map.png, or widen the terminal."
        )
    })
}

/// The line printed after writing `path`: what was written, and where.
fn summary(path: &Path, format: Format, output: &Output) -> String {
    let first = &output.levels[0];
    let (w, h) = (first.map.width(), first.map.height());
    let levels = match output.levels.len() {
        1 => String::new(),
        n => format!(", {n} levels"),
    };
    let notes = &first.map.notes;
    let mut line = format!(
        "wrote {}: {} {w}×{h}{levels}, seed {}, {} rooms",
        display_path(path),
        output.recipe,
        first.seed,
        notes.rooms.len()
    );
    if format == Format::Tiled {
        line.push_str(&format!(" (tileset {})", display_path(&tileset_path(path))));
    }
    line
}

/// The table `--list-params` prints.
pub(super) fn list_params(host: &Host) -> String {
    let r = host.recipe();
    let mut out = format!("{} ({})\n", r.name, r.path.display());
    if !r.description.is_empty() {
        out.push_str(&format!("{}\n", r.description));
    }
    out.push('\n');
    let rows: Vec<[String; 4]> = r
        .params
        .iter()
        .map(|p| {
            let default = match &p.default {
                ParamValue::Text(s) => format!("{s:?}"),
                v => v.to_string(),
            };
            [p.name.clone(), default, p.range_text(), p.doc.clone()]
        })
        .collect();
    let head = ["name", "default", "range", "description"];
    let widths: Vec<usize> = (0..3)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |c: [&str; 4]| {
        format!(
            "{:w0$}  {:w1$}  {:w2$}  {}\n",
            c[0],
            c[1],
            c[2],
            c[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        )
        .trim_end()
        .to_string()
            + "\n"
    };
    out.push_str(&line(head));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3]]));
    }
    out
}
