//! Map primitives: priority writes, rectangles, lines and corridors, and the statistics warren
//! takes of every map. (Tunnels: benches/tunnel.rs; flood fill: benches/flood.rs; status lists:
//! benches/town.rs.)

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use warren_core::gen::meter::Unmetered;
use warren_core::gen::rooms::{scatter_rooms, ScatterOptions};
use warren_core::map::{
    bresenham_cells, priority, Brush, DogLeg, Map, Point, Rect, Rgb, Terrain, TerrainTable,
};
use warren_core::region::Registry;
use warren_core::rng::Rng;
use warren_core::stats::Measurer;
use warren_lua::{Host, Limits, Run};

fn table() -> Arc<TerrainTable> {
    let t = |name: &str, glyph, solid| Terrain {
        name: name.into(),
        glyph,
        color: Rgb(9, 9, 9),
        solid,
        hazard: false,
        move_cost: None,
    };
    Arc::new(TerrainTable::new(vec![
        t("rock", '#', true),
        t("floor", '.', false),
    ]))
}

fn map(w: i64, h: i64) -> Map {
    match Map::new(w, h, 0, table()) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

fn writes(c: &mut Criterion) {
    let mut m = map(256, 256);
    let floor = Brush::new(1).priority(priority::ROOM_FLOOR);
    let mut rng = Rng::new(1);
    let cells: Vec<Point> = (0..4096)
        .map(|_| Point::new(rng.range(0, 255) as i32, rng.range(0, 255) as i32))
        .collect();
    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Elements(cells.len() as u64));
    g.bench_function("priority write, 4096 random cells", |b| {
        b.iter(|| {
            for &p in &cells {
                let _ = black_box(m.write(p, &floor));
            }
        })
    });
    let room = Rect::new(10, 10, 200, 200);
    g.throughput(Throughput::Elements(200 * 200));
    g.bench_function("fill_rect 200x200, priority", |b| {
        b.iter(|| black_box(m.fill_rect(&room, &floor)))
    });
    g.bench_function("fill_rect 200x200, plain", |b| {
        b.iter(|| black_box(m.fill_rect(&room, &Brush::new(1))))
    });
    g.throughput(Throughput::Elements(4 * 199));
    g.bench_function("outline_rect 200x200", |b| {
        b.iter(|| black_box(m.outline_rect(&room, &floor)))
    });
    // A small map's rooms: what `map:carve_rooms` writes in a `rooms.lua` map, short rows.
    let mut small = map(80, 50);
    let opts = ScatterOptions {
        attempts: 30,
        min_size: 6,
        max_size: 10,
    };
    let rooms = match scatter_rooms(80, 50, &mut Rng::new(7), &opts, &mut Unmetered) {
        Ok(rooms) => rooms,
        Err(e) => panic!("{e}"),
    };
    let cells: u64 = rooms.iter().map(|r| (r.w * r.h) as u64).sum();
    g.throughput(Throughput::Elements(cells));
    let name = format!("fill_rect of a rooms map's {} rooms, plain", rooms.len());
    let mut terrain = 0;
    g.bench_function(name, |b| {
        b.iter(|| {
            // Rock and floor in turn, so that every write changes the cells.
            terrain ^= 1;
            for r in &rooms {
                match small.fill_rect(r, &Brush::new(terrain)) {
                    Ok(cells) => black_box(cells),
                    Err(e) => panic!("{e}"),
                };
            }
        })
    });
    g.finish();
}

fn paths(c: &mut Criterion) {
    let mut m = map(256, 256);
    let floor = Brush::new(1);
    let (a, z) = (Point::new(3, 7), Point::new(250, 201));
    let mut carved = Vec::new();
    let mut g = c.benchmark_group("path");
    g.throughput(Throughput::Elements(248));
    g.bench_function("bresenham carve 248 cells", |b| {
        b.iter(|| {
            carved.clear();
            black_box(m.carve_into(bresenham_cells(a, z), &floor, &mut carved))
        })
    });
    g.throughput(Throughput::Elements(442));
    g.bench_function("dogleg carve 442 cells", |b| {
        b.iter(|| {
            carved.clear();
            black_box(m.carve_dogleg(a, z, DogLeg::VerticalFirst, &floor, &mut carved))
        })
    });
    g.finish();
}

/// A cellular-automaton cave (45 % rock, four smoothing passes), deterministic for a seed.
fn cave(w: i64, h: i64, seed: u64) -> Map {
    let mut rng = Rng::new(seed);
    let (wu, hu) = (w as usize, h as usize);
    let mut rock: Vec<bool> = (0..wu * hu).map(|_| rng.percent(45)).collect();
    for _ in 0..4 {
        let prev = rock.clone();
        for y in 0..hu {
            for x in 0..wu {
                let mut n = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        let off = nx < 0 || ny < 0 || nx >= w || ny >= h;
                        n += usize::from(off || prev[nx as usize + ny as usize * wu]);
                    }
                }
                rock[x + y * wu] = n >= 5;
            }
        }
    }
    let mut m = map(w, h);
    for (i, &r) in rock.iter().enumerate() {
        if !r {
            m.write_index(i, &Brush::new(1).forced());
        }
    }
    m
}

/// 80×50 maps of scripts/rooms.lua with its default parameters (seeds `0..count`): rooms joined
/// by one-wide corridors, the maps `warren batch scripts/rooms.lua` measures.
fn rooms(count: u64) -> Vec<Map> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let Ok(registry) = Registry::load_dir(&root.join("regions")) else {
        panic!("the shipped regions load");
    };
    let script = root.join("scripts/rooms.lua");
    let generated = Host::load(&script, Arc::new(registry), Limits::default()).and_then(|host| {
        let params = host.resolve_params(&[])?;
        (0..count)
            .map(|seed| {
                host.generate(&Run {
                    seed,
                    params: &params,
                    depth: 1,
                    above: None,
                })
            })
            .collect()
    });
    match generated {
        Ok(maps) => maps,
        Err(e) => panic!("rooms.lua: {e}"),
    }
}

fn statistics(c: &mut Criterion) {
    let mut g = c.benchmark_group("statistics");
    let mut measurer = Measurer::new();
    // Each case cycles through distinct maps, as a batch does, so that branch predictors cannot
    // learn one map by heart.
    let cases = [
        (
            "cave 80x50",
            (1..=64).map(|s| cave(80, 50, s)).collect::<Vec<_>>(),
        ),
        ("rooms 80x50", rooms(256)),
        ("cave 256x256", (1..=8).map(|s| cave(256, 256, s)).collect()),
    ];
    for (name, maps) in &cases {
        g.throughput(Throughput::Elements(maps[0].len() as u64));
        let mut next = maps.iter().cycle();
        g.bench_function(format!("measure {name}"), |b| {
            b.iter(|| black_box(measurer.measure(next.next().expect("endless"))))
        });
    }
    g.finish();
}

criterion_group!(benches, writes, paths, statistics);
criterion_main!(benches);
