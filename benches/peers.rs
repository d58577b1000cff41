//! warren against a peer and against the floor, side by side in one run: `scripts/rooms.lua` at
//! 80×50 (random rooms, nearest corridors), the `mapgen` crate's `SimpleRooms` +
//! `NearestCorridors` at the same size, [`floor`], the same algorithm hand-written with no
//! allocation and one byte a cell (what a C programmer would write: the physical reference),
//! and [`core_calls`], the recipe's calls made on warren-core from Rust (where warren's time
//! goes: its core, or the Lua recipe and the host around it), generation only. Criterion times
//! each; then they are timed again in alternating rounds (A B C D E A B C D E …, so a busy
//! neighbour slows all alike), each round by the CPU time of this thread (time spent waiting for
//! a core on a loaded machine is not counted), and the medians and ratios printed, with warren
//! both alone and with the statistics `warren batch` adds:
//!
//! ```text
//! cargo bench --bench peers
//! ```
//!
//! With `WARREN_PEERS_ONLY` set to `warren`, `warren-statistics`, `mapgen`, `core` or `floor`
//! and `WARREN_PEERS_MAPS` to a count, the bench binary makes that many maps of that one
//! contestant after the same checks and nothing else, for a profiler or a cache simulator to
//! count what one map costs (two counts, one subtracted from the other; BENCHMARKS.md, "cache
//! misses a map").

use criterion::Criterion;
use mapgen::{MapBuilder, NearestCorridors, SimpleRooms};
use rand08::{rngs::StdRng, SeedableRng};
use std::hint::black_box;
use warren_core::map::{Map, Point, TagValue};
use warren_core::stats::Measurer;
use warren_lua::{Host, ParamValues, Run};

mod common;
use common::median;

// mimalloc, the allocator under the warren binary's memory account. The binary's whole stack
// (its account, its own mappings for huge blocks, its mimalloc options) ran the same here:
// ratio to the floor median 1.85 against 1.86, eight alternated runs each, 56.4 k instructions
// a map against 56.1 k (2026-12-02).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The goal for warren's generation against the floor (issue 43, BENCHMARKS.md): at most this
/// many times the floor's time.
const FLOOR_GOAL: f64 = 1.5;
/// The goal for warren with its statistics against the floor's generation.
const FLOOR_GOAL_STATISTICS: f64 = 2.0;

