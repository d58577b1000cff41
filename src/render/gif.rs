//! Animated GIF: one frame per picture, looping, the last frame held longer, written to its
//! file as it is encoded. Each frame is indexed into a palette of its own colours and encoded
//! one pixel row at a time, straight from the map (or a debug layer's view), like a PNG: a
//! frame holds one row of palette indices and the compressor's table, never its pixels, so a
//! 4096² map at `--scale 8` is animated in the memory of its maps alone.

use super::lzw::Compressor;
use super::png::{self, Picture};
use gif::{DisposalMethod, ExtensionData};
use std::collections::HashMap;
use std::io::Write;
use warren_core::map::Rgb;

/// Hundredths of a second each frame shows.
pub const FRAME_DELAY: u16 = 80;
/// Hundredths of a second the last frame shows.
pub const LAST_FRAME_DELAY: u16 = 300;

/// Bytes per cell the quantiser learns from holds while a frame of more than 256 colours is
/// quantised: the cell's colour (RGBA).
pub const QUANTISED_BYTES_PER_CELL: usize = 4;

/// The most cells the quantiser learns a frame's palette from (4 MiB of colours): a frame of
/// more cells gives it an even spread of about this many, so that what quantising holds is
/// bounded whatever the map's size. Up to 1024² cells, every cell.
pub const MAX_TRAINING_CELLS: usize = 1 << 20;

/// How hard the quantiser works (1 slowest and best, 30 fastest): the speed image tools and
/// the `gif` crate's own `Frame::from_rgb` use.
const QUANTISER_SPEED: i32 = 10;

/// A GIF data sub-block holds at most this many bytes.
const SUB_BLOCK: usize = 255;

/// Bytes a frame of `cols` cells a row at `scale` holds while it is encoded beside the pictures
/// themselves: one row of palette indices and its codes, the compressor's table, the palette;
/// with `quantised`, also [`QUANTISED_BYTES_PER_CELL`] for each cell the quantiser learns from
/// (about [`MAX_TRAINING_CELLS`] at most, whatever the number of `cells`).
pub fn frame_bytes(cols: usize, cells: usize, scale: usize, quantised: bool) -> usize {
    // The compressor's tables (48 KiB) and the palette's lookup, with room to spare.
    const TABLES: usize = 1 << 17;
    let row = cols.saturating_mul(scale.max(1));
    // A row's codes: at most one 12-bit code an index, and a sub-block's worth left over.
    let codes = row.saturating_mul(3) / 2 + SUB_BLOCK + 8;
    let colours = if quantised {
        training_cells(cells, cells / cols.max(1)) * QUANTISED_BYTES_PER_CELL
    } else {
        0
    };
    row.saturating_add(codes)
        .saturating_add(TABLES)
        .saturating_add(colours)
}

/// How many of a frame's `cells` in `rows` rows the quantiser learns from, at most: every cell
/// up to [`MAX_TRAINING_CELLS`], else a `step`-th of each row, which is at most that many and
/// one more a row.
fn training_cells(cells: usize, rows: usize) -> usize {
    if cells <= MAX_TRAINING_CELLS {
        cells
    } else {
        MAX_TRAINING_CELLS + rows
    }
}

/// A looping animation being encoded into `W`, a frame at a time.
pub struct Animation<W: Write> {
    encoder: gif::Encoder<W>,
    /// Its size in cells.
    cells: (usize, usize),
    /// Its size in pixels.
    pixels: (u16, u16),
    scale: usize,
}

impl<W: Write> Animation<W> {
    /// An animation of `width × height` cells at `scale × scale` pixels per cell, written to
    /// `out` (its header at once).
    pub fn new(out: W, width: usize, height: usize, scale: usize) -> Result<Self, String> {
        let scale = scale.max(1);
        let (w, h) = png::pixel_size(width, height, scale)?;
        let side =
            |n: usize| u16::try_from(n).map_err(|_| format!("{n} pixels is too large for a GIF"));
        let pixels = (side(w)?, side(h)?);
        let mut encoder =
            gif::Encoder::new(out, pixels.0, pixels.1, &[]).map_err(|e| e.to_string())?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        Ok(Animation {
            encoder,
            cells: (width, height),
            pixels,
            scale,
        })
    }

