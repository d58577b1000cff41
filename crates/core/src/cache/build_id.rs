//! The running binary's GNU build ID: the hash of its linked code and data that the linker
//! writes into a note (`.note.gnu.build-id`), read from the notes loaded with the program (or
//! the library warren was linked into), without a file or a system call. It tells the very
//! binary running, whatever started it (a wrapper such as `valgrind` or `ld.so` makes
//! `/proc/self/exe` name the wrapper) and wherever its file was copied.

/// The note type of a build ID, from the owner `GNU`.
const NT_GNU_BUILD_ID: u32 = 3;

/// The build ID of the program or library this code was linked into, in hexadecimal, or
/// `None` where it has none (a linker told not to write it) or on a system whose loader this
/// does not read.
#[cfg(target_os = "linux")]
pub fn own() -> Option<String> {
    let mut search = Search {
        code: own as *const () as usize,
        found: None,
    };
    // SAFETY: `dl_iterate_phdr` calls `holding_this_code` with each loaded object's program
    // headers, valid during the call; `search` outlives the call.
    unsafe {
        libc::dl_iterate_phdr(
            Some(holding_this_code),
            std::ptr::from_mut(&mut search).cast(),
        );
    }
    search.found
}

/// See the Linux version: no loader is read elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn own() -> Option<String> {
    None
}

/// What [`holding_this_code`] looks for, and finds.
#[cfg(target_os = "linux")]
struct Search {
    /// An address in this code: the object whose loaded segments hold it is the one linked
    /// with warren (the program, or a library when warren is in one).
    code: usize,
    /// That object's build ID, once found.
    found: Option<String>,
}

/// `dl_iterate_phdr`'s callback: for the object holding [`Search::code`], its notes are
/// searched for a build ID and the walk stops; other objects are passed over.
///
/// # Safety
/// `info` is the loader's description of a loaded object and `data` points at the caller's
/// [`Search`].
#[cfg(target_os = "linux")]
unsafe extern "C" fn holding_this_code(
    info: *mut libc::dl_phdr_info,
    _size: libc::size_t,
    data: *mut libc::c_void,
) -> libc::c_int {
    // SAFETY: the function's contract; each header describes `p_memsz` bytes mapped at the
    // object's base plus `p_vaddr` (a `PT_NOTE` one inside a loaded segment).
    unsafe {
        let info = &*info;
        let search = &mut *data.cast::<Search>();
        let headers = std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum));
        let base = info.dlpi_addr as usize;
        let holds_code = headers.iter().any(|h| {
            let start = base.wrapping_add(h.p_vaddr as usize);
            h.p_type == libc::PT_LOAD
                && (start..start.wrapping_add(h.p_memsz as usize)).contains(&search.code)
        });
        if !holds_code {
            return 0;
        }
        for header in headers.iter().filter(|h| h.p_type == libc::PT_NOTE) {
            let start = base.wrapping_add(header.p_vaddr as usize) as *const u8;
            let notes = std::slice::from_raw_parts(start, header.p_memsz as usize);
            if let Some(id) = build_id_in(notes, header.p_align as usize) {
                search.found = Some(id);
                break;
            }
        }
    }
    1
}

/// The build ID among `notes` (a note segment aligned to `align` bytes, 4 or 8: each note a
/// 4-byte name size, description size and type, then the name, then the description and the
/// next note each at an offset from the note's start padded to `align`), in hexadecimal.
pub fn build_id_in(mut notes: &[u8], align: usize) -> Option<String> {
    let word = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_ne_bytes(
            b.get(at..at.checked_add(4)?)?.try_into().ok()?,
        ))
    };
    let align = if align == 8 { 8 } else { 4 };
    let padded = |n: usize| n.checked_add(align - 1).map(|n| n & !(align - 1));
    while notes.len() >= 12 {
        let (name_size, desc_size) = (word(notes, 0)? as usize, word(notes, 4)? as usize);
        let kind = word(notes, 8)?;
        let name = notes.get(12..12usize.checked_add(name_size)?)?;
        let desc_at = padded(12usize.checked_add(name_size)?)?;
        let desc = notes.get(desc_at..desc_at.checked_add(desc_size)?)?;
        if kind == NT_GNU_BUILD_ID && name == b"GNU\0" && !desc.is_empty() {
            return Some(desc.iter().map(|b| format!("{b:02x}")).collect());
        }
        notes = notes.get(padded(desc_at.checked_add(desc_size)?)?..)?;
    }
    None
}
