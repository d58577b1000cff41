//! Renderers: turn a map (through a [`View`]) into text, ANSI colour, JSON (from
//! [`warren_core::render`]), PNG or an animated GIF.
//!
//! A renderer never calls Lua and never reads files; it sees only the finished map.

pub mod gif;
pub mod png;

pub use warren_core::render::{json, layers, text, view, LayerChoice, View};

use warren_core::map::Map;
use warren_lua::run::{params_json, Level};
use warren_lua::{Error, ParamValues, Result};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per row, glyphs from the terrain table.
    Ascii,
    /// The same with 24-bit colour escapes.
    Ansi,
    /// The JSON object of the output contract.
    Json,
    /// One coloured square per cell.
    Png,
}

impl Format {
    /// Every format's name.
    pub const NAMES: [&'static str; 4] = ["ascii", "ansi", "json", "png"];

    /// Parses a format name.
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "ascii" => Some(Format::Ascii),
            "ansi" => Some(Format::Ansi),
            "json" => Some(Format::Json),
            "png" => Some(Format::Png),
            _ => None,
        }
    }

    /// The format a file name suggests (`.png`, `.json`, `.txt`).
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "png" => Some(Format::Png),
            "json" => Some(Format::Json),
            "txt" | "map" => Some(Format::Ascii),
            "ans" => Some(Format::Ansi),
            _ => None,
        }
    }
}

/// Renders levels in `format`. Text formats separate levels with a blank line; PNG stacks
/// them top to bottom with a one-cell gap; JSON uses `{format, levels}` for more than one.
pub fn render(
    levels: &[Level],
    recipe: &str,
    params: &ParamValues,
    format: Format,
    scale: u32,
) -> Result<Vec<u8>> {
    render_layer(levels, recipe, params, format, scale, &LayerChoice::Terrain)
}

/// Like [`render()`], drawing `layer` instead of the terrain. JSON keeps `rows`/`legend` as the
/// terrain and adds the layer beside them.
pub fn render_layer(
    levels: &[Level],
    recipe: &str,
    params: &ParamValues,
    format: Format,
    scale: u32,
    layer: &LayerChoice,
) -> Result<Vec<u8>> {
    let views = levels
        .iter()
        .map(|l| layer.view(&l.map).map_err(Error::Param))
        .collect::<Result<Vec<View>>>()?;
    Ok(match format {
        Format::Ascii => views
            .iter()
            .map(text::ascii)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Format::Ansi => views
            .iter()
            .map(text::ansi)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Format::Json => {
            let pj = params_json(params);
            let metas: Vec<(Map, json::Meta)> = levels
                .iter()
                .zip(&views)
                .map(|(l, v)| {
                    (
                        l.map.clone(),
                        json::Meta {
                            recipe,
                            seed: l.seed,
                            depth: l.depth,
                            params: pj.clone(),
                            layer: (*layer != LayerChoice::Terrain).then(|| json::LayerRows {
                                name: layer.name().to_string(),
                                rows: v.rows(),
                            }),
                        },
                    )
                })
                .collect();
            if metas.len() == 1 {
                json::single(&metas[0].0, &metas[0].1).into_bytes()
            } else {
                json::levels(&metas).into_bytes()
            }
        }
        Format::Png => {
            let stacked = stack(&views);
            png::encode(&stacked, scale as usize).map_err(Error::Io)?
        }
    })
}

/// Writes levels' terrain as text (`ascii`, or `ansi` with `color`) one row at a time,
/// levels separated by a blank line: the bytes [`render()`] gives, without holding them.
pub fn write_terrain_text<W: std::io::Write + ?Sized>(
    levels: &[Level],
    color: bool,
    out: &mut W,
) -> std::io::Result<()> {
    for (i, level) in levels.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
        }
        text::write_terrain(&level.map, color, out)?;
    }
    Ok(())
}

/// Stacks views vertically with a blank row between them.
fn stack(views: &[View]) -> View {
    if views.len() == 1 {
        return views[0].clone();
    }
    let width = views.iter().map(|v| v.width).max().unwrap_or(0);
    let mut out = View {
        width,
        height: 0,
        glyphs: Vec::new(),
        colors: Vec::new(),
    };
    for (i, v) in views.iter().enumerate() {
        if i > 0 {
            out.glyphs.extend(std::iter::repeat_n(' ', width));
            out.colors
                .extend(std::iter::repeat_n(warren_core::map::Rgb(0, 0, 0), width));
            out.height += 1;
        }
        for y in 0..v.height {
            let row = y * v.width;
            out.glyphs.extend_from_slice(&v.glyphs[row..row + v.width]);
            out.colors.extend_from_slice(&v.colors[row..row + v.width]);
            out.glyphs.extend(std::iter::repeat_n(' ', width - v.width));
            out.colors.extend(std::iter::repeat_n(
                warren_core::map::Rgb(0, 0, 0),
                width - v.width,
            ));
        }
        out.height += v.height;
    }
    out
}
