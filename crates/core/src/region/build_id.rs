//! The running binary's GNU build ID: the hash of its linked code and data that the linker
//! writes into a note (`.note.gnu.build-id`), read from the notes the program loaded with,
//! without a file or a system call. It tells the very binary running, whatever started it
//! (a wrapper such as `valgrind` or `ld.so` makes `/proc/self/exe` name the wrapper) and
//! wherever its file was copied.

/// The note type of a build ID, from the owner `GNU`.
const NT_GNU_BUILD_ID: u32 = 3;

/// This program's build ID in hexadecimal, or `None` where it has none (a linker told not to
/// write it) or on a system whose loader this does not read.
#[cfg(target_os = "linux")]
pub fn own() -> Option<String> {
    let mut found: Option<String> = None;
    // SAFETY: `dl_iterate_phdr` calls `first_object` with each loaded object's program headers,
    // valid during the call; `found` outlives the call.
    unsafe {
        libc::dl_iterate_phdr(Some(first_object), std::ptr::from_mut(&mut found).cast());
    }
    found
}

/// See the Linux version: no loader is read elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn own() -> Option<String> {
    None
}

/// `dl_iterate_phdr`'s callback: the program itself comes first; its notes are searched for
/// a build ID, then the walk stops.
///
/// # Safety
/// `info` is the loader's description of a loaded object and `data` points at the caller's
/// `Option<String>`.
#[cfg(target_os = "linux")]
unsafe extern "C" fn first_object(
    info: *mut libc::dl_phdr_info,
    _size: libc::size_t,
    data: *mut libc::c_void,
) -> libc::c_int {
    // SAFETY: the function's contract; each `PT_NOTE` header describes `p_memsz` bytes mapped
    // at the object's base plus `p_vaddr`.
    unsafe {
        let info = &*info;
        let found = &mut *data.cast::<Option<String>>();
        let headers = std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum));
        for header in headers.iter().filter(|h| h.p_type == libc::PT_NOTE) {
            let start = (info.dlpi_addr as usize + header.p_vaddr as usize) as *const u8;
            let notes = std::slice::from_raw_parts(start, header.p_memsz as usize);
            if let Some(id) = build_id_in(notes) {
                *found = Some(id);
                break;
            }
        }
    }
    1
}

/// The build ID among `notes` (a note segment: each note a 4-byte name size, description size
/// and type, then the name and the description, each padded to 4 bytes), in hexadecimal.
pub fn build_id_in(mut notes: &[u8]) -> Option<String> {
    let word = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?))
    };
    let padded = |n: usize| n.checked_add(3).map(|n| n & !3);
    while notes.len() >= 12 {
        let (name_size, desc_size) = (word(notes, 0)? as usize, word(notes, 4)? as usize);
        let kind = word(notes, 8)?;
        let desc_at = 12 + padded(name_size)?;
        let next = desc_at.checked_add(padded(desc_size)?)?;
        let name = notes.get(12..12 + name_size)?;
        let desc = notes.get(desc_at..desc_at + desc_size)?;
        if kind == NT_GNU_BUILD_ID && name == b"GNU\0" && !desc.is_empty() {
            return Some(desc.iter().map(|b| format!("{b:02x}")).collect());
        }
        notes = notes.get(next..)?;
    }
    None
}
