//! How the `warren` binary takes memory from the system: mimalloc (its global allocator), tuned
//! for making map after map ([`keep_freed_memory`]), in 4 KiB pages, with the blocks of
//! [`Huge::THRESHOLD`] and more mapped one by one in transparent huge pages ([`Huge`],
//! [`hold_huge_pages`], [`release_huge_pages`]).
//!
//! What the process holds must follow the `--max-memory` account (the blocks allocated and not
//! yet freed, each counted as the allocator sizes it: `warren_lua::account`, [`Classes`]), up to
//! a fixed overhead: docs/limits.md promises peak resident memory within the limit plus 48 MiB.
//! Two things made it hold more:
//!
//! - **Huge pages in mimalloc's arena.** mimalloc commits its arena ahead of use and asks the
//!   kernel for huge pages on all of it (`MADV_HUGEPAGE`): the first byte written in each 2 MiB
//!   then makes the whole 2 MiB resident, the unused ends of the slices around a block with it.
//!   Thousands of blocks of 256 KiB–8 MiB held at once (fields) took up to 1.4 times their size
//!   resident: 2,000 fields of 256² 700 MiB under `--max-memory 512`. So the arena stays in 4 KiB
//!   pages (mimalloc's `allow_thp` off, set by [`hold_huge_pages`] before anything is
//!   allocated): what is resident there is what was written. Measured against the arena in huge
//!   pages, alternated whole batches of rooms 80×50, towns 399² and caves 1024² were as fast
//!   (BENCHMARKS.md).
//! - **Freed blocks that no later size fits.** Blocks mimalloc frees stay committed a moment for
//!   reuse ([`keep_freed_memory`]), and freed large blocks are not always reusable for the next sizes
//!   asked for: `table.concat` growing its buffer to 16 MiB again and again held 509 MiB and took
//!   594 MiB. So blocks of [`Huge::THRESHOLD`] and more bypass mimalloc ([`Huge`]): each is its
//!   own mapping, grown in place by `mremap`, given back to the system when freed, and in huge
//!   pages once they are let go ([`release_huge_pages`]): a 4096² cave's grids are hundreds of
//!   them, and faulting them in 4 KiB at a time made it 45% slower.
//!
//! Huge pages are held back through a batch's start-up: the process starts with them disabled
//! (an ELF constructor, before Rust's runtime allocates), every command but `warren batch` lets
//! them go once its arguments are read, and a batch once its workers have loaded their recipes.
//! Where the kernel gives huge pages to every mapping (`always` in
//! `/sys/kernel/mm/transparent_hugepage/enabled`, not the `madvise` most distributions ship),
//! letting them go would put mimalloc's arena in huge pages too, so they stay held back.
//!
//! Linux only (`prctl(PR_SET_THP_DISABLE)`); elsewhere nothing is held back. A process started
//! with huge pages disabled (by its parent, say) keeps them disabled, and `MIMALLOC_ALLOW_THP`
//! in the environment leaves the choice to mimalloc.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, Ordering};
use warren_lua::account::BlockSize;

// reached by the crate's tests (tests/cli/lib/), not API
#[doc(hidden)]
pub mod classes;

pub use classes::Classes;

/// A global allocator that serves blocks of [`Huge::THRESHOLD`] bytes and more straight from the
/// system, one mapping each (Linux), and everything else from `A`.
#[derive(Debug, Default)]
pub struct Huge<A>(pub A);

impl<A> Huge<A> {
    /// The smallest block served by its own mapping: 8 MiB (a 1024² map's planes, fields and
    /// search grids stay with `A`).
    pub const THRESHOLD: usize = HUGE_BYTES;
}

/// [`Huge::THRESHOLD`], for the allocator's own use.
const HUGE_BYTES: usize = 8 << 20;

/// The OS page: what a mapping is made of, and what a block larger than the allocator's size
/// classes makes resident as it is written.
pub const OS_PAGE: usize = 4096;

/// Whether a block of `layout` is served by its own mapping.
#[inline(always)]
fn is_huge(layout: &Layout) -> bool {
    cfg!(target_os = "linux") && layout.size() >= HUGE_BYTES && layout.align() <= OS_PAGE
}

#[cfg(target_os = "linux")]
mod mapping {
    //! One anonymous mapping per huge block (zeroed by the kernel, so `alloc_zeroed` is free).

    /// A fresh read-write mapping of `size` bytes, or null. Huge pages are asked for: whether
    /// the process allows them is decided by [`super::hold_huge_pages`].
    pub fn map(size: usize) -> *mut u8 {
        // SAFETY: an anonymous private mapping; nothing else is touched.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        // SAFETY: advice on the mapping just made; failure only means no huge pages.
        unsafe { libc::madvise(p, size, libc::MADV_HUGEPAGE) };
        p.cast()
    }

