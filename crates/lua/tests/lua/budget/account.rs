//! The memory account: what a counting allocator counts, per thread (`account.rs`).

use std::alloc::{GlobalAlloc, Layout};
use warren_lua::account::{begin, is_counting, live, peak, Asked, BlockSize, Counting};

/// Driven by hand: the test binary's own allocator is the system's, uncounted.
#[test]
fn the_counters_follow_allocations_frees_and_reallocations() {
    let a = Counting(std::alloc::System);
    let start = begin();
    let layout = Layout::from_size_align(1000, 8).unwrap();
    // SAFETY: layouts of non-zero size; each pointer freed with its layout.
    unsafe {
        let p = a.alloc(layout);
        assert_eq!(live() - start, 1000);
        let p = a.realloc(p, layout, 3000);
        assert_eq!(live() - start, 3000);
        let q = a.alloc_zeroed(layout);
        assert_eq!(live() - start, 4000);
        a.dealloc(q, layout);
        a.dealloc(p, Layout::from_size_align(3000, 8).unwrap());
    }
    assert_eq!(live(), start);
    assert_eq!(peak() - start, 4000);
    assert_eq!(begin(), start);
    assert_eq!(peak(), start, "begin starts a new peak");
    assert!(!is_counting(), "this test binary does not install it");
}

/// An allocator in 64-byte blocks, to see what is counted.
struct Sixty4;

impl BlockSize for Sixty4 {
    fn block_size(&self, layout: Layout) -> usize {
        layout.size().next_multiple_of(64)
    }
}

// SAFETY: forwarded to the system allocator.
unsafe impl GlobalAlloc for Sixty4 {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[test]
fn the_counters_count_blocks_as_the_allocator_sizes_them() {
    let layout = Layout::from_size_align(24, 8).unwrap();
    let start = live();
    let a = Counting(Sixty4);
    // SAFETY: layouts of non-zero size; the pointer freed with its last layout.
    unsafe {
        let p = a.alloc(layout);
        assert_eq!(live() - start, 64, "a 64-byte block for 24 bytes");
        let p = a.realloc(p, layout, 100);
        assert_eq!(live() - start, 128);
        a.dealloc(p, Layout::from_size_align(100, 8).unwrap());
    }
    assert_eq!(live(), start);
    let asked = Counting(Asked(Sixty4));
    // SAFETY: as above.
    unsafe {
        let p = asked.alloc(layout);
        assert_eq!(live() - start, 24, "Asked counts the size asked for");
        asked.dealloc(p, layout);
    }
    assert_eq!(live(), start);
}

#[test]
fn each_thread_has_its_own_count() {
    let a = Counting(std::alloc::System);
    let layout = Layout::from_size_align(64, 8).unwrap();
    // SAFETY: as above; the block is freed on another thread than the one that took it.
    let p = unsafe { a.alloc(layout) } as usize;
    let here = live();
    let there = std::thread::spawn(move || {
        let before = live();
        // SAFETY: `p` came from `a.alloc(layout)`.
        unsafe { a.dealloc(p as *mut u8, layout) };
        live() - before
    })
    .join()
    .unwrap();
    assert_eq!(there, -64, "the freeing thread's count goes down");
    assert_eq!(live(), here, "the allocating thread's stays");
}
