//! Animated GIF: one frame per view, looping, the last frame held longer.

use super::{png, View};

/// Hundredths of a second each frame shows.
pub const FRAME_DELAY: u16 = 80;
/// Hundredths of a second the last frame shows.
pub const LAST_FRAME_DELAY: u16 = 300;

/// Encodes `views` (all the same size) as a looping animation, `scale × scale` pixels per cell.
pub fn animate(views: &[View], scale: usize) -> Result<Vec<u8>, String> {
    let Some(first) = views.first() else {
        return Err("an animation needs at least one frame".into());
    };
    if let Some(v) = views
        .iter()
        .find(|v| (v.width, v.height) != (first.width, first.height))
    {
        return Err(format!(
            "frames differ in size ({}×{} and {}×{})",
            first.width, first.height, v.width, v.height
        ));
    }
    let mut out = Vec::new();
    let (w, h, _) = png::pixels(first, scale)?;
    let side =
        |n: usize| u16::try_from(n).map_err(|_| format!("{n} pixels is too large for a GIF"));
    let (w, h) = (side(w)?, side(h)?);
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &[]).map_err(|e| e.to_string())?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        for (i, view) in views.iter().enumerate() {
            let (_, _, rgb) = png::pixels(view, scale)?;
            let mut frame = gif::Frame::from_rgb_speed(w, h, &rgb, 10);
            frame.delay = if i + 1 == views.len() {
                LAST_FRAME_DELAY
            } else {
                FRAME_DELAY
            };
            enc.write_frame(&frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warren_core::map::Rgb;

    fn view(c: Rgb) -> View {
        View {
            width: 2,
            height: 1,
            glyphs: vec!['#', '.'],
            colors: vec![c, Rgb(0, 0, 0)],
        }
    }

    #[test]
    fn frames_become_one_looping_gif() {
        let bytes = animate(&[view(Rgb(255, 0, 0)), view(Rgb(0, 255, 0))], 3).unwrap();
        assert!(bytes.starts_with(b"GIF89a"));
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut dec = opts.read_info(bytes.as_slice()).unwrap();
        assert_eq!((dec.width(), dec.height()), (6, 3));
        let first = dec.read_next_frame().unwrap().unwrap();
        assert_eq!(
            (first.delay, &first.buffer[..4]),
            (FRAME_DELAY, &[255, 0, 0, 255][..])
        );
        let last = dec.read_next_frame().unwrap().unwrap();
        assert_eq!(
            (last.delay, &last.buffer[..4]),
            (LAST_FRAME_DELAY, &[0, 255, 0, 255][..])
        );
        assert!(dec.read_next_frame().unwrap().is_none());
    }

    #[test]
    fn frames_must_agree_in_size() {
        let mut small = view(Rgb(1, 1, 1));
        small.width = 1;
        small.glyphs.pop();
        small.colors.pop();
        assert!(animate(&[view(Rgb(1, 1, 1)), small], 1).is_err());
        assert!(animate(&[], 1).is_err());
    }
}
