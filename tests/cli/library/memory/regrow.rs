//! `warren::memory::Huge` as a `warren_lua::account::Regrow` (src/memory.rs): a block that is
//! its own mapping grows with its pages moved, keeps its old place mapped until the grow is kept
//! or taken back, and comes back whole when it is taken back; counted by `Counting` as the
//! reallocation it amounts to.
#![cfg(target_os = "linux")]

use std::alloc::{GlobalAlloc, Layout};
use warren::memory::{Classes, Huge, OS_PAGE};
use warren_lua::account::{self, Counting, Regrow};

/// The allocator under test, counted as the binary's is.
static ALLOCATOR: Counting<Huge<Classes>> = Counting(Huge(Classes));

/// 9 MiB and a bit: a block of its own mapping, not a whole number of pages.
const OLD: usize = (9 << 20) + 100;
/// What it grows to.
const NEW: usize = 40 << 20;

/// Whether every page of `len` bytes at `p` is mapped (`mincore` fails on an unmapped one).
fn mapped(p: *mut u8, len: usize) -> bool {
    let mut pages = vec![0u8; len.div_ceil(OS_PAGE)];
    // SAFETY: `pages` has a byte for each page of the range.
    unsafe { libc::mincore(p.cast(), len, pages.as_mut_ptr()) == 0 }
}

/// A block of [`OLD`] bytes with `byte(i)` at each offset `i`.
fn filled() -> (*mut u8, Layout) {
    let layout = Layout::from_size_align(OLD, 16).unwrap();
    // SAFETY: a non-zero size.
    let p = unsafe { ALLOCATOR.alloc(layout) };
    assert!(!p.is_null());
    for i in 0..OLD {
        // SAFETY: within the block.
        unsafe { p.add(i).write(byte(i)) };
    }
    (p, layout)
}

/// The byte [`filled`] puts at offset `i`.
fn byte(i: usize) -> u8 {
    (i % 251) as u8
}

/// Asserts the first [`OLD`] bytes at `p` are [`filled`]'s.
fn holds_the_old_bytes(p: *mut u8, case: &str) {
    // SAFETY: at least `OLD` bytes of a live block.
    let bytes = unsafe { std::slice::from_raw_parts(p, OLD) };
    let wrong = (0..OLD).find(|&i| bytes[i] != byte(i));
    assert_eq!(wrong, None, "{case}: a byte changed");
}

#[test]
fn a_grow_holds_the_old_bytes_and_its_old_place_until_kept() {
    let (p, layout) = filled();
    let before = account::live();
    // SAFETY: a live block of `layout`, grown.
    let grown = unsafe { ALLOCATOR.grow(p, layout, NEW) };
    assert!(!grown.is_null(), "a mapping grows so");
    assert_eq!(
        account::live() - before,
        (NEW - OLD.next_multiple_of(OS_PAGE)) as isize
    );
    assert!(
        mapped(p, OLD),
        "the old place stays mapped until the grow is kept"
    );
    holds_the_old_bytes(grown, "grown");
    // SAFETY: the grown block's new bytes.
    unsafe { grown.add(NEW - 1).write(7) };
    // SAFETY: the grow just made, kept once. (That a place given back is unmapped is not
    // asserted: another test's thread may be given it at once.)
    unsafe { ALLOCATOR.keep(p, layout) };
    holds_the_old_bytes(grown, "kept");
    let new = Layout::from_size_align(NEW, 16).unwrap();
    // SAFETY: the grown block is a live block of `new`.
    unsafe { ALLOCATOR.dealloc(grown, new) };
}

#[test]
fn a_grow_taken_back_leaves_the_block_as_it_was() {
    let (p, layout) = filled();
    let before = account::live();
    // SAFETY: a live block of `layout`, grown.
    let grown = unsafe { ALLOCATOR.grow(p, layout, NEW) };
    assert!(!grown.is_null());
    for page in (OLD..NEW).step_by(OS_PAGE) {
        // SAFETY: the grown block's new bytes.
        unsafe { grown.add(page).write(1) };
    }
    // SAFETY: the grow just made, taken back once.
    assert!(unsafe { ALLOCATOR.undo(grown, p, layout, NEW) });
    assert_eq!(account::live(), before, "counted as it was");
    holds_the_old_bytes(p, "taken back");
    // The block is the old one again: it grows and is freed as before.
    // SAFETY: a live block of `layout`.
    let again = unsafe { ALLOCATOR.realloc(p, layout, NEW) };
    holds_the_old_bytes(again, "grown again");
    // SAFETY: a live block of `NEW` bytes.
    unsafe { ALLOCATOR.dealloc(again, Layout::from_size_align(NEW, 16).unwrap()) };
}

#[test]
fn only_blocks_of_their_own_mapping_grow_so() {
    for (old, new) in [(1 << 20, 2 << 20), (4 << 20, 16 << 20)] {
        let layout = Layout::from_size_align(old, 16).unwrap();
        // SAFETY: a non-zero size; the block is freed below.
        unsafe {
            let p = ALLOCATOR.alloc(layout);
            assert!(
                ALLOCATOR.grow(p, layout, new).is_null(),
                "{old} bytes to {new}"
            );
            ALLOCATOR.dealloc(p, layout);
        }
    }
}