/// Maps per alternating round, and rounds.
const ROUND: u64 = 2_000;
const ROUNDS: usize = 25;

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

    /// The terrains of the maps it makes.
    fn terrains(&mut self) -> std::sync::Arc<warren_core::map::TerrainTable> {
        let run = Run {
            seed: 0,
            params: &self.params,
            depth: 1,
            above: None,
        };
        match self.host.generate(&run) {
            Ok(map) => {
                let terrains = map.terrains().clone();
                self.host.recycle(map);
                terrains
            }
            Err(e) => panic!("seed 0: {e}"),
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

/// The floor: `scripts/rooms.lua`'s algorithm at its defaults (80×50, 30 attempts at rooms of
/// sides 6 to 10, nearest corridors) written the way a C programmer would, in plain safe Rust
/// with no allocation and one byte a cell, for the figure `warren ÷ floor`. It does the same work
/// as the recipe and its primitives, step by step, and makes the same map (checked for the
/// first seeds before anything is timed):
///
/// - the run's generator and its `"rooms"` stream: SplitMix64 + FNV-1a seeding of a 128-bit PCG
///   (`Pcg64Mcg`, XSL-RR output), Lemire's bounded draw (`warren_core::rng::Rng`);
/// - `map:fill(style.wall)`: every cell rock (a `memset` here; warren's recycled map is already
///   rock, so its fill writes nothing);
/// - `warren.gen.scatter_rooms`: per attempt four draws (w, h, x, y) and an overlap-or-touch test
///   against every kept room (`gen::rooms::scatter_rooms`);
/// - `map:carve_rooms`: each room's cells floor, the room recorded (`gen::rooms::carve_rooms`);
/// - `rooms:sort("leftmost")`: by x, then y;
/// - `warren.gen.connect_rooms` with `"nearest"`: each room paired with its nearest unconnected
///   room by centre distance, joined by a dog-leg x then y, the cells it changed recorded as the
///   corridor (`gen::rooms::connect_rooms`; the `"corridors"` stream draws nothing here);
/// - `warren.gen.start_and_stairs`: stairs at the last room's centre, the start at the first's.
///
/// Left out, as bookkeeping without a C counterpart: the two tags and the two snapshots (which
/// record nothing outside `--frames`), the map's priority, region and flag planes, and the meter.
mod floor {
    /// Map size, as `rooms.lua`'s defaults.
    pub const W: usize = 80;
    /// Map height.
    pub const H: usize = 50;
    const ATTEMPTS: usize = 30;
    const MIN_SIZE: i64 = 6;
    const MAX_SIZE: i64 = 10;
    /// Cell values.
    pub const ROCK: u8 = 0;
    pub const FLOOR: u8 = 1;
    pub const STAIRS: u8 = 2;
    /// At most one corridor per room, each at most one row plus one column long.
    const MAX_CORRIDOR_CELLS: usize = ATTEMPTS * (W + H);

    /// A room's floor: `x..x + w` × `y..y + h`.
    #[derive(Clone, Copy, Default)]
    pub struct Room {
        pub x: i32,
        pub y: i32,
        pub w: i32,
        pub h: i32,
    }

    impl Room {
        fn center(self) -> (i32, i32) {
            (self.x + (self.w - 1) / 2, self.y + (self.h - 1) / 2)
        }
    }

    /// A generated map with what it records, reused from map to map.
    pub struct Map {
        pub cells: [u8; W * H],
        pub rooms: [Room; ATTEMPTS],
        pub n_rooms: usize,
        /// Every corridor's changed cells (as indices), one after the other.
        pub corridor_cells: [u16; MAX_CORRIDOR_CELLS],
        /// Where each corridor's cells end in `corridor_cells`.
        pub corridor_ends: [u16; ATTEMPTS],
        pub n_corridors: usize,
        pub start: (i32, i32),
        pub stairs: (i32, i32),
    }

    impl Map {
        pub fn new() -> Map {
            Map {
                cells: [ROCK; W * H],
                rooms: [Room::default(); ATTEMPTS],
                n_rooms: 0,
                corridor_cells: [0; MAX_CORRIDOR_CELLS],
                corridor_ends: [0; ATTEMPTS],
                n_corridors: 0,
                start: (0, 0),
                stairs: (0, 0),
            }
        }
    }

    fn splitmix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `Pcg64Mcg` as warren seeds it.
    struct Pcg(u128);

    impl Pcg {
        fn new(seed: u64) -> Pcg {
            let hi = splitmix(seed);
            let lo = splitmix(hi ^ seed);
            Pcg(((hi as u128) << 64 | lo as u128) | 1)
        }

        /// The stream `name` of the generator for `seed`.
        fn stream(seed: u64, name: &[u8]) -> Pcg {
            let fnv = name.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
            });
            Pcg::new(splitmix(seed ^ splitmix(fnv)))
        }

        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645);
            let s = self.0;
            (((s >> 64) as u64) ^ (s as u64)).rotate_right((s >> 122) as u32)
        }

        /// Uniform in `lo..=hi` (`hi ≥ lo`), by Lemire's method.
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            let n = (hi - lo) as u64 + 1;
            let mut m = self.next() as u128 * n as u128;
            if (m as u64) < n {
                let threshold = n.wrapping_neg() % n;
                while (m as u64) < threshold {
                    m = self.next() as u128 * n as u128;
                }
            }
            lo + (m >> 64) as i64
        }
    }

    /// Carves `a..=b` (a row or a column) from step `from` on, recording changed cells.
    fn carve_straight(map: &mut Map, a: (i32, i32), b: (i32, i32), from: i32, n: &mut usize) {
        let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let len = (b.0 - a.0).abs().max((b.1 - a.1).abs());
        for k in from..=len {
            let i = (a.1 + sy * k) as usize * W + (a.0 + sx * k) as usize;
            if map.cells[i] != FLOOR {
                map.cells[i] = FLOOR;
                map.corridor_cells[*n] = i as u16;
                *n += 1;
            }
        }
    }

    /// Makes the map for `seed` in `map`.
    pub fn generate(seed: u64, map: &mut Map) {
        map.cells.fill(ROCK);
        let mut rng = Pcg::stream(seed, b"rooms");
        // Scatter: keep each room that neither overlaps nor touches a kept one.
        let mut n = 0;
        for _ in 0..ATTEMPTS {
            let w = rng.range(MIN_SIZE, MAX_SIZE) as i32;
            let h = rng.range(MIN_SIZE, MAX_SIZE) as i32;
            let x = rng.range(1, (W as i32 - w - 1) as i64) as i32;
            let y = rng.range(1, (H as i32 - h - 1) as i64) as i32;
            let (x2, y2) = (x + w - 1, y + h - 1);
            // The candidate grown by a cell on every side overlaps a kept room.
            let hit = map.rooms[..n]
                .iter()
                .any(|q| x <= q.x + q.w && q.x <= x2 + 1 && y <= q.y + q.h && q.y <= y2 + 1);
            if !hit {
                map.rooms[n] = Room { x, y, w, h };
                n += 1;
            }
        }
        map.n_rooms = n;
        // Carve the rooms.
        for r in &map.rooms[..n] {
            for row in r.y..r.y + r.h {
                let at = row as usize * W + r.x as usize;
                map.cells[at..at + r.w as usize].fill(FLOOR);
            }
        }
        // Leftmost first (no two rooms share a corner, so the order is total).
        map.rooms[..n].sort_unstable_by_key(|r| (r.x, r.y));
        // Nearest pairing, each pair joined by a dog-leg x then y. A room is connected at its
        // own turn and only the last finds no room, so each room's unconnected rooms are
        // exactly the rooms after it (as `gen::rooms::nearest_pairs` finds them too).
        let mut centers = [(0i32, 0i32); ATTEMPTS];
        for (c, r) in centers.iter_mut().zip(&map.rooms[..n]) {
            *c = r.center();
        }
        let (mut cells, mut corridors) = (0, 0);
        for i in 0..n - 1 {
            let a = centers[i];
            let (mut shortest, mut best) = (i64::MAX, usize::MAX);
            for (j, c) in centers.iter().enumerate().take(n).skip(i + 1) {
                let (dx, dy) = ((a.0 - c.0) as i64, (a.1 - c.1) as i64);
                let d = dx * dx + dy * dy;
                if d < shortest {
                    (shortest, best) = (d, j);
                }
            }
            let b = centers[best];
            let corner = (b.0, a.1);
            carve_straight(map, a, corner, 0, &mut cells);
            carve_straight(map, corner, b, 1, &mut cells);
            map.corridor_ends[corridors] = cells as u16;
            corridors += 1;
        }
        map.n_corridors = corridors;
        // Start in the first room, stairs in the last.
        map.start = centers[0];
        map.stairs = centers[n - 1];
        map.cells[map.stairs.1 as usize * W + map.stairs.0 as usize] = STAIRS;
    }
}

