//! Whole recipes, one Lua state reused for every map (as `warren batch` does): the time to
//! generate one map at each size. Adding a recipe or a size is one line in `CASES`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use warren_core::region::Registry;
use warren_lua::{Host, Limits, Run};

// mimalloc, the allocator under the warren binary's memory account (benches/peers.rs says how
// the binary's whole allocator measured beside it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Recipe (under `scripts/`) and the map sizes to time it at.
const CASES: &[(&str, &[(u32, u32)])] = &[
    ("rooms.lua", &[(80, 50), (256, 256)]),
    ("cave.lua", &[(80, 50), (256, 256)]),
    ("dungeon.lua", &[(128, 128), (256, 256)]),
    ("townmaze.lua", &[(77, 23), (399, 399)]),
];

fn recipes(c: &mut Criterion) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let Ok(registry) = Registry::load_dir(&root.join("regions")) else {
        panic!("the shipped regions load");
    };
    let registry = Arc::new(registry);
    let mut group = c.benchmark_group("recipe");
    for &(script, sizes) in CASES {
        let host = match Host::load(
            &root.join("scripts").join(script),
            registry.clone(),
            Limits::default(),
        ) {
            Ok(h) => h,
            Err(e) => panic!("{script}: {e}"),
        };
        for &(w, h) in sizes {
            let sets = [
                ("width".to_string(), w.to_string()),
                ("height".to_string(), h.to_string()),
            ];
            let params = match host.resolve_params(&sets) {
                Ok(p) => p,
                Err(e) => panic!("{script} {w}x{h}: {e}"),
            };
            group.throughput(Throughput::Elements(u64::from(w * h)));
            let mut seed = 0;
            group.bench_function(format!("{script} {w}x{h}"), |b| {
                b.iter(|| {
                    seed += 1;
                    let run = Run {
                        seed,
                        params: &params,
                        depth: 1,
                        above: None,
                    };
                    match host.generate(&run) {
                        Ok(map) => host.recycle(black_box(map)),
                        Err(e) => panic!("{script} seed {seed}: {e}"),
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, recipes);
criterion_main!(benches);
