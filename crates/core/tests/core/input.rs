use std::path::Path;
use warren_core::input::{read_regular, ReadError};

#[test]
fn directories_are_refused_and_files_are_capped() {
    let dir = std::env::temp_dir().join(format!("warren-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(
        read_regular(&dir, 10),
        Err(ReadError::NotRegular("a directory"))
    ));
    let file = dir.join("f.txt");
    std::fs::write(&file, "0123456789ab").unwrap();
    assert!(matches!(
        read_regular(&file, 10),
        Err(ReadError::TooLarge(12))
    ));
    assert_eq!(read_regular(&file, 12).unwrap(), b"0123456789ab");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn devices_are_refused() {
    assert!(matches!(
        read_regular(Path::new("/dev/zero"), 10),
        Err(ReadError::NotRegular("a character device"))
    ));
}
