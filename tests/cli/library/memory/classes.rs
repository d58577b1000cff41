//! `warren::memory::classes` (src/memory/classes.rs): mimalloc's size classes, as the
//! `--max-memory` account counts blocks.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use warren::memory::classes::{good_size, CLASS_ALIGN, LARGEST_CLASS};
use warren::memory::{Classes, OS_PAGE};
use warren_lua::account::BlockSize;

#[test]
fn the_classes_are_mimallocs() {
    for size in 1..=(LARGEST_CLASS + 3 * OS_PAGE) {
        // SAFETY: a pure function of its argument.
        let theirs = unsafe { mi::mi_good_size(size) };
        assert_eq!(good_size(size), theirs, "size {size}");
    }
}

#[test]
fn every_block_is_aligned_and_counted_as_mimalloc_sizes_it() {
    let sizes = (1..=2048).chain([4000, 4097, 70_000, 524_288, 524_289, 600_000, 5_000_000]);
    for size in sizes {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            let layout = Layout::from_size_align(size, align).unwrap();
            // Several blocks at once: a class's later blocks must keep the alignment too.
            let blocks: Vec<*mut u8> = (0..5)
                // SAFETY: a layout of non-zero size.
                .map(|_| unsafe { Classes.alloc(layout) })
                .collect();
            let counted = Classes.block_size(layout);
            for &p in &blocks {
                assert!(
                    !p.is_null() && (p as usize).is_multiple_of(align),
                    "{layout:?}: {p:?}"
                );
                // SAFETY: a live block of mimalloc's.
                let usable = unsafe { mi::mi_usable_size(p.cast()) };
                // What the block can make resident: all of a class's block, the pages
                // written of a bigger one.
                let resident = if usable <= LARGEST_CLASS {
                    usable
                } else {
                    size.next_multiple_of(OS_PAGE).min(usable)
                };
                if align <= CLASS_ALIGN {
                    assert_eq!(counted, resident, "{layout:?}: usable {usable}");
                } else {
                    assert!(counted >= resident, "{layout:?}: {counted} < {resident}");
                }
            }
            for p in blocks {
                // SAFETY: freed with the layout it was taken with.
                unsafe { Classes.dealloc(p, layout) };
            }
        }
    }
}

#[test]
fn zeroed_and_resized_blocks_keep_their_bytes_and_alignment() {
    let layout = Layout::from_size_align(40, 16).unwrap();
    // SAFETY: non-zero sizes; the block freed with its last layout.
    unsafe {
        let p = Classes.alloc_zeroed(layout);
        assert!(std::slice::from_raw_parts(p, 40).iter().all(|&b| b == 0));
        p.write_bytes(7, 40);
        let p = Classes.realloc(p, layout, 3000);
        assert_eq!(p as usize % 16, 0);
        assert!(std::slice::from_raw_parts(p, 40).iter().all(|&b| b == 7));
        let p = Classes.realloc(p, Layout::from_size_align(3000, 16).unwrap(), 8);
        assert_eq!(
            p as usize % 16,
            0,
            "shrunk below its alignment, still aligned"
        );
        Classes.dealloc(p, Layout::from_size_align(8, 16).unwrap());
    }
}