/// `scripts/rooms.lua`'s calls made from Rust on warren-core itself, as a game that embeds the
/// core would make them: the same primitives with the same options, brushes and records, on a
/// recycled map, in the recipe's order (its two snapshots left out: they record nothing outside
/// `--frames`), with no meter. It makes warren's map (checked with the floor's seeds), so
/// `warren ÷ core` is what the Lua recipe and the host around it cost, and `core ÷ floor` what
/// the core's own bookkeeping does (its four planes, its records, its checks).
mod core_calls {
    use std::sync::Arc;
    use warren_core::gen::meter::Unmetered;
    use warren_core::gen::rooms::{self, ScatterOptions, Strategy};
    use warren_core::map::{
        sort_rects_by_cell, Adjacency, Brush, KindName, Map, Rect, TerrainId, TerrainTable,
    };
    use warren_core::rng::Rng;

    /// `rooms.lua`'s defaults and its region's terrains, with the map and the room list it
    /// reuses (as warren's host reuses both).
    pub struct Core {
        pub map: Map,
        rects: Vec<Rect>,
        rock: TerrainId,
        floor: TerrainId,
        stairs: TerrainId,
    }

    impl Core {
        /// With the terrains of warren's maps (`regions/rooms.toml`: walls of rock, rooms and
        /// corridors of floor).
        pub fn new(terrains: Arc<TerrainTable>) -> Core {
            let id = |name: &str| match terrains.id(name) {
                Some(id) => id,
                None => panic!("the shipped regions have no terrain {name:?}"),
            };
            let (rock, floor, stairs) = (id("rock"), id("floor"), id("down stairs"));
            let map = match Map::new(80, 50, rock, terrains) {
                Ok(map) => map,
                Err(e) => panic!("an 80x50 map: {e}"),
            };
            Core {
                map,
                rects: Vec::new(),
                rock,
                floor,
                stairs,
            }
        }

