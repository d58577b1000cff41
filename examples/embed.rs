//! Embedding warren's Lua host in a game (`warren-lua` only: no command line, no PNG, no
//! threads): load a recipe and the region directory once, generate a run of levels (each level
//! sees the one above), and regenerate whenever a modder saves a region file — a broken edit is
//! reported and the last good registry stays in force.
//!
//! ```sh
//! cargo run -p warren-lua --example embed                       # follow regions/ for 30 s
//! cargo run -p warren-lua --example embed -- --demo             # edit a copy itself, then exit
//! cargo run -p warren-lua --example embed -- regions scripts/dungeon.lua 60
//! ```
//!
//! With `--demo` the example works on a copy of `regions/`, changes the floor's glyph in it and
//! checks that the regenerated levels show the new glyph (CI runs it this way).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warren_core::render::{text, View};
use warren_lua::run::GeneratedLevel;
use warren_lua::watch::{HotRegistry, RegistryUpdate};
use warren_lua::{run, Host, Limits, ParamValues};

/// How many levels the game asks for at once.
const LEVELS: u32 = 3;
/// The seed of the run.
const SEED: u64 = 7;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--demo") {
        return demo();
    }
    let regions = args.first().map_or("regions", String::as_str);
    let script = args.get(1).map_or("scripts/rooms.lua", String::as_str);
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    follow(
        Path::new(regions),
        Path::new(script),
        Duration::from_secs(seconds),
        |levels| {
            print!("{}", show(levels));
            false
        },
    )
}

/// The game: load once, generate [`LEVELS`] levels, and regenerate after every good edit of the
/// region files until `time` has passed or `after_reload` says to stop.
fn follow(
    regions: &Path,
    script: &Path,
    time: Duration,
    mut after_reload: impl FnMut(&[GeneratedLevel]) -> bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut hot = HotRegistry::open(regions)?;
    let mut host = Host::load(script, hot.current(), Limits::default())?;
    let params = host.resolve_params(&[])?;
    let levels = generate(&host, &params)?;
    println!(
        "{} levels of {} generated; waiting for region edits",
        levels.len(),
        script.display()
    );
    // A real game would call `hot.poll()` once per frame instead of waiting.
    let end = Instant::now() + time;
    while Instant::now() < end {
        match hot.wait(Duration::from_millis(100)) {
            Some(RegistryUpdate::Reloaded(registry)) => {
                host.set_registry(registry)?;
                match generate(&host, &params) {
                    Ok(levels) => {
                        println!("regions reloaded; levels regenerated");
                        if after_reload(&levels) {
                            return Ok(());
                        }
                    }
                    Err(e) => eprintln!("generation failed, keeping the last levels: {e}"),
                }
            }
            Some(RegistryUpdate::Failed(errors)) => {
                eprintln!("region files are broken; keeping the last good ones:\n{errors}")
            }
            None => {}
        }
    }
    Ok(())
}

fn generate(host: &Host, params: &ParamValues) -> warren_lua::Result<Vec<GeneratedLevel>> {
    run::generate_levels(host, SEED, params, LEVELS)
}

/// The levels as text, one after the other.
fn show(levels: &[GeneratedLevel]) -> String {
    levels
        .iter()
        .map(|l| {
            format!(
                "depth {}:\n{}",
                l.depth,
                text::ascii(&View::terrain(&l.map))
            )
        })
        .collect()
}

/// Follows a copy of `regions/`, edits it, and checks the regenerated levels changed.
fn demo() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let copy = std::env::temp_dir().join(format!("warren-embed-{}", std::process::id()));
    std::fs::create_dir_all(&copy)?;
    for entry in std::fs::read_dir(root.join("regions"))? {
        let entry = entry?;
        std::fs::copy(entry.path(), copy.join(entry.file_name()))?;
    }
    let terrain = copy.join("terrain.toml");
    let script: PathBuf = root.join("scripts/rooms.lua");
    let before = {
        let registry = std::sync::Arc::new(warren_core::region::Registry::load_dir(&copy)?);
        let host = Host::load(&script, registry, Limits::default())?;
        show(&generate(&host, &host.resolve_params(&[])?)?)
    };
    // The modder's edit, a moment after the game started following the files.
    let edit = {
        let terrain = terrain.clone();
        std::thread::spawn(move || -> std::io::Result<()> {
            std::thread::sleep(Duration::from_millis(500));
            let text = std::fs::read_to_string(&terrain)?;
            let edited = text.replacen("glyph = \".\"", "glyph = \",\"", 1);
            assert_ne!(text, edited, "terrain.toml has a floor drawn as '.'");
            std::fs::write(&terrain, edited)
        })
    };
    let mut after = None;
    follow(&copy, &script, Duration::from_secs(20), |levels| {
        after = Some(show(levels));
        true
    })?;
    edit.join().expect("the edit thread finished")?;
    std::fs::remove_dir_all(&copy)?;
    let after = after.ok_or("the edit was never seen")?;
    if after == before || !after.contains(',') {
        return Err("the regenerated levels do not show the edited glyph".into());
    }
    println!("the edit was followed: {} levels regenerated", LEVELS);
    Ok(())
}
