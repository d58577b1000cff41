//! The passable cells of a map (see [`crate::map::passable`]: neither solid nor a hazard, or a
//! door) as bit rows, so that neighbourhood questions can be asked of 64 cells at a time.
//!
//! **Layout.** All rows live in one flat array, `stride` = words per row + 1 apart: each row is
//! preceded by a zero *gutter* word, and the map is framed by an all-solid guard row above and
//! below (and a final gutter). So every word of the map has its eight neighbouring words (west
//! and east in the same row, and the three above and below) in the array, at fixed offsets,
//! with zeros wherever the map ends: code that works on a word needs no edge cases, and a pass
//! over all words can run straight through the flat array (a gutter word, being solid, is
//! simply a word with nothing in it).

use super::pack::Packer;
use crate::map::{Map, FLAG_SOLID};

/// Open cells, one bit per cell: bit `x % 64` of word `x / 64` of a row is column `x`. Bits past
/// the map's width, the gutters and the two guard rows are 0 (solid).
#[derive(Clone, Debug, Default)]
pub struct OpenBits {
    words_per_row: usize,
    height: usize,
    words: Vec<u64>,
    /// [`Self::west`].
    west: Vec<u64>,
    /// [`Self::east`].
    east: Vec<u64>,
    /// [`Self::changed_rows`].
    changed: Vec<usize>,
    /// The map's cells in their own order, 64 to a word (see [`pack_plane`]).
    packed: Vec<u64>,
}

impl OpenBits {
    /// Reads `map`'s open cells, reusing this grid's buffer: every word is written, none is
    /// cleared first.
    #[inline(always)]
    pub fn load(&mut self, map: &Map, packer: impl Packer) {
        let width = map.width() as usize;
        self.height = map.height() as usize;
        self.words_per_row = width.div_ceil(64);
        // Rows -1 ..= height, each after its gutter, and the gutter after the last row.
        let len = (self.height + 2) * self.stride() + 1;
        self.words.resize(len, 0);
        let (first, last) = (self.start(0), self.start(self.height as isize));
        self.words[..first].fill(0);
        self.words[last - 1..].fill(0);
        pack_plane(map.flag_cells(), &mut self.packed, packer);
        let packed = &self.packed[..];
        self.changed.resize(self.height, 0);
        let (words, changed_rows) = (&mut self.words[..], &mut self.changed[..]);
        // Rows of up to four words (maps up to 256 cells wide) are cut by code unrolled for
        // their length.
        let changed = match self.words_per_row {
            1 => cut_rows_of::<1>(packed, width, words, changed_rows),
            2 => cut_rows_of::<2>(packed, width, words, changed_rows),
            3 => cut_rows_of::<3>(packed, width, words, changed_rows),
            4 => cut_rows_of::<4>(packed, width, words, changed_rows),
            _ => cut_rows(packed, width, words, changed_rows),
        };
        self.changed.truncate(changed);
        shift_planes(&self.words, &mut self.west, &mut self.east);
    }

    /// Words per row.
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Distance between one row's words and the next's in [`Self::words`].
    pub fn stride(&self) -> usize {
        self.words_per_row + 1
    }

    /// Rows of the map (guard rows excluded).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Index in [`Self::words`] of row `y`'s first word; `-1` and `height` are the solid guard
    /// rows. The gutter before it is at one less.
    pub fn start(&self, y: isize) -> usize {
        (y + 1) as usize * self.stride() + 1
    }

    /// Row `y` of the map; `-1` and `height` are the solid guard rows.
    pub fn row(&self, y: isize) -> &[u64] {
        let start = self.start(y);
        &self.words[start..start + self.words_per_row]
    }

    /// The whole flat array (see the module documentation).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// [`Self::words`] with each row moved one cell east: bit `x` set when the cell west of
    /// cell `x` (column `x - 1`) is open. (Words at the array's two ends are 0.)
    pub fn west(&self) -> &[u64] {
        &self.west
    }

    /// [`Self::words`] with each row moved one cell west: bit `x` set when the cell east of
    /// cell `x` is open.
    pub fn east(&self) -> &[u64] {
        &self.east
    }

    /// Index in [`Self::words`] of the first word of each row that differs from the row above
    /// (row 0 is compared with the solid guard row), top to bottom.
    pub fn changed_rows(&self) -> &[usize] {
        &self.changed
    }

