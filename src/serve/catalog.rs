//! The recipes one server offers: every `*.lua` file beside the recipe it was started with
//! (`scripts/rooms.lua` offers `scripts/cave.lua`, `scripts/dungeon.lua`, …). Modules live in
//! subdirectories (`scripts/lib/`), so only the directory's own files are listed. A page names
//! a recipe by the path listed here; no other path is served.

use std::path::{Path, PathBuf};

/// The recipes in one directory, and the one the server started with.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The directory, as the start recipe's path names it (`scripts`, or empty for the current
    /// directory).
    dir: PathBuf,
    /// The start recipe, as given on the command line.
    start: String,
}

impl Catalog {
    /// The recipes beside `start` (a path as given on the command line).
    pub fn beside(start: &Path) -> Catalog {
        Catalog {
            dir: start.parent().map(Path::to_path_buf).unwrap_or_default(),
            start: start.display().to_string(),
        }
    }

    /// The start recipe's name (its path as given).
    pub fn start(&self) -> &str {
        &self.start
    }

    /// Every recipe's name, sorted; the start recipe is always one of them. Read from the
    /// directory at each call, so a recipe saved after the server started is offered too.
    pub fn list(&self) -> Vec<String> {
        let dir = if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &self.dir
        };
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".lua") && !n.starts_with('.'))
            .map(|n| self.dir.join(n).display().to_string())
            .collect();
        if !names.contains(&self.start) {
            names.push(self.start.clone());
        }
        names.sort();
        names
    }

    /// The path of the recipe called `name`, if it is one of [`Catalog::list`].
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        self.list()
            .into_iter()
            .find(|n| n == name)
            .map(PathBuf::from)
    }
}