    /// Gives the mapping at `p` of `size` bytes back to the system.
    ///
    /// # Safety
    /// `p` and `size` are those of a live mapping made by [`map`] or [`remap`].
    pub unsafe fn unmap(p: *mut u8, size: usize) {
        // SAFETY: see the function's contract.
        unsafe { libc::munmap(p.cast(), size) };
    }

    /// The mapping at `p` of `old` bytes resized to `new`, moved if need be; null on failure
    /// (the old mapping is then untouched).
    ///
    /// # Safety
    /// As for [`unmap`].
    pub unsafe fn remap(p: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: see the function's contract.
        let q = unsafe { libc::mremap(p.cast(), old, new, libc::MREMAP_MAYMOVE) };
        if q == libc::MAP_FAILED {
            std::ptr::null_mut()
        } else {
            q.cast()
        }
    }

    /// The mapping at `p` of `old` bytes grown to `new`, its pages moved, not copied, with the
    /// range at `p` kept mapped (empty) so that nothing else is placed there and the grow can
    /// be taken back ([`ungrow`]); null on failure, the mapping then as it was. Two moves: the
    /// pages away with `MREMAP_DONTUNMAP` (Linux 5.7; refused on older kernels), then the grow,
    /// which may move them again.
    ///
    /// # Safety
    /// As for [`unmap`].
    pub unsafe fn grow_keeping_place(p: *mut u8, old: usize, new: usize) -> *mut u8 {
        let flags = libc::MREMAP_MAYMOVE | libc::MREMAP_DONTUNMAP;
        // SAFETY: see the function's contract; the range at `p` stays mapped. The new address
        // is passed (null, no hint): recent kernels check it whenever the pages move.
        let moved = unsafe { libc::mremap(p.cast(), old, old, flags, std::ptr::null_mut::<u8>()) };
        if moved == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        // SAFETY: the mapping just moved, all of it.
        let grown = unsafe { libc::mremap(moved, old, new, libc::MREMAP_MAYMOVE) };
        if grown != libc::MAP_FAILED {
            return grown.cast();
        }
        // SAFETY: as in `ungrow`: the pages back over the empty range left at `p`.
        if !unsafe { move_back(moved.cast(), p, old) } {
            // Refused only when the kernel runs out of memory for its own tables (the range at
            // `p` may be unmapped by then, and given to another thread): the block cannot be
            // put back, nor its old place given back safely.
            std::process::abort();
        }
        std::ptr::null_mut()
    }

    /// Takes back [`grow_keeping_place`]'s grow of the mapping at `p` of `old` bytes to the one
    /// at `grown` of `new`: its first `old` bytes moved back to `p`, the rest unmapped. Aborts
    /// the process if the kernel refuses the move (as [`grow_keeping_place`] does).
    ///
    /// # Safety
    /// `grown`, `p`, `old`, `new` are those of a grow neither kept nor taken back.
    pub unsafe fn ungrow(grown: *mut u8, p: *mut u8, old: usize, new: usize) {
        // SAFETY: see the function's contract.
        if !unsafe { move_back(grown, p, old) } {
            // The kernel unmaps the target range before it moves pages there, and can then
            // fail for want of memory: the old place may be another thread's by now, so it
            // can be neither kept nor given back.
            std::process::abort();
        }
        let kept = old.next_multiple_of(super::OS_PAGE);
        // SAFETY: the grown mapping's pages past those moved back, its own.
        unsafe { unmap(grown.add(kept), new.next_multiple_of(super::OS_PAGE) - kept) };
    }

    /// Moves the first `old` bytes of the mapping at `from` onto the range at `to`, replacing
    /// what is mapped there; false when the kernel refused.
    ///
    /// # Safety
    /// Both ranges are the process's own mappings, of `old` bytes or more, and nothing holds
    /// a reference into the range at `to`.
    unsafe fn move_back(from: *mut u8, to: *mut u8, old: usize) -> bool {
        let flags = libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED;
        // SAFETY: see the function's contract.
        unsafe { libc::mremap(from.cast(), old, old, flags, to) != libc::MAP_FAILED }
    }
}

#[cfg(not(target_os = "linux"))]
mod mapping {
    //! Never called: [`super::is_huge`] is false off Linux.
    pub fn map(_: usize) -> *mut u8 {
        unreachable!()
    }
    pub unsafe fn unmap(_: *mut u8, _: usize) {
        unreachable!()
    }
    pub unsafe fn remap(_: *mut u8, _: usize, _: usize) -> *mut u8 {
        unreachable!()
    }
    pub unsafe fn grow_keeping_place(_: *mut u8, _: usize, _: usize) -> *mut u8 {
        unreachable!()
    }
    pub unsafe fn ungrow(_: *mut u8, _: *mut u8, _: usize, _: usize) {
        unreachable!()
    }
}

