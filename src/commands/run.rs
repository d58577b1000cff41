//! `warren run`: generate and print or save.

use crate::cli::RunArgs;
use crate::frames::{generate_steps, write_frames};
use crate::output::{write_atomic, AtomicFile};
use crate::render::Format;
use crate::render::LayerChoice;
use crate::render::{render_layer, write_terrain_text};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use warren_lua::error::{Error, Result};
use warren_lua::run::{generate_levels, load_registry};
use warren_lua::{Host, ParamValue};

/// Executes `warren run`.
pub fn run(args: RunArgs) -> Result<()> {
    let gen = &args.gen;
    let format = choose_format(&args)?;
    let registry = Arc::new(load_registry(gen.regions.as_deref(), &gen.script)?);
    let limits = super::limits(gen, &registry.limits)?;
    let host = Host::load(&gen.script, registry, limits)?;
    if args.list_params {
        print!("{}", list_params(&host));
        return Ok(());
    }
    let params = host.resolve_params(&super::assignments(gen)?)?;
    let seed = super::seed(gen);
    let layer = LayerChoice::from_name(&args.layer);
    let levels = match &args.frames {
        Some(dir) => {
            let steps = generate_steps(&host, seed, &params, gen.levels)?;
            write_frames(dir, &steps, &layer, args.scale)?;
            steps.into_iter().map(|s| s.level).collect()
        }
        None => generate_levels(&host, seed, &params, gen.levels)?,
    };
    let text = matches!(format, Format::Ascii | Format::Ansi);
    if text && layer == LayerChoice::Terrain {
        // Text of the terrain streams row by row: a big map needs no copy of itself as text.
        return write_streamed(args.out.as_deref(), |out| {
            write_terrain_text(&levels, format == Format::Ansi, out)
        });
    }
    let recipe = &host.recipe().name;
    let bytes = render_layer(&levels, recipe, &params, format, args.scale, &layer)?;
    match &args.out {
        Some(path) => write_atomic(path, &bytes)
            .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display()))),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)
                .and_then(|_| out.flush())
                .map_err(|e| Error::Io(format!("stdout: {e}")))
        }
    }
}

/// Writes through `write` into `out` atomically, or to stdout.
fn write_streamed(
    out: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    match out {
        Some(path) => {
            let cannot =
                |e: std::io::Error| Error::Io(format!("{}: cannot write: {e}", path.display()));
            let mut file = AtomicFile::create(path).map_err(cannot)?;
            write(&mut file).map_err(cannot)?;
            file.commit().map_err(cannot)
        }
        None => {
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            write(&mut stdout)
                .and_then(|_| stdout.flush())
                .map_err(|e| Error::Io(format!("stdout: {e}")))
        }
    }
}

/// The format asked for, or the natural default for the destination.
pub(super) fn choose_format(args: &RunArgs) -> Result<Format> {
    let named = args.format.as_deref().and_then(Format::from_name);
    let guessed = args.out.as_deref().and_then(Format::from_extension);
    let format = match (named, &args.out) {
        (Some(f), _) => f,
        (None, Some(_)) => guessed.unwrap_or(Format::Ascii),
        (None, None) => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            if color {
                Format::Ansi
            } else {
                Format::Ascii
            }
        }
    };
    if format == Format::Png && args.out.is_none() {
        return Err(Error::Param(
            "--format png needs --out FILE.png (PNG is not written to a terminal)".into(),
        ));
    }
    Ok(format)
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
