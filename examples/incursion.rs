//! Incursion's level generator from Rust alone: warren-core's phases in the order
//! `scripts/dungeon.lua` calls them (vaults and the chasms carried down from the level above
//! left out, for brevity), on the shipped region files, with no Lua at all. A game that wants
//! Incursion's levels and nothing else can depend on `warren-core` only.
//!
//! ```text
//! cargo run -p warren-core --example incursion -- [SEED] [--depth N] [--regions DIR]
//! ```
//!
//! Prints the level as text, then one line: its size, rooms, tunnels, doors by state, and
//! whether every open cell is reachable (the fix-up's guarantee).

use std::io::Write;
use std::path::PathBuf;
use warren_core::gen::connectivity::components;
use warren_core::gen::doors::{finish_doors, FinishDoors};
use warren_core::gen::dungeon::{
    connect_panels, down_stairs, draw_rooms, fixup_level, init_level, write_streamer, FixupOptions,
    LevelPanels, StairPlacement,
};
use warren_core::gen::meter::Unmetered;
use warren_core::gen::tunnel::{TunnelFlags, TunnelLevel};
use warren_core::map::{DoorState, Map};
use warren_core::region::Registry;
use warren_core::render::{text, View};
use warren_core::rng::Rng;

/// What the command line asks for.
struct Options {
    seed: u64,
    depth: u32,
    regions: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        seed: 1,
        depth: 1,
        regions: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../regions")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--depth" => {
                o.depth = value("--depth")?
                    .parse()
                    .map_err(|_| "--depth: a whole number")?
            }
            "--regions" => o.regions = PathBuf::from(value("--regions")?),
            seed => o.seed = seed.parse().map_err(|_| format!("not a seed: {seed}"))?,
        }
    }
    Ok(o)
}

fn main() {
    let result = options().and_then(|o| {
        let registry = Registry::load_dir(&o.regions).map_err(|e| e.to_string())?;
        generate(&registry, o.seed, o.depth).map_err(|e| e.to_string())
    });
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// One level, printed, with its summary line.
fn generate(registry: &Registry, seed: u64, depth: u32) -> Result<(), Box<dyn std::error::Error>> {
    let regions = &registry.resolved;
    let d = &regions.dungeon;
    let rng = Rng::new(seed);
    // A game with budgets passes its own `Meter`; this one lets every phase run to the end.
    let meter = &mut Unmetered;

    // 1. Rock inside an indestructible edge, cut into panels.
    let (width, height) = d.level_size();
    let mut map = Map::new(
        width.into(),
        height.into(),
        registry.map_fill,
        registry.terrains().clone(),
    )?;
    let panels = init_level(
        &mut map,
        width,
        height,
        d.panel_size(),
        registry.map_fill,
        registry.map_edge,
        meter,
    )?;
    let mut level = LevelPanels::new(panels);

    // 2. Streamers (rivers, chasms, veins) chosen by weight among those allowed this deep.
    let mut r = rng.stream("streamers");
    let streamers: Vec<_> = regions
        .streamers
        .iter()
        .filter(|s| depth >= s.min_depth)
        .collect();
    let weights: Vec<f64> = streamers.iter().map(|s| s.weight).collect();
    let count = r.range(d.def.min_streamers, d.def.max_streamers);
    for _ in 0..count {
        if let Some(i) = r.weighted_index(&weights) {
            write_streamer(&mut map, &mut r, &streamers[i].style, meter)?;
        }
    }

    // 3. One room in every other panel, of a kind drawn by the room regions' weights.
    //    On levels 1 to 3 ([dungeon] wooden_door_depth) their doors are wooden.
    let rooms: Vec<_> = regions
        .rooms
        .iter()
        .filter(|room| (room.min_depth..=room.max_depth).contains(&depth))
        .map(|room| room.choice_at(d, depth))
        .collect();
    let drawn = draw_rooms(
        &mut map,
        &mut rng.stream("rooms"),
        &level,
        &rooms.iter().collect::<Vec<_>>(),
        &d.room_limits(depth),
        meter,
    )?;
    for room in &drawn {
        level.use_panel(room.panel)?;
    }

    // 4. A tunnel between each pair of neighbouring panels, then the fix-up that joins every
    //    open area into one.
    let config = regions.tunnel_config(d.panel_size(), None, depth)?;
    let mut tunnels = TunnelLevel::default();
    let flags = TunnelFlags {
        direct: true,
        wander: true,
        ..TunnelFlags::default()
    };
    let dug = connect_panels(
        &mut map,
        &level.panels,
        &config,
        &mut tunnels,
        &mut rng.stream("tunnels"),
        flags,
        meter,
    )?;
    let fixup = FixupOptions {
        bridge: d.bridge,
        ..FixupOptions::default()
    };
    let report = fixup_level(
        &mut map,
        &config,
        &mut tunnels,
        &mut rng.stream("fixup"),
        &fixup,
        meter,
    )
    .map_err(|e| e.to_string())?;

    // 5. Down stairs in rooms, then Incursion's door pass.
    let mut r = rng.stream("stairs");
    if let Some(stair) = d.down_stairs {
        let count = r.range(d.def.min_stairs, d.def.max_stairs) as u32;
        down_stairs(
            &mut map,
            &mut r,
            stair,
            count,
            (&[], StairPlacement::Rooms),
            meter,
        )?;
    }
    let states = finish_doors(
        &mut map,
        &mut rng.stream("doors"),
        &FinishDoors {
            depth,
            ..FinishDoors::default()
        },
    );

    let doors: Vec<String> = DoorState::ALL
        .iter()
        .zip(states)
        .map(|(state, n)| format!("{n} {}", state.name()))
        .collect();
    let areas = components(&map, fixup.adjacency).len();
    let mut out = std::io::stdout().lock();
    out.write_all(text::ascii(&View::terrain(&map)).as_bytes())?;
    writeln!(
        out,
        "seed {seed}, depth {depth}: {width}×{height}, {} rooms, {} tunnels (+{} by the fix-up), doors: {}; {}",
        drawn.len(),
        dug.len(),
        report.tunnels.len(),
        doors.join(", "),
        if areas == 1 {
            "one connected area".to_string()
        } else {
            format!("{areas} separate areas")
        }
    )?;
    Ok(())
}
