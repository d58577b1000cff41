//! `warren-fuzz`: the libFuzzer targets for warren's region loading ([`regions`]) and recipe host
//! ([`recipes`]), and the oracles they hold each input to ([`oracle`]). The targets themselves
//! (`fuzz_targets/*.rs`) only hand libFuzzer's bytes to [`regions::Regions::run`] and
//! [`recipes::Recipes::run`]; run them with cargo-fuzz (see `docs/fuzzing.md`):
//!
//! ```sh
//! cargo fuzz run --fuzz-dir crates/fuzz regions crates/fuzz/corpus/regions crates/fuzz/seeds/regions regions
//! ```
//!
//! Beyond "no crash", an input fails (the target panics, libFuzzer's panic hook aborts, and the
//! input is saved under `crates/fuzz/artifacts/`) when:
//!
//! - an error does not say where it happened (`file:line`, or `file:line:col` for regions), is
//!   an internal error, or is longer than a message may be;
//! - a generation ends later than its clock budget + [`oracle::STOP_SLACK`];
//! - a generation's peak resident memory grows past its memory limit +
//!   [`oracle::RSS_OVERHEAD`] (the figure `docs/limits.md` promises);
//! - a map from a fresh host differs from the same seed's map from a host that made other maps
//!   first, as `warren run` and `warren batch` make them;
//! - loading the same region files twice gives different results.
//!
//! The program's allocator is [`warren_lua::account::Counting`], as in the `warren` binary, so a
//! generation's memory account is kept by the allocator here too.

pub mod oracle;
pub mod recipes;
pub mod regions;

/// The allocator the `warren` binary counts with (over the system's allocator here).
#[global_allocator]
static ALLOCATOR: warren_lua::account::Counting<std::alloc::System> =
    warren_lua::account::Counting(std::alloc::System);

/// What one input did, when it broke no oracle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The input loaded (and, for recipes, generated its maps).
    Accepted,
    /// The input was refused as it should be, with this message.
    Refused(String),
    /// The input is not one the target can take (a region part that does not load, for the
    /// recipe target): nothing was checked.
    Skipped,
}

/// An oracle the input broke: what is wrong in warren.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding(pub String);

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a target's run gives: an outcome, or the oracle the input broke.
pub type Checked = Result<Outcome, Finding>;

/// Puts back a panic hook that lets panics unwind, in place of libFuzzer's, which aborts at
/// every panic, even one warren catches (`warren check` catches its Lua parser's on a few
/// inputs Lua itself refuses cleanly, a backtick among them). A panic that reaches libFuzzer
/// still ends the process there, and one the host turns into an internal error is a finding
/// of [`recipes`]. Called by the targets before their first input.
pub fn let_panics_unwind() {
    std::panic::set_hook(Box::new(|info| eprintln!("warren-fuzz: {info}")));
}

/// Ends the fuzzing run on a finding: the panic reaches libFuzzer's hook, which aborts, and
/// libFuzzer saves the input.
pub fn enforce(checked: Checked) {
    if let Err(finding) = checked {
        panic!("warren-fuzz finding: {finding}");
    }
}

/// The checkout the fuzzer was built in: its `regions/` and `scripts/lib/` are what inputs are
/// loaded beside.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scratch directory for this process (`$TMPDIR/warren-fuzz-PID`), removed when the process
/// exits: libFuzzer ends with `exit`, which runs no destructors, so the removal is an `atexit`
/// handler. A process that aborts on a finding (or is killed) runs none, so the scratch
/// directories of processes that are gone are removed here first.
pub fn scratch() -> std::path::PathBuf {
    extern "C" fn remove() {
        let _ = std::fs::remove_dir_all(scratch_path());
    }
    fn scratch_path() -> std::path::PathBuf {
        std::env::temp_dir().join(format!("warren-fuzz-{}", std::process::id()))
    }
    for entry in std::fs::read_dir(std::env::temp_dir())
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix("warren-fuzz-"));
        if let Some(pid) = pid.filter(|p| p.parse::<u32>().is_ok()) {
            if !std::path::Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    // SAFETY: `remove` is a plain function that only removes the directory.
    unsafe { libc::atexit(remove) };
    scratch_path()
}

/// Held by every test that measures the process's peak memory: the peak is the whole
/// process's, so two such tests at once would see each other's allocations.
#[cfg(test)]
pub(crate) static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The files with extension `ext` directly in `dir`, sorted.
    fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        out.sort();
        out
    }

    /// The corpus fuzzing starts from replays clean: every seed and every shipped recipe and
    /// region file passes every oracle (what `bash crates/fuzz/fuzz.sh` would stop on at once).
    #[test]
    fn the_seeds_and_the_shipped_files_pass_every_oracle() {
        let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let regions = regions::Regions::new(&root()).unwrap();
        let inputs = files(&root().join("regions"), "toml");
        let seeds = files(&root().join("crates/fuzz/seeds/regions"), "toml");
        assert!(seeds.len() >= 3, "the region seeds are there");
        for path in inputs.iter().chain(&seeds) {
            let out = regions.run(&std::fs::read(path).unwrap());
            assert!(out.is_ok(), "{}: {out:?}", path.display());
        }
        let dir = tempfile::tempdir().unwrap();
        let recipes = recipes::Recipes::new(&root(), dir.path()).unwrap();
        let inputs = files(&root().join("scripts"), "lua");
        let seeds = files(&root().join("crates/fuzz/seeds/recipes"), "lua");
        assert!(seeds.len() >= 100, "the recipe seeds are there");
        let mut accepted = 0;
        for path in inputs.iter().chain(&seeds) {
            let out = recipes.run(&std::fs::read(path).unwrap());
            match out {
                Ok(Outcome::Accepted) => accepted += 1,
                Ok(_) => {}
                Err(finding) => panic!("{}: {finding}", path.display()),
            }
        }
        // Under the small budgets some shipped recipes run out at their default sizes; the
        // simpler ones and the oracle seeds make maps, and so reach the run == batch oracle.
        assert!(accepted >= 5, "only {accepted} inputs made maps");
    }
}
