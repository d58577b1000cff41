//! `warren::render::gif` (src/render/gif.rs): frames as one looping GIF.

use warren::render::gif::{
    frame_bytes, Animation, FRAME_DELAY, LAST_FRAME_DELAY, MAX_TRAINING_CELLS,
};
use warren::render::{Picture, View};
use warren_core::map::Rgb;

fn view(c: Rgb) -> View {
    View {
        width: 2,
        height: 1,
        glyphs: vec!['#', '.'],
        colors: vec![c, Rgb(0, 0, 0)],
    }
}

fn animate(views: &[View], scale: usize) -> Result<Vec<u8>, String> {
    let mut animation = Animation::new(Vec::new(), views[0].width, views[0].height, scale)?;
    for (i, v) in views.iter().enumerate() {
        animation.add(Picture::View(v), i + 1 == views.len())?;
    }
    animation.finish()
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
fn a_frame_of_more_than_256_colours_is_quantised() {
    let colors: Vec<Rgb> = (0..300u32)
        .map(|i| Rgb(i as u8, (i / 256) as u8 * 200, 7))
        .collect();
    let many = View {
        width: 300,
        height: 1,
        glyphs: vec!['#'; 300],
        colors,
    };
    let bytes = animate(&[many], 1).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes.as_slice()).unwrap();
    let frame = dec.read_next_frame().unwrap().unwrap();
    assert_eq!((frame.width, frame.height), (300, 1));
    assert!(frame.palette.as_ref().is_some_and(|p| p.len() <= 256 * 3));
}

#[test]
fn frames_must_agree_in_size() {
    let mut small = view(Rgb(1, 1, 1));
    small.width = 1;
    small.glyphs.pop();
    small.colors.pop();
    assert!(animate(&[view(Rgb(1, 1, 1)), small], 1).is_err());
}

/// The animation the `gif` crate writes when each frame is given to it whole: every pixel's
/// index into the frame's colours in the order they first appear.
fn whole_frames(views: &[View], scale: usize) -> Vec<u8> {
    let (w, h) = (views[0].width * scale, views[0].height * scale);
    let mut encoder = gif::Encoder::new(Vec::new(), w as u16, h as u16, &[]).unwrap();
    encoder.set_repeat(gif::Repeat::Infinite).unwrap();
    for (n, v) in views.iter().enumerate() {
        let mut palette: Vec<Rgb> = Vec::new();
        let mut indices = Vec::with_capacity(w * h);
        for row in v.colors.chunks(v.width) {
            let mut line = Vec::new();
            for c in row {
                let i = palette.iter().position(|p| p == c).unwrap_or_else(|| {
                    palette.push(*c);
                    palette.len() - 1
                });
                line.extend(std::iter::repeat_n(i as u8, scale));
            }
            (0..scale).for_each(|_| indices.extend_from_slice(&line));
        }
        let rgb: Vec<u8> = palette.iter().flat_map(|c| [c.0, c.1, c.2]).collect();
        let mut frame = gif::Frame::from_palette_pixels(w as u16, h as u16, indices, rgb, None);
        frame.delay = if n + 1 == views.len() {
            LAST_FRAME_DELAY
        } else {
            FRAME_DELAY
        };
        encoder.write_frame(&frame).unwrap();
    }
    encoder.into_inner().unwrap()
}

/// A `width × height` view of `colours` colours, each cell's drawn by a xorshift from `seed`:
/// runs of one colour and noise, as maps have.
fn random_view(width: usize, height: usize, colours: u32, seed: u64) -> View {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut current = 0u32;
    let colors = (0..width * height)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly the cell before's colour, as a map's runs of wall and floor.
            if x.is_multiple_of(4) {
                current = (x >> 8) as u32 % colours;
            }
            Rgb(
                current as u8,
                (current >> 8) as u8 * 40,
                200 - (current % 7) as u8,
            )
        })
        .collect();
    View {
        width,
        height,
        glyphs: vec!['#'; width * height],
        colors,
    }
}

