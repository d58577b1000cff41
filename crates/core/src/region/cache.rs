//! The parse cache: what a regions directory's files read into ([`RegionFile`]s), kept between
//! runs in warren's cache directory ([`crate::cache`]), so that a start reads it back instead
//! of parsing the TOML again. Parsing is most of loading the shipped regions (about four fifths
//! of the instructions) and, from a cold start, about 0.2 ms of a 2.5 ms `warren run`.
//!
//! One cache file holds one set of texts and what each read into, one after another, in
//! postcard's binary form, with a hash of that parse. It is used only when it was written by
//! this very binary ([`CacheDir::binary`]), every text read now equals the one it holds, byte
//! for byte, and its parse matches its hash; otherwise the files are parsed, and the cache
//! written anew once every one of them has been read. Errors are never cached (a set with a
//! file that does not parse is not written), and everything after parsing (the merge, every
//! check, the resolved entries) runs either way, so a cached parse makes the same registry, the
//! same messages and the same maps.

use super::{RegionFile, Source};
use crate::cache::{checksum, CacheDir, Kind};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What every cache file starts with: the format, changed whenever the layout below changes.
const FORMAT: &str = "warren region parse cache 2";

/// A cache file's head, read before the parsed files: whose it is, and the texts it was made
/// from.
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    /// [`FORMAT`].
    format: &'a str,
    /// The binary that wrote it ([`CacheDir::binary`]).
    binary: &'a str,
    /// Each file's text, in load order.
    #[serde(borrow)]
    texts: Vec<&'a str>,
    /// A hash of what follows (the parsed files): damage that would still decode is seen.
    body: u64,
}

/// A parse cache in a cache directory.
#[derive(Clone, Debug)]
pub struct ParseCache {
    /// Where it is, for which binary.
    dir: CacheDir,
}

impl ParseCache {
    /// The cache this process uses ([`CacheDir::from_env`]), or `None` when it is turned off
    /// or there is nowhere to put it.
    pub fn from_env() -> Option<ParseCache> {
        CacheDir::from_env().map(|dir| ParseCache { dir })
    }

    /// A cache in `dir` for the binary `binary` (any text that tells it from other binaries).
    pub fn new(dir: PathBuf, binary: String) -> ParseCache {
        ParseCache {
            dir: CacheDir::new(dir, binary),
        }
    }

    /// The file that holds the parse of `sources`, if any was written.
    pub fn path(&self, sources: &[Source]) -> PathBuf {
        let texts: Vec<&str> = sources.iter().map(|s| s.text.as_str()).collect();
        self.dir.path(Kind::Regions, &texts)
    }

    /// The files `sources` read into, from the cache, if it holds their parse.
    pub fn read(&self, sources: &[Source]) -> Option<Vec<RegionFile>> {
        let bytes = self.dir.read(&self.path(sources))?;
        let (head, rest) = postcard::take_from_bytes::<Head>(&bytes).ok()?;
        let same = head.format == FORMAT
            && head.binary == self.dir.binary()
            && head.texts.len() == sources.len()
            && head.texts.iter().zip(sources).all(|(t, s)| *t == s.text)
            && head.body == checksum(rest);
        if !same {
            return None;
        }
        // One file after another, into a list made to size (a list read as a whole grows by
        // doubling: for 10,000 small files, 16 MB more memory at its peak).
        let mut files = Vec::with_capacity(sources.len());
        let mut rest = rest;
        for _ in sources {
            let (file, after) = postcard::take_from_bytes::<RegionFile>(rest).ok()?;
            files.push(file);
            rest = after;
        }
        rest.is_empty().then_some(files)
    }

    /// Keeps `files`, what `sources` read into (one each, in order), for the next load. Best
    /// effort: a directory that cannot be made or written leaves nothing behind.
    pub fn write(&self, sources: &[Source], files: &[&RegionFile]) {
        let mut body = Vec::new();
        for file in files {
            match postcard::to_extend(file, body) {
                Ok(more) => body = more,
                Err(_) => return,
            }
        }
        let head = Head {
            format: FORMAT,
            binary: self.dir.binary(),
            texts: sources.iter().map(|s| s.text.as_str()).collect(),
            body: checksum(&body),
        };
        let Ok(mut bytes) = postcard::to_stdvec(&head) else {
            return;
        };
        bytes.extend_from_slice(&body);
        self.dir.write(&self.path(sources), &bytes);
    }
}
