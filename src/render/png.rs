//! PNG: one coloured square per cell, written one pixel row at a time (an image larger than
//! memory is never held whole). The terrain layer is coloured straight from the map a row at a
//! time, so a PNG holds nothing per cell beyond the map itself; other layers draw a [`View`]
//! first.

use super::{Painter, View};
use std::io::Write;
use warren_core::map::Rgb;

/// The largest image side warren writes, in pixels.
pub const MAX_SIDE_PX: usize = 32_768;

/// What one image (or animation frame) draws.
#[derive(Clone, Copy)]
pub enum Picture<'a> {
    /// A layer of a map, coloured from the map a row at a time.
    Layer(&'a Painter<'a>),
    /// A view drawn whole first (a tileset image).
    View(&'a View),
}

impl Picture<'_> {
    /// Width in cells.
    pub fn width(&self) -> usize {
        match self {
            Picture::Layer(painter) => painter.width(),
            Picture::View(view) => view.width,
        }
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        match self {
            Picture::Layer(painter) => painter.height(),
            Picture::View(view) => view.height,
        }
    }

    /// Calls `f` with the colours of every row, top to bottom, until it fails.
    pub fn for_each_color_row<E>(
        &self,
        mut f: impl FnMut(&[Rgb]) -> Result<(), E>,
    ) -> Result<(), E> {
        let width = self.width().max(1);
        match self {
            Picture::Layer(painter) => {
                let (mut cells, mut row) = (Vec::with_capacity(width), Vec::with_capacity(width));
                (0..painter.height()).try_for_each(|y| {
                    painter.row(y, &mut cells);
                    row.clear();
                    row.extend(cells.iter().map(|&(_, color)| color));
                    f(&row)
                })
            }
            Picture::View(view) => view.colors.chunks(width).try_for_each(f),
        }
    }
}

/// The size in pixels of `pictures` stacked top to bottom with a one-cell gap between them, at
/// `scale × scale` pixels per cell; an error names the limit when a side is too long.
pub fn size(pictures: &[Picture], scale: usize) -> Result<(usize, usize), String> {
    let cols = pictures.iter().map(Picture::width).max().unwrap_or(0);
    let rows =
        pictures.iter().map(Picture::height).sum::<usize>() + pictures.len().saturating_sub(1);
    pixel_size(cols, rows, scale)
}

/// The size in pixels of `cols × rows` cells at `scale × scale` pixels per cell; an error names
/// the limit when a side is too long.
pub fn pixel_size(cols: usize, rows: usize, scale: usize) -> Result<(usize, usize), String> {
    let scale = scale.max(1);
    let (w, h) = (cols.saturating_mul(scale), rows.saturating_mul(scale));
    if w > MAX_SIDE_PX || h > MAX_SIDE_PX {
        return Err(format!(
            "a {cols}×{rows} map at scale {scale} is {w}×{h} pixels; the limit is {MAX_SIDE_PX} per side (lower --scale)"
        ));
    }
    Ok((w, h))
}

/// Calls `f` with every pixel row (RGB) of `pictures` stacked as [`size`] describes: narrower
/// pictures and the gaps between them are black.
pub fn write_rows(
    pictures: &[Picture],
    scale: usize,
    mut f: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), String> {
    let scale = scale.max(1);
    let cols = pictures.iter().map(Picture::width).max().unwrap_or(0);
    let mut line = Vec::with_capacity(cols * scale * 3);
    let gap = vec![0; cols * scale * 3];
    for (i, picture) in pictures.iter().enumerate() {
        if i > 0 {
            for _ in 0..scale {
                f(&gap)?;
            }
        }
        picture.for_each_color_row(|row| {
            line.clear();
            let black = std::iter::repeat_n(&Rgb(0, 0, 0), cols - row.len());
            for c in row.iter().chain(black) {
                for _ in 0..scale {
                    line.extend_from_slice(&[c.0, c.1, c.2]);
                }
            }
            (0..scale).try_for_each(|_| f(&line))
        })?;
    }
    Ok(())
}

/// Writes `pictures` stacked top to bottom (see [`size`]) to `out` as an RGB PNG with
/// `scale × scale` pixels per cell, a pixel row at a time.
pub fn write(pictures: &[Picture], scale: usize, out: &mut dyn Write) -> Result<(), String> {
    let (w, h) = size(pictures, scale)?;
    let mut enc = png::Encoder::new(out, w as u32, h as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    let mut stream = writer.stream_writer().map_err(|e| e.to_string())?;
    write_rows(pictures, scale, |row| {
        stream.write_all(row).map_err(|e| e.to_string())
    })?;
    stream.finish().map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}

/// Encodes the picture as an RGB PNG with `scale × scale` pixels per cell.
pub fn encode(picture: Picture, scale: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write(&[picture], scale, &mut out)?;
    Ok(out)
}
