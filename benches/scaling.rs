//! Cost against map size: `scripts/cave.lua` and `scripts/rooms.lua` (generation plus the
//! statistics `warren batch` takes) at 64², 256², 1024² and 4096², as time per cell. Cost is
//! linear in cells when the time per cell stays flat (or falls, as fixed costs spread):
//!
//! ```text
//! cargo bench --bench scaling
//! ```

use criterion::{Criterion, Throughput};
use std::hint::black_box;
use std::time::Instant;
use warren_core::stats::Measurer;
use warren_lua::{Host, ParamValues, Run};

mod common;
use common::host;

// mimalloc, the allocator under the warren binary's memory account (benches/peers.rs says how
// the binary's whole allocator measured beside it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIDES: [u32; 4] = [64, 256, 1024, 4096];
const RECIPES: [&str; 2] = ["cave.lua", "rooms.lua"];

fn params(host: &Host, side: u32) -> ParamValues {
    let sets = [
        ("width".to_string(), side.to_string()),
        ("height".to_string(), side.to_string()),
    ];
    match host.resolve_params(&sets) {
        Ok(p) => p,
        Err(e) => panic!("{side}²: {e}"),
    }
}

/// One map of seed `seed`, generated and measured.
fn map(host: &Host, params: &ParamValues, measurer: &mut Measurer, seed: u64) {
    let run = Run {
        seed,
        params,
        depth: 1,
        above: None,
    };
    match host.generate(&run) {
        Ok(map) => {
            black_box(measurer.measure(&map));
            host.recycle(map);
        }
        Err(e) => panic!("seed {seed}: {e}"),
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut measurer = Measurer::new();
    let mut table = Vec::new();
    for script in RECIPES {
        let host = host(&format!("scripts/{script}"));
        let mut group = c.benchmark_group(format!("scaling {script}"));
        group.sample_size(10);
        for side in SIDES {
            let params = params(&host, side);
            let cells = u64::from(side) * u64::from(side);
            group.throughput(Throughput::Elements(cells));
            let mut seed = 0;
            group.bench_function(format!("{side}x{side}"), |b| {
                b.iter(|| {
                    seed += 1;
                    map(&host, &params, &mut measurer, seed)
                })
            });
            // The same seeds again for the summary: enough maps for about a tenth of a second.
            let maps = (20_000_000 / cells).clamp(5, 2_000);
            let started = Instant::now();
            for s in 0..maps {
                map(&host, &params, &mut measurer, s);
            }
            let per_cell = started.elapsed().as_secs_f64() * 1e9 / (maps * cells) as f64;
            table.push((script, side, per_cell));
        }
        group.finish();
    }
    c.final_summary();
    println!("\ntime per cell (generation + statistics, seeds 0.., mean):");
    for (script, side, ns) in table {
        println!("  {script:10} {side:>4}x{side:<4} {ns:8.2} ns/cell");
    }
}
