//! Unit tests of the bit-packed cell sets (`BitGrid`).

use crate::common::ascii::ascii_map;
use warren_core::gen::connectivity::bitgrid::{open_bits8, BitGrid, SPREAD_CONNECTED};
use warren_core::map::{passable, FLAG_CONNECTED, FLAG_DOOR, FLAG_HAZARD, FLAG_SOLID};

#[test]
fn hazards_block_and_doors_pass_whatever_their_terrain() {
    let bytes = [
        0,
        FLAG_SOLID,
        FLAG_HAZARD,
        FLAG_SOLID | FLAG_DOOR,
        FLAG_HAZARD | FLAG_DOOR,
        FLAG_CONNECTED,
        FLAG_SOLID | FLAG_CONNECTED,
        FLAG_DOOR,
    ];
    assert_eq!(open_bits8(&bytes), 0b1011_1001);
    for (i, &b) in bytes.iter().enumerate() {
        assert_eq!(passable(b), open_bits8(&bytes) >> i & 1 == 1);
    }
}

#[test]
fn gather_and_spread_tables_round_trip_every_pattern() {
    for (pattern, spread) in SPREAD_CONNECTED.iter().enumerate() {
        let bytes: Vec<u8> = (0..8)
            .map(|i| if pattern >> i & 1 == 1 { 0 } else { FLAG_SOLID })
            .collect();
        assert_eq!(open_bits8(&bytes), pattern as u64);
        let spread = spread.to_le_bytes();
        for (i, b) in spread.iter().enumerate() {
            let want = if pattern >> i & 1 == 1 {
                FLAG_CONNECTED
            } else {
                0
            };
            assert_eq!(*b, want);
        }
    }
}

#[test]
fn load_and_store_handle_widths_around_word_boundaries() {
    // One grid for all sizes: loading must not keep anything of the previous map.
    let mut grid = BitGrid::default();
    for width in [130usize, 1, 7, 8, 9, 63, 64, 65, 130, 64, 1] {
        let rows: Vec<String> = (0..3)
            .map(|y| {
                (0..width)
                    .map(|x| {
                        if (x * 7 + y * 3 + width) % 5 < 2 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut map = ascii_map(&rows);
        grid.load_open(&map);
        for (i, f) in map.flag_cells().iter().enumerate() {
            assert_eq!(grid.contains(i % width, i / width), f & FLAG_SOLID == 0);
        }
        assert_eq!(grid.count(), map.open_count());
        map.flag_cells_mut()[0] |= FLAG_CONNECTED;
        grid.store_connected(map.flag_cells_mut());
        for f in map.flag_cells() {
            assert_eq!(
                f & FLAG_CONNECTED != 0,
                f & FLAG_SOLID == 0,
                "width {width}"
            );
        }
    }
}
