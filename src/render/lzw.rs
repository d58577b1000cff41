//! The LZW compressor of GIF frames: variable-width codes, least significant bit first, a clear
//! code when the table is full, as the GIF format (89a, appendix F) has it.
//!
//! A frame at `--scale 4` is 16 pixels a cell, and the compressor takes one step a pixel, so its
//! step is the cost of a large animation. The string table is a hash table of 8,192 slots of 32
//! bits (a string's key, its prefix's code and its last byte, above its own code): 32 KiB, in the
//! processor's first cache. Beside it, each code's latest extension (16 KiB): a run of one colour
//! and a row repeated `scale` times extend each string by the byte they did last time, found
//! there without hashing. A 4096² cave's three frames at `--scale 4` (805 M pixels) took 12 s in
//! weezl's compressor (the `gif` crate's), 3.5 s with the hash table alone, 1.5 s with both
//! (BENCHMARKS.md, "PNG and GIF encoding").

/// Codes a table holds: 12-bit codes.
const MAX_CODES: u32 = 1 << 12;
/// The widest code, in bits.
const MAX_CODE_BITS: u32 = 12;
/// Slots of the string table: twice the codes, so that a lookup seldom probes past a slot.
const SLOTS: usize = 1 << 13;
/// Where a [`Compressor::latest`] entry keeps its byte: above the longer string's code. An
/// [`EMPTY`] entry's "byte" (`0xFFFF`) is no byte's, so it never matches.
const LATEST_BYTE_SHIFT: u32 = 16;
/// A slot holding no string (no key reaches it: the table is cleared before a string of code
/// 4,095 could be extended).
const EMPTY: u32 = u32::MAX;

/// A GIF LZW compressor: palette indices in, code bytes out (without the sub-block framing).
pub struct Compressor {
    /// The minimum code size: bits an index needs (2 to 8).
    min_bits: u32,
    /// Each slot: a string's key (its prefix's code and its last byte, 20 bits) above the
    /// string's own code (12 bits), or [`EMPTY`].
    table: Box<[u32; SLOTS]>,
    /// Each code's latest extension: the byte above the longer string's code, or [`EMPTY`].
    /// Runs and repeated rows extend a string by the byte they did last time, found here
    /// without hashing.
    latest: Box<[u32; MAX_CODES as usize]>,
    /// The code of the string read and not yet written, if any.
    current: Option<u32>,
    /// The code the next new string takes.
    next: u32,
    /// The width of the codes being written.
    bits: u32,
    /// Bits made and not yet written out, the first in the lowest.
    pending: u64,
    /// How many bits `pending` holds.
    pending_bits: u32,
}

impl Compressor {
    /// A compressor of indices below `2^min_bits` (`min_bits` from 2 to 8, the frame's minimum
    /// code size), its clear code written first.
    pub fn new(min_bits: u8, out: &mut Vec<u8>) -> Compressor {
        let min_bits = u32::from(min_bits).clamp(2, 8);
        let mut lzw = Compressor {
            min_bits,
            table: Box::new([EMPTY; SLOTS]),
            latest: Box::new([EMPTY; MAX_CODES as usize]),
            current: None,
            next: 0,
            bits: min_bits + 1,
            pending: 0,
            pending_bits: 0,
        };
        lzw.clear(out);
        lzw
    }

    /// The clear code.
    fn clear_code(&self) -> u32 {
        1 << self.min_bits
    }

    /// Writes the clear code (as wide as the codes before it) and starts a new table.
    fn clear(&mut self, out: &mut Vec<u8>) {
        self.put(self.clear_code(), out);
        self.table.fill(EMPTY);
        self.latest.fill(EMPTY);
        // The codes after the clear and end codes.
        self.next = self.clear_code() + 2;
        self.bits = self.min_bits + 1;
    }

    /// Compresses `indices` (each below `2^min_bits`), appending whole bytes of codes to `out`.
    pub fn push(&mut self, indices: &[u8], out: &mut Vec<u8>) {
        let mut rest = indices;
        let mut current = match self.current {
            Some(code) => code,
            None => match rest.split_first() {
                Some((&first, tail)) => {
                    rest = tail;
                    u32::from(first)
                }
                None => return,
            },
        };
        'bytes: for &byte in rest {
            let latest = self.latest[current as usize];
            if latest >> LATEST_BYTE_SHIFT == u32::from(byte) {
                current = latest & (MAX_CODES - 1);
                continue;
            }
            let key = current << 8 | u32::from(byte);
            let mut slot = slot_of(key);
            loop {
                let entry = self.table[slot];
                if entry == EMPTY {
                    break;
                }
                if entry >> MAX_CODE_BITS == key {
                    let longer = entry & (MAX_CODES - 1);
                    self.latest[current as usize] = u32::from(byte) << LATEST_BYTE_SHIFT | longer;
                    current = longer;
                    continue 'bytes;
                }
                slot = (slot + 1) & (SLOTS - 1);
            }
            // The string read so far is the longest in the table: write it, and add it with
            // this byte (or start a new table when this one is full).
            self.put(current, out);
            if self.next == MAX_CODES {
                self.clear(out);
            } else {
                self.table[slot] = key << MAX_CODE_BITS | self.next;
                self.latest[current as usize] = u32::from(byte) << LATEST_BYTE_SHIFT | self.next;
                self.next += 1;
                // The decoder adds each string a code later than here, and widens its codes
                // when its table reaches 2^bits: one string after this table does.
                if self.next > 1 << self.bits && self.bits < MAX_CODE_BITS {
                    self.bits += 1;
                }
            }
            current = u32::from(byte);
        }
        self.current = Some(current);
    }

    /// Writes the string read so far, the end code and the last bits (padded to a byte): the
    /// end of the data (nothing may be pushed after it).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if let Some(code) = self.current.take() {
            self.put(code, out);
            // The decoder adds a string as it reads that code, and may widen its codes for the
            // end code.
            if self.next == 1 << self.bits && self.bits < MAX_CODE_BITS {
                self.bits += 1;
            }
        }
        self.put(self.clear_code() + 1, out);
        while self.pending_bits > 0 {
            out.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_bits = self.pending_bits.saturating_sub(8);
        }
    }

    /// Appends `code`, `bits` wide, writing out every whole 32 bits.
    #[inline(always)]
    fn put(&mut self, code: u32, out: &mut Vec<u8>) {
        self.pending |= u64::from(code) << self.pending_bits;
        self.pending_bits += self.bits;
        if self.pending_bits >= 32 {
            out.extend_from_slice(&(self.pending as u32).to_le_bytes());
            self.pending >>= 32;
            self.pending_bits -= 32;
        }
    }
}

/// The first slot a key is looked for in (Fibonacci hashing).
#[inline(always)]
fn slot_of(key: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> (32 - SLOTS.trailing_zeros())) as usize
}
