//! PNG: one coloured square per cell.

use super::View;

/// The largest image side warren writes, in pixels.
pub const MAX_SIDE_PX: usize = 32_768;

/// The view as RGB pixels with `scale × scale` pixels per cell: `(width, height, rgb bytes)`.
pub fn pixels(view: &View, scale: usize) -> Result<(usize, usize, Vec<u8>), String> {
    let scale = scale.max(1);
    let (w, h) = (view.width * scale, view.height * scale);
    if w > MAX_SIDE_PX || h > MAX_SIDE_PX {
        return Err(format!(
            "a {}×{} map at scale {scale} is {w}×{h} pixels; the limit is {MAX_SIDE_PX} per side (lower --scale)",
            view.width, view.height
        ));
    }
    let mut pixels = Vec::with_capacity(w * h * 3);
    for row in view.colors.chunks(view.width) {
        let mut line = Vec::with_capacity(w * 3);
        for c in row {
            for _ in 0..scale {
                line.extend_from_slice(&[c.0, c.1, c.2]);
            }
        }
        for _ in 0..scale {
            pixels.extend_from_slice(&line);
        }
    }
    Ok((w, h, pixels))
}

/// Encodes the view as an RGB PNG with `scale × scale` pixels per cell.
pub fn encode(view: &View, scale: usize) -> Result<Vec<u8>, String> {
    let (w, h, pixels) = pixels(view, scale)?;
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| e.to_string())?;
    }
    Ok(out)
}
