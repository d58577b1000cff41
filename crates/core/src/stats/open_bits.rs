//! The passable cells of a map (see [`crate::map::passable`]: neither solid nor a hazard, or a
//! door) as bit rows, with an all-solid row above and below, so that
//! neighbourhood questions can be asked of 64 cells at a time.

use crate::map::{Map, FLAG_DOOR, FLAG_HAZARD, FLAG_SOLID};

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
            pack_row(flags, row);
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
    #[inline(always)]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A row's flag bytes into its zeroed words, bit `x % 64` of word `x / 64` set when cell `x` is
/// open. Sixteen cells at a time, the same number of steps on every row, so that the loop's
/// branches are predictable.
#[inline]
fn pack_row(flags: &[u8], row: &mut [u64]) {
    let mut blocks = flags.chunks_exact(16);
    for (j, block) in (&mut blocks).enumerate() {
        let block: &[u8; 16] = block.try_into().expect("16 cells");
        row[j / 4] |= u64::from(open16(block)) << (16 * (j % 4));
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut padded = [FLAG_SOLID; 16];
        padded[..tail.len()].copy_from_slice(tail);
        let j = flags.len() / 16;
        row[j / 4] |= u64::from(open16(&padded)) << (16 * (j % 4));
    }
}

// The shifts below bring the hazard and door flags down to bit 0, where the solid flag is.
const _: () = assert!(FLAG_SOLID == 1 && FLAG_HAZARD == 1 << 2 && FLAG_DOOR == 1 << 3);

/// Sixteen flag bytes as sixteen bits, bit `i` set when cell `i` is passable: a few vector
/// shifts and a byte mask.
#[cfg(target_arch = "x86_64")]
#[inline]
fn open16(cells: &[u8; 16]) -> u16 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_slli_epi16, _mm_srli_epi16,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline, and the unaligned load reads exactly the 16
    // bytes of `cells`.
    let blocked = unsafe {
        let v = _mm_loadu_si128(cells.as_ptr().cast::<__m128i>());
        // Bit 0 of every byte: solid or hazard, and no door. (A 16-bit shift right moves bits
        // of a lane's high byte into its low byte's top bits only, never into bit 0.)
        let walls = _mm_or_si128(v, _mm_srli_epi16::<2>(v));
        let blocked = _mm_andnot_si128(_mm_srli_epi16::<3>(v), walls);
        // Bit 0 of every byte moves to bit 7, the bit the mask gathers.
        _mm_movemask_epi8(_mm_slli_epi16::<7>(blocked))
    };
    !(blocked as u16)
}

/// Sixteen flag bytes as sixteen bits, on any target.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn open16(cells: &[u8; 16]) -> u16 {
    open16_portable(cells)
}

/// Sixteen flag bytes as sixteen bits, bit `i` set when cell `i` is passable: a multiply
/// gathers bit 0 of each of eight bytes into the top byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn open16_portable(cells: &[u8; 16]) -> u16 {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    // The partial products never collide, so no carry reaches the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let open8 = |bytes: &[u8]| {
        let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        let blocked = (word | word >> 2) & !(word >> 3) & LOW_BITS;
        ((blocked ^ LOW_BITS).wrapping_mul(GATHER) >> 56) as u16
    };
    open8(&cells[..8]) | open8(&cells[8..]) << 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_matches_the_flags_cell_by_cell() {
        // Widths around the 16-cell blocks and the 64-cell words.
        for width in [1usize, 10, 16, 17, 63, 64, 65, 80, 100, 128, 130] {
            let flags: Vec<u8> = (0..width)
                .map(|x| {
                    if x % 3 == 0 || x % 7 == 2 {
                        0
                    } else {
                        FLAG_SOLID
                    }
                })
                .collect();
            let mut row = vec![0; width.div_ceil(64)];
            pack_row(&flags, &mut row);
            for (x, flag) in flags.iter().enumerate() {
                assert_eq!(
                    row[x / 64] >> (x % 64) & 1 == 1,
                    *flag == 0,
                    "{width}: cell {x}"
                );
            }
            let padding = row.len() * 64 - width;
            let last = row[row.len() - 1];
            assert!(last.leading_zeros() as usize >= padding, "{width}: padding");
        }
    }

    #[test]
    fn every_target_packs_alike() {
        for seed in 0u64..200 {
            let cells: [u8; 16] = std::array::from_fn(|i| {
                let bits = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i * 3 % 59) & 0b1111;
                bits as u8
            });
            assert_eq!(open16(&cells), open16_portable(&cells), "{cells:?}");
            for (i, &f) in cells.iter().enumerate() {
                assert_eq!(
                    open16(&cells) >> i & 1 == 1,
                    crate::map::passable(f),
                    "{f:#b}"
                );
            }
        }
    }
}
