//! Target `regions`: the input is one region file, loaded beside the shipped terrain file as
//! `regions/fuzz.toml`. Whatever it holds, loading must give a registry or errors that each name
//! their file, line and column; never a panic, never a hang.

use crate::Outcome;
use std::path::Path;
use warren_core::region::{Registry, Source};
use warren_lua::Limits;

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

    /// Loads `input` and checks what came out.
    pub fn run(&self, input: &str) -> Outcome {
        let sources = vec![
            self.terrain.clone(),
            Source {
                path: "regions/fuzz.toml".into(),
                text: input.into(),
            },
        ];
        match Registry::from_sources(sources) {
            Ok(registry) => {
                // What a run does next with a registry: limits, then `ctx.regions` as data.
                let resolved = Limits::default().lowered_by(&registry);
                for w in &resolved.warnings {
                    if !w.starts_with("regions/fuzz.toml:") {
                        return Outcome::Finding(format!(
                            "a [limits] warning without its place: {w}"
                        ));
                    }
                }
                if let Err(e) = serde_json::to_value(&registry.data) {
                    return Outcome::Finding(format!("registry data does not serialise: {e}"));
                }
                Outcome::Accepted
            }
            Err(errors) => {
                if errors.0.is_empty() {
                    return Outcome::Finding("refused without a reason".into());
                }
                for e in &errors.0 {
                    if e.line == 0 {
                        return Outcome::Finding(format!("an error without a line: {e}"));
                    }
                }
                let shown = errors.to_string();
                if shown.len() > 101 * (warren_core::message::MAX_MESSAGE_BYTES + 64) {
                    return Outcome::Finding(format!("{} bytes of errors", shown.len()));
                }
                Outcome::Refused(crate::class(&errors.0[0].message))
            }
        }
    }
}
