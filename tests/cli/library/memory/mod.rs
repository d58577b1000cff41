//! `warren::memory` (src/memory.rs): huge pages held back and let go.

/// `classes.rs`: blocks counted as mimalloc sizes them, aligned, zeroed and resized.
mod classes;
/// `regrow.rs`: blocks of their own mapping grown, kept and taken back.
mod regrow;

#[cfg(target_os = "linux")]
use std::sync::atomic::Ordering;
#[cfg(target_os = "linux")]
use warren::memory::{
    hold_huge_pages, huge_pages_everywhere, release_huge_pages, HELD, MI_OPTION_ALLOW_THP,
};

/// Set on the child process [`huge_pages_are_held_back_until_released`] runs in.
#[cfg(target_os = "linux")]
const CHILD: &str = "WARREN_HUGE_PAGES_CHILD";

/// Whether the kernel has huge pages disabled for this process.
#[cfg(target_os = "linux")]
fn disabled() -> bool {
    // SAFETY: PR_GET_THP_DISABLE's documented arguments.
    unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 }
}

/// One test, as the setting is the whole process's: held back, then let go, once; mimalloc
/// told to keep its arena in 4 KiB pages. It runs in a child process, this test binary run
/// again for this test alone: the other tests of the binary start `warren` processes, which
/// would inherit huge pages disabled while this process held them back.
#[cfg(target_os = "linux")]
#[test]
fn huge_pages_are_held_back_until_released() {
    if std::env::var_os(CHILD).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "library::memory::huge_pages_are_held_back_until_released",
                "--test-threads",
                "1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains(" 1 passed"),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_some() || disabled() {
        // Not this process's to hold: left as they are.
        hold_huge_pages();
        assert!(!HELD.load(Ordering::Relaxed));
        return;
    }
    hold_huge_pages();
    assert!(HELD.load(Ordering::Relaxed) && disabled());
    // SAFETY: reads an option.
    let arena = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_ALLOW_THP) };
    assert_eq!(arena, 0, "mimalloc's arena stays in 4 KiB pages");
    // Let go, unless the kernel would put every mapping in huge pages.
    let everywhere = huge_pages_everywhere();
    release_huge_pages();
    assert!(!HELD.load(Ordering::Relaxed));
    assert_eq!(disabled(), everywhere);
    release_huge_pages();
    assert_eq!(disabled(), everywhere, "releasing twice is harmless");
}
