//! Renderers: turn a map (a layer of it, a row at a time) into text, ANSI colour, JSON, a
//! Tiled map or an LDtk project (from [`warren_core::render`]), PNG or an animated GIF.
//!
//! A renderer never calls Lua and never reads files; it sees only the finished map.

pub mod gif;
// reached by the crate's tests (tests/cli/library/render/), not API
#[doc(hidden)]
pub mod lzw;
pub mod png;

pub use png::Picture;

pub use warren_core::render::{json, layers, ldtk, text, tiled, view, LayerChoice, Painter, View};

use crate::output::{write_atomic, AtomicFile};
use std::io::Write;
use std::path::{Path, PathBuf};
use warren_lua::run::{params_json, GeneratedLevel};
use warren_lua::{Error, ParamValues, Result};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per row, glyphs from the terrain table.
    Ascii,
    /// The same with 24-bit colour escapes.
    Ansi,
    /// The JSON document of the output contract.
    Json,
    /// One coloured square per cell.
    Png,
    /// A Tiled map (TMX) and its tileset image beside it.
    Tiled,
    /// An LDtk project (its JSON).
    Ldtk,
}

impl Format {
    /// Every format's name.
    pub const NAMES: [&'static str; 6] = ["ascii", "ansi", "json", "png", "tiled", "ldtk"];

    /// The file extensions `--out` recognises, as a list for messages.
    pub const EXTENSIONS: &'static str =
        ".txt or .map (ascii), .ans (ansi), .json, .png, .tmx (tiled), .ldtk";

    /// Parses a format name.
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "ascii" => Some(Format::Ascii),
            "ansi" => Some(Format::Ansi),
            "json" => Some(Format::Json),
            "png" => Some(Format::Png),
            "tiled" => Some(Format::Tiled),
            "ldtk" => Some(Format::Ldtk),
            _ => None,
        }
    }

    /// The format a file name suggests (`.png`, `.json`, `.tmx`, `.ldtk`, `.txt`, `.map`,
    /// `.ans`).
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "png" => Some(Format::Png),
            "json" => Some(Format::Json),
            "tmx" => Some(Format::Tiled),
            "ldtk" => Some(Format::Ldtk),
            "txt" | "map" => Some(Format::Ascii),
            "ans" => Some(Format::Ansi),
            _ => None,
        }
    }

    /// Whether the format can only be written to a file (never to a terminal or pipe).
    pub fn needs_file(self) -> bool {
        matches!(self, Format::Png | Format::Tiled)
    }
}

/// A run's levels and how to draw them.
pub struct Output<'a> {
    /// The levels, in depth order.
    pub levels: &'a [GeneratedLevel],
    /// The recipe's name.
    pub recipe: &'a str,
    /// The parameter values the levels were made with.
    pub params: &'a ParamValues,
    /// PNG pixels per cell.
    pub scale: u32,
    /// What to draw.
    pub layer: &'a LayerChoice,
}

