//! Reading an input file (a region file, a recipe, a module) safely: only regular files, and
//! no more than a size cap. A FIFO, a device or a directory given where a file belongs is
//! refused before it is opened (reading a FIFO would wait for a writer forever; a device such
//! as `/dev/zero` never ends).

use std::fmt;
use std::fs::FileType;
use std::io::Read;
use std::path::Path;

/// Why an input file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Unreadable(std::io::Error),
    /// The path names something other than a regular file: what it is, in words.
    NotRegular(&'static str),
    /// The file holds more than the cap allows: at least this many bytes.
    TooLarge(u64),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Unreadable(e) => write!(f, "cannot read: {e}"),
            ReadError::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            ReadError::TooLarge(bytes) => write!(f, "file is {bytes} bytes"),
        }
    }
}

/// What a file type is, in words: `a directory`, `a FIFO (named pipe)`, … (`None` for a
/// regular file).
pub fn irregular_kind(t: FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Checks that `path` (after symlinks) is a regular file; returns its length.
pub fn regular_file(path: &Path) -> Result<u64, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Unreadable)?;
    match irregular_kind(meta.file_type()) {
        Some(kind) => Err(ReadError::NotRegular(kind)),
        None => Ok(meta.len()),
    }
}

/// The bytes of the regular file at `path`, if it holds at most `max_bytes`.
pub fn read_regular(path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    let len = regular_file(path)?;
    if len > max_bytes {
        return Err(ReadError::TooLarge(len));
    }
    let file = std::fs::File::open(path).map_err(ReadError::Unreadable)?;
    // The file may have been replaced or grown since it was looked at.
    let meta = file.metadata().map_err(ReadError::Unreadable)?;
    if let Some(kind) = irregular_kind(meta.file_type()) {
        return Err(ReadError::NotRegular(kind));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}