// SAFETY: a block is served by a mapping exactly when its layout is huge, and freed or resized
// the same way, so each pointer goes back to where it came from; mappings are page-aligned,
// which covers the alignments `is_huge` accepts.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Huge<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_huge(&layout) {
            return mapping::map(layout.size());
        }
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_huge(&layout) {
            return mapping::map(layout.size());
        }
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_huge(&layout) {
            // SAFETY: a huge layout's block is a mapping of its size.
            return unsafe { mapping::unmap(ptr, layout.size()) };
        }
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees make `new` a valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (is_huge(&layout), is_huge(&new)) {
            // SAFETY: a mapping of the old size, resized.
            (true, true) => unsafe { mapping::remap(ptr, layout.size(), new_size) },
            // SAFETY: forwarded with the caller's guarantees.
            (false, false) => unsafe { self.0.realloc(ptr, layout, new_size) },
            _ => {
                // Crossing the threshold: a new block, the bytes both hold copied, the old freed.
                // SAFETY: `new` has a non-zero size; both blocks are live while copying.
                unsafe {
                    let out = self.alloc(new);
                    if !out.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, out, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    out
                }
            }
        }
    }
}

/// Grows of a block served by its own mapping to a larger one, its pages moved and never copied
/// (the range it had kept mapped, empty, until the grow is kept or taken back); any other block
/// is left to `realloc`.
// SAFETY: only blocks that are mappings (huge layouts, before and after) are grown; the range
// they had stays mapped until `keep` or `undo`, so nothing else is placed there meanwhile.
unsafe impl<A: Sync> warren_lua::account::Regrow for Huge<A> {
    #[inline]
    unsafe fn grow(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees make `new` a valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !is_huge(&layout) || !is_huge(&new) {
            return std::ptr::null_mut();
        }
        // SAFETY: a mapping of the old size, grown.
        unsafe { mapping::grow_keeping_place(ptr, layout.size(), new_size) }
    }

    #[inline]
    unsafe fn keep(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the empty range a grow kept mapped at the block's old place.
        unsafe { mapping::unmap(ptr, layout.size()) }
    }

    #[inline]
    unsafe fn undo(&self, grown: *mut u8, ptr: *mut u8, layout: Layout, new_size: usize) -> bool {
        // SAFETY: a grow neither kept nor taken back (the caller's guarantees).
        unsafe { mapping::ungrow(grown, ptr, layout.size(), new_size) };
        true
    }
}

/// What the `--max-memory` account counts for a block: its own mapping's pages for a huge one,
/// else what `A` takes.
impl<A: BlockSize> BlockSize for Huge<A> {
    #[inline(always)]
    fn block_size(&self, layout: Layout) -> usize {
        if is_huge(&layout) {
            layout.size().next_multiple_of(OS_PAGE)
        } else {
            self.0.block_size(layout)
        }
    }
}

/// True while huge pages are held back.
pub static HELD: AtomicBool = AtomicBool::new(false);

/// mimalloc's `mi_option_allow_thp` (`mimalloc.h`, v3: the 44th option): whether its arena
/// asks for transparent huge pages.
pub const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// Keeps mimalloc's arena in 4 KiB pages and holds huge pages back for this process, unless
/// `MIMALLOC_ALLOW_THP` is set (then both are mimalloc's choice) or they are disabled already.
/// Meant to run before anything is allocated: the binary registers it as an ELF constructor, so
/// it uses nothing of Rust's standard library but an atomic.
pub extern "C" fn hold_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getenv with a NUL-terminated name.
        if !unsafe { libc::getenv(c"MIMALLOC_ALLOW_THP".as_ptr()) }.is_null() {
            return;
        }
        // SAFETY: sets an option before any thread or allocation exists (mimalloc reads it when
        // it maps memory); the index is mimalloc v3's, which this crate builds.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0) };
        // SAFETY: prctl with PR_GET/SET_THP_DISABLE's documented arguments.
        let held = unsafe {
            libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0
                && libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0
        };
        HELD.store(held, Ordering::Relaxed);
    }
}

/// mimalloc's `mi_option_arena_reserve` (`mimalloc.h`, v3: the 24th option): the size of the
/// first arenas it reserves, in KiB.
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// The first arenas' size: 64 MiB (mimalloc's default is 1 GiB).
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 << 10;

