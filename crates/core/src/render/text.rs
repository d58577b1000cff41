//! Plain text and ANSI-coloured text.

use super::{Painter, View};
use crate::map::{Map, Rgb};
use std::io::Write;

/// One line per row, each ending in a newline.
pub fn ascii(view: &View) -> String {
    let mut out = String::with_capacity((view.width + 1) * view.height);
    for row in view.glyphs.chunks(view.width) {
        out.extend(row.iter());
        out.push('\n');
    }
    out
}

/// Like [`ascii`], with a 24-bit foreground colour escape wherever the colour changes and a
/// reset at the end of every row.
pub fn ansi(view: &View) -> String {
    let mut out = String::with_capacity((view.width * 4 + 8) * view.height);
    for (glyphs, colors) in view
        .glyphs
        .chunks(view.width)
        .zip(view.colors.chunks(view.width))
    {
        push_ansi_row(&mut out, glyphs.iter().copied().zip(colors.iter().copied()));
    }
    out
}

/// Appends one row of cells as [`ansi`] writes it: a colour escape wherever the colour
/// changes, the glyphs, then a reset and a newline.
fn push_ansi_row(out: &mut String, cells: impl Iterator<Item = (char, Rgb)>) {
    let mut current: Option<Rgb> = None;
    for (glyph, c) in cells {
        if current != Some(c) {
            push_color(out, c);
            current = Some(c);
        }
        out.push(glyph);
    }
    out.push_str("\x1b[0m\n");
}

/// Writes `map`'s terrain as [`ascii`] (or, with `color`, [`ansi`]) of its terrain view would,
/// one row at a time: the only buffer is one row of text, so a map of any size is written in
/// the memory of a row.
pub fn write_terrain<W: Write + ?Sized>(
    map: &Map,
    color: bool,
    out: &mut W,
) -> std::io::Result<()> {
    if !color {
        return write_glyphs(map, out);
    }
    let table = map.terrains();
    let width = map.width() as usize;
    let mut line = String::with_capacity(width * 24 + 8);
    for row in map.terrain_cells().chunks(width) {
        line.clear();
        let cells = row
            .iter()
            .map(|&t| (table.get(t).glyph, table.get(t).color));
        push_ansi_row(&mut line, cells);
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes the layer `painter` draws as [`ascii`] (or, with `color`, [`ansi`]) of its view
/// would, one row at a time: a map of any size is written in the memory of a row.
pub fn write_layer<W: Write + ?Sized>(
    painter: &Painter,
    color: bool,
    out: &mut W,
) -> std::io::Result<()> {
    let mut cells = Vec::with_capacity(painter.width());
    let mut line = String::new();
    for y in 0..painter.height() {
        painter.row(y, &mut cells);
        line.clear();
        if color {
            push_ansi_row(&mut line, cells.iter().copied());
        } else {
            line.extend(cells.iter().map(|&(glyph, _)| glyph));
            line.push('\n');
        }
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// [`write_terrain`] without colour. When every terrain's glyph is ASCII (as the shipped
/// terrains' are), each cell is one byte of a table made once a map, where encoding each cell's
/// glyph took about 20 instructions a cell; otherwise each glyph is encoded as it comes.
fn write_glyphs<W: Write + ?Sized>(map: &Map, out: &mut W) -> std::io::Result<()> {
    let table = map.terrains();
    let width = map.width() as usize;
    let ascii: Option<Vec<u8>> = table
        .iter()
        .map(|t| t.glyph.is_ascii().then_some(t.glyph as u8))
        .collect();
    let mut line = Vec::with_capacity(width * if ascii.is_some() { 1 } else { 4 } + 1);
    for row in map.terrain_cells().chunks(width) {
        line.clear();
        match &ascii {
            Some(bytes) => line.extend(row.iter().map(|&t| bytes[usize::from(t)])),
            None => {
                for &t in row {
                    let mut utf8 = [0; 4];
                    line.extend_from_slice(table.get(t).glyph.encode_utf8(&mut utf8).as_bytes());
                }
            }
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Appends the 24-bit foreground colour escape for `c` (written in place: a `format!` made and
/// dropped a string at every change of colour).
fn push_color(line: &mut String, c: Rgb) {
    use std::fmt::Write as _;
    // Writing into a `String` cannot fail.
    let _ = write!(line, "\x1b[38;2;{};{};{}m", c.0, c.1, c.2);
}
