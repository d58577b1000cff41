//! Animated GIF: one frame per picture, looping, the last frame held longer. Frames are added
//! one at a time and each is indexed into a palette of its own colours, so encoding holds one
//! byte per pixel of one frame.

use super::png::{self, Picture};
use std::collections::HashMap;
use warren_core::map::Rgb;

/// Hundredths of a second each frame shows.
pub const FRAME_DELAY: u16 = 80;
/// Hundredths of a second the last frame shows.
pub const LAST_FRAME_DELAY: u16 = 300;

/// Bytes per pixel a frame holds while it is encoded: its palette index; a frame of more than
/// 256 colours is quantised instead, holding RGB, RGBA and the index.
pub const BYTES_PER_PIXEL: usize = 1;

/// Bytes per pixel of a frame of more than 256 colours while it is quantised.
pub const QUANTISED_BYTES_PER_PIXEL: usize = 3 + 4 + 1;

/// A looping animation being encoded, a frame at a time, into memory.
pub struct Animation {
    encoder: gif::Encoder<Vec<u8>>,
    /// Its size in cells.
    cells: (usize, usize),
    /// Its size in pixels.
    pixels: (u16, u16),
    scale: usize,
}

impl Animation {
    /// An animation of `width × height` cells at `scale × scale` pixels per cell.
    pub fn new(width: usize, height: usize, scale: usize) -> Result<Animation, String> {
        let scale = scale.max(1);
        let (w, h) = png::pixel_size(width, height, scale)?;
        let side =
            |n: usize| u16::try_from(n).map_err(|_| format!("{n} pixels is too large for a GIF"));
        let pixels = (side(w)?, side(h)?);
        let mut encoder =
            gif::Encoder::new(Vec::new(), pixels.0, pixels.1, &[]).map_err(|e| e.to_string())?;
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

    /// Adds `picture` as the next frame (`last`: the frame shown longest, before the loop
    /// starts again); it must be the animation's size.
    pub fn add(&mut self, picture: Picture, last: bool) -> Result<(), String> {
        let size = (picture.width(), picture.height());
        if size != self.cells {
            return Err(format!(
                "frames differ in size ({}×{} and {}×{})",
                self.cells.0, self.cells.1, size.0, size.1
            ));
        }
        let (w, h) = self.pixels;
        let mut frame = match indexed(picture, self.scale, usize::from(w) * usize::from(h)) {
            Some((indices, palette)) => {
                gif::Frame::from_palette_pixels(w, h, indices, palette, None)
            }
            // More colours than a GIF palette holds: quantised, as image tools do.
            None => {
                let mut rgb = Vec::with_capacity(usize::from(w) * usize::from(h) * 3);
                png::write_rows(&[picture], self.scale, |row| {
                    rgb.extend_from_slice(row);
                    Ok(())
                })?;
                gif::Frame::from_rgb_speed(w, h, &rgb, 10)
            }
        };
        frame.delay = if last { LAST_FRAME_DELAY } else { FRAME_DELAY };
        self.encoder.write_frame(&frame).map_err(|e| e.to_string())
    }

    /// The finished file's bytes.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        self.encoder.into_inner().map_err(|e| e.to_string())
    }
}

/// The picture's pixels (`scale × scale` per cell) as indices into a palette of its colours,
/// in the order they first appear, or `None` when it has more than 256.
fn indexed(picture: Picture, scale: usize, pixels: usize) -> Option<(Vec<u8>, Vec<u8>)> {
    /// Stops the walk: a colour beyond the 256 a palette holds.
    struct TooManyColours;
    let mut index_of: HashMap<Rgb, u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut indices = Vec::with_capacity(pixels);
    let mut line = Vec::new();
    let walked = picture.for_each_color_row(|row| {
        line.clear();
        for &c in row {
            let i = match index_of.get(&c) {
                Some(&i) => i,
                None => {
                    let i = u8::try_from(index_of.len()).map_err(|_| TooManyColours)?;
                    index_of.insert(c, i);
                    palette.extend_from_slice(&[c.0, c.1, c.2]);
                    i
                }
            };
            line.extend(std::iter::repeat_n(i, scale));
        }
        (0..scale).for_each(|_| indices.extend_from_slice(&line));
        Ok::<(), TooManyColours>(())
    });
    walked.ok().map(|()| (indices, palette))
}