        /// The map for `seed`, made in `self.map`.
        pub fn generate(&mut self, seed: u64) {
            let meter = &mut Unmetered;
            let (map, rects) = (&mut self.map, &mut self.rects);
            let made = (|| {
                map.reset(80, 50, self.rock)?;
                map.fill(&Brush::new(self.rock));
                let run = Rng::new(seed);
                let size = ScatterOptions {
                    attempts: 30,
                    min_size: 6,
                    max_size: 10,
                };
                let mut rng = run.stream("rooms");
                rooms::scatter_rooms_into(80, 50, &mut rng, &size, meter, rects)?;
                let room = KindName::named("room", "room");
                rooms::carve_rooms(map, rects, &Brush::new(self.floor), &room, meter)?;
                // `rooms:sort("leftmost")`: by x, then y, as its binding sorts.
                sort_rects_by_cell(rects, |r| (r.x, r.y));
                let joins = (&Brush::new(self.floor), Adjacency::Eight);
                let mut corridors = run.stream("corridors");
                rooms::connect_rooms(map, &mut corridors, rects, Strategy::Nearest, joins, meter)?;
                map.notes.tags.insert_text("connectivity", "8");
                rooms::start_and_stairs(map, rects, 1, rects.len(), self.stairs, meter)?;
                Ok::<_, Box<dyn std::error::Error>>(())
            })();
            if let Err(e) = made {
                panic!("seed {seed}: {e}");
            }
        }
    }
}

/// Panics unless the floor makes warren's map for `seed`: the same cells (rock, floor, the
/// stairs), rooms, corridors and start; and unless the core's calls make it whole (its four
/// planes, region names and every note). Same map, same work.
fn check_same_maps(
    warren: &mut Warren,
    floor: &mut floor::Map,
    core: &mut core_calls::Core,
    seed: u64,
) {
    let run = Run {
        seed,
        params: &warren.params,
        depth: 1,
        above: None,
    };
    let map: Map = match warren.host.generate(&run) {
        Ok(map) => map,
        Err(e) => panic!("seed {seed}: {e}"),
    };
    floor::generate(seed, floor);
    let terrain = |name: &str| match map.terrains().id(name) {
        Some(id) => id,
        None => panic!("the shipped regions have no terrain {name:?}"),
    };
    let ids = [terrain("rock"), terrain("floor"), terrain("down stairs")];
    let cells: Vec<_> = floor.cells.iter().map(|&c| ids[c as usize]).collect();
    assert_eq!(
        map.terrain_cells(),
        &cells[..],
        "seed {seed}: the cells differ"
    );
    let notes = &map.notes;
    assert_eq!(notes.rooms.len(), floor.n_rooms, "seed {seed}: rooms");
    assert_eq!(notes.corridors.len(), floor.n_corridors, "seed {seed}");
    let mut from = 0;
    for (corridor, &end) in notes.corridors.iter().zip(&floor.corridor_ends) {
        let ours = floor.corridor_cells[from..end as usize].iter();
        let theirs = corridor
            .cells
            .iter()
            .map(|p| (p.y as usize * floor::W + p.x as usize) as u16);
        assert!(ours.copied().eq(theirs), "seed {seed}: a corridor differs");
        from = end as usize;
    }
    let tag = |key: &str| notes.tags.get(key).cloned();
    let (x, y) = floor.start;
    assert_eq!(
        (tag("start_x"), tag("start_y")),
        (Some(TagValue::Int(x.into())), Some(TagValue::Int(y.into()))),
        "seed {seed}: the start"
    );
    let (x, y) = floor.stairs;
    assert_eq!(
        notes.stairs.down,
        [Point::new(x, y)],
        "seed {seed}: the stairs"
    );
    core.generate(seed);
    let made = &core.map;
    for (plane, same) in [
        ("terrain", made.terrain_cells() == map.terrain_cells()),
        ("priorities", made.priority_cells() == map.priority_cells()),
        ("regions", made.region_cells() == map.region_cells()),
        ("flags", made.flag_cells() == map.flag_cells()),
        ("region names", made.region_names() == map.region_names()),
    ] {
        assert!(same, "seed {seed}: the core's {plane} differ");
    }
    // Every record: rooms, corridors, doors, stairs, spawns, tags (the start, the
    // connectivity), stats.
    assert_eq!(made.notes, map.notes, "seed {seed}: the core's notes");
    warren.host.recycle(map);
}

/// One of the contestants, for [`only_one`].
#[derive(Clone, Copy)]
enum Contestant {
    Warren,
    WarrenWithStatistics,
    Mapgen,
    Core,
    Floor,
}

