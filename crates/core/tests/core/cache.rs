//! The cache directory (`cache/mod.rs`): a file is read only when its tag, made with the
//! user's key, is right, so no one without the key can make a file that is read; a key file
//! others may read or write, or that is a link, is not used.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use warren_core::cache::{CacheDir, Kind};

/// Sets the permission bits of `path`.
fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A cache in a new directory of a new temporary directory, with one file written.
fn written() -> (tempfile::TempDir, CacheDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let cache = CacheDir::new(tmp.path().join("cache"), "test".into());
    let path = cache.path(Kind::Chunk, &["text"]);
    cache.write(&path, b"kept");
    assert_eq!(cache.read(&path).as_deref(), Some(&b"kept"[..]));
    (tmp, cache, path)
}

/// The cache in `dir` as another process would find it: reached through a new link, as a
/// process keeps the key it read for the rest of its run.
fn afresh(dir: &Path) -> CacheDir {
    static LINKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = LINKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let link = dir.with_file_name(format!("link {n}"));
    std::os::unix::fs::symlink(dir, &link).unwrap();
    CacheDir::new(link, "test".into())
}

/// The names of the files in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_cache_file_changed_by_anyone_without_the_key_is_not_read() {
    let (_tmp, cache, path) = written();
    let whole = std::fs::read(&path).unwrap();
    // Its tag first, then what was written.
    assert_eq!(&whole[16..], b"kept");
    // Any byte changed, the file cut, or the file as someone without the key would write it.
    for at in [0, 15, 16, 19] {
        let mut changed = whole.clone();
        changed[at] ^= 1;
        std::fs::write(&path, changed).unwrap();
        assert_eq!(cache.read(&path), None, "byte {at}");
    }
    std::fs::write(&path, &whole[..19]).unwrap();
    assert_eq!(cache.read(&path), None);
    std::fs::write(&path, [[0u8; 16].as_slice(), b"kept"].concat()).unwrap();
    assert_eq!(cache.read(&path), None);
    std::fs::write(&path, &whole).unwrap();
    assert!(cache.read(&path).is_some());
}

#[test]
fn files_tagged_with_another_key_are_not_read() {
    let (tmp, _, path) = written();
    let dir = tmp.path().join("cache");
    // Another process after the key is gone: no key, nothing read, until a write makes one.
    std::fs::remove_file(dir.join("key")).unwrap();
    let later = afresh(&dir);
    assert_eq!(later.read(&path), None);
    let other = later.path(Kind::Chunk, &["other"]);
    later.write(&other, b"new");
    assert_eq!(later.read(&path), None, "tagged with the old key");
    assert_eq!(later.read(&other).as_deref(), Some(&b"new"[..]));
}

#[test]
fn a_key_others_may_read_or_write_or_a_link_is_not_used() {
    for mode in [0o640, 0o604, 0o620, 0o602] {
        let (tmp, _, path) = written();
        let dir = tmp.path().join("cache");
        chmod(&dir.join("key"), mode);
        let later = afresh(&dir);
        assert_eq!(later.read(&path), None, "key {mode:o}");
        let before = names(&dir);
        later.write(&later.path(Kind::Chunk, &["other"]), b"new");
        assert_eq!(names(&dir), before, "nothing written beside a key {mode:o}");
    }
    // A link to a key file, even a good one.
    let (tmp, _, path) = written();
    let dir = tmp.path().join("cache");
    std::fs::rename(dir.join("key"), tmp.path().join("real key")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("real key"), dir.join("key")).unwrap();
    let later = afresh(&dir);
    assert_eq!(later.read(&path), None, "key through a link");
}

#[test]
fn another_users_key_is_not_used() {
    // Only root can give a file away.
    // SAFETY: `geteuid` only reads the process's credentials.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let (tmp, _, path) = written();
    let dir = tmp.path().join("cache");
    std::os::unix::fs::chown(dir.join("key"), Some(65534), None).unwrap();
    let later = afresh(&dir);
    assert_eq!(later.read(&path), None);
}

#[test]
fn a_link_in_place_of_a_cache_file_is_not_followed() {
    let (tmp, cache, path) = written();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::rename(&path, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    assert_eq!(cache.read(&path), None);
}

#[test]
fn a_directory_others_may_write_still_holds_a_cache_only_the_key_can_make() {
    // As a home's `.cache` made under umask 002 is: the tags, not the directory, keep
    // others' files out.
    let (tmp, cache, path) = written();
    let dir = tmp.path().join("cache");
    chmod(&dir, 0o775);
    chmod(tmp.path(), 0o777);
    assert!(cache.read(&path).is_some());
    let other = cache.path(Kind::Regions, &["other"]);
    cache.write(&other, b"new");
    assert_eq!(cache.read(&other).as_deref(), Some(&b"new"[..]));
    assert_eq!(names(&dir).len(), 3, "two files and the key");
}
