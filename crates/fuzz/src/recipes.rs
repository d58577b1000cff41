//! Target `recipes`: the input is a recipe, written to `scripts/fuzz.lua` in a scratch copy of
//! the shipped regions and `scripts/lib`, loaded and (when it loads) run for seed 1 with small
//! budgets, and analysed the way `warren check` analyses it. Whatever it holds, each step must end
//! in a map or an error that starts with `file:line:`; never a panic, an internal error or a
//! hang.

use crate::Outcome;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use warren_core::region::Registry;
use warren_core::render::View;
use warren_lua::check::declared::Declared;
use warren_lua::check::program::{self, Source};
use warren_lua::check::Known;
use warren_lua::located::starts_located;
use warren_lua::{Error, Host, Limits, Run};

/// The recipe target: a scratch directory and the shipped registry.
pub struct Recipes {
    dir: PathBuf,
    script: PathBuf,
    registry: Arc<Registry>,
    known: Known,
    /// The API declarations the analysis checks calls against.
    declared: Declared,
}

/// Budgets small enough that a runaway case costs little.
fn limits() -> Limits {
    Limits {
        instructions: 5_000_000,
        memory: 64 << 20,
        time: Duration::from_secs(1),
    }
}

impl Recipes {
    /// Copies `root/regions` and `root/scripts/lib` into a scratch directory.
    pub fn new(root: &Path) -> Result<Recipes, String> {
        let dir = std::env::temp_dir().join(format!("warren-fuzz-{}", std::process::id()));
        let copy = |from: &Path, to: &Path| -> Result<(), String> {
            std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
            for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
                let p = entry.map_err(|e| e.to_string())?.path();
                if p.is_file() {
                    std::fs::copy(&p, to.join(p.file_name().unwrap_or_default()))
                        .map_err(|e| format!("{}: {e}", p.display()))?;
                }
            }
            Ok(())
        };
        copy(&root.join("regions"), &dir.join("regions"))?;
        copy(&root.join("scripts/lib"), &dir.join("scripts/lib"))?;
        let registry = Registry::load_dir(&dir.join("regions")).map_err(|e| e.to_string())?;
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
            dir,
            registry: Arc::new(registry),
            known,
            declared: Declared::new(),
        })
    }

    /// Loads, runs and analyses `input`, and checks what came out.
    pub fn run(&self, input: &str) -> Outcome {
        // The static analysis first: it must take any text.
        let source = Source {
            path: self.script.clone(),
            text: input.to_string(),
            known: self.known.clone(),
        };
        let _ = program::analyse(&[source], &self.declared);
        if let Err(e) = std::fs::write(&self.script, input) {
            return Outcome::Finding(format!("cannot write the case: {e}"));
        }
        let host = match Host::load(&self.script, self.registry.clone(), limits()) {
            Ok(h) => h,
            Err(e) => return self.refused("loading", e),
        };
        let params = match host.resolve_params(&[]) {
            Ok(p) => p,
            Err(e) => {
                return Outcome::Finding(format!("the declared defaults do not resolve: {e}"))
            }
        };
        let run = Run {
            seed: 1,
            params: &params,
            depth: 1,
            above: None,
        };
        match host.generate(&run) {
            Ok(map) => {
                let rows = View::terrain(&map).rows();
                if rows.len() != map.height() as usize {
                    return Outcome::Finding(
                        "the map renders with the wrong number of rows".into(),
                    );
                }
                Outcome::Accepted
            }
            Err(e) => self.refused("generating", e),
        }
    }

    /// An error is fine if it is not internal and says where it happened.
    fn refused(&self, step: &str, e: Error) -> Outcome {
        let text = e.to_string();
        if matches!(e, Error::Internal(_)) {
            return Outcome::Finding(format!("{step}: {text}"));
        }
        if !starts_located(&text) && !whole_file(&text) {
            return Outcome::Finding(format!("{step}: an error without a line: {text}"));
        }
        if text.len() > warren_core::message::MAX_MESSAGE_BYTES + 256 {
            return Outcome::Finding(format!("{step}: a message of {} bytes", text.len()));
        }
        Outcome::Refused(crate::class(&text))
    }
}

impl Drop for Recipes {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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

#[cfg(test)]
mod tests {
    use super::starts_located as located;

    #[test]
    fn places() {
        assert!(located("/tmp/x/scripts/fuzz.lua:3: boom"));
        assert!(located("[string \"a: b\"]:1: boom"));
        assert!(!located("/tmp/x/scripts/fuzz.lua: boom"));
    }
}
