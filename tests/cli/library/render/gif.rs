//! `warren::render::gif` (src/render/gif.rs): frames as one looping GIF.

use warren::render::gif::{Animation, FRAME_DELAY, LAST_FRAME_DELAY};
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
    let mut animation = Animation::new(views[0].width, views[0].height, scale)?;
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
