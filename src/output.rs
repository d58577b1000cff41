//! Writing output files whole or not at all: a temporary file in the target directory, then a
//! rename over the target.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written: output goes to a temporary file beside the target, which
/// [`AtomicFile::commit`] renames over it. Dropped without a commit, the temporary file is
/// removed and the target is left as it was.
pub struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tmp = dir.join(format!(".{name}.warren-{}.tmp", std::process::id()));
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            tmp,
            path: path.to_path_buf(),
            file: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes, syncs and renames the file over its target.
    pub fn commit(mut self) -> std::io::Result<()> {
        let file = self.file.take().expect("an uncommitted file");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("an uncommitted file").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("an uncommitted file").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // After a commit the temporary file is gone and this fails harmlessly.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}