    /// Number of open cells.
    #[inline(always)]
    pub fn count(&self) -> usize {
        // The packed plane holds each cell once, and nothing else.
        self.packed.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Fills `west` and `east` (see [`OpenBits::west`]) from `words`: one pass, the same steps for
/// every word, which the compiler runs several words at a time. The gutters keep rows apart.
#[inline(always)]
fn shift_planes(words: &[u64], west: &mut Vec<u64>, east: &mut Vec<u64>) {
    let n = words.len();
    west.resize(n, 0);
    east.resize(n, 0);
    // The first and last words are gutters, with nothing to shift in from beyond.
    (west[0], east[0]) = (words[0] << 1, (words[0] >> 1) | (words[1] << 63));
    (west[n - 1], east[n - 1]) = (
        (words[n - 1] << 1) | (words[n - 2] >> 63),
        words[n - 1] >> 1,
    );
    let (before, mid, after) = (&words[..n - 2], &words[1..n - 1], &words[2..]);
    let (west, east) = (&mut west[1..n - 1], &mut east[1..n - 1]);
    for i in 0..n - 2 {
        west[i] = (mid[i] << 1) | (before[i] >> 63);
        east[i] = (mid[i] >> 1) | (after[i] << 63);
    }
}

/// Packs all of `flags` into `packed` (bit `i % 64` of word `i / 64` set when cell `i` is
/// passable) 64 cells at a time, followed by a 0 word (so that [`bits_at`] can always read the
/// word after the one a run of cells starts in).
#[inline(always)]
fn pack_plane(flags: &[u8], packed: &mut Vec<u64>, packer: impl Packer) {
    let full = flags.len() / 64;
    packed.resize(full + 2, 0);
    let blocks = flags.chunks_exact(64);
    let rest = blocks.remainder();
    for (word, block) in packed.iter_mut().zip(blocks) {
        *word = packer.open64(block.try_into().expect("64 cells"));
    }
    // The last cells, padded with solid ones (then the 0 word).
    let mut padded = [FLAG_SOLID; 64];
    padded[..rest.len()].copy_from_slice(rest);
    packed[full] = packer.open64(&padded);
    packed[full + 1] = 0;
}

/// Cuts the map's rows (`changed.len()` of them, `width` cells each) from `packed` (see
/// [`pack_plane`]) into their places in `words` (laid out as [`OpenBits::words`]) and writes
/// each row's gutter after it; lists in `changed` the first word of each row that differs from
/// the row above, and returns how many do.
#[inline(always)]
fn cut_rows(packed: &[u64], width: usize, words: &mut [u64], changed: &mut [usize]) -> usize {
    let wpr = width.div_ceil(64);
    let (stride, last_word) = (wpr + 1, wpr - 1);
    // The cells of a row's last word past the map's width are 0.
    let last_wanted = u64::MAX >> (64 * wpr - width);
    let mut listed = 0;
    let mut start = stride + 1;
    for y in 0..changed.len() {
        // The row above's words and its gutter, then the row: each word is compared with the
        // one above.
        let (up, here) = words[start - stride..start + wpr].split_at_mut(stride);
        let mut differs = 0;
        let mut at = y * width;
        for (word, above) in here[..last_word].iter_mut().zip(&*up) {
            *word = bits_at(packed, at);
            differs |= *word ^ above;
            at += 64;
        }
        let word = bits_at(packed, at) & last_wanted;
        differs |= word ^ up[last_word];
        here[last_word] = word;
        words[start + wpr] = 0;
        // Listed without branching on it (whether a row repeats the one above is what a
        // predictor cannot guess): the slot is kept only if the row differs.
        changed[listed] = start;
        listed += usize::from(differs != 0);
        start += stride;
    }
    listed
}

/// [`cut_rows`] for rows of `W` words, unrolled: the row above is kept in registers.
#[inline(always)]
fn cut_rows_of<const W: usize>(
    packed: &[u64],
    width: usize,
    words: &mut [u64],
    changed: &mut [usize],
) -> usize {
    let stride = W + 1;
    let last_wanted = u64::MAX >> (64 * W - width);
    let (first, height) = (stride + 1, changed.len());
    let mut above = [0; W];
    let mut listed = 0;
    // Each chunk: a row's words, then the gutter after it.
    let rows = words[first..first + height * stride].chunks_exact_mut(stride);
    for (y, chunk) in rows.enumerate() {
        let mut row: [u64; W] = std::array::from_fn(|k| bits_at(packed, y * width + 64 * k));
        row[W - 1] &= last_wanted;
        let differs = (0..W).fold(0, |d, k| d | (row[k] ^ above[k]));
        chunk[..W].copy_from_slice(&row);
        chunk[W] = 0;
        changed[listed] = first + y * stride;
        listed += usize::from(differs != 0);
        above = row;
    }
    listed
}

/// The 64 cells from cell `at` (a cell of the map) on in `packed` (see [`pack_plane`]); those
/// past the map's end are 0.
#[inline(always)]
fn bits_at(packed: &[u64], at: usize) -> u64 {
    let [low, high]: [u64; 2] = packed[at / 64..][..2].try_into().expect("two words");
    let pair = u128::from(low) | u128::from(high) << 64;
    (pair >> (at % 64)) as u64
}