#[test]
fn frames_encoded_a_row_at_a_time_are_the_bytes_of_whole_frames() {
    // Palettes of every size class the format pads to (1 to 256 colours), frames of one to
    // several hundred thousand pixels (LZW codes past 12 bits, where the table is reset), scales
    // 1 to 5, one to three frames each.
    let mut checked = 0;
    for (case, colours) in [1u32, 2, 3, 4, 5, 8, 9, 16, 17, 100, 128, 129, 255, 256]
        .into_iter()
        .enumerate()
    {
        for scale in [1, 2, 5] {
            let seed = case as u64 * 10 + scale as u64;
            let (w, h) = (
                1 + (seed as usize * 37) % 120,
                1 + (seed as usize * 53) % 90,
            );
            let frames = 1 + seed as usize % 3;
            let views: Vec<View> = (0..frames)
                .map(|f| random_view(w, h, colours, seed * 7 + f as u64))
                .collect();
            let streamed = animate(&views, scale).unwrap();
            assert!(
                streamed == whole_frames(&views, scale),
                "{colours} colours, {w}×{h} cells at scale {scale}, {frames} frames"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 42);
}

/// Decodes the first frame of `bytes` as RGBA.
fn first_frame_rgba(bytes: &[u8]) -> gif::Frame<'static> {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).unwrap();
    dec.read_next_frame().unwrap().unwrap().clone()
}

/// The sum of the channels' differences between `c` and the pixel `drawn` (RGB bytes).
fn distance(c: Rgb, drawn: &[u8]) -> i32 {
    [c.0, c.1, c.2]
        .iter()
        .zip(drawn)
        .map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs())
        .sum()
}

#[test]
fn a_frame_of_more_cells_than_the_quantiser_learns_from_is_drawn_near_its_colours() {
    // 1,000 colours over 1,100×1,000 cells: the quantiser learns from an even spread of about
    // 2^20 of them (every other cell of each row), and each cell is still drawn within reach
    // of its colour.
    let view = random_view(1100, 1000, 1000, 7);
    assert!(view.colors.len() > MAX_TRAINING_CELLS);
    let frame = first_frame_rgba(&animate(std::slice::from_ref(&view), 1).unwrap());
    for (i, c) in view.colors.iter().enumerate() {
        let drawn = &frame.buffer[i * 4..i * 4 + 3];
        assert!(
            distance(*c, drawn) <= 96,
            "cell {i}: {c:?} drawn as {drawn:?}"
        );
    }
    // What quantising holds is bounded: about 4 MiB of colours, whatever the map's size.
    let bytes = frame_bytes(4096, 4096 * 4096, 4, true);
    assert!(bytes < 6 << 20, "{bytes} bytes for a 4096² frame");
}

#[test]
fn a_quantised_frame_gives_each_cell_one_palette_entry() {
    // 1,000 colours over 40×25 cells at scale 3: every pixel of a cell shows the same entry,
    // and a cell's entry is within reach of its own colour.
    let view = random_view(40, 25, 1000, 5);
    let frame = first_frame_rgba(&animate(std::slice::from_ref(&view), 3).unwrap());
    let pixel = |x: usize, y: usize| {
        let at = (y * 120 + x) * 4;
        frame.buffer[at..at + 3].to_vec()
    };
    for (i, c) in view.colors.iter().enumerate() {
        let (cx, cy) = (i % 40, i / 40);
        let first = pixel(cx * 3, cy * 3);
        for (dx, dy) in [(1, 0), (2, 2), (0, 1)] {
            assert_eq!(pixel(cx * 3 + dx, cy * 3 + dy), first, "cell {cx},{cy}");
        }
        assert!(
            distance(*c, &first) <= 96,
            "cell {cx},{cy}: {c:?} drawn as {first:?}"
        );
    }
}
