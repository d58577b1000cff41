//! A game that depends on warren by path: it loads a shipped recipe, generates one map and
//! prints it as text. `.ci/game-crate` builds it outside the workspace and compares the map
//! with the golden file of the same recipe and seed.
//!
//! ```sh
//! warren-game WARREN_DIR RECIPE SEED   # e.g. warren-game ~/warren scripts/rooms.lua 7
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use warren_core::render::{text, View};
use warren_lua::{run, Host, Limits, Run};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, recipe, seed] = args.as_slice() else {
        return Err("usage: warren-game WARREN_DIR RECIPE SEED".into());
    };
    let script = PathBuf::from(root).join(recipe);
    let registry = Arc::new(run::load_registry(None, &script)?);
    let host = Host::load(&script, registry, Limits::default())?;
    let params = host.resolve_params(&[])?;
    let map = host.generate(&Run {
        seed: seed.parse()?,
        params: &params,
        depth: 1,
        above: None,
    })?;
    print!("{}", text::ascii(&View::terrain(&map)));
    Ok(())
}
