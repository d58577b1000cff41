//! Bit-packed cell sets: one bit per cell, 64 cells per word, every row padded to whole words
//! (padding bits are always 0). Bit `x % 64` of word `x / 64` of a row is column `x`.
//!
//! Packing the map's byte flags into bits and writing results back are the only whole-map byte
//! passes a flood needs, so both work on eight cells at a time.

use crate::map::{passable, Map, FLAG_CONNECTED, FLAG_DOOR, FLAG_HAZARD, FLAG_SOLID};

/// Bit 0 of every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Multiplier that gathers bit 0 of byte `i` into bit `56 + i`: the partial products never
/// collide, so no carry disturbs the top byte.
const GATHER: u64 = 0x0102_0408_1020_4080;
/// Shifts that bring the solid, hazard and door flags down to bit 0 of their byte.
const SOLID_SHIFT: u32 = FLAG_SOLID.trailing_zeros();
const HAZARD_SHIFT: u32 = FLAG_HAZARD.trailing_zeros();
const DOOR_SHIFT: u32 = FLAG_DOOR.trailing_zeros();

/// For each 8-cell bit pattern, the 8 flag bytes with only their connected bit set accordingly.
pub static SPREAD_CONNECTED: [u64; 256] = spread_table();

const fn spread_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut pattern = 0;
    while pattern < 256 {
        let mut cell = 0;
        while cell < 8 {
            if pattern & (1 << cell) != 0 {
                table[pattern] |= (FLAG_CONNECTED as u64) << (8 * cell);
            }
            cell += 1;
        }
        pattern += 1;
    }
    table
}

/// Eight flag bytes as one little-endian word.
#[inline]
fn load8(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

/// One bit per passable cell of eight flag bytes (bit `i` = byte `i`): neither solid nor a
/// hazard, or a door.
#[inline]
pub fn open_bits8(bytes: &[u8]) -> u64 {
    let flags = load8(bytes);
    let blocked = ((flags >> SOLID_SHIFT) | (flags >> HAZARD_SHIFT)) & LOW_BITS;
    let door = (flags >> DOOR_SHIFT) & LOW_BITS;
    (((blocked ^ LOW_BITS) | door).wrapping_mul(GATHER)) >> 56
}

/// A set of cells of a `width × height` grid.
#[derive(Clone, Debug, Default)]
pub struct BitGrid {
    width: usize,
    height: usize,
    words_per_row: usize,
    words: Vec<u64>,
}

impl BitGrid {
    /// Resizes to `width × height` and empties the set, reusing the allocation.
    pub(crate) fn reset(&mut self, width: usize, height: usize) {
        self.resize(width, height);
        self.words.fill(0);
    }

    /// Resizes to `width × height`, reusing the allocation; the words' contents are left as
    /// they happen to be.
    fn resize(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.words_per_row = width.div_ceil(64);
        self.words.resize(self.words_per_row * height, 0);
    }

    /// Resizes to the map and holds exactly its passable cells ([`passable`]).
    pub fn load_open(&mut self, map: &Map) {
        let width = map.width() as usize;
        // Every word is overwritten below, so there is no need to clear first.
        self.resize(width, map.height() as usize);
        let rows = map.flag_cells().chunks_exact(width);
        for (flags, bits) in rows.zip(self.words.chunks_exact_mut(self.words_per_row)) {
            let mut cells = flags.chunks_exact(64);
            for (word, cells64) in bits.iter_mut().zip(&mut cells) {
                *word = cells64
                    .chunks_exact(8)
                    .enumerate()
                    .fold(0, |acc, (i, c)| acc | open_bits8(c) << (8 * i));
            }
            let tail = cells.remainder();
            if let Some(last) = bits.last_mut().filter(|_| !tail.is_empty()) {
                *last = tail
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (i, &f)| acc | ((passable(f) as u64) << i));
            }
        }
    }

    /// Sets [`FLAG_CONNECTED`] on exactly the cells in the set and clears it everywhere else,
    /// leaving the other flag bits alone. `flags` is the map's row-major flag array.
    pub fn store_connected(&self, flags: &mut [u8]) {
        let keep = !(FLAG_CONNECTED as u64 * LOW_BITS);
        let rows = flags.chunks_exact_mut(self.width);
        for (flags, bits) in rows.zip(self.words.chunks_exact(self.words_per_row)) {
            let mut cells = flags.chunks_exact_mut(8);
            for (i, cells8) in (&mut cells).enumerate() {
                let pattern = (bits[i / 8] >> (8 * (i % 8))) as u8;
                let word = (load8(cells8) & keep) | SPREAD_CONNECTED[pattern as usize];
                cells8.copy_from_slice(&word.to_le_bytes());
            }
            let done = self.width - self.width % 8;
            for (x, f) in cells.into_remainder().iter_mut().enumerate() {
                let x = done + x;
                let on = bits[x / 64] >> (x % 64) & 1 != 0;
                *f = if on {
                    *f | FLAG_CONNECTED
                } else {
                    *f & !FLAG_CONNECTED
                };
            }
        }
    }

    /// Grid width in cells.
    #[inline]
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Grid height in cells.
    #[inline]
    pub(crate) fn height(&self) -> usize {
        self.height
    }

    /// Words per row.
    #[inline]
    pub(crate) fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// The words of row `y`.
    #[inline]
    pub(crate) fn row(&self, y: usize) -> &[u64] {
        &self.words[y * self.words_per_row..(y + 1) * self.words_per_row]
    }

    /// The words of row `y`, mutable.
    #[inline]
    pub(crate) fn row_mut(&mut self, y: usize) -> &mut [u64] {
        &mut self.words[y * self.words_per_row..(y + 1) * self.words_per_row]
    }

    /// Whether cell `(x, y)` is in the set. The cell must be on the grid.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        self.row(y)[x / 64] >> (x % 64) & 1 != 0
    }

    /// Number of cells in the set.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}
