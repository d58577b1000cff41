//! The open cells of a map as bit rows, with an all-solid row above and below, so that
//! neighbourhood questions can be asked of 64 cells at a time.

use crate::map::{Map, FLAG_SOLID};

/// Bit 0 of every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Multiplier that gathers bit 0 of byte `i` into bit `56 + i` (the partial products never
/// collide, so no carry reaches the top byte).
const GATHER: u64 = 0x0102_0408_1020_4080;

/// Open cells, one bit per cell: bit `x % 64` of word `x / 64` of a row is column `x`. Bits past
/// the map's width and the two guard rows are 0 (solid).
#[derive(Clone, Debug, Default)]
pub struct OpenBits {
    words_per_row: usize,
    height: usize,
    words: Vec<u64>,
}

impl OpenBits {
    /// Reads `map`'s open cells, reusing this grid's buffer.
    pub fn load(&mut self, map: &Map) {
        let width = map.width() as usize;
        self.height = map.height() as usize;
        self.words_per_row = width.div_ceil(64);
        self.words.clear();
        self.words.resize(self.words_per_row * (self.height + 2), 0);
        let wpr = self.words_per_row;
        let rows = self.words[wpr..].chunks_exact_mut(wpr);
        for (flags, row) in map.flag_cells().chunks_exact(width).zip(rows) {
            let mut cells = flags.chunks_exact(64);
            for (word, cells64) in row.iter_mut().zip(&mut cells) {
                *word = cells64
                    .chunks_exact(8)
                    .enumerate()
                    .fold(0, |acc, (i, c)| acc | open8(c) << (8 * i));
            }
            let tail = cells.remainder();
            if !tail.is_empty() {
                row[wpr - 1] = pack_open(tail);
            }
        }
    }

    /// Words per row.
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Rows of the map (guard rows excluded).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Row `y` of the map; `-1` and `height` are the solid guard rows.
    pub fn row(&self, y: isize) -> &[u64] {
        let start = (y + 1) as usize * self.words_per_row;
        &self.words[start..start + self.words_per_row]
    }

    /// Number of open cells.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Eight flag bytes as eight bits, bit `i` set when cell `i` is open.
#[inline]
fn open8(cells: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(cells);
    let solid = (u64::from_le_bytes(bytes) >> FLAG_SOLID.trailing_zeros()) & LOW_BITS;
    (solid ^ LOW_BITS).wrapping_mul(GATHER) >> 56
}

/// Packs up to 64 flag bytes into a word with bit `i` set when cell `i` is open.
fn pack_open(cells: &[u8]) -> u64 {
    let mut word = 0;
    for (i, chunk) in cells.chunks(8).enumerate() {
        let mut bytes = [FLAG_SOLID; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        word |= open8(&bytes) << (8 * i);
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_matches_the_flags_cell_by_cell() {
        let mut cells = [FLAG_SOLID; 64];
        for i in [0, 3, 8, 9, 31, 63] {
            cells[i] = 0;
        }
        let word = pack_open(&cells[..]);
        for (i, flag) in cells.iter().enumerate() {
            assert_eq!(word >> i & 1 == 1, *flag == 0, "cell {i}");
        }
        assert_eq!(pack_open(&cells[..10]), word & 0x3ff, "a short chunk");
    }
}
