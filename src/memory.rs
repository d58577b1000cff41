//! How the `warren` binary takes memory from the system: mimalloc (its global allocator), tuned
//! for making map after map ([`keep_freed_memory`]), with transparent huge pages held back
//! through a batch's start-up ([`hold_huge_pages`], [`release_huge_pages`]).
//!
//! mimalloc asks the kernel for huge pages on its whole arena (`MADV_HUGEPAGE`). The first byte
//! written in each 2 MiB of the heap then makes the kernel find (compacting memory, on a
//! fragmented machine) and zero a whole huge page: a one-job rooms batch zeroed four while it
//! started, for about a megabyte of data, and two workers loading their recipes at once waited
//! on each other's. Maps gain from huge pages once they are big (a 4096² cave's grids are
//! hundreds of them; faulting them in 4 KiB at a time made it 45% slower) or many (a batch of
//! 399² towns runs 3.5% slower in 4 KiB pages).
//!
//! So the process starts with huge pages held back (an ELF constructor, before Rust's runtime
//! allocates), every command but `warren batch` lets them go once its arguments are read, and a
//! batch once its workers have loaded their recipes: only the batch's start-up heap stays in
//! 4 KiB pages. A single map keeps huge pages from its start: memory it takes beside a start-up
//! heap in 4 KiB pages would stay in 4 KiB pages too (a 1024² cave 1 ms slower, when tried).
//!
//! Linux only (`prctl(PR_SET_THP_DISABLE)`); elsewhere nothing is held back. A process started
//! with huge pages disabled (by its parent, say) keeps them disabled, and `MIMALLOC_ALLOW_THP`
//! in the environment leaves the choice to mimalloc.

use std::sync::atomic::{AtomicBool, Ordering};

/// True while huge pages are held back.
static HELD: AtomicBool = AtomicBool::new(false);

/// Holds huge pages back for this process, unless they are disabled already or
/// `MIMALLOC_ALLOW_THP` is set. Meant to run before anything is allocated: the binary registers
/// it as an ELF constructor, so it uses nothing of Rust's standard library but an atomic.
pub extern "C" fn hold_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getenv with a NUL-terminated name; prctl with PR_GET/SET_THP_DISABLE's
        // documented arguments.
        let held = unsafe {
            libc::getenv(c"MIMALLOC_ALLOW_THP".as_ptr()).is_null()
                && libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0
                && libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0
        };
        HELD.store(held, Ordering::Relaxed);
    }
}

/// Lets held-back huge pages go, for good (once, whichever thread gets here first); nothing
/// when they are not held back.
pub fn release_huge_pages() {
    if HELD.swap(false, Ordering::Relaxed) {
        #[cfg(target_os = "linux")]
        // SAFETY: PR_SET_THP_DISABLE's documented arguments.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0);
        }
    }
}

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`, v3: the 16th option): how long freed
/// memory waits before it goes back to the system; -1 keeps it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// warren makes map after map of about the same size: memory one map frees is kept for the
/// next, instead of being handed back to the system and faulted in again, zeroed, a page at a
/// time (a 399×399 town spent 15% of its time zeroing pages it had just freed). The peak is
/// what one generation may use (its memory budget), so keeping it costs nothing a map could not
/// take anyway. `MIMALLOC_PURGE_DELAY` in the environment still decides, when it is set.
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
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Whether the kernel has huge pages disabled for this process.
    fn disabled() -> bool {
        // SAFETY: PR_GET_THP_DISABLE's documented arguments.
        unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 }
    }

    /// One test, as the setting is the whole process's: held back, then let go, once.
    #[test]
    fn huge_pages_are_held_back_until_released() {
        if std::env::var_os("MIMALLOC_ALLOW_THP").is_some() || disabled() {
            // Not this process's to hold: left as they are.
            hold_huge_pages();
            assert!(!HELD.load(Ordering::Relaxed));
            return;
        }
        hold_huge_pages();
        assert!(HELD.load(Ordering::Relaxed) && disabled());
        release_huge_pages();
        assert!(!HELD.load(Ordering::Relaxed) && !disabled());
        release_huge_pages();
        assert!(!disabled(), "releasing twice is harmless");
    }
}
