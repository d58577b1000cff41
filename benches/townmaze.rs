//! The whole `scripts/townmaze.lua` recipe on a 399×399 town, Lua included: parameters, every
//! step, drawing into the map and recording rooms, gates and streets.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use warren_core::region::Registry;
use warren_lua::{Host, Limits, Run};

fn townmaze(c: &mut Criterion) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let Ok(registry) = Registry::load_dir(&root.join("regions")) else {
        panic!("the shipped regions load");
    };
    let Ok(host) = Host::load(
        &root.join("scripts/townmaze.lua"),
        Arc::new(registry),
        Limits::default(),
    ) else {
        panic!("the recipe loads");
    };
    let sets = [
        ("height".to_string(), "399".to_string()),
        ("width".to_string(), "399".to_string()),
    ];
    let Ok(params) = host.resolve_params(&sets) else {
        panic!("399×399 is a valid town");
    };
    let mut seed = 0;
    c.bench_function("townmaze.lua 399x399 (whole recipe)", |b| {
        b.iter(|| {
            seed += 1;
            let map = host.generate(&Run {
                seed,
                params: &params,
                depth: 1,
                above: None,
            });
            black_box(map.map(|m| m.notes.rooms.len()).ok())
        })
    });
}

criterion_group!(benches, townmaze);
criterion_main!(benches);
