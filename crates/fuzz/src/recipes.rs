//! Target `recipes`: the input is a recipe, written to `scripts/fuzz.lua` in a scratch copy of
//! the shipped regions and `scripts/lib`, scanned the way `warren check` scans it, loaded by the
//! real host under small budgets ([`limits`]) and run. Text after a line `--@regions` is a region
//! file loaded beside the shipped ones as `regions/fuzz.toml` (an input whose region part does
//! not load is skipped: the `regions` target holds those errors to their oracle).
//!
//! Each step must end in a map or an error that starts with `file:line:`, never a panic or an
//! internal error. Every load and generation is watched ([`Watch`]): it ends within its clock
//! budget + 100 ms, and the process's peak resident memory grows by at most the memory limit +
//! 48 MiB. A map the recipe makes for seed 1 from a fresh host must be byte for byte the map the
//! same host makes for seed 1 after seeds 2 and 3 (`run` against `batch`).

use crate::oracle::{fingerprint, Watch, LATE};
use crate::{Checked, Finding, Outcome};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use warren_core::message::MAX_MESSAGE_BYTES;
use warren_core::region::{Registry, Source as RegionSource};
use warren_lua::check::declared::Declared;
use warren_lua::check::program::{self, Source};
use warren_lua::check::Known;
use warren_lua::located::starts_located;
use warren_lua::{Error, Host, Limits, ParamValues, Run};

/// The line that starts an input's region part.
pub const REGIONS_MARK: &[u8] = b"\n--@regions\n";

/// How many runs of an input in a row must stop late for a late stop to be a finding.
pub const LATE_RUNS: usize = 3;

/// The seeds a batch makes before it makes seed 1 again.
const BATCH_SEEDS: [u64; 2] = [2, 3];

/// Budgets small enough that a runaway case costs little: 5,000,000 instructions, 64 MiB and
/// half a second.
pub fn limits() -> Limits {
    Limits {
        instructions: 5_000_000,
        memory: 64 << 20,
        time: Duration::from_millis(500),
    }
}

/// The recipe target: a scratch directory, the shipped region files and their registry.
pub struct Recipes {
    dir: PathBuf,
    script: PathBuf,
    shipped: Vec<RegionSource>,
    registry: Arc<Registry>,
    known: Known,
    /// The API declarations the analysis checks calls against.
    declared: Declared,
}

/// Copies every file directly in `from` to `to`.
fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let p = entry.map_err(|e| e.to_string())?.path();
        if let (true, Some(name)) = (p.is_file(), p.file_name()) {
            std::fs::copy(&p, to.join(name)).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    Ok(())
}

impl Recipes {
    /// Copies `root/regions` and `root/scripts/lib` into `dir` (which it then owns: the
    /// recipe under test is written there).
    pub fn new(root: &Path, dir: &Path) -> Result<Recipes, String> {
        copy_files(&root.join("regions"), &dir.join("regions"))?;
        copy_files(&root.join("scripts/lib"), &dir.join("scripts/lib"))?;
        let mut shipped = Vec::new();
        for entry in std::fs::read_dir(dir.join("regions")).map_err(|e| e.to_string())? {
            let path = entry.map_err(|e| e.to_string())?.path();
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            shipped.push(RegionSource { path, text });
        }
        shipped.sort_by(|a, b| a.path.cmp(&b.path));
        let registry = Registry::from_sources(shipped.clone()).map_err(|e| e.to_string())?;
        let known = Known {
            terrains: Some(
                registry
                    .terrains()
                    .names()
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            ),
            regions: serde_json::to_value(&registry.data).ok(),
            params: None,
        };
        Ok(Recipes {
            script: dir.join("scripts/fuzz.lua"),
            dir: dir.to_path_buf(),
            shipped,
            registry: Arc::new(registry),
            known,
            declared: Declared::new(),
        })
    }

