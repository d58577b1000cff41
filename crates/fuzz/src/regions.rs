//! Target `regions`: the input is one region file, loaded and resolved as `regions/fuzz.toml`
//! beside the shipped terrain file by the real loader ([`Registry::from_sources`], which
//! `Registry::load_dir` calls once it has read the files). Whatever it holds, loading must give a
//! registry or errors that each name their file, line and column, the same on a second load;
//! never a panic. A registry must also come back whole from the registry cache's form.

use crate::{Checked, Finding, Outcome};
use std::path::Path;
use warren_core::message::MAX_MESSAGE_BYTES;
use warren_core::region::{Registry, Source};
use warren_lua::Limits;

/// Where the input is said to be, in messages.
const INPUT: &str = "regions/fuzz.toml";

/// The region target: the shipped terrain file every input is loaded beside.
pub struct Regions {
    terrain: Source,
}

impl Regions {
    /// Reads `root/regions/terrain.toml`.
    pub fn new(root: &Path) -> Result<Regions, String> {
        let path = root.join("regions/terrain.toml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Ok(Regions {
            terrain: Source {
                path: "regions/terrain.toml".into(),
                text,
            },
        })
    }

    /// Loads `input` (bytes that are not UTF-8 replaced, as the file reader refuses them before
    /// the loader sees them) and checks what came out.
    pub fn run(&self, input: &[u8]) -> Checked {
        let text = String::from_utf8_lossy(input);
        let first = self.load(&text)?;
        // Loading is a function of the files: the same text gives the same registry or errors.
        let again = self.load(&text)?;
        if first != again {
            return Err(Finding(format!(
                "two loads of the same files differ:\n{first:?}\n{again:?}"
            )));
        }
        Ok(match first {
            Loaded::Registry(_) => Outcome::Accepted,
            Loaded::Refused(shown) => Outcome::Refused(shown),
        })
    }

    /// One load of `text` beside the terrain file, checked.
    fn load(&self, text: &str) -> Result<Loaded, Finding> {
        let sources = vec![
            self.terrain.clone(),
            Source {
                path: INPUT.into(),
                text: text.into(),
            },
        ];
        match Registry::from_sources(sources) {
            Ok(registry) => {
                let shown = describe(&registry)?;
                // What the next run reads back from the registry cache (docs/regions.md, "The
                // cache") must be what loading made: the same bytes once written again, and the
                // same limits and data.
                let back = round_trip(&registry)?;
                if describe(&back)? != shown {
                    return Err(Finding(format!(
                        "the registry read back from its cache form differs:\n{shown}\n{}",
                        describe(&back)?
                    )));
                }
                Ok(Loaded::Registry(shown))
            }
            Err(errors) => {
                if errors.0.is_empty() {
                    return Err(Finding("refused without a reason".into()));
                }
                for e in &errors.0 {
                    if e.line == 0 || e.col == 0 {
                        return Err(Finding(format!(
                            "an error without its line and column: {e}"
                        )));
                    }
                    if e.file != Path::new(INPUT) && e.file != Path::new("regions/terrain.toml") {
                        return Err(Finding(format!("an error naming another file: {e}")));
                    }
                    if e.to_string().len() > MAX_MESSAGE_BYTES + 256 {
                        return Err(Finding(format!(
                            "an error of {} bytes",
                            e.to_string().len()
                        )));
                    }
                }
                Ok(Loaded::Refused(errors.to_string()))
            }
        }
    }
}

/// What a run does next with a registry, checked and shown: the limits it sets (each warning
/// at its place), then `ctx.regions`' data.
fn describe(registry: &Registry) -> Result<String, Finding> {
    let resolved = Limits::default().lowered_by(registry);
    for w in &resolved.warnings {
        if !w.starts_with(&format!("{INPUT}:")) {
            return Err(Finding(format!(
                "a [limits] warning without its place: {w}"
            )));
        }
    }
    let data = serde_json::to_string(&registry.data)
        .map_err(|e| Finding(format!("registry data does not serialise: {e}")))?;
    Ok(format!("{data}{:?}", resolved.limits))
}

/// `registry` written in the registry cache's form (postcard) and read back, checked to write
/// the same bytes again.
fn round_trip(registry: &Registry) -> Result<Registry, Finding> {
    let bytes = postcard::to_stdvec(registry)
        .map_err(|e| Finding(format!("the registry does not encode: {e}")))?;
    let back: Registry = postcard::from_bytes(&bytes)
        .map_err(|e| Finding(format!("the registry's cache form does not decode: {e}")))?;
    let again = postcard::to_stdvec(&back)
        .map_err(|e| Finding(format!("the decoded registry does not encode: {e}")))?;
    if again != bytes {
        return Err(Finding(
            "the registry read back from its cache form encodes differently".into(),
        ));
    }
    Ok(back)
}

/// What one load gave, to compare two loads.
#[derive(Debug, PartialEq)]
enum Loaded {
    /// The registry's data and the limits it sets.
    Registry(String),
    /// Every error, as shown.
    Refused(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Regions {
        Regions::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap()
    }

    #[test]
    fn a_shipped_region_file_is_accepted() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dungeon = std::fs::read(root.join("regions/dungeon.toml")).unwrap();
        assert_eq!(target().run(&dungeon), Ok(Outcome::Accepted));
    }

    #[test]
    fn a_broken_file_is_refused_at_its_line_and_column() {
        let out = target()
            .run(b"[[terrain]]\nname = \"x\"\nglyph = 5\n")
            .unwrap();
        let Outcome::Refused(shown) = out else {
            panic!("accepted: {out:?}")
        };
        assert!(shown.starts_with("regions/fuzz.toml:3:"), "{shown}");
    }
}
