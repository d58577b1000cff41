//! The registry cache: the registry a regions directory's files make, kept between runs in
//! warren's cache directory ([`crate::cache`]), so that a start reads it back instead of
//! parsing the TOML, merging and checking the files and resolving every entry again. That work
//! took 1.9 M of a `warren run`'s 7 M instructions before any cache, and about 0.12 ms of a
//! 2 ms start once the parse alone was cached; reading the registry back takes a fraction.
//!
//! One cache file holds one set of files (each one's path and text) and the registry they
//! make, in postcard's binary form, after the tag every cache file has ([`crate::cache`]). It
//! is used only when its tag is right (which says this very binary wrote it), and every file
//! read now has the path and the text, byte for byte, it holds; otherwise the files are
//! loaded as without a cache, and the cache written anew. A registry depends on nothing else
//! (the paths are in it, for messages), so a cached one is the registry loading would make: the
//! same messages and the same maps. Errors are never cached: a set of files with any error is
//! loaded, and reports, as it would without a cache.

use super::{Registry, Source};
use crate::cache::{CacheDir, Kind};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What every cache file starts with: the format, changed whenever the layout below changes.
const FORMAT: &str = "warren registry cache 3";

/// A cache file's head, read before the registry: whose it is, and the files it was made from.
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    /// [`FORMAT`].
    format: &'a str,
    /// Each file's path and text, in load order.
    #[serde(borrow)]
    files: Vec<(&'a Path, &'a str)>,
}

/// A registry cache in a cache directory.
#[derive(Clone, Debug)]
pub struct RegistryCache {
    /// Where it is, for which binary.
    dir: CacheDir,
}

impl RegistryCache {
    /// The cache this process uses ([`CacheDir::from_env`]), or `None` when it is turned off
    /// or there is nowhere to put it.
    pub fn from_env() -> Option<RegistryCache> {
        CacheDir::from_env().map(|dir| RegistryCache { dir })
    }

    /// A cache in `dir` for the binary `binary` (any text that tells it from other binaries).
    pub fn new(dir: PathBuf, binary: String) -> RegistryCache {
        RegistryCache {
            dir: CacheDir::new(dir, binary),
        }
    }

    /// The file that holds the registry `sources` make, if any was written.
    pub fn path(&self, sources: &[Source]) -> PathBuf {
        let paths: Vec<String> = sources
            .iter()
            .map(|s| s.path.to_string_lossy().into_owned())
            .collect();
        let keys: Vec<&str> = paths
            .iter()
            .zip(sources)
            .flat_map(|(path, s)| [path.as_str(), s.text.as_str()])
            .collect();
        self.dir.path(Kind::Regions, &keys)
    }

    /// The registry `sources` make, from the cache, if it holds it.
    pub fn read(&self, sources: &[Source]) -> Option<Registry> {
        let bytes = self.dir.read(&self.path(sources))?;
        let (head, body) = postcard::take_from_bytes::<Head>(&bytes).ok()?;
        let same = head.format == FORMAT
            && head.files.len() == sources.len()
            && head
                .files
                .iter()
                .zip(sources)
                .all(|((path, text), s)| *path == s.path && *text == s.text);
        if !same {
            return None;
        }
        let (registry, rest) = postcard::take_from_bytes::<Registry>(body).ok()?;
        rest.is_empty().then_some(registry)
    }

    /// Keeps `registry`, what `sources` make, for the next load. Best effort: a directory that
    /// cannot be made or written leaves nothing behind.
    pub fn write(&self, sources: &[Source], registry: &Registry) {
        let Ok(body) = postcard::to_stdvec(registry) else {
            return;
        };
        let head = Head {
            format: FORMAT,
            files: sources
                .iter()
                .map(|s| (s.path.as_path(), s.text.as_str()))
                .collect(),
        };
        let Ok(mut bytes) = postcard::to_stdvec(&head) else {
            return;
        };
        bytes.extend_from_slice(&body);
        self.dir.write(&self.path(sources), &bytes);
    }
}
