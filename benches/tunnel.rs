//! Times the tunnel primitive on a 128×128 Incursion-style level: a walled room in each 16×16
//! panel, tunnels dug with a level's usual corridor constants.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::Arc;
use warren_core::gen::tunnel::{
    tunnel, ConstantOverrides, CorridorStyle, DoorTable, TunnelConfig, TunnelConstants,
    TunnelFlags, TunnelLevel, TunnelRequest,
};
use warren_core::map::{priority, Brush, Map, Point, Rect, Rgb, Terrain, TerrainTable};
use warren_core::rng::Rng;

const SIZE: i32 = 128;
const PANEL: i32 = 16;

fn terrain(name: &str, glyph: char, solid: bool) -> Terrain {
    Terrain {
        name: name.into(),
        glyph,
        color: Rgb(128, 128, 128),
        solid,
        hazard: false,
        move_cost: None,
    }
}

/// Rock everywhere, a forced edge, and an 8×8 walled room in the middle of every panel.
fn level() -> Map {
    let table = TerrainTable::new(vec![
        terrain("rock", '#', true),
        terrain("floor", '.', false),
        terrain("wall", 'W', true),
        terrain("door", '+', false),
    ]);
    let mut map = Map::new(SIZE as i64, SIZE as i64, 0, Arc::new(table)).expect("size");
    let edge = Brush::new(0).priority(priority::MAX).forced();
    map.outline_rect(&Rect::new(0, 0, SIZE, SIZE), &edge)
        .expect("on map");
    let room = map.region_id("room");
    let wall = Brush::new(2).priority(priority::ROOM_WALL).region(room);
    let floor = Brush::new(1).priority(priority::ROOM_FLOOR).region(room);
    for py in 0..SIZE / PANEL {
        for px in 0..SIZE / PANEL {
            let r = Rect::new(px * PANEL + 3, py * PANEL + 3, 10, 10);
            map.fill_rect(&r, &wall).expect("on map");
            map.fill_rect(&r.inset(1), &floor).expect("on map");
        }
    }
    map
}

fn config() -> TunnelConfig {
    let style = |name: &str, weight, staple| CorridorStyle {
        name: name.into(),
        weight,
        staple,
        floor: 1,
        walls: 0,
        constants: ConstantOverrides::default(),
    };
    TunnelConfig {
        styles: vec![
            style("winding corridor", 3.0, true),
            style("dusty passage", 1.0, false),
        ],
        default_style: 0,
        constants: TunnelConstants {
            turn_chance: 10,
            stubborn_corridor: 30,
            segment_minlen: 4,
            segment_maxlen: 10,
        },
        panel_width: PANEL,
        panel_height: PANEL,
        doors: DoorTable::uniform(3),
    }
}

fn bench(c: &mut Criterion) {
    let base = level();
    let cfg = config();
    let cases = [
        // Panel connection as in Incursion's Generate: neighbouring rooms, direct + wander.
        (
            "adjacent panels, direct+wander",
            Point::new(12, 8),
            Point::new(19, 40),
            TunnelFlags {
                direct: true,
                wander: true,
                ..TunnelFlags::default()
            },
        ),
        (
            "across the map, no flags",
            Point::new(8, 8),
            Point::new(120, 104),
            TunnelFlags::default(),
        ),
    ];
    for (name, start, dest, flags) in cases {
        let req = TunnelRequest::new(start, dest, flags);
        let mut seed = 0;
        c.bench_function(&format!("tunnel 128x128: {name}"), |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    (base.clone(), TunnelLevel::default(), Rng::new(seed))
                },
                |(mut map, mut level, mut rng)| {
                    let out = tunnel(&mut map, &cfg, &mut level, &req, &mut rng);
                    black_box((out.map(|o| o.path.len()), map))
                },
                BatchSize::SmallInput,
            )
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
