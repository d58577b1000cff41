//! The memory account, kept by the allocator: [`Counting`] wraps a program's global allocator
//! and counts, per thread, the bytes that thread holds ([`live`]) and the most it held since the
//! last [`begin`] ([`peak`]). A generation's budget reads these counters, so everything the
//! generation allocates on its thread is in its `--max-memory` account whoever asked for it: the
//! Lua heap (mlua's allocator goes through the global one), rectangle lists, streams, fields,
//! strings built in C, pack buffers, maps, layers and kept levels.
//!
//! The `warren` binary installs it; a game embedding warren-lua opts in the same way:
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOCATOR: warren_lua::account::Counting<std::alloc::System> =
//!     warren_lua::account::Counting(std::alloc::System);
//! ```
//!
//! Without it ([`is_counting`] is false) the budget counts the Lua heap through Lua's
//! allocator and the Rust-side data the bindings declare (their `charge_bytes` estimates), as
//! before: the same limit, but memory a binding does not declare is outside it.
//!
//! What is counted is the block the allocator sets aside, [`BlockSize::block_size`], not the size
//! asked for: mimalloc serves 24 bytes from a 32-byte size class, so counting 24 let millions of
//! small Lua objects hold 6% more than the account. The `warren` binary's allocator gives its
//! size classes; [`std::alloc::System`] and any allocator wrapped in [`Asked`] count the size
//! asked for.
//!
//! The counters are plain thread-locals (no atomics, no locks): an allocation adds its size to
//! one and compares it with the other. Memory freed on another thread than the one that took
//! it (a map sent to a writer thread) lowers that thread's count, so a budget only ever looks at
//! the difference since its generation began on its own thread.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest [`LIVE`] since the last [`begin`].
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// A global allocator that forwards to `A` and keeps this module's per-thread counters.
#[derive(Debug, Default)]
pub struct Counting<A>(pub A);

/// The bytes an allocator sets aside for a block of a layout: what the process holds for it,
/// and what [`Counting`] counts. The default is the size asked for.
pub trait BlockSize {
    /// The bytes a block of `layout` takes (at least `layout.size()`).
    #[inline(always)]
    fn block_size(&self, layout: Layout) -> usize {
        layout.size()
    }
}

/// The system allocator, counted by the size asked for.
impl BlockSize for std::alloc::System {}

/// Any global allocator, counted by the size asked for: `Counting<Asked<A>>` for an allocator
/// of another crate, which cannot implement [`BlockSize`] itself.
#[derive(Debug, Default)]
pub struct Asked<A>(pub A);

impl<A> BlockSize for Asked<A> {}

// SAFETY: every call is forwarded unchanged to `A`.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Asked<A> {
    #[inline(always)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.alloc(layout) }
    }

    #[inline(always)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.alloc_zeroed(layout) }
    }

    #[inline(always)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline(always)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

/// Adds `delta` bytes to this thread's count and raises its peak.
#[inline(always)]
fn add(delta: isize) {
    // Const-initialised `Cell`s without a destructor: reachable at any point of a thread's life,
    // and touching them never allocates.
    let live = LIVE.with(|l| {
        let v = l.get().wrapping_add(delta);
        l.set(v);
        v
    });
    PEAK.with(|p| {
        if live > p.get() {
            p.set(live);
        }
    });
}

// SAFETY: every call is forwarded unchanged to `A`; the counters are only thread-local cells.
unsafe impl<A: GlobalAlloc + BlockSize> GlobalAlloc for Counting<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            add(self.0.block_size(layout) as isize);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            add(self.0.block_size(layout) as isize);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.dealloc(ptr, layout) };
        add(-(self.0.block_size(layout) as isize));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // SAFETY: the caller's guarantees make the new size a valid layout's.
            let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            add(self.0.block_size(new) as isize - self.0.block_size(layout) as isize);
        }
        p
    }
}

/// Bytes this thread holds: allocated minus freed on it, since the thread began (negative when
/// it freed more than it took). Always 0 without [`Counting`].
pub fn live() -> isize {
    LIVE.with(Cell::get)
}

/// The highest [`live`] since this thread's last [`begin`].
pub fn peak() -> isize {
    PEAK.with(Cell::get)
}

/// Starts a new peak on this thread (a generation begins); returns [`live`].
pub fn begin() -> isize {
    let live = live();
    PEAK.with(|p| p.set(live));
    live
}

/// Whether the program's global allocator is [`Counting`] (tried once, by allocating).
pub fn is_counting() -> bool {
    static COUNTING: OnceLock<bool> = OnceLock::new();
    *COUNTING.get_or_init(|| {
        let before = live();
        let probe = std::hint::black_box(Box::new([0u8; 64]));
        let after = live();
        drop(probe);
        after != before
    })
}