    /// Scans, loads and runs `input`, and checks what came out. A stop past the clock budget
    /// counts only if it happens on [`LATE_RUNS`] runs of the input in a row: a loaded machine
    /// may hold a process back for longer than the slack now and then, where work done after
    /// the budget ran out is there every time.
    pub fn run(&self, input: &[u8]) -> Checked {
        let mut checked = self.run_once(input);
        for _ in 1..LATE_RUNS {
            match &checked {
                Err(Finding(f)) if f.contains(LATE) => checked = self.run_once(input),
                _ => break,
            }
        }
        checked
    }

    /// [`Recipes::run`], once.
    fn run_once(&self, input: &[u8]) -> Checked {
        let (recipe, regions) = match find(input, REGIONS_MARK) {
            Some(at) => (&input[..at + 1], Some(&input[at + REGIONS_MARK.len()..])),
            None => (input, None),
        };
        let registry = match regions {
            None => self.registry.clone(),
            Some(text) => {
                let mut sources = self.shipped.clone();
                sources.push(RegionSource {
                    path: self.dir.join("regions/fuzz.toml"),
                    text: String::from_utf8_lossy(text).into_owned(),
                });
                match Registry::from_sources(sources) {
                    Ok(r) => Arc::new(r),
                    Err(_) => return Ok(Outcome::Skipped),
                }
            }
        };
        // The static analysis first: it must take any text.
        if let Ok(text) = std::str::from_utf8(recipe) {
            let source = Source {
                path: self.script.clone(),
                text: text.to_string(),
                known: self.known.clone(),
            };
            let _ = program::analyse(&[source], &self.declared);
        }
        std::fs::write(&self.script, recipe)
            .map_err(|e| Finding(format!("cannot write the case: {e}")))?;
        let limits = limits();
        let watch = Watch::start();
        let loaded = Host::load(&self.script, registry, limits);
        let ended = match &loaded {
            Ok(_) => "loaded".to_string(),
            Err(e) => format!("refused: {e}"),
        };
        watch.check(&limits, &format!("loading (ended {ended})"))?;
        let host = match loaded {
            Ok(h) => h,
            Err(e) => return refused("loading", e),
        };
        let params = host
            .resolve_params(&[])
            .map_err(|e| Finding(format!("the declared defaults do not resolve: {e}")))?;
        let fresh = match generate(&host, &params, 1, &limits)? {
            Ok(map) => fingerprint(&map, 1, &params),
            Err(e) => return refused("generating", e),
        };
        // The same host, as a batch uses it: other seeds, then seed 1 again.
        for seed in BATCH_SEEDS {
            match generate(&host, &params, seed, &limits)? {
                Ok(map) => host.recycle(map),
                Err(e) => {
                    refused("generating", e)?;
                }
            }
        }
        match generate(&host, &params, 1, &limits)? {
            Ok(map) => {
                let again = fingerprint(&map, 1, &params);
                if again != fresh {
                    return Err(Finding(format!(
                        "seed 1 after seeds {BATCH_SEEDS:?} in the same host differs from seed 1 \
                         from a fresh host:\n{}",
                        first_difference(&fresh, &again)
                    )));
                }
            }
            // The clock is the one budget that may run out on one run and not on another.
            Err(Error::Budget(m)) if m.contains("time budget exceeded") => {}
            Err(e) => {
                return Err(Finding(format!(
                    "seed 1 made a map from a fresh host but failed after seeds {BATCH_SEEDS:?}: \
                     {e}"
                )))
            }
        }
        Ok(Outcome::Accepted)
    }
}

