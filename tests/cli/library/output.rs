//! `warren::output` (src/output.rs): a file written atomically appears only when committed.

use std::io::Write;
use warren::output::AtomicFile;

#[test]
fn a_file_appears_only_when_committed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.txt");
    let mut f = AtomicFile::create(&path).expect("create");
    f.write_all(b"hello").expect("write");
    assert!(!path.exists());
    f.commit().expect("commit");
    assert_eq!(std::fs::read(&path).expect("written"), b"hello");
    let mut g = AtomicFile::create(&path).expect("create");
    g.write_all(b"half").expect("write");
    let temp = g.temp().to_path_buf();
    assert!(temp.exists());
    drop(g);
    assert!(!temp.exists(), "an uncommitted file leaves nothing");
    assert_eq!(std::fs::read(&path).expect("kept"), b"hello");
}