    /// Encodes `picture` as the next frame (`last`: the frame shown longest, before the loop
    /// starts again); it must be the animation's size.
    pub fn add(&mut self, picture: Picture, last: bool) -> Result<(), String> {
        let size = (picture.width(), picture.height());
        if size != self.cells {
            return Err(format!(
                "frames differ in size ({}×{} and {}×{})",
                self.cells.0, self.cells.1, size.0, size.1
            ));
        }
        let palette = match Palette::exact(picture) {
            Some(exact) => exact,
            // More colours than a GIF palette holds: quantised, as image tools do.
            None => Palette::quantised(picture),
        };
        let delay = if last { LAST_FRAME_DELAY } else { FRAME_DELAY };
        let control = ExtensionData::new_control_ext(delay, DisposalMethod::Keep, false, None);
        self.encoder
            .write_extension(control)
            .map_err(|e| e.to_string())?;
        let out = self.encoder.get_mut();
        write_descriptor(out, self.pixels, &palette.rgb).map_err(|e| e.to_string())?;
        write_pixels(out, picture, self.scale, &palette).map_err(|e| e.to_string())
    }

    /// Ends the file and gives back what it was written to.
    pub fn finish(self) -> Result<W, String> {
        self.encoder.into_inner().map_err(|e| e.to_string())
    }
}

/// A frame's palette and how each cell's colour finds its entry.
struct Palette {
    /// The palette, RGB; at most 256 colours.
    rgb: Vec<u8>,
    /// The index of each colour.
    index: Index,
}

/// How a colour finds its palette entry.
enum Index {
    /// Every colour of the frame is in the palette.
    Exact(HashMap<Rgb, u8>),
    /// The palette is the quantiser's: the nearest of its colours.
    Nearest(Box<color_quant::NeuQuant>),
}

impl Palette {
    /// The frame's colours in the order they first appear, top to bottom, or `None` when it
    /// has more than 256.
    fn exact(picture: Picture) -> Option<Palette> {
        /// Stops the walk: a colour beyond the 256 a palette holds.
        struct TooManyColours;
        let mut index_of: HashMap<Rgb, u8> = HashMap::new();
        let mut rgb = Vec::new();
        // Runs of one colour are long: only a colour unlike the cell before is looked up.
        let mut last = None;
        let walked = picture.for_each_color_row(|row| {
            for &c in row {
                if last == Some(c) {
                    continue;
                }
                last = Some(c);
                if !index_of.contains_key(&c) {
                    let i = u8::try_from(index_of.len()).map_err(|_| TooManyColours)?;
                    index_of.insert(c, i);
                    rgb.extend_from_slice(&[c.0, c.1, c.2]);
                }
            }
            Ok::<(), TooManyColours>(())
        });
        walked.ok().map(|()| Palette {
            rgb,
            index: Index::Exact(index_of),
        })
    }

    /// 256 colours the quantiser learns from the frame's cells. Each cell stands for its
    /// `scale × scale` pixels, all of its colour, so the cells are the pixels' colours in the
    /// same proportions. Beyond [`MAX_TRAINING_CELLS`], every `step`-th cell of each row, each
    /// row starting one cell further on (so that narrow columns are not all missed), as the
    /// quantiser itself samples what it is given.
    fn quantised(picture: Picture) -> Palette {
        let all = picture.width() * picture.height();
        let step = all.div_ceil(MAX_TRAINING_CELLS).max(1);
        let taken = training_cells(all, picture.height());
        let mut cells = Vec::with_capacity(taken * QUANTISED_BYTES_PER_CELL);
        let mut y = 0;
        let Ok(()) = picture.for_each_color_row(|row| {
            for c in row.iter().skip(y % step).step_by(step) {
                cells.extend_from_slice(&[c.0, c.1, c.2, 0xFF]);
            }
            y += 1;
            Ok::<(), std::convert::Infallible>(())
        });
        let quantiser = color_quant::NeuQuant::new(QUANTISER_SPEED, 256, &cells);
        Palette {
            rgb: quantiser.color_map_rgb(),
            index: Index::Nearest(Box::new(quantiser)),
        }
    }