/// The contestant and the number of maps `WARREN_PEERS_ONLY` and `WARREN_PEERS_MAPS` ask for
/// (see the module documentation); `None` when the first is unset. Panics on a contestant it
/// does not know (naming the ones it does) or a count that is not one.
fn only_one() -> Option<(Contestant, u64)> {
    let one = std::env::var("WARREN_PEERS_ONLY").ok()?;
    let contestant = match one.as_str() {
        "warren" => Contestant::Warren,
        "warren-statistics" => Contestant::WarrenWithStatistics,
        "mapgen" => Contestant::Mapgen,
        "core" => Contestant::Core,
        "floor" => Contestant::Floor,
        _ => panic!(
            "WARREN_PEERS_ONLY={one:?}: expected warren, warren-statistics, mapgen, core or floor"
        ),
    };
    let maps = std::env::var("WARREN_PEERS_MAPS").unwrap_or_default();
    match maps.parse() {
        Ok(maps) => Some((contestant, maps)),
        Err(_) => panic!("WARREN_PEERS_MAPS={maps:?}: expected a count of maps"),
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

/// How a figure stands against its goal.
fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "not met"
    }
}

/// This thread's CPU time so far, in seconds.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(status, 0, "the thread's CPU clock reads");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// CPU seconds per map of `ROUND` maps of `f`, seeds from `from`.
fn round(from: u64, mut f: impl FnMut(u64)) -> f64 {
    let started = thread_cpu();
    for seed in from..from + ROUND {
        f(seed);
    }
    (thread_cpu() - started) / ROUND as f64
}

fn main() {
    let only = only_one();
    let mut warren = Warren::new();
    let mut floor = Box::new(floor::Map::new());
    let terrains = warren.terrains();
    let mut core = core_calls::Core::new(terrains);
    for seed in 0..500 {
        check_same_maps(&mut warren, &mut floor, &mut core, seed);
    }
    if let Some((one, maps)) = only {
        for seed in 0..maps {
            match one {
                Contestant::Warren => warren.map(seed, false),
                Contestant::WarrenWithStatistics => warren.map(seed, true),
                Contestant::Mapgen => mapgen_map(seed),
                Contestant::Core => core.generate(black_box(seed)),
                Contestant::Floor => floor::generate(seed, black_box(&mut floor)),
            }
        }
        return;
    }
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
    group.bench_function("warren-core: the recipe's calls from Rust", |b| {
        b.iter(|| {
            seed += 1;
            core.generate(black_box(seed))
        })
    });
    group.bench_function("floor: the same rooms, hand-written", |b| {
        b.iter(|| {
            seed += 1;
            floor::generate(seed, black_box(&mut floor))
        })
    });
    group.finish();
    c.final_summary();

    let (mut alone, mut whole, mut peer, mut bare, mut calls) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in 0..ROUNDS {
        let from = 1_000_000 + r as u64 * ROUND;
        alone.push(round(from, |s| warren.map(s, false)));
        peer.push(round(from, mapgen_map));
        whole.push(round(from, |s| warren.map(s, true)));
        bare.push(round(from, |s| floor::generate(s, black_box(&mut floor))));
        calls.push(round(from, |s| core.generate(black_box(s))));
    }
    let (alone, whole, peer, bare) = (median(alone), median(whole), median(peer), median(bare));
    let calls = median(calls);
    println!(
        "\nside by side, {ROUNDS} alternating rounds of {ROUND} maps, medians of CPU time per map:"
    );
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
        "  warren-core, the recipe's calls from Rust 80x50: {:7.2} µs",
        calls * 1e6
    );
    println!(
        "  floor, the same rooms hand-written 80x50:        {:7.2} µs",
        bare * 1e6
    );
    println!(
        "  ratio warren / mapgen, generation:               {:7.2}",
        alone / peer
    );
    println!(
        "  ratio warren / mapgen, with statistics:          {:7.2}",
        whole / peer
    );
    println!(
        "  ratio warren / floor, generation:                {:7.2}  (goal ≤ {FLOOR_GOAL:.1}: {})",
        alone / bare,
        verdict(alone / bare <= FLOOR_GOAL)
    );
    println!(
        "  ratio warren / floor, with statistics:           {:7.2}  (goal ≤ {FLOOR_GOAL_STATISTICS:.1}: {})",
        whole / bare,
        verdict(whole / bare <= FLOOR_GOAL_STATISTICS)
    );
    println!(
        "  ratio warren-core's calls / floor:               {:7.2}",
        calls / bare
    );
    println!(
        "  ratio warren / warren-core's calls:              {:7.2}",
        alone / calls
    );
}
