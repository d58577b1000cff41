//! TownMaze benchmarks: a whole 399×399 town, and the status-list operations it leans on.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{StatusLists, Town, TownParams};
use warren_core::rng::Rng;

fn big() -> TownParams {
    TownParams {
        height: 399,
        width: 399,
        ..TownParams::default()
    }
}

fn whole_town(c: &mut Criterion) {
    let params = big();
    let mut seed = 0;
    c.bench_function("town 399x399 generate", |b| {
        b.iter(|| {
            seed += 1;
            black_box(
                Town::generate(&params, &mut Rng::new(seed), &mut Unmetered)
                    .map(|t| t.chars().len()),
            )
        })
    });
    let crowded = TownParams {
        gates: TownParams::max_gates(399, 399),
        leftgates: 10,
        courts: TownParams::max_courts(399, 399),
        unused: TownParams::max_unused(399, 399),
        straightness: 998,
        ..big()
    };
    c.bench_function("town 399x399 crowded, straightness 998", |b| {
        b.iter(|| {
            seed += 1;
            black_box(
                Town::generate(&crowded, &mut Rng::new(seed), &mut Unmetered)
                    .map(|t| t.chars().len()),
            )
        })
    });
}

fn status_lists(c: &mut Criterion) {
    const CELLS: usize = 199 * 199;
    let names = ["isolated", "live", "dead", "street", "unused"];
    c.bench_function("status lists: 10k moves", |b| {
        b.iter_batched(
            || (StatusLists::new(CELLS, &names, 0), Rng::new(1)),
            |(lists, mut rng)| {
                let Ok(mut lists) = lists else { return };
                for _ in 0..10_000 {
                    let cell = rng.below(CELLS as u64) as usize;
                    let status = rng.below(5) as usize;
                    let _ = lists.move_to(cell, status);
                }
                black_box(lists.count(0).ok());
            },
            BatchSize::SmallInput,
        )
    });
    let mut rng = Rng::new(2);
    let Ok(mut lists) = StatusLists::new(CELLS, &names, 0) else {
        return;
    };
    for cell in (0..CELLS).step_by(3) {
        let _ = lists.move_to(cell, 1);
    }
    c.bench_function("status lists: 10k uniform picks", |b| {
        b.iter(|| {
            for _ in 0..10_000 {
                black_box(lists.pick(1, &mut rng).ok());
            }
        })
    });
}

criterion_group!(benches, whole_town, status_lists);
criterion_main!(benches);
