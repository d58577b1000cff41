//! Packing 64 cells' flag bytes into one word of open bits, with the widest vector instructions
//! the CPU has.
//!
//! Each way of packing is a [`Packer`]. [`Avx2`] is a token: a value exists only once
//! [`Avx2::detect`] has found the instructions on this CPU, so holding one is the proof that its
//! intrinsics may run.

use crate::map::{FLAG_CONNECTED, FLAG_DOOR, FLAG_HAZARD, FLAG_SOLID};

/// A way of packing 64 cells.
pub trait Packer: Copy {
    /// Bit `i` set when `cells[i]` is passable (see [`crate::map::passable`]).
    fn open64(self, cells: &[u8; 64]) -> u64;
}

/// The flags that block a cell unless [`FLAG_DOOR`] is set.
const BLOCKING: u8 = FLAG_SOLID | FLAG_HAZARD;

/// Plain integer arithmetic, on any target (on x86_64 only the tests use it).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Packer for Portable {
    /// Eight cells per step: a multiply gathers bit 0 of each of eight bytes into the top byte.
    #[inline(always)]
    fn open64(self, cells: &[u8; 64]) -> u64 {
        const LOW_BITS: u64 = 0x0101_0101_0101_0101;
        // The partial products never collide, so no carry reaches the top byte.
        const GATHER: u64 = 0x0102_0408_1020_4080;
        const _: () = assert!(FLAG_SOLID == 1 && FLAG_HAZARD == 1 << 2 && FLAG_DOOR == 1 << 3);
        let mut open = 0;
        for (i, bytes) in cells.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            // Bit 0 of each byte: solid or hazard (bits 0 and 2), and no door (bit 3).
            let blocked = (word | word >> 2) & !(word >> 3) & LOW_BITS;
            open |= ((blocked ^ LOW_BITS).wrapping_mul(GATHER) >> 56) << (8 * i);
        }
        open
    }
}

/// SSE2, part of every x86_64 CPU: sixteen cells per step.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Sse2;

#[cfg(target_arch = "x86_64")]
impl Packer for Sse2 {
    #[inline(always)]
    fn open64(self, cells: &[u8; 64]) -> u64 {
        use std::arch::x86_64::*;
        let mut open = 0;
        for (i, block) in cells.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is part of the x86_64 baseline; the unaligned load reads exactly the
            // 16 bytes of `block`.
            let bits = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
                let passable = _mm_or_si128(
                    _mm_cmpeq_epi8(
                        _mm_and_si128(v, _mm_set1_epi8(BLOCKING as i8)),
                        _mm_setzero_si128(),
                    ),
                    _mm_cmpeq_epi8(
                        _mm_and_si128(v, _mm_set1_epi8(FLAG_DOOR as i8)),
                        _mm_set1_epi8(FLAG_DOOR as i8),
                    ),
                );
                _mm_movemask_epi8(passable) as u16
            };
            open |= u64::from(bits) << (16 * i);
        }
        open
    }
}

/// AVX2: 32 cells per step. Only [`Avx2::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// A token when this CPU has AVX2 and the scalar instructions the measurements are compiled
    /// with at this level (`popcnt`, BMI1, BMI2): see `Measurer::measure`.
    pub fn detect() -> Option<Avx2> {
        let has = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        has.then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Packer for Avx2 {
    /// A byte shuffle looks each cell's four flag bits up in a table of the sixteen
    /// combinations, whose entries hold the passable bit where the byte mask gathers it.
    #[inline(always)]
    fn open64(self, cells: &[u8; 64]) -> u64 {
        use std::arch::x86_64::*;
        // Every flag lives in the low four bits.
        const _: () = assert!(FLAG_SOLID | FLAG_HAZARD | FLAG_DOOR | FLAG_CONNECTED == 0b1111);
        // Entry `f`: bit 7 set when flags `f` are passable (as `crate::map::passable` says).
        const TABLE: [u8; 16] = {
            let mut table = [0; 16];
            let mut f = 0;
            while f < 16 {
                if f as u8 & BLOCKING == 0 || f as u8 & FLAG_DOOR != 0 {
                    table[f] = 0x80;
                }
                f += 1;
            }
            table
        };
        let mut open = 0;
        for (i, block) in cells.chunks_exact(32).enumerate() {
            // SAFETY: a token exists only when the CPU has AVX2 (`Avx2::detect`); the unaligned
            // loads read exactly the 16 bytes of `TABLE` and the 32 bytes of `block`.
            let bits = unsafe {
                let table = _mm256_broadcastsi128_si256(_mm_loadu_si128(TABLE.as_ptr().cast()));
                let v = _mm256_loadu_si256(block.as_ptr().cast::<__m256i>());
                let low = _mm256_and_si256(v, _mm256_set1_epi8(0b1111));
                _mm256_movemask_epi8(_mm256_shuffle_epi8(table, low)) as u32
            };
            open |= u64::from(bits) << (32 * i);
        }
        open
    }
}
