//! Times the whole default recipe (`scripts/dungeon.lua`, one 128×128 level through the Lua
//! host, as `warren run` makes it) and the flood-fill primitives on the levels it makes.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use warren_core::gen::connectivity::{Components, Connectivity};
use warren_core::map::{passable, Adjacency};
use warren_core::region::Registry;
use warren_lua::{Host, Limits, Run};

fn host() -> Host {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let registry = Registry::load_dir(&root.join("regions")).expect("shipped regions load");
    Host::load(
        &root.join("scripts/dungeon.lua"),
        Arc::new(registry),
        Limits::default(),
    )
    .expect("recipe loads")
}

fn bench(c: &mut Criterion) {
    let host = host();
    let params = host.resolve_params(&[]).expect("defaults");
    let mut seed = 0;
    c.bench_function("dungeon.lua: one 128x128 level", |b| {
        b.iter(|| {
            seed += 1;
            let map = host
                .generate(&Run {
                    seed,
                    params: &params,
                    depth: 1 + (seed % 5) as u32,
                    above: None,
                })
                .expect("level generates");
            black_box(map)
        })
    });

    let mut level = host
        .generate(&Run {
            seed: 7,
            params: &params,
            depth: 3,
            above: None,
        })
        .expect("level generates");
    let first = level
        .flag_cells()
        .iter()
        .position(|&f| passable(f))
        .map(|i| level.point(i))
        .expect("a passable cell");
    let mut scratch = Connectivity::new();
    c.bench_function(
        "flood fill: mark_connected on a 128x128 dungeon level",
        |b| b.iter(|| black_box(scratch.mark_connected(&mut level, first, Adjacency::Eight))),
    );
    let mut comps = Components::new();
    c.bench_function("flood fill: components of a 128x128 dungeon level", |b| {
        b.iter(|| {
            scratch.components(&level, &mut comps, Adjacency::Eight);
            black_box(comps.len())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
