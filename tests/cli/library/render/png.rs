//! `warren::render::png` (src/render/png.rs): views and maps drawn as PNG.

use std::sync::Arc;
use warren::render::png::{encode, size, write, Picture};
use warren::render::LayerChoice;
use warren::render::View;
use warren_core::map::{Brush, Layer, Map, Point, Rect, Rgb, Terrain, TerrainTable};

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
    let pictures: Vec<Picture> = views.iter().map(Picture::View).collect();
    write(&pictures, 2, &mut out).unwrap();
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
    let (w, h, px) = decode(&encode(Picture::View(&v), 3).unwrap());
    assert_eq!((w, h), (9, 6));
    assert_eq!(px, [1, 2, 3].repeat(9 * 6));
    assert!(size(&[Picture::View(&view(4097, 1, Rgb(0, 0, 0)))], 8).is_err());
}

#[test]
fn every_layer_coloured_from_the_map_draws_as_its_view_does() {
    let terrain = |name: &str, glyph, color, solid| Terrain {
        name: name.into(),
        glyph,
        color,
        solid,
        hazard: false,
        move_cost: None,
    };
    let terrains = TerrainTable::new(vec![
        terrain("rock", '#', Rgb(10, 20, 30), true),
        terrain("floor", '.', Rgb(200, 100, 50), false),
    ]);
    let mut map = Map::from_ascii(
        ["#######", "#..##.#", "#...#.#", "#######"],
        Arc::new(terrains),
    )
    .unwrap();
    let floor = map.terrains().id("floor").unwrap();
    let brush = |priority| Brush::new(floor).priority(priority);
    map.fill_rect(&Rect::new(1, 1, 2, 1), &brush(40)).unwrap();
    map.fill_rect(&Rect::new(2, 2, 1, 1), &brush(200)).unwrap();
    let vault = map.region_id("vault");
    map.fill_rect(&Rect::new(1, 2, 2, 1), &Brush::new(floor).region(vault))
        .unwrap();
    let mut marks = Layer::new(map.width(), map.height());
    marks.set(Point::new(5, 1), '!', Rgb(255, 0, 0)).unwrap();
    map.notes.layers.insert("marks".into(), marks);
    let mut drawn = Vec::new();
    for name in ["terrain", "priority", "region", "components", "marks"] {
        let layer = LayerChoice::from_name(name);
        let view = layer.view(&map).unwrap();
        let painter = layer.painter(&map).unwrap();
        drawn.push(encode(Picture::Layer(&painter), 1).unwrap());
        for scale in [1, 2, 3] {
            assert_eq!(
                encode(Picture::Layer(&painter), scale).unwrap(),
                encode(Picture::View(&view), scale).unwrap(),
                "{name} at scale {scale}"
            );
        }
    }
    for (i, a) in drawn.iter().enumerate() {
        assert!(
            drawn[i + 1..].iter().all(|b| a != b),
            "layer {i} drawn alike"
        );
    }
    let painter = LayerChoice::Terrain.painter(&map).unwrap();
    let (w, _, px) = decode(&encode(Picture::Layer(&painter), 2).unwrap());
    let at = |x: usize, y: usize| &px[(y * w as usize + x) * 3..][..3];
    assert_eq!(at(2, 2), [200, 100, 50], "cell (1, 1) is floor");
    assert_eq!(at(0, 0), [10, 20, 30], "cell (0, 0) is rock");
    let missing = LayerChoice::from_name("heat").painter(&map).err().unwrap();
    assert!(missing.contains("no such layer"), "{missing}");
}
