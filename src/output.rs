//! Writing output files whole or not at all: a temporary file in the target directory, then a
//! rename over the target. A file being written and never committed (an error, an interrupted
//! batch) is removed.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The temporary file beside `path` that an atomic write goes through: `.NAME.warren-PID.tmp`,
/// or with `tag`, `.NAME.warren-PID.TAG.tmp`.
pub fn temp_path(path: &Path, tag: &str) -> PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tag = if tag.is_empty() {
        String::new()
    } else {
        format!(".{tag}")
    };
    dir.join(format!(".{name}.warren-{}{tag}.tmp", std::process::id()))
}

/// A file written as a stream and put in place only by [`AtomicFile::commit`]; dropped
/// uncommitted, it leaves nothing behind.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        Self::create_tagged(path, "")
    }

    /// [`AtomicFile::create`] through a temporary name carrying `tag`, so that two files on
    /// their way to the same target do not collide.
    pub fn create_tagged(path: &Path, tag: &str) -> std::io::Result<AtomicFile> {
        let temp = temp_path(path, tag);
        let file = File::create(&temp)?;
        Ok(AtomicFile {
            target: path.to_path_buf(),
            temp,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The temporary file's path (where the content is until the commit).
    pub fn temp(&self) -> &Path {
        &self.temp
    }

    /// Flushes the content to disk and renames it over the target.
    pub fn commit(mut self) -> std::io::Result<()> {
        let out = self
            .out
            .take()
            .ok_or_else(|| std::io::Error::other("committed twice"))?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&self.temp, &self.target)
    }

    fn out(&mut self) -> std::io::Result<&mut BufWriter<File>> {
        self.out
            .as_mut()
            .ok_or_else(|| std::io::Error::other("file already committed"))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out()?.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