/// Has mimalloc reserve its arenas 64 MiB at a time rather than 1 GiB, unless
/// `MIMALLOC_ARENA_RESERVE` is set. An arena's bitmaps are sized for the whole arena and
/// written when it is reserved: for 1 GiB that was about 40 pages faulted in at every start
/// (a tenth of a small `warren run`'s page faults), for 64 MiB it is a few. mimalloc doubles
/// the size every 8 arenas, so a run that needs gigabytes still takes few. Like
/// [`hold_huge_pages`], an ELF constructor of the binary, run before anything is allocated.
pub extern "C" fn reserve_small_arenas() {
    // SAFETY: getenv with a NUL-terminated name.
    if !unsafe { libc::getenv(c"MIMALLOC_ARENA_RESERVE".as_ptr()) }.is_null() {
        return;
    }
    // SAFETY: sets an option before any thread or allocation exists (mimalloc reads it when it
    // reserves an arena); the index is mimalloc v3's, which this crate builds.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB) };
}

/// Lets held-back huge pages go, for good (once, whichever thread gets here first); nothing
/// when they are not held back, or when the kernel would give them to every mapping (`always`
/// in `/sys/kernel/mm/transparent_hugepage/enabled`): mimalloc's arena would be in huge pages
/// too.
pub fn release_huge_pages() {
    if HELD.swap(false, Ordering::Relaxed) && !huge_pages_everywhere() {
        #[cfg(target_os = "linux")]
        // SAFETY: PR_SET_THP_DISABLE's documented arguments.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0);
        }
    }
}

/// Whether the kernel backs every mapping with transparent huge pages, asked for or not
/// (`[always]` in `/sys/kernel/mm/transparent_hugepage/enabled`).
pub fn huge_pages_everywhere() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .is_ok_and(|mode| mode.contains("[always]"))
}

/// The variable that makes the binary print its peak resident memory when it ends.
pub const PEAK_VARIABLE: &str = "WARREN_PEAK_MEMORY";

/// With [`PEAK_VARIABLE`] set in the environment, prints `peak resident memory: N KiB` on stderr:
/// the kernel's high-water mark of this process's memory (`VmHWM` in `/proc/self/status`, Linux).
/// For sizing a container by `--max-memory`; the tests read it to hold the memory guarantee.
/// Unlike `wait4`'s `ru_maxrss`, it does not count the memory of the parent the process was
/// forked from before it started.
pub fn report_peak() {
    if std::env::var_os(PEAK_VARIABLE).is_none() {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    match status.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
        Some(kib) => eprintln!(
            "peak resident memory: {} KiB",
            kib.trim().trim_end_matches("kB").trim()
        ),
        None => eprintln!("peak resident memory: unknown on this system"),
    }
}

/// Gives the memory freed so far back to the system now (mimalloc's `mi_collect(true)`), rather
/// than up to `PURGE_DELAY_MS` (1 s) later. The binary's generations that share a memory limit
/// call it once one has run out of memory (`Turns::releasing`): kept, what it freed stayed
/// resident while the next generation, on another thread, took fresh memory, and `warren serve
/// --max-memory 64` with a sweep peaked at up to 115 MiB (over the 64 + 48 MiB docs/limits.md
/// allows); given back, at most 101 MiB (both with a delay of 100 ms; 94–97 MiB with 1 s).
/// It gives nothing back when memory is kept for good (a delay of -1 schedules no purge).
pub fn release_freed() {
    // SAFETY: mimalloc's collection may be called from any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`, v3: the 16th option): how long freed
/// memory waits before it goes back to the system, in milliseconds; -1 keeps it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How often the memory maps freed and no map took again goes back to the system.
const PURGE_DELAY_MS: std::ffi::c_long = 1000;

/// warren makes map after map of about the same size: memory one map frees stays for the next,
/// instead of being handed back to the system at once and faulted in again, zeroed, a page at a
/// time (a 399×399 town spent 15% of its time zeroing pages it had just freed). mimalloc gives
/// back what is free about once every `PURGE_DELAY_MS` (1 s: its clock starts at the first free
/// after the last purge, and everything free then goes back, pages freed a moment before too).
/// Kept for good (-1), a batch whose maps fail at `--max-memory` held 319 MiB under 256 (the
/// freed pages the next map did not reuse, beside those it did; measured when the delay was
/// first set) and `warren serve` with a sweep 116 MiB under 64 (over the 64 + 48 allowed;
/// 2026-12-01); with 1 s, 266 MiB (one job; 274 with two) and 94–97 MiB. Not 100 ms: a batch
/// of 399² towns (8 ms each) then gave back its free pages every dozen maps, and the next maps
/// faulted them in again, 35–40 page faults a map more than with 1 s, and the slowest
/// twentieth of the maps took 1.12–1.23× the median time against 1.04–1.16× (BENCHMARKS.md).
/// 1 s is mimalloc v3's own default; it is set here so that an update of the allocator (v2's is
/// 100 ms) does not change it. `MIMALLOC_PURGE_DELAY` in the environment still decides, when it
/// is set.
///
/// # Safety
/// No other thread may exist (mimalloc's options are not thread safe): call it first thing in
/// `main`.
pub unsafe fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: no other thread exists (the caller's promise); the option index is mimalloc
    // v3's, which this crate builds.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
}
