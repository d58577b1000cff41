use warren_core::map::{Map, Rgb};
use warren_core::render::text::{ansi, ascii, write_terrain};
use warren_core::render::View;

fn view() -> View {
    View {
        width: 2,
        height: 2,
        glyphs: vec!['#', '.', '.', '#'],
        colors: vec![Rgb(1, 2, 3), Rgb(4, 5, 6), Rgb(4, 5, 6), Rgb(1, 2, 3)],
    }
}

#[test]
fn ascii_is_rows_of_glyphs() {
    assert_eq!(ascii(&view()), "#.\n.#\n");
}

#[test]
fn ansi_escapes_only_on_colour_change() {
    let a = ansi(&view());
    assert_eq!(
        a,
        "\x1b[38;2;1;2;3m#\x1b[38;2;4;5;6m.\x1b[0m\n\x1b[38;2;4;5;6m.\x1b[38;2;1;2;3m#\x1b[0m\n"
    );
}

#[test]
fn streamed_terrain_is_the_terrain_view_as_text() {
    use warren_core::map::{Brush, Point, TerrainTable};
    // ASCII glyphs (a byte a cell from a table), and glyphs of two and three bytes in UTF-8
    // beside an ASCII one (each encoded as it comes).
    for glyphs in [['#', '.', '~'], ['#', 'é', '█']] {
        let table = TerrainTable::plain(&[
            ("wall", glyphs[0], true),
            ("floor", glyphs[1], false),
            ("water", glyphs[2], false),
        ]);
        let (wall, floor, water) = (0, 1, 2);
        let mut map = Map::new(5, 3, wall, std::sync::Arc::new(table)).expect("a map");
        map.write(Point::new(2, 1), &Brush::new(floor))
            .expect("on the map");
        map.write(Point::new(4, 2), &Brush::new(water))
            .expect("on the map");
        for color in [false, true] {
            let mut streamed = Vec::new();
            write_terrain(&map, color, &mut streamed).expect("in memory");
            let view = View::terrain(&map);
            let whole = if color { ansi(&view) } else { ascii(&view) };
            assert_eq!(String::from_utf8(streamed).expect("UTF-8"), whole);
        }
    }
}