    /// The palette entry of `c`.
    fn index(&self, c: Rgb) -> u8 {
        match &self.index {
            // Every colour of the frame was given an entry when the palette was made.
            Index::Exact(index_of) => index_of.get(&c).copied().unwrap_or(0),
            Index::Nearest(quantiser) => quantiser.index_of(&[c.0, c.1, c.2, 0xFF]) as u8,
        }
    }

    /// How many colours it has.
    fn len(&self) -> usize {
        self.rgb.len() / 3
    }
}

/// The image descriptor of a frame of `pixels` (the whole screen) and its local colour table,
/// padded with black to the power of two the format requires.
fn write_descriptor(out: &mut impl Write, pixels: (u16, u16), rgb: &[u8]) -> std::io::Result<()> {
    let colours = rgb.len() / 3;
    // The table holds 2^(size + 1) colours, at least 2.
    let size = colours.clamp(2, 256).next_power_of_two().trailing_zeros() - 1;
    let mut head = vec![0x2C, 0, 0, 0, 0];
    head.extend_from_slice(&pixels.0.to_le_bytes());
    head.extend_from_slice(&pixels.1.to_le_bytes());
    head.push(0x80 | size as u8);
    out.write_all(&head)?;
    out.write_all(rgb)?;
    let padding = (2usize << size) - colours;
    out.write_all(&vec![0; padding * 3])
}

/// The frame's pixels as LZW data in sub-blocks, encoded a pixel row at a time: each cell row
/// becomes one row of palette indices, given to the compressor `scale` times.
fn write_pixels(
    out: &mut impl Write,
    picture: Picture,
    scale: usize,
    palette: &Palette,
) -> std::io::Result<()> {
    // The GIF minimum code size: enough bits for every index, at least 2.
    let code_size = palette.len().max(4).next_power_of_two().trailing_zeros() as u8;
    out.write_all(&[code_size])?;
    let mut blocks = SubBlocks::new(out, code_size);
    let mut line = Vec::with_capacity(picture.width() * scale);
    let mut last: Option<(Rgb, u8)> = None;
    picture.for_each_color_row(|row| {
        line.clear();
        for &c in row {
            let i = match last {
                Some((seen, i)) if seen == c => i,
                _ => palette.index(c),
            };
            last = Some((c, i));
            line.extend(std::iter::repeat_n(i, scale));
        }
        (0..scale).try_for_each(|_| blocks.encode(&line))
    })?;
    blocks.finish()
}

/// LZW data written as it is made, in sub-blocks of 255 bytes, the last shorter, then the
/// empty block that ends the frame's data.
struct SubBlocks<'w, W: Write> {
    out: &'w mut W,
    lzw: Compressor,
    /// Code bytes made and not yet written (less than a sub-block between rows).
    codes: Vec<u8>,
}

impl<'w, W: Write> SubBlocks<'w, W> {
    fn new(out: &'w mut W, code_size: u8) -> Self {
        let mut codes = Vec::new();
        let lzw = Compressor::new(code_size, &mut codes);
        SubBlocks { out, lzw, codes }
    }

    /// Compresses `pixels` (palette indices) and writes every whole sub-block made.
    fn encode(&mut self, pixels: &[u8]) -> std::io::Result<()> {
        self.lzw.push(pixels, &mut self.codes);
        let whole = self.codes.len() / SUB_BLOCK * SUB_BLOCK;
        self.write_blocks(whole)?;
        self.codes.drain(..whole);
        Ok(())
    }

    /// Ends the data: the last codes, the last block and the terminator.
    fn finish(mut self) -> std::io::Result<()> {
        self.lzw.finish(&mut self.codes);
        self.write_blocks(self.codes.len())?;
        self.out.write_all(&[0])
    }

    /// Writes the first `len` bytes of codes as sub-blocks.
    fn write_blocks(&mut self, len: usize) -> std::io::Result<()> {
        for block in self.codes[..len].chunks(SUB_BLOCK) {
            self.out.write_all(&[block.len() as u8])?;
            self.out.write_all(block)?;
        }
        Ok(())
    }
}
