//! mimalloc asked so that every block is its size class, and the block size computed as mimalloc
//! sorts sizes into classes (v3, as `libmimalloc-sys` builds it), so that the `--max-memory`
//! account counts what the process holds (`warren_lua::account::BlockSize`).
//!
//! Two things made the account fall short of the process: 24 bytes asked for take a 32-byte
//! class, 56 a 64-byte one (millions of small Lua tables held 6% more than their sizes); and the
//! `mimalloc` crate asks for every block through mimalloc's aligned entry, which serves an
//! alignment of 16 for a size whose class is not a power of two from a block big enough to align
//! within when no block of the class is free: Lua asks for 16 (as `malloc` gives it), so its
//! 48-byte strings took 64-byte blocks, and a million of them held a third more than counted
//! (`--max-memory 512`: 617 MiB resident). mimalloc's classes of 16 bytes and more all keep 16
//! (`MI_ALIGN2W`), so [`Classes`] asks for alignments up to 16 through the plain entry, with the
//! size raised to the alignment: each block is then the class of its size.
//!
//! The tests hold the computation to mimalloc's own `mi_good_size`, and the blocks to their
//! usable size and alignment, so an update of mimalloc that moves its classes fails them.

use super::OS_PAGE;
use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use warren_lua::account::BlockSize;

/// mimalloc, with the blocks of alignments up to 16 bytes taken from their size class.
#[derive(Debug, Default, Clone, Copy)]
pub struct Classes;

/// The alignment every size class of 16 bytes and more keeps.
pub const CLASS_ALIGN: usize = 16;

/// The largest size class: above it, a block is counted in whole OS pages ([`OS_PAGE`]).
pub const LARGEST_CLASS: usize = 512 << 10;

/// The size to ask mimalloc's plain entry for, when `layout`'s alignment lets it.
#[inline(always)]
fn plain_size(layout: Layout) -> Option<usize> {
    (layout.align() <= CLASS_ALIGN).then(|| layout.size().max(layout.align()))
}

/// A block for `layout` from mimalloc's `plain` entry when the alignment lets it, else from its
/// `aligned` one.
///
/// # Safety
/// `plain` and `aligned` are a pair of mimalloc's entries (`mi_malloc`/`mi_malloc_aligned`,
/// `mi_zalloc`/`mi_zalloc_aligned`).
#[inline(always)]
unsafe fn take(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    // SAFETY: mimalloc's allocation entries take any size (the caller's promise).
    unsafe {
        match plain_size(layout) {
            Some(size) => plain(size),
            None => aligned(layout.size(), layout.align()),
        }
    }
    .cast()
}

// SAFETY: mimalloc's entries with their contracts: a plain block keeps the alignment of its class
// (at least the size asked for up to 16, which `plain_size` raises the size to); other alignments
// go through the aligned entries; every block is freed or resized by mimalloc.
unsafe impl GlobalAlloc for Classes {
    #[inline(always)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the allocating pair of entries.
        unsafe { take(layout, mi::mi_malloc, mi::mi_malloc_aligned) }
    }

    #[inline(always)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the zeroing pair of entries.
        unsafe { take(layout, mi::mi_zalloc, mi::mi_zalloc_aligned) }
    }

    #[inline(always)]
    unsafe fn dealloc(&self, ptr: *mut u8, _: Layout) {
        // SAFETY: a block of this allocator's, which mimalloc frees whatever its alignment.
        unsafe { mi::mi_free(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees make the new size a valid layout's.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let ptr = ptr.cast::<c_void>();
        // SAFETY: a block of this allocator's, resized as it was taken.
        unsafe {
            match plain_size(new) {
                Some(size) => mi::mi_realloc(ptr, size),
                None => mi::mi_realloc_aligned(ptr, new_size, layout.align()),
            }
        }
        .cast()
    }
}

/// The bytes of the block [`Classes`] takes for a layout.
impl BlockSize for Classes {
    #[inline(always)]
    fn block_size(&self, layout: Layout) -> usize {
        match plain_size(layout) {
            Some(size) => good_size(size),
            // mimalloc's aligned entry takes a block big enough to align within (it may do
            // better for a power-of-two size: these rare layouts are counted high).
            None => good_size(layout.size().max(CLASS_ALIGN) + layout.align() - 1),
        }
    }
}

/// mimalloc's `mi_good_size`: the size class `size` falls in, or above the classes the OS pages
/// it covers (the block itself runs to the end of its last 64 KiB slice, or further, but only
/// what is written becomes resident).
#[inline(always)]
pub fn good_size(size: usize) -> usize {
    if size > LARGEST_CLASS {
        return size.next_multiple_of(OS_PAGE);
    }
    let words = size.div_ceil(8);
    let class_words = match words {
        0 | 1 => 1,
        // Two words apart up to 8.
        2..=8 => (words + 1) & !1,
        // Then four classes between two powers of two.
        _ => {
            let top = usize::BITS - 1 - (words - 1).leading_zeros();
            words.next_multiple_of(1 << (top - 2))
        }
    };
    class_words * 8
}