impl Output<'_> {
    /// Bytes drawing the levels in `format` holds at once, beyond the levels themselves: for a
    /// debug layer, what its painters hold (the `components` layer's, [`Painter::bytes_for`]),
    /// all levels' at once for PNG, one level's at a time otherwise. Every format is written a
    /// row at a time.
    pub fn memory_needed(&self, format: Format) -> usize {
        let painters = self
            .levels
            .iter()
            .map(|l| Painter::bytes_for(self.layer, l.map.len()));
        match format {
            Format::Png => painters.fold(0, usize::saturating_add),
            Format::Ascii | Format::Ansi | Format::Json => painters.max().unwrap_or(0),
            Format::Tiled | Format::Ldtk => 0,
        }
    }

    /// Writes the levels to `out` as they are rendered (JSON streams level by level). Text
    /// formats separate levels with a blank line; PNG stacks them top to bottom with a
    /// one-cell gap. Tiled output needs a file: see [`Output::save`].
    pub fn write(&self, format: Format, out: &mut dyn Write) -> Result<()> {
        let io = |e: std::io::Error| Error::Io(format!("writing the map: {e}"));
        match format {
            Format::Ascii | Format::Ansi if *self.layer == LayerChoice::Terrain => {
                // Row by row: a big map needs no copy of itself as text.
                write_terrain_text(self.levels, format == Format::Ansi, out).map_err(io)?;
            }
            Format::Ascii | Format::Ansi => {
                // Row by row too, each row of the layer worked out from the map as it goes.
                for (i, level) in self.levels.iter().enumerate() {
                    let painter = self.layer.painter(&level.map).map_err(Error::Param)?;
                    if i > 0 {
                        out.write_all(b"\n").map_err(io)?;
                    }
                    text::write_layer(&painter, format == Format::Ansi, out).map_err(io)?;
                }
            }
            Format::Json => {
                let params = params_json(self.params);
                let run = json::RunInfo {
                    recipe: self.recipe,
                    seed: self.levels.first().map_or(0, |l| l.seed),
                    params: &params,
                };
                // Level by level, the terrain straight from the map's cells and a debug layer's
                // rows worked out from it as they are written.
                let mut doc = json::Writer::start(&mut *out, &run).map_err(io)?;
                for level in self.levels {
                    let layer = match self.layer {
                        LayerChoice::Terrain => None,
                        chosen => Some((
                            chosen.painter(&level.map).map_err(Error::Param)?,
                            chosen.legend(&level.map),
                        )),
                    };
                    let info = json::LevelInfo {
                        seed: level.seed,
                        depth: level.depth,
                        layer: layer.as_ref().map(|(painter, legend)| json::LayerInfo {
                            name: self.layer.name(),
                            painter,
                            legend,
                        }),
                    };
                    doc.level(&level.map, &info).map_err(io)?;
                }
                doc.finish().map_err(io)?;
            }
            Format::Png => {
                // A pixel row at a time, each coloured from the map itself: neither the image
                // nor a view of a layer is ever held whole.
                let painters = self
                    .levels
                    .iter()
                    .map(|l| self.layer.painter(&l.map).map_err(Error::Param))
                    .collect::<Result<Vec<_>>>()?;
                let pictures: Vec<Picture> = painters.iter().map(Picture::Layer).collect();
                png::write(&pictures, self.scale as usize, out).map_err(Error::Io)?;
            }
            Format::Ldtk => {
                let params = params_json(self.params);
                let run = json::RunInfo {
                    recipe: self.recipe,
                    seed: self.levels.first().map_or(0, |l| l.seed),
                    params: &params,
                };
                ldtk::write(&mut &mut *out, &run, &self.level_infos()).map_err(io)?;
            }
            Format::Tiled => {
                return Err(Error::Usage(
                    "Tiled output is a map and a tileset image: it needs --out FILE.tmx".into(),
                ))
            }
        }
        Ok(())
    }

    /// Writes the levels to `path`, whole or not at all. Tiled output also writes its tileset
    /// image beside the map (`NAME.tiles.png` for `NAME.tmx`).
    pub fn save(&self, format: Format, path: &Path) -> Result<()> {
        let fail =
            |p: &Path, e: std::io::Error| Error::Io(format!("{}: cannot write: {e}", p.display()));
        if format == Format::Tiled {
            return self.save_tiled(path);
        }
        let mut file = AtomicFile::create(path).map_err(|e| fail(path, e))?;
        self.write(format, &mut file).map_err(|e| naming(path, e))?;
        file.commit().map_err(|e| fail(path, e))
    }

    fn save_tiled(&self, path: &Path) -> Result<()> {
        let fail =
            |p: &Path, e: std::io::Error| Error::Io(format!("{}: cannot write: {e}", p.display()));
        let image_path = tileset_path(path);
        let source = image_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut file = AtomicFile::create(path).map_err(|e| fail(path, e))?;
        let image = self
            .write_tiled(&source, &mut file)
            .map_err(|e| naming(path, e))?;
        write_atomic(&image_path, &image).map_err(|e| fail(&image_path, e))?;
        file.commit().map_err(|e| fail(path, e))
    }

    /// Writes the levels to `out` as a Tiled map (TMX) whose tileset image is the file
    /// `image_source` beside it, and returns that image (PNG bytes). The terrain is the tile
    /// layer: a debug layer has no place in a Tiled map.
    pub fn write_tiled(&self, image_source: &str, out: &mut dyn Write) -> Result<Vec<u8>> {
        let Some(first) = self.levels.first() else {
            return Err(Error::Param("nothing to write: no levels".into()));
        };
        let picture = tiled::tileset_view(first.map.terrains());
        let image = png::encode(Picture::View(&picture), 1).map_err(Error::Io)?;
        let params = params_json(self.params);
        let run = json::RunInfo {
            recipe: self.recipe,
            seed: first.seed,
            params: &params,
        };
        let levels = self.level_infos();
        let tileset = tiled::TilesetImage {
            source: image_source,
            width: picture.width,
            height: picture.height,
        };
        tiled::write(&mut &mut *out, &run, &levels, &tileset)
            .map_err(|e| Error::Io(format!("writing the map: {e}")))?;
        Ok(image)
    }

    /// Every level with what the exports say about it (no debug layer).
    fn level_infos(&self) -> Vec<(&warren_core::map::Map, json::LevelInfo<'static>)> {
        self.levels
            .iter()
            .map(|l| {
                let info = json::LevelInfo {
                    seed: l.seed,
                    depth: l.depth,
                    layer: None,
                };
                (&l.map, info)
            })
            .collect()
    }

    /// The legend of the chosen layer for people (`a  winding corridor`, wrapped to 80
    /// columns), when it has one.
    pub fn legend_text(&self) -> Option<String> {
        let mut legend: std::collections::BTreeMap<char, Vec<String>> = Default::default();
        for level in self.levels {
            for (g, names) in self.layer.legend(&level.map) {
                let entry = legend.entry(g).or_default();
                for n in names {
                    if !entry.contains(&n) {
                        entry.push(n);
                    }
                }
            }
        }
        if legend.is_empty() {
            return None;
        }
        let mut text = format!("{} layer:", self.layer.name());
        let mut column = text.chars().count();
        for (g, names) in legend {
            let item = format!(" {g} {}", names.join(" / "));
            let len = item.chars().count() + 1;
            if column + len > 80 {
                text.push_str("\n ");
                column = 1;
            } else if column > text.find(':').unwrap_or(0) + 1 {
                text.push(',');
            }
            text.push_str(&item);
            column += len;
        }
        Some(text)
    }
}

