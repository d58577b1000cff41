//! The running binary's build ID, which keys the cache (`cache/build_id.rs`).

use warren_core::cache::build_id::{build_id_in, own};

/// One note: the sizes and type, then the name and the description, each padded to `align`
/// bytes.
fn note_aligned(name: &[u8], kind: u32, desc: &[u8], align: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend((name.len() as u32).to_ne_bytes());
    out.extend((desc.len() as u32).to_ne_bytes());
    out.extend(kind.to_ne_bytes());
    for part in [name, desc] {
        out.extend(part);
        out.resize(out.len().next_multiple_of(align), 0);
    }
    out
}

/// A note in a segment aligned to 4 bytes, the usual alignment.
fn note(name: &[u8], kind: u32, desc: &[u8]) -> Vec<u8> {
    note_aligned(name, kind, desc, 4)
}

#[test]
fn the_build_id_is_found_among_other_notes_and_nothing_else_is_taken_for_it() {
    let abi_tag = note(
        b"GNU\0",
        1,
        &[0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
    );
    let other_owner = note(b"Go\0", 3, b"not a build id");
    let id = note(b"GNU\0", 3, &[0xde, 0xad, 0xbe, 0xef, 0x01]);
    let notes = [abi_tag.clone(), other_owner.clone(), id.clone()].concat();
    assert_eq!(build_id_in(&notes, 4).as_deref(), Some("deadbeef01"));
    assert_eq!(build_id_in(&[abi_tag, other_owner].concat(), 4), None);
    // Cut anywhere, the notes give no id rather than a wrong one (or a panic).
    for end in 0..id.len() - 3 {
        assert_eq!(build_id_in(&id[..end], 4), None, "cut at {end}");
    }
    let mut huge = id.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_ne_bytes());
    assert_eq!(build_id_in(&huge, 4), None);
}

#[test]
fn notes_in_a_segment_aligned_to_8_bytes_are_padded_to_8() {
    // A 5-byte description and a 4-byte name, each padded to 8: read with 4-byte padding, the
    // second note would be looked for 4 bytes too early.
    let align = 8;
    let first = note_aligned(b"GNU\0", 5, &[1, 2, 3, 4, 5], align);
    let id = note_aligned(b"GNU\0", 3, &[0xab, 0xcd], align);
    assert_eq!(
        build_id_in(&[first, id].concat(), align).as_deref(),
        Some("abcd")
    );
}

#[cfg(target_os = "linux")]
#[test]
fn the_running_binary_s_build_id_is_the_one_its_file_holds() {
    // The loaded notes against those read from the file by `readelf` (binutils, which the
    // linker that wrote them comes with).
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new("readelf")
        .arg("-n")
        .arg(&exe)
        .env("LC_ALL", "C")
        .output()
        .expect("readelf runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let from_file = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Build ID: "))
        .map(str::to_string);
    assert!(from_file.is_some(), "{exe:?} has no build ID:\n{text}");
    assert_eq!(own(), from_file);
}
