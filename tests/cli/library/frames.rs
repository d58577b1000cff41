//! `warren::frames` (src/frames.rs): the file names of `--frames`.

use warren::frames::slug;

#[test]
fn slugs_are_safe_file_names() {
    assert_eq!(slug("after rooms"), "after-rooms");
    assert_eq!(slug("  Phase 2: Corridors!! "), "phase-2-corridors");
    assert_eq!(slug("../../etc/passwd"), "etc-passwd");
    assert_eq!(slug("***"), "frame");
    assert_eq!(slug(&"x".repeat(100)).len(), 40);
}
