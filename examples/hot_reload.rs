//! A game that follows its region files: it keeps one `Host`, and whenever a modder saves a
//! region file it gets the new registry and regenerates. A broken edit is reported and the last
//! good registry stays in force.
//!
//! ```sh
//! cargo run --example hot_reload -- regions scripts/rooms.lua 60   # watch for 60 seconds
//! ```
//! Then edit `regions/terrain.toml` (change the floor's glyph) and watch the map change.

use std::time::{Duration, Instant};
use warren_lua::watch::{HotRegistry, RegistryUpdate};
use warren_lua::{Host, Limits, Run};

fn main() -> Result<(), warren_lua::Error> {
    let mut args = std::env::args().skip(1);
    let regions = args.next().unwrap_or_else(|| "regions".into());
    let script = args.next().unwrap_or_else(|| "scripts/rooms.lua".into());
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(30);

    let mut hot = HotRegistry::open(regions.as_ref())?;
    let mut host = Host::load(script.as_ref(), hot.current(), Limits::default())?;
    let params = host.resolve_params(&[])?;
    let level = |host: &Host| {
        host.generate(&Run {
            seed: 7,
            params: &params,
            depth: 1,
            above: None,
        })
    };
    print!(
        "{}",
        warren_core::render::text::ascii(&warren_core::render::View::terrain(&level(&host)?))
    );

    // The game loop: a real game would call `hot.poll()` once per frame instead of waiting.
    let end = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < end {
        match hot.wait(Duration::from_millis(250)) {
            Some(RegistryUpdate::Reloaded(registry)) => {
                host.set_registry(registry)?;
                match level(&host) {
                    Ok(map) => print!(
                        "regions reloaded:\n{}",
                        warren_core::render::text::ascii(&warren_core::render::View::terrain(&map))
                    ),
                    Err(e) => eprintln!("generation failed, keeping the last map: {e}"),
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