/// One generation, watched: the oracles' finding, else the host's result.
fn generate(
    host: &Host,
    params: &ParamValues,
    seed: u64,
    limits: &Limits,
) -> Result<warren_lua::Result<warren_core::map::Map>, Finding> {
    let watch = Watch::start();
    let map = host.generate(&Run {
        seed,
        params,
        depth: 1,
        above: None,
    });
    let ended = match &map {
        Ok(_) => "with a map".to_string(),
        Err(e) => format!("with: {e}"),
    };
    watch.check(limits, &format!("generating seed {seed} (ended {ended})"))?;
    // What the generation left (garbage, a deep recursion's call records) goes now, outside
    // the next one's watch, as `warren batch` tidies between maps.
    host.tidy();
    Ok(map)
}

/// An error is fine if it is not internal, says where it happened and is not oversized.
fn refused(step: &str, e: Error) -> Checked {
    let text = e.to_string();
    if matches!(e, Error::Internal(_)) {
        return Err(Finding(format!("{step}: {text}")));
    }
    if !starts_located(&text) && !whole_file(&text) {
        return Err(Finding(format!("{step}: an error without a line: {text}")));
    }
    if text.len() > MAX_MESSAGE_BYTES + 256 {
        return Err(Finding(format!(
            "{step}: a message of {} bytes",
            text.len()
        )));
    }
    Ok(Outcome::Refused(text))
}

/// Problems with the file as a whole, which have no line to name.
fn whole_file(msg: &str) -> bool {
    [
        "precompiled Lua bytecode is not accepted",
        "scripts may be at most",
        "script is not valid UTF-8",
    ]
    .iter()
    .any(|m| msg.contains(m))
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The first line where two fingerprints differ, both ways.
fn first_difference(a: &str, b: &str) -> String {
    let (mut la, mut lb) = (a.lines(), b.lines());
    for n in 1.. {
        match (la.next(), lb.next()) {
            (None, None) => break,
            (x, y) if x == y => continue,
            (x, y) => {
                let cut =
                    |s: Option<&str>| s.unwrap_or("(end)").chars().take(300).collect::<String>();
                return format!("line {n}:\n  fresh:  {}\n  reused: {}", cut(x), cut(y));
            }
        }
    }
    "(the same lines)".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn target(dir: &Path) -> Recipes {
        Recipes::new(&root(), dir).unwrap()
    }

    #[test]
    fn a_shipped_recipe_passes_every_oracle() {
        let _alone = crate::MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let rooms = std::fs::read(root().join("scripts/rooms.lua")).unwrap();
        assert_eq!(target(dir.path()).run(&rooms), Ok(Outcome::Accepted));
    }

    #[test]
    fn a_runaway_recipe_is_refused_at_its_line() {
        let _alone = crate::MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let spin = b"return { name = 'spin', params = { width = { default = 16 }, height = { default = 16 } },\n  generate = function(map, ctx)\n    while true do end\n  end }\n";
        let out = target(dir.path()).run(spin).unwrap();
        let Outcome::Refused(msg) = out else {
            panic!("accepted")
        };
        assert!(
            msg.contains("fuzz.lua:3: instruction budget exceeded"),
            "{msg}"
        );
    }

    #[test]
    fn a_region_part_is_loaded_beside_the_shipped_files() {
        let _alone = crate::MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let recipe = b"return { name = 'r', params = { width = { default = 16 }, height = { default = 16 } },\n  generate = function(map, ctx)\n    map:fill('fuzzed floor')\n  end }\n--@regions\n[[terrain]]\nname = \"fuzzed floor\"\nglyph = \"_\"\ncolor = \"#123456\"\nsolid = false\n";
        assert_eq!(target(dir.path()).run(recipe), Ok(Outcome::Accepted));
        let alone = &recipe[..find(recipe, b"--@regions").unwrap()];
        let refused = target(dir.path()).run(alone);
        assert!(
            matches!(&refused, Ok(Outcome::Refused(m)) if m.contains("fuzzed floor")),
            "without its region part: {refused:?}"
        );
        let broken = b"return {}\n--@regions\n[[terrain]]\nname = 5\n";
        assert_eq!(target(dir.path()).run(broken), Ok(Outcome::Skipped));
    }
}
