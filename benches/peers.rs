//! warren against a peer, side by side in one run: `scripts/rooms.lua` at 80×50 (random rooms,
//! nearest corridors) and the `mapgen` crate's `SimpleRooms` + `NearestCorridors` at the same
//! size, generation only. Criterion times each; then the two are timed again in alternating
//! rounds (A B A B …, so a busy neighbour slows both alike) and the ratios printed, with warren
//! both alone and with the statistics `warren batch` adds:
//!
//! ```text
//! cargo bench --bench peers
//! ```

use criterion::Criterion;
use mapgen::{MapBuilder, NearestCorridors, SimpleRooms};
use rand08::{rngs::StdRng, SeedableRng};
use std::hint::black_box;
use std::time::Instant;
use warren_core::stats::Measurer;
use warren_lua::{Host, ParamValues, Run};

mod common;
use common::median;

// The allocator the warren binary uses, so figures match `warren batch`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Maps per alternating round, and rounds.
const ROUND: u64 = 2_000;
const ROUNDS: usize = 9;

/// The rooms recipe on one reused Lua state, at 80×50.
struct Warren {
    host: Host,
    params: ParamValues,
    measurer: Measurer,
}

impl Warren {
    fn new() -> Warren {
        let host = common::host("scripts/rooms.lua");
        let params = match host.resolve_params(&[]) {
            Ok(p) => p,
            Err(e) => panic!("rooms.lua's defaults: {e}"),
        };
        Warren {
            host,
            params,
            measurer: Measurer::new(),
        }
    }

    /// One map; with `measure`, also its statistics, as `warren batch` takes them.
    fn map(&mut self, seed: u64, measure: bool) {
        let run = Run {
            seed,
            params: &self.params,
            depth: 1,
            above: None,
        };
        match self.host.generate(&run) {
            Ok(map) => {
                if measure {
                    black_box(self.measurer.measure(&map));
                }
                self.host.recycle(black_box(map));
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
}

/// One mapgen map: random rooms joined to their nearest neighbours, 80×50.
fn mapgen_map(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let map = MapBuilder::new(80, 50)
        .with(SimpleRooms::new())
        .with(NearestCorridors::new())
        .build_with_rng(&mut rng);
    black_box(map);
}

/// Seconds per map of `ROUND` maps of `f`, seeds from `from`.
fn round(from: u64, mut f: impl FnMut(u64)) -> f64 {
    let started = Instant::now();
    for seed in from..from + ROUND {
        f(seed);
    }
    started.elapsed().as_secs_f64() / ROUND as f64
}

fn main() {
    let mut warren = Warren::new();
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("peers 80x50");
    let mut seed = 0;
    group.bench_function("warren rooms.lua, generation", |b| {
        b.iter(|| {
            seed += 1;
            warren.map(seed, false)
        })
    });
    group.bench_function("warren rooms.lua, generation + statistics", |b| {
        b.iter(|| {
            seed += 1;
            warren.map(seed, true)
        })
    });
    group.bench_function("mapgen SimpleRooms + NearestCorridors", |b| {
        b.iter(|| {
            seed += 1;
            mapgen_map(seed)
        })
    });
    group.finish();
    c.final_summary();

    let (mut alone, mut whole, mut peer) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..ROUNDS {
        let from = 1_000_000 + r as u64 * ROUND;
        alone.push(round(from, |s| warren.map(s, false)));
        peer.push(round(from, mapgen_map));
        whole.push(round(from, |s| warren.map(s, true)));
    }
    let (alone, whole, peer) = (median(alone), median(whole), median(peer));
    println!("\nside by side, {ROUNDS} alternating rounds of {ROUND} maps, medians per map:");
    println!(
        "  warren rooms.lua 80x50, generation:              {:7.2} µs",
        alone * 1e6
    );
    println!(
        "  warren rooms.lua 80x50, generation + statistics: {:7.2} µs",
        whole * 1e6
    );
    println!(
        "  mapgen rooms + nearest corridors 80x50:          {:7.2} µs",
        peer * 1e6
    );
    println!(
        "  ratio warren / mapgen, generation:               {:7.2}",
        alone / peer
    );
    println!(
        "  ratio warren / mapgen, with statistics:          {:7.2}",
        whole / peer
    );
}
