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

impl<A: BlockSize> Counting<A> {
    /// What resizing a block of `layout` to `new_size` bytes adds to the count.
    ///
    /// # Safety
    /// `new_size` is valid for a layout of `layout`'s alignment.
    #[inline(always)]
    unsafe fn resize_bytes(&self, layout: Layout, new_size: usize) -> isize {
        // SAFETY: see the function's contract.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        self.0.block_size(new) as isize - self.0.block_size(layout) as isize
    }
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
            add(unsafe { self.resize_bytes(layout, new_size) });
        }
        p
    }
}

/// A global allocator that can grow a large block and still take the grow back, without ever
/// holding the block's bytes twice. warren-lua's allocator grows the Lua heap's large blocks so
/// ([`set_regrow`]): it writes the new pages itself, a slice at a time with a look at the clock
/// between slices, and gives up half-way with the block as it was when the clock runs out. An
/// allocator without it grows such a block by a fresh one and a copy, holding both a moment.
///
/// # Safety
/// A grow must keep the block's first `layout.size()` bytes, and between [`Regrow::grow`] and
/// [`Regrow::keep`] or [`Regrow::undo`] nothing else may be placed at the old address.
pub unsafe trait Regrow: Sync {
    /// The block at `ptr` (of `layout`, from this allocator) grown to `new_size` bytes, its
    /// bytes kept and the new ones not yet written (so not yet resident); null when this
    /// allocator cannot grow that block so, and then nothing has changed. After a grow, `ptr`
    /// is no block until [`Regrow::keep`] or [`Regrow::undo`] is called with it.
    ///
    /// # Safety
    /// `ptr` is a live block of `layout` from this allocator, and `new_size` is larger and
    /// valid for a layout of the same alignment.
    unsafe fn grow(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8;

    /// Ends a grow for good: the block is the grown one; the old address is given back.
    ///
    /// # Safety
    /// `ptr` and `layout` are those of a grow that is neither kept nor undone.
    unsafe fn keep(&self, ptr: *mut u8, layout: Layout);

    /// Takes back the grow of the block at `ptr` to the block at `grown`, of `new_size` bytes:
    /// true when the block is at `ptr` again with its `layout.size()` bytes as they were
    /// (whatever was written past them is gone); false when that could not be done, and then
    /// nothing has changed (the grow is still to keep). An allocator that cannot promise the
    /// second (the `warren` binary's) ends the process instead of returning false.
    ///
    /// # Safety
    /// As for [`Regrow::keep`], with `grown` and `new_size` what that grow gave.
    unsafe fn undo(&self, grown: *mut u8, ptr: *mut u8, layout: Layout, new_size: usize) -> bool;
}

/// The grows counted as the reallocations they amount to.
// SAFETY: every call is forwarded unchanged to `A`; the counters are only thread-local cells.
unsafe impl<A: Regrow + BlockSize> Regrow for Counting<A> {
    #[inline]
    unsafe fn grow(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.grow(ptr, layout, new_size) };
        if !p.is_null() {
            // SAFETY: the caller's guarantees make the new size a valid layout's.
            add(unsafe { self.resize_bytes(layout, new_size) });
        }
        p
    }

    #[inline]
    unsafe fn keep(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.keep(ptr, layout) }
    }

    #[inline]
    unsafe fn undo(&self, grown: *mut u8, ptr: *mut u8, layout: Layout, new_size: usize) -> bool {
        // SAFETY: forwarded with the caller's guarantees.
        let undone = unsafe { self.0.undo(grown, ptr, layout, new_size) };
        if undone {
            // SAFETY: as in `grow`.
            add(-unsafe { self.resize_bytes(layout, new_size) });
        }
        undone
    }
}

/// The program's global allocator as a [`Regrow`], when [`set_regrow`] was told it.
static REGROW: OnceLock<&'static dyn Regrow> = OnceLock::new();

/// Tells warren-lua that the program's global allocator, `allocator`, is a [`Regrow`]: the
/// `warren` binary does so as it starts. A second call is ignored.
///
/// # Safety
/// `allocator` is the allocator installed with `#[global_allocator]`, or one that can grow,
/// keep and take back any block of it: the Lua heap's blocks come from the global allocator,
/// and are handed to `allocator`.
pub unsafe fn set_regrow(allocator: &'static dyn Regrow) {
    let _ = REGROW.set(allocator);
}

/// The global allocator as a [`Regrow`], if [`set_regrow`] was called.
pub(crate) fn regrow() -> Option<&'static dyn Regrow> {
    REGROW.get().copied()
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
