//! The cache directory (`cache/mod.rs`): nothing is read from, or written to, a directory or a
//! file anyone but this user could have changed.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use warren_core::cache::{CacheDir, Kind};

/// Sets the permission bits of `path`.
fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A cache in a new directory of a new temporary directory (made private, as warren makes
/// it), with one file written.
fn written() -> (tempfile::TempDir, CacheDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    chmod(tmp.path(), 0o700);
    let cache = CacheDir::new(tmp.path().join("cache"), "test".into());
    let path = cache.path(Kind::Chunk, &["text"]);
    cache.write(&path, b"kept");
    assert_eq!(cache.read(&path).as_deref(), Some(&b"kept"[..]));
    (tmp, cache, path)
}

#[test]
fn a_file_or_directory_others_may_write_is_not_read() {
    // The file writable by its group, or by anyone.
    for mode in [0o620, 0o602] {
        let (_tmp, cache, path) = written();
        chmod(&path, mode);
        assert_eq!(cache.read(&path), None, "file {mode:o}");
        chmod(&path, 0o600);
        assert!(cache.read(&path).is_some());
    }
    // The directory writable by its group, or by anyone, even once found private.
    for mode in [0o770, 0o707, 0o1777] {
        let (tmp, cache, path) = written();
        chmod(&tmp.path().join("cache"), mode);
        assert_eq!(cache.read(&path), None, "directory {mode:o}");
    }
    // A directory above writable by others, unless sticky (as /tmp is); looked at in a new
    // directory's first read.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cache");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o700);
    let later = CacheDir::new(dir, "test".into());
    let path = later.path(Kind::Chunk, &["text"]);
    std::fs::write(&path, b"kept").unwrap();
    chmod(&path, 0o600);
    chmod(tmp.path(), 0o777);
    assert_eq!(later.read(&path), None, "above: 777");
    chmod(tmp.path(), 0o1777);
    assert!(later.read(&path).is_some(), "above: sticky");
}

#[test]
fn a_link_in_place_of_a_cache_file_is_not_followed() {
    let (tmp, cache, path) = written();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::write(&elsewhere, b"planted").unwrap();
    chmod(&elsewhere, 0o600);
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    assert_eq!(cache.read(&path), None);
}

#[test]
fn nothing_is_written_into_a_directory_others_may_write() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("shared");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o777);
    let cache = CacheDir::new(dir.clone(), "test".into());
    let path = cache.path(Kind::Regions, &["text"]);
    cache.write(&path, b"kept");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn another_users_file_is_not_read() {
    // Only root can give a file away.
    // SAFETY: `geteuid` only reads the process's credentials.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let (_tmp, cache, path) = written();
    std::os::unix::fs::chown(&path, Some(65534), None).unwrap();
    assert_eq!(cache.read(&path), None);
}
