//! A game that depends on warren by path: it loads a shipped recipe, generates three levels and
//! prints the first as text, and on stderr where the player starts. `.ci/game-crate` builds it
//! outside the workspace and compares the map with the golden file of the same recipe and
//! seed. docs/game-developers.md shows its calls.
//!
//! ```sh
//! warren-game WARREN_DIR RECIPE SEED   # e.g. warren-game ~/warren scripts/rooms.lua 7
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use warren_core::render::{text, View};
use warren_lua::{run, Host, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, recipe, seed] = args.as_slice() else {
        return Err("usage: warren-game WARREN_DIR RECIPE SEED".into());
    };
    let seed: u64 = seed.parse()?;
    let script = PathBuf::from(root).join(recipe); // e.g. …/scripts/dungeon.lua
    let registry = Arc::new(run::load_registry(None, &script)?); // regions/ beside the script
    let host = Host::load(&script, registry, Limits::default())?;
    let params = host.resolve_params(&[])?; // defaults; or (name, value) pairs of Strings
    let levels = run::generate_levels(&host, seed, &params, 3)?; // each level sees the one above
    let entry = levels[0].map.entry(); // where the player starts
    print!("{}", text::ascii(&View::terrain(&levels[0].map)));
    match entry {
        Some(p) => eprintln!(
            "{} levels; the player starts at ({}, {})",
            levels.len(),
            p.x,
            p.y
        ),
        None => eprintln!("{} levels; level 1 has no cell to stand on", levels.len()),
    }
    Ok(())
}
