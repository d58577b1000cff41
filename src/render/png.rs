//! PNG: one coloured square per cell, written one pixel row at a time (an image larger than
//! memory is never held whole).

use super::View;
use std::io::Write;
use warren_core::map::Rgb;

/// The largest image side warren writes, in pixels.
pub const MAX_SIDE_PX: usize = 32_768;

/// The size in pixels of `views` stacked top to bottom with a one-cell gap between them, at
/// `scale × scale` pixels per cell; an error names the limit when a side is too long.
pub fn size(views: &[View], scale: usize) -> Result<(usize, usize), String> {
    let scale = scale.max(1);
    let cols = views.iter().map(|v| v.width).max().unwrap_or(0);
    let rows = views.iter().map(|v| v.height).sum::<usize>() + views.len().saturating_sub(1);
    let (w, h) = (cols.saturating_mul(scale), rows.saturating_mul(scale));
    if w > MAX_SIDE_PX || h > MAX_SIDE_PX {
        return Err(format!(
            "a {cols}×{rows} map at scale {scale} is {w}×{h} pixels; the limit is {MAX_SIDE_PX} per side (lower --scale)"
        ));
    }
    Ok((w, h))
}

/// The view as RGB pixels with `scale × scale` pixels per cell: `(width, height, rgb bytes)`.
/// Holds the whole image: for one animation frame (see [`super::gif`]).
pub fn pixels(view: &View, scale: usize) -> Result<(usize, usize, Vec<u8>), String> {
    let (w, h) = size(std::slice::from_ref(view), scale)?;
    let mut pixels = Vec::with_capacity(w * h * 3);
    for_each_row(std::slice::from_ref(view), scale, |row| {
        pixels.extend_from_slice(row);
        Ok(())
    })?;
    Ok((w, h, pixels))
}

/// Calls `f` with every pixel row (RGB) of `views` stacked as [`size`] describes: narrower views
/// and the gaps between views are black.
fn for_each_row(
    views: &[View],
    scale: usize,
    mut f: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), String> {
    let scale = scale.max(1);
    let cols = views.iter().map(|v| v.width).max().unwrap_or(0);
    let mut line = Vec::with_capacity(cols * scale * 3);
    let gap = vec![0; cols * scale * 3];
    for (i, view) in views.iter().enumerate() {
        if i > 0 {
            for _ in 0..scale {
                f(&gap)?;
            }
        }
        for row in view.colors.chunks(view.width.max(1)) {
            line.clear();
            let black = std::iter::repeat_n(&Rgb(0, 0, 0), cols - row.len());
            for c in row.iter().chain(black) {
                for _ in 0..scale {
                    line.extend_from_slice(&[c.0, c.1, c.2]);
                }
            }
            for _ in 0..scale {
                f(&line)?;
            }
        }
    }
    Ok(())
}

/// Writes `views` stacked top to bottom (see [`size`]) to `out` as an RGB PNG with
/// `scale × scale` pixels per cell, a pixel row at a time.
pub fn write(views: &[View], scale: usize, out: &mut dyn Write) -> Result<(), String> {
    let (w, h) = size(views, scale)?;
    let mut enc = png::Encoder::new(out, w as u32, h as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    let mut stream = writer.stream_writer().map_err(|e| e.to_string())?;
    for_each_row(views, scale, |row| {
        stream.write_all(row).map_err(|e| e.to_string())
    })?;
    stream.finish().map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}

/// Encodes the view as an RGB PNG with `scale × scale` pixels per cell.
pub fn encode(view: &View, scale: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write(std::slice::from_ref(view), scale, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(width: usize, height: usize, c: Rgb) -> View {
        View {
            width,
            height,
            glyphs: vec!['#'; width * height],
            colors: vec![c; width * height],
        }
    }

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; dec.output_buffer_size().unwrap()];
        let info = dec.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn stacked_views_are_padded_and_separated_in_black() {
        let mut out = Vec::new();
        let views = [view(2, 1, Rgb(9, 9, 9)), view(1, 1, Rgb(7, 7, 7))];
        write(&views, 2, &mut out).unwrap();
        let (w, h, px) = decode(&out);
        assert_eq!((w, h), (4, 6));
        let row = |y: usize| px[y * 12..(y + 1) * 12].to_vec();
        assert_eq!(row(0), [9; 12]);
        assert_eq!(row(1), [9; 12]);
        assert_eq!(row(2), [0; 12], "the gap");
        assert_eq!(row(4)[..6], [7; 6]);
        assert_eq!(row(5)[6..], [0; 6], "the narrow view is padded");
    }

    #[test]
    fn one_view_encodes_as_its_pixels() {
        let v = view(3, 2, Rgb(1, 2, 3));
        let (w, h, px) = decode(&encode(&v, 3).unwrap());
        assert_eq!((w, h), (9, 6));
        assert_eq!(px, pixels(&v, 3).unwrap().2);
        assert!(size(&[view(4097, 1, Rgb(0, 0, 0))], 8).is_err());
    }
}
