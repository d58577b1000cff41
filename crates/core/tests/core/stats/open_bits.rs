use std::sync::Arc;
use warren_core::map::Map;
use warren_core::map::{Brush, Point, TerrainTable};
use warren_core::stats::open_bits::OpenBits;

#[test]
fn loading_matches_the_map_cell_by_cell() {
    let table = Arc::new(TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
    ]));
    let mut bits = OpenBits::default();
    // Widths around the 64-cell words (rows of one to four words are cut by unrolled code,
    // longer ones by a loop), heights down to one row; one buffer reused throughout (so
    // stale words of a bigger map must not leak into a smaller one).
    for (w, h) in [
        (130, 3),
        (1, 1),
        (64, 2),
        (65, 1),
        (80, 50),
        (1, 70),
        (63, 1),
        (128, 4),
        (256, 3),
        (200, 5),
        (321, 4),
        (193, 2),
        (7, 9),
        // Rows all alike (the pattern repeats every 21 cells): only row 0 is listed changed.
        (21, 5),
        (84, 3),
    ] {
        let mut map = Map::new(w, h, 0, Arc::clone(&table)).expect("size");
        for i in 0..(w * h) as usize {
            if i % 3 == 0 || i % 7 == 2 {
                map.write_index(i, &Brush::new(1).forced());
            }
        }
        bits.load(&map, warren_core::stats::pack::Portable);
        assert_eq!(bits.words().len(), (h as usize + 2) * bits.stride() + 1);
        for y in -1..=h as isize {
            let row = bits.row(y);
            assert_eq!(
                bits.words()[bits.start(y) - 1],
                0,
                "{w}×{h}: gutter of row {y}"
            );
            for x in 0..64 * row.len() {
                let open = (0..h as isize).contains(&y)
                    && x < w as usize
                    && map.is_solid(Point::new(x as i32, y as i32)) == Ok(false);
                assert_eq!(
                    row[x / 64] >> (x % 64) & 1 == 1,
                    open,
                    "{w}×{h}: ({x}, {y})"
                );
            }
        }
        assert_eq!(bits.words().last(), Some(&0));
        for (i, (&west, &east)) in bits.west().iter().zip(bits.east()).enumerate() {
            // Bit `g` of the whole array, read as one long row; 0 off its ends.
            let bit = |g: isize| {
                let words = bits.words();
                let inside = (0..64 * words.len() as isize).contains(&g);
                inside && words[g as usize / 64] >> (g % 64) & 1 == 1
            };
            for x in 0..64 {
                let g = (64 * i + x) as isize;
                assert_eq!(west >> x & 1 == 1, bit(g - 1), "{w}×{h}: word {i} bit {x}");
                assert_eq!(east >> x & 1 == 1, bit(g + 1), "{w}×{h}: word {i} bit {x}");
            }
        }
        assert_eq!(bits.count(), map.passable_count());
        let changed: Vec<usize> = (0..h as isize)
            .filter(|&y| bits.row(y) != bits.row(y - 1))
            .map(|y| bits.start(y))
            .collect();
        assert_eq!(bits.changed_rows(), changed, "{w}×{h}");
    }
}