/// The tileset image written beside a Tiled map: `NAME.tiles.png` for `NAME.tmx`.
pub fn tileset_path(map: &Path) -> PathBuf {
    let stem = map
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    map.with_file_name(format!("{stem}.tiles.png"))
}

/// Renders levels in `format` (not [`Format::Tiled`], which needs a file): see
/// [`Output::write`].
pub fn render(
    levels: &[GeneratedLevel],
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
    levels: &[GeneratedLevel],
    recipe: &str,
    params: &ParamValues,
    format: Format,
    scale: u32,
    layer: &LayerChoice,
) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    Output {
        levels,
        recipe,
        params,
        scale,
        layer,
    }
    .write(format, &mut bytes)?;
    Ok(bytes)
}

/// Writes levels' terrain as text (`ascii`, or `ansi` with `color`) one row at a time,
/// levels separated by a blank line: the bytes [`render()`] gives, without holding them.
pub fn write_terrain_text<W: std::io::Write + ?Sized>(
    levels: &[GeneratedLevel],
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

/// A write error while saving to `path` (a full disk, say), naming the file.
fn naming(path: &Path, e: Error) -> Error {
    match e {
        Error::Io(message) => Error::Io(format!(
            "{}: cannot write: {}",
            path.display(),
            message
                .strip_prefix("writing the map: ")
                .unwrap_or(&message)
        )),
        other => other,
    }
}
