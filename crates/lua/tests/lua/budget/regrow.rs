//! Large grows of the Lua heap through a global allocator that can take a grow back
//! (`warren_lua::account::Regrow`, crates/lua/src/alloc.rs): kept when the pages were written in
//! time, taken back when the clock or a cancellation stopped the writing; without one, a grow
//! made by a copy, refused when the two blocks do not fit together.
//!
//! This test binary's global allocator is the system's; [`Recorded`] makes it a `Regrow` for
//! the threads that arm it (the others see an allocator that cannot, as before).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use warren_lua::account::{set_regrow, Regrow};
use warren_lua::Limits;

/// What the armed thread's grows do.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Armed {
    /// Nothing: the allocator cannot grow a block so (every other thread).
    Off,
    /// Grow: a fresh block with the old bytes in it, the old one kept until the grow is.
    Grow,
    /// As `Grow`, and raise this thread's cancellation flag, so that writing the new pages stops
    /// at once.
    GrowAndCancel,
}

thread_local! {
    static ARMED: Cell<Armed> = const { Cell::new(Armed::Off) };
    /// The cancellation flag `GrowAndCancel` raises.
    static CANCEL: Arc<AtomicBool> = Arc::new(AtomicBool::new(false));
    /// Grows made, kept and taken back on this thread.
    static GROWN: Cell<usize> = const { Cell::new(0) };
    static KEPT: Cell<usize> = const { Cell::new(0) };
    static UNDONE: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator as a `Regrow` for the armed thread.
struct Recorded;

// SAFETY: a grow is a fresh block with the old one's bytes; the old block stays allocated (so
// nothing else is placed there) until the grow is kept (freed) or taken back (the fresh one
// freed instead).
unsafe impl Regrow for Recorded {
    unsafe fn grow(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let armed = ARMED.with(Cell::get);
        if armed == Armed::Off {
            return std::ptr::null_mut();
        }
        // SAFETY: a layout of the caller's valid size and alignment; both blocks live.
        let grown = unsafe {
            let new = Layout::from_size_align_unchecked(new_size, layout.align());
            let grown = System.alloc(new);
            if !grown.is_null() {
                std::ptr::copy_nonoverlapping(ptr, grown, layout.size());
            }
            grown
        };
        if grown.is_null() {
            return grown;
        }
        GROWN.with(|n| n.set(n.get() + 1));
        if armed == Armed::GrowAndCancel {
            CANCEL.with(|c| c.store(true, Ordering::Relaxed));
        }
        grown
    }

    unsafe fn keep(&self, ptr: *mut u8, layout: Layout) {
        KEPT.with(|n| n.set(n.get() + 1));
        // SAFETY: the old block, no longer Lua's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn undo(&self, grown: *mut u8, _: *mut u8, layout: Layout, new_size: usize) -> bool {
        UNDONE.with(|n| n.set(n.get() + 1));
        // SAFETY: the grown block, of the size the grow gave it.
        unsafe {
            System.dealloc(
                grown,
                Layout::from_size_align_unchecked(new_size, layout.align()),
            )
        };
        true
    }
}

/// A recipe whose table's array grows from 4 to 8 MiB (a grow of `TOUCHED_GROW_BYTES`), then
/// checks every value in it.
const ARRAY: &str = r#"return {
    params = { width = { default = 8 }, height = { default = 8 } },
    generate = function(map)
    local n = (1 << 18) + 1
    local array = {}
    for i = 1, n do array[i] = i * 3 end
    local sum = 0
    for i = 1, #array do sum = sum + array[i] end
    assert(#array == n and sum == 3 * n * (n + 1) // 2, "the array: " .. #array .. " " .. sum)
end }"#;

/// Generates [`ARRAY`] with this thread armed as `armed`; the outcome and the grows made, kept
/// and taken back.
fn generate_armed(armed: Armed) -> (warren_lua::Result<()>, [usize; 3]) {
    static RECORDED: Recorded = Recorded;
    // SAFETY: `Recorded` grows, keeps and takes back blocks of the system allocator, this test
    // binary's global one.
    unsafe { set_regrow(&RECORDED) };
    let dir = tempfile::tempdir().unwrap();
    let host = crate::common::host_for(dir.path(), "array", ARRAY, Limits::default());
    CANCEL.with(|c| {
        c.store(false, Ordering::Relaxed);
        host.set_cancel(Some(Arc::clone(c)));
    });
    ARMED.with(|a| a.set(armed));
    let done = crate::common::generate_at(&host, 1, &[], 1, None).map(drop);
    ARMED.with(|a| a.set(Armed::Off));
    let counts = [&GROWN, &KEPT, &UNDONE].map(|n| n.with(|n| n.replace(0)));
    (done, counts)
}

#[test]
fn a_grow_written_in_time_is_kept_with_every_value() {
    let (done, [grown, kept, undone]) = generate_armed(Armed::Grow);
    done.expect("the grown array keeps its values");
    assert_eq!((grown, kept, undone), (1, 1, 0), "one 4 MiB grow, kept");
}

#[test]
fn a_grow_stopped_while_its_pages_are_written_is_taken_back() {
    let (done, [grown, kept, undone]) = generate_armed(Armed::GrowAndCancel);
    let error = done
        .expect_err("cancelled while the grow's pages were written")
        .to_string();
    assert!(error.contains("cancelled"), "{error}");
    assert_eq!(
        (grown, kept, undone),
        (1, 0, 1),
        "the grow taken back, not kept"
    );
}

/// Generates [`ARRAY`] (its array's last grow from 4 to 8 MiB) under `mib` MiB with no
/// allocator that can grow a block in place: the grow is a fresh block with the old one
/// copied in.
fn generate_copying_under(mib: usize) -> warren_lua::Result<()> {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        memory: mib << 20,
        ..Limits::default()
    };
    let host = crate::common::host_for(dir.path(), "array", ARRAY, limits);
    crate::common::generate_at(&host, 1, &[], 1, None).map(drop)
}

#[test]
fn a_grow_made_by_a_copy_must_fit_beside_the_block_it_copies() {
    // The array holds 4 MiB and asks for 8: 4 MiB more fit under 12, but not the 12 held
    // while the old block is copied into the new one.
    let error = generate_copying_under(12)
        .expect_err("the old and the new block do not fit together")
        .to_string();
    assert!(error.contains("memory limit exceeded"), "{error}");
    assert!(error.contains("and asked for 8 MiB more"), "{error}");
    generate_copying_under(13).expect("both blocks fit under 13 MiB");
}
