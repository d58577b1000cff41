//! The designer's toolbox side by side with its peers, in one run:
//!
//! - each generator (cellular automata, BSP rooms, BSP interior, drunkard's walk, maze, noise,
//!   Voronoi hive) at 80×50 and 256×256 against the `mapgen` crate's own implementation (goal:
//!   warren ≤ 0.75× the peer's time), with the output compared by open fraction and area count
//!   (4-way);
//! - each against a pure-Lua implementation of the same algorithm run in warren
//!   (`benches/toolbox_lua/`, written in the style of the rot.js port; goal: the primitive ≥ 20×
//!   faster), diffusion-limited aggregation and wave function collapse too (80×50), and the
//!   tools that work on a level, the level itself left out: a Dijkstra map and the field of
//!   view of many viewers on a cellular cave (the primitive must first find on the recipe's own
//!   caves exactly what the Lua code found), Brogue's loops on a Voronoi hive, Brogue's lakes
//!   in the cave and vault placement in a BSP dungeon;
//! - absolute figures: a Dijkstra map of a 1024² cave (goal ≤ 5 ms), field of view of radius 20
//!   (goal ≤ 20 µs); diffusion-limited aggregation (the `mapgen` crate has none), Brogue's loops
//!   and lakes at 80×50 and 256×256;
//! - vault placement: the shipped `[[prefab]]` templates (regions/vaults.toml) placed into the
//!   rock of a BSP dungeon, 4 at 80×50 and 16 at 256×256 (no peer; the figure is the cost).
//!
//! ```text
//! cargo bench --bench toolbox            # criterion figures, then the side-by-side tables
//! cargo bench --bench toolbox -- --quick # the tables with short criterion runs
//! TOOLBOX_TABLES=0 cargo bench --bench toolbox -- dijkstra  # criterion figures only
//! ```
//!
//! The tables time the two sides in alternating rounds (A B A B …, so a busy neighbour slows both
//! alike) and print the median per map. Every warren figure includes writing the map (through
//! priority writes) and resetting it; mapgen's includes building its map buffer.

use criterion::Criterion;
use mapgen::{
    BspInterior, BspRooms, CellularAutomata, DrunkardsWalk, MapBuffer, MapBuilder, MazeBuilder,
    NearestCorridors, NoiseGenerator, VoronoiHive,
};
use rand08::{rngs::StdRng, SeedableRng};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use warren_core::gen::area::{Area, Mask};
use warren_core::gen::bsp::{self, BspInterior as WInterior, BspRooms as WRooms, Split};
use warren_core::gen::cellular::{self, Paint, Rule};
use warren_core::gen::dla::{self, Dla, DlaMode};
use warren_core::gen::drunkard::{self, Drunkard};
use warren_core::gen::field::distance::{distance_into, MoveRules};
use warren_core::gen::field::fov::fov_into;
use warren_core::gen::field::noise::{self, NoiseKind, NoiseOptions};
use warren_core::gen::field::Field;
use warren_core::gen::lakes::{self, LakeBrushes, Lakes};
use warren_core::gen::loops::{self, Loops};
use warren_core::gen::maze::{self, Algorithm, MazeBrushes};
use warren_core::gen::meter::Unmetered;
use warren_core::gen::prefab::{self, Fit, PlaceRequest, Prefab, PrefabBrushes};
use warren_core::gen::voronoi::{self, HiveBrushes, HiveRule, Metric};
use warren_core::gen::wfc::{self, Patterns, Sample, Symmetry as WfcSymmetry};
use warren_core::map::{Adjacency, Brush, Map, Point, Rect, TagValue, TerrainTable};
use warren_core::rng::Rng;
use warren_lua::{Host, Limits, ParamValues, Run};

mod common;
use common::median;

// mimalloc, the allocator under the warren binary's memory account (benches/peers.rs says how
// the binary's whole allocator measured beside it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Alternating rounds per comparison.
const ROUNDS: usize = 5;
/// Time one side of a round should take, about.
const ROUND_SECONDS: f64 = 0.04;

/// The shipped terrains' rock wall and floor, as brushes at room-floor priority.
struct Terrains {
    table: Arc<TerrainTable>,
    wall: Brush,
    floor: Brush,
}

impl Terrains {
    fn shipped() -> Terrains {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let registry = match warren_core::region::Registry::load_dir(&root.join("regions")) {
            Ok(r) => r,
            Err(e) => panic!("the shipped regions load: {e}"),
        };
        let table = registry.terrains().clone();
        let id = |name| match table.id(name) {
            Some(id) => id,
            None => panic!("the shipped terrains have {name}"),
        };
        Terrains {
            wall: Brush::new(id("rock wall")),
            floor: Brush::new(id("floor")).priority(70),
            table,
        }
    }

    fn map(&self, w: i64, h: i64) -> Map {
        match Map::new(w, h, self.wall.terrain, self.table.clone()) {
            Ok(m) => m,
            Err(e) => panic!("{w}×{h}: {e}"),
        }
    }
}

/// BSP rooms at 256×256, opening about what `mapgen`'s BSP rooms open there.
const BIG_MAP_ROOMS: WRooms = WRooms {
    min_leaf: 24,
    min_room: 3,
    max_room: Some(12),
};

/// Open cells as flags, from either side.
fn open_of(map: &Map) -> Vec<bool> {
    map.flag_cells()
        .iter()
        .map(|&f| warren_core::map::passable(f))
        .collect()
}

fn open_of_peer(map: &MapBuffer) -> Vec<bool> {
    map.walkables.clone()
}

/// The open fraction and the number of 4-connected open areas.
fn shape(open: &[bool], w: usize) -> (f64, usize) {
    let n = open.len();
    let mut seen = vec![false; n];
    let mut areas = 0;
    let mut stack = Vec::new();
    for first in 0..n {
        if !open[first] || seen[first] {
            continue;
        }
        areas += 1;
        seen[first] = true;
        stack.push(first);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let mut go = |j: usize| {
                if open[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                go(i - 1);
            }
            if x + 1 < w {
                go(i + 1);
            }
            if y > 0 {
                go(i - w);
            }
            if i + w < n {
                go(i + w);
            }
        }
    }
    let fraction = open.iter().filter(|&&o| o).count() as f64 / n as f64;
    (fraction, areas)
}

/// The value of a call that cannot fail on the bench's inputs; the reason if it does.
fn must<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

/// One generator on both sides at one size.
struct Case<'a> {
    name: &'static str,
    w: usize,
    h: usize,
    warren: Generator<'a>,
    /// `None` where the peer's own implementation is too slow to measure.
    peer: Option<Generator<'a>>,
}

/// One generator under measurement: a seed in, the open cells of its map out.
type Generator<'a> = Box<dyn FnMut(u64) -> Vec<bool> + 'a>;

/// Seconds per call of `f` over a round of `n` calls, seeds from `from`.
fn round<T>(from: u64, n: u64, f: &mut dyn FnMut(u64) -> T) -> f64 {
    let started = Instant::now();
    for seed in from..from + n {
        black_box(f(seed));
    }
    started.elapsed().as_secs_f64() / n as f64
}

/// Calls per round for `f`: about [`ROUND_SECONDS`] of work, at least 1.
fn calls_per_round<T>(f: &mut dyn FnMut(u64) -> T) -> u64 {
    let once = round(1, 3, f);
    ((ROUND_SECONDS / once.max(1e-9)) as u64).clamp(1, 20_000)
}

/// Medians per call of `a` and `b` over alternating rounds.
fn side_by_side<A, B>(a: &mut dyn FnMut(u64) -> A, b: &mut dyn FnMut(u64) -> B) -> (f64, f64) {
    let (na, nb) = (calls_per_round(a), calls_per_round(b));
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for r in 0..ROUNDS as u64 {
        ta.push(round(1_000 + r * na, na, a));
        tb.push(round(1_000 + r * nb, nb, b));
    }
    (median(ta), median(tb))
}

/// The mean shape of 20 seeds' maps.
fn mean_shape(f: &mut dyn FnMut(u64) -> Vec<bool>, w: usize) -> (f64, f64) {
    let shapes: Vec<(f64, usize)> = (0..20).map(|s| shape(&f(s), w)).collect();
    let n = shapes.len() as f64;
    (
        shapes.iter().map(|s| s.0).sum::<f64>() / n,
        shapes.iter().map(|s| s.1 as f64).sum::<f64>() / n,
    )
}

/// A mapgen filter.
type Filter = Box<dyn mapgen::MapFilter>;

fn peer(w: usize, h: usize, seed: u64, filters: Vec<Filter>) -> MapBuffer {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = MapBuilder::new(w, h);
    for f in filters {
        b.with(f);
    }
    b.build_with_rng(&mut rng)
}

/// mapgen's cellular rule (a cell is wall with no wall neighbour or five and more), 15
/// generations after a 50% fill.
const PEER_CAVE: &str = "B05678/S05678";

/// BSP interior with rooms of 4 cells a side or more cut by `split`, inside the map's outer
/// wall, on `m`, against `mapgen`'s.
fn interior_case<'a>(
    name: &'static str,
    split: Split,
    t: &'a Terrains,
    (w, h): (usize, usize),
    mut m: Map,
    reset: impl Fn(&mut Map) + 'a,
) -> Case<'a> {
    let inner = Area::Rect(Rect::new(1, 1, w as i32 - 2, h as i32 - 2));
    Case {
        name,
        w,
        h,
        warren: Box::new(move |seed| {
            reset(&mut m);
            let brushes = bsp::InteriorBrushes {
                floor: &t.floor,
                wall: &t.wall,
                door: None,
            };
            let o = WInterior { min_room: 4, split };
            let r = bsp::interior(
                &mut m,
                inner,
                &o,
                &mut Rng::new(seed),
                brushes,
                &mut Unmetered,
            );
            must(r);
            open_of(&m)
        }),
        peer: Some(Box::new(move |seed| {
            open_of_peer(&peer(w, h, seed, vec![BspInterior::new() as Filter]))
        })),
    }
}

/// Every generator case at `w × h`.
fn cases<'a>(t: &'a Terrains, w: usize, h: usize) -> Vec<Case<'a>> {
    let (wi, hi) = (w as i64, h as i64);
    let inner = Area::Rect(Rect::new(1, 1, w as i32 - 2, h as i32 - 2));
    let cave_rule = must(Rule::parse(PEER_CAVE));
    let mut maps: Vec<Map> = (0..6).map(|_| t.map(wi, hi)).collect();
    let mut next = || maps.pop().unwrap_or_else(|| t.map(wi, hi));
    let mut field = Field::new(w as i32, h as i32, 0.0);
    let reset = move |m: &mut Map| must(m.reset(wi, hi, t.wall.terrain));
    vec![
        Case {
            name: "cellular automata",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let paint = Paint {
                        wall: &t.wall,
                        floor: &t.floor,
                    };
                    let r = cellular::cave(
                        &mut m,
                        inner,
                        50,
                        (cave_rule, 15),
                        &mut Rng::new(seed),
                        paint,
                        &mut Unmetered,
                    );
                    must(r);
                    open_of(&m)
                }
            }),
            peer: Some(Box::new(move |seed| {
                open_of_peer(&peer(
                    w,
                    h,
                    seed,
                    vec![NoiseGenerator::uniform() as Filter, CellularAutomata::new()],
                ))
            })),
        },
        Case {
            name: "BSP rooms + corridors",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let brushes = bsp::RoomBrushes {
                        floor: &t.floor,
                        corridor: &t.floor,
                    };
                    // Like with like: at 80×50 the defaults open about as much as `mapgen`
                    // (0.35 against 0.26); at 256×256 `mapgen`'s 240 tries of rooms up to 20
                    // cells a side open 10% of the map, and so do pieces of 24 or more with
                    // rooms of 3 to 12 (the defaults open 38%: BENCHMARKS.md has both).
                    let o = if w > 80 {
                        BIG_MAP_ROOMS
                    } else {
                        WRooms::default()
                    };
                    let r = bsp::rooms(
                        &mut m,
                        inner,
                        &o,
                        &mut Rng::new(seed),
                        brushes,
                        &mut Unmetered,
                    );
                    must(r);
                    open_of(&m)
                }
            }),
            peer: Some(Box::new(move |seed| {
                open_of_peer(&peer(
                    w,
                    h,
                    seed,
                    vec![BspRooms::new() as Filter, NearestCorridors::new()],
                ))
            })),
        },
        // `mapgen`'s rule as near as the options go: it halves both halves of a piece again
        // while the half is over 8 cells across the side it halved; `min_room: 4` halves a
        // side of 9 or more (4, the wall, 4) and leaves sides of 4 to 8. Warren's own rule
        // (`longer`) cuts until no side can be cut; `halves` is the tutorial's, which `mapgen`
        // follows (BENCHMARKS.md says what still differs).
        interior_case("BSP interior", Split::Longer, t, (w, h), next(), reset),
        interior_case(
            "BSP interior (halves)",
            Split::Halves,
            t,
            (w, h),
            next(),
            reset,
        ),
        Case {
            name: "drunkard's walk (open area)",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let o = Drunkard::default();
                    let r = drunkard::walk(
                        &mut m,
                        inner,
                        &o,
                        &mut Rng::new(seed),
                        &t.floor,
                        &mut Unmetered,
                    );
                    must(r);
                    open_of(&m)
                }
            }),
            // mapgen's walk counts the whole map's floor after every walker: at 256×256 one
            // map took over ten minutes, so its side is measured at 80×50 only.
            peer: (w * h <= 80 * 50).then(|| {
                Box::new(move |seed| {
                    open_of_peer(&peer(
                        w,
                        h,
                        seed,
                        vec![DrunkardsWalk::open_area() as Filter],
                    ))
                }) as Generator<'a>
            }),
        },
        Case {
            name: "maze (backtracker)",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let brushes = MazeBrushes {
                        passage: &t.floor,
                        wall: None,
                    };
                    let r = maze::maze(
                        &mut m,
                        Area::Map,
                        Algorithm::Backtracker,
                        0,
                        &mut Rng::new(seed),
                        brushes,
                        &mut Unmetered,
                    );
                    must(r);
                    open_of(&m)
                }
            }),
            peer: Some(Box::new(move |seed| {
                open_of_peer(&peer(w, h, seed, vec![MazeBuilder::new() as Filter]))
            })),
        },
        Case {
            name: "noise (white, 50% floor)",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let o = NoiseOptions {
                        kind: NoiseKind::White,
                        ..NoiseOptions::default()
                    };
                    let mut rng = Rng::new(seed);
                    must(noise::fill(&mut field, inner, &o, &mut rng, &mut Unmetered));
                    let r = field.threshold(&mut m, inner, (0.5, 1.0), &t.floor, &mut Unmetered);
                    must(r);
                    open_of(&m)
                }
            }),
            peer: Some(Box::new(move |seed| {
                open_of_peer(&peer(w, h, seed, vec![NoiseGenerator::uniform() as Filter]))
            })),
        },
        Case {
            name: "Voronoi hive (64 seeds)",
            w,
            h,
            warren: Box::new({
                let mut m = next();
                move |seed| {
                    reset(&mut m);
                    let rule = HiveRule {
                        border: 2,
                        thin: false,
                    };
                    hive_into(&mut m, t, (inner, 64), rule, &mut Rng::new(seed));
                    open_of(&m)
                }
            }),
            peer: Some(Box::new(move |seed| {
                open_of_peer(&peer(w, h, seed, vec![VoronoiHive::new() as Filter]))
            })),
        },
    ]
}

/// A level for Brogue's passes at `w × h`: a Voronoi hive of one-cell walls (a cell per 100
/// map cells), for loops; and a cellular cave, for lakes.
fn brogue_levels(t: &Terrains, w: i64, h: i64) -> (Map, Map) {
    let mut rng = Rng::new(7);
    let hive = bench_hive(t.map(w, h), t, &mut rng);
    (hive, bench_cave(t.map(w, h), t, &mut rng))
}

/// Perlin fBm (4 octaves at 1/16 cell) thresholded at one half: the noise the pure-Lua workload
/// draws.
fn perlin_case<'a>(t: &'a Terrains, w: usize, h: usize) -> Generator<'a> {
    let mut m = t.map(w as i64, h as i64);
    let mut field = Field::new(w as i32, h as i32, 0.0);
    let inner = Area::Rect(Rect::new(1, 1, w as i32 - 2, h as i32 - 2));
    Box::new(move |seed| {
        must(m.reset(w as i64, h as i64, t.wall.terrain));
        let o = NoiseOptions::default();
        let mut rng = Rng::new(seed);
        let drawn = noise::fill(&mut field, inner, &o, &mut rng, &mut Unmetered)
            .and_then(|()| field.threshold(&mut m, inner, (0.5, 1.0), &t.floor, &mut Unmetered));
        must(drawn);
        open_of(&m)
    })
}

/// Diffusion-limited aggregation, walking inwards until a quarter of the map's inside is open:
/// what `benches/toolbox_lua/dla.lua` grows.
fn dla_case<'a>(t: &'a Terrains, w: usize, h: usize) -> Generator<'a> {
    let mut m = t.map(w as i64, h as i64);
    let inner = Area::Rect(Rect::new(1, 1, w as i32 - 2, h as i32 - 2));
    Box::new(move |seed| {
        must(m.reset(w as i64, h as i64, t.wall.terrain));
        let r = dla::grow(
            &mut m,
            inner,
            &Dla::default(),
            &mut Rng::new(seed),
            &t.floor,
            &mut Unmetered,
        );
        must(r);
        open_of(&m)
    })
}

/// A pure-Lua recipe from `benches/toolbox_lua/` at `w × h`, run in warren.
struct LuaRecipe {
    host: Host,
    params: ParamValues,
}

impl LuaRecipe {
    fn new(file: &str, w: usize, h: usize) -> LuaRecipe {
        LuaRecipe::with(file, w, h, &[])
    }

    /// The recipe with `more` parameters set besides its size.
    fn with(file: &str, w: usize, h: usize, more: &[(&str, &str)]) -> LuaRecipe {
        // The pure-Lua drunkard's walk at 256×256 runs past the default budget.
        let limits = Limits {
            instructions: 20 * Limits::DEFAULT_INSTRUCTIONS,
            time: std::time::Duration::from_secs(60),
            ..Limits::default()
        };
        let host = common::host_with(&format!("benches/toolbox_lua/{file}"), limits);
        let size = [("width", w), ("height", h)].map(|(k, v)| (k.to_string(), v.to_string()));
        let more = more.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        let sets: Vec<(String, String)> = size.into_iter().chain(more).collect();
        let params = match host.resolve_params(&sets) {
            Ok(p) => p,
            Err(e) => panic!("{file}: {e}"),
        };
        LuaRecipe { host, params }
    }

    fn map(&mut self, seed: u64) -> Vec<bool> {
        self.with_map(seed, open_of)
    }

    /// What `read` finds on the map the recipe makes from `seed`.
    fn with_map<T>(&mut self, seed: u64, read: impl FnOnce(&Map) -> T) -> T {
        let run = Run {
            seed,
            params: &self.params,
            depth: 1,
            above: None,
        };
        match self.host.generate(&run) {
            Ok(map) => {
                let found = read(&map);
                self.host.recycle(map);
                found
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }

    /// The integer tags the recipe set on the map it makes from `seed`, in `keys`' order.
    fn tags(&mut self, seed: u64, keys: &[&str]) -> Vec<i64> {
        self.with_map(seed, |m| {
            keys.iter()
                .map(|k| match m.notes.tags.get(k) {
                    Some(TagValue::Int(n)) => *n,
                    other => panic!("seed {seed}: tag {k} is {other:?}"),
                })
                .collect()
        })
    }
}

/// The analyses' cave, as `benches/toolbox_lua/common.lua` makes it: `m` (rock), then the cellular
/// primitive (45% rock, B5678/S45678, 4 generations) inside the map's edge, drawing from `rng`.
fn bench_cave(mut m: Map, t: &Terrains, rng: &mut Rng) -> Map {
    let (w, h) = (m.width(), m.height());
    let paint = Paint {
        wall: &t.wall,
        floor: &t.floor,
    };
    let inner = Area::Rect(Rect::new(1, 1, w - 2, h - 2));
    let r = cellular::cave(
        &mut m,
        inner,
        45,
        (Rule::CAVE, 4),
        rng,
        paint,
        &mut Unmetered,
    );
    must(r);
    m
}

/// The loops bench's level, as `benches/toolbox_lua/loops.lua` makes it: `m` (rock), then a Voronoi
/// hive (a seed a hundred cells, Euclidean, drawn from `rng`) with one-cell walls.
fn bench_hive(mut m: Map, t: &Terrains, rng: &mut Rng) -> Map {
    let cells = (m.width() * m.height() / 100).max(2) as u32;
    let rule = HiveRule {
        border: 1,
        thin: true,
    };
    hive_into(&mut m, t, (Area::Map, cells), rule, rng);
    m
}

/// A Voronoi hive on `m`: `count` seeds scattered in `area` (drawn from `rng`), every cell of
/// the map given to its nearest (Euclidean), walled by `rule`.
fn hive_into(
    m: &mut Map,
    t: &Terrains,
    (area, count): (Area<'_>, u32),
    rule: HiveRule,
    rng: &mut Rng,
) {
    let seeds = must(voronoi::scatter(m, area, count, rng));
    let ids = voronoi::regions(m, Area::Map, &seeds, Metric::Euclidean, &mut Unmetered);
    let brushes = HiveBrushes {
        wall: &t.wall,
        floor: &t.floor,
    };
    must(voronoi::hive(
        m,
        Area::Map,
        &must(ids),
        rule,
        brushes,
        &mut Unmetered,
    ));
}

/// The openings Brogue's loops make on a copy of `m` (in `work`): walls between sides 20 or
/// more 4-way steps apart, as `loops.lua` tags.
fn openings_of(m: &Map, work: &mut Map, door: &Brush) -> Vec<i64> {
    work.clone_from(m);
    let options = Loops {
        min_distance: 20,
        max_count: 100_000,
        adjacency: Adjacency::Four,
    };
    let r = loops::add_loops(
        work,
        Area::Map,
        &options,
        &mut Rng::new(1),
        door,
        &mut Unmetered,
    );
    vec![must(r).len() as i64]
}

/// The lakes Brogue's rule places on a copy of `m` (in `work`): four of 10 to 60 cells with a
/// wreath of shallows, never splitting the cave, as `lakes.lua` tags.
fn lakes_of(m: &Map, work: &mut Map, brushes: LakeBrushes<'_>) -> Vec<i64> {
    work.clone_from(m);
    let options = Lakes::default();
    let r = lakes::lakes(
        work,
        Area::Map,
        &options,
        &mut Rng::new(1),
        brushes,
        &mut Unmetered,
    );
    vec![must(r).lakes.len() as i64]
}

/// The first open cell at or after the centre in row order.
fn centre_cell(m: &Map) -> Option<Point> {
    let (w, h) = (m.width() as usize, m.height() as usize);
    let flags = m.flag_cells();
    (w / 2 + h / 2 * w..w * h)
        .find(|&i| warren_core::map::passable(flags[i]))
        .map(|i| Point::new((i % w) as i32, (i / w) as i32))
}

/// The cells an 8-way distance map from the centre cell reaches, and the sum of their
/// distances (what `dijkstra.lua` tags).
fn distances_of(m: &Map, field: &mut Field) -> Vec<i64> {
    let Some(source) = centre_cell(m) else {
        return vec![0, 0];
    };
    let rules = MoveRules::new(Adjacency::Eight);
    must(distance_into(
        field,
        m,
        Area::Map,
        &[source],
        &rules,
        &mut Unmetered,
    ));
    let reached = field.values().iter().filter(|d| d.is_finite());
    let (n, total) = reached.fold((0, 0), |(n, t), &d| (n + 1, t + d as i64));
    vec![n, total]
}

/// The cells seen, radius 20, from every 64th open cell in row order (what `fov.lua` tags).
fn seen_of(m: &Map, seen: &mut Mask) -> Vec<i64> {
    seen.cells_mut().fill(false);
    let w = m.width() as usize;
    let open = m.flag_cells().iter().enumerate();
    let viewers = open
        .filter(|(_, &f)| warren_core::map::passable(f))
        .step_by(64);
    for (i, _) in viewers {
        let origin = Point::new((i % w) as i32, (i / w) as i32);
        must(fov_into(seen, m, Area::Map, origin, 20, &mut Unmetered));
    }
    vec![seen.cells().iter().filter(|&&s| s).count() as i64]
}

/// A tool that works on a level (a distance map, the field of view, loops, lakes) on both sides,
/// the level itself left out: the primitive on 16 levels `level` made beforehand, the pure-Lua
/// recipe's time less that of the same recipe making its level alone (`analyse = false`; the
/// two alternate). When `exact` (a tool that draws nothing), the primitive first runs on the
/// recipe's own levels and must find what the recipe tags.
fn analysis_row(
    name: &str,
    (file, keys): (&str, &[&str]),
    (w, h): (usize, usize),
    level: &dyn Fn(u64) -> Map,
    (exact, mut analyse): (bool, impl FnMut(&Map) -> Vec<i64>),
) -> String {
    let mut lua = LuaRecipe::new(file, w, h);
    let mut level_only = LuaRecipe::with(file, w, h, &[("analyse", "false")]);
    for seed in (0..5).filter(|_| exact) {
        let tagged = lua.tags(seed, keys);
        let found = lua.with_map(seed, &mut analyse);
        assert_eq!(tagged, found, "{file} at {w}x{h}, seed {seed}: {keys:?}");
    }
    let levels: Vec<Map> = (0..16).map(level).collect();
    let mut primitive = |seed: u64| analyse(&levels[seed as usize % levels.len()]);
    let tw = side_by_side(&mut primitive, &mut |_| ()).0;
    let (whole, level_alone) = side_by_side(&mut |s| lua.tags(s, keys), &mut |s| level_only.map(s));
    let tl = whole - level_alone;
    let mean =
        |f: &mut dyn FnMut(u64) -> Vec<i64>| (0..16).map(|s| f(s)[0] as f64).sum::<f64>() / 16.0;
    let (mw, ml) = (mean(&mut primitive), mean(&mut |s| lua.tags(s, keys)));
    format!(
        "  {:<28} {:>3}x{:<3} {:>9.1} µs {:>9.1} µs {:>7.1}×   {} {:.0} / {:.0} (the level alone: {:.1} µs in Lua)",
        name,
        w,
        h,
        tw * 1e6,
        tl * 1e6,
        tl / tw,
        keys[0],
        mw,
        ml,
        level_alone * 1e6
    )
}

/// A 1024² cave (cellular, 45% fill, the classic rule, 4 generations) and an open cell near
/// its centre.
fn big_cave(t: &Terrains) -> (Map, Point) {
    let mut m = t.map(1024, 1024);
    let paint = Paint {
        wall: &t.wall,
        floor: &t.floor,
    };
    if let Err(e) = cellular::cave(
        &mut m,
        Area::Map,
        45,
        (Rule::CAVE, 4),
        &mut Rng::new(1),
        paint,
        &mut Unmetered,
    ) {
        panic!("{e}");
    }
    let mut i = 512 + 512 * 1024;
    while !warren_core::map::passable(m.flag_cells()[i]) {
        i += 1;
    }
    let p = m.point(i);
    (m, p)
}

/// The vault bench's dungeon, as `benches/toolbox_lua/vaults.lua` makes it: `m` (rock), then
/// BSP rooms (leaves of 12, rooms of 4 or more) inside its edge, drawn from `rng`.
fn bench_dungeon(mut m: Map, t: &Terrains, rng: &mut Rng) -> Map {
    let (w, h) = (m.width(), m.height());
    let options = WRooms {
        min_leaf: 12,
        min_room: 4,
        max_room: None,
    };
    let brushes = bsp::RoomBrushes {
        floor: &t.floor,
        corridor: &t.floor,
    };
    let inside = Area::Rect(Rect::new(1, 1, w - 2, h - 2));
    must(bsp::rooms(
        &mut m,
        inside,
        &options,
        rng,
        brushes,
        &mut Unmetered,
    ));
    m
}

/// The shipped `[[prefab]]` templates (regions/vaults.toml).
fn shipped_prefabs() -> Vec<Prefab> {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let registry = must(warren_core::region::Registry::load_dir(
        &root.join("regions"),
    ));
    registry.resolved.prefabs
}

/// Places `count` of `prefabs` (decorations aside; depth 9, 20 tries each) into the rock of
/// `work`, a copy of `m`, at priority 100, drawing from `rng`: what `vaults.lua` tags.
fn vaults_of(
    m: &Map,
    work: &mut Map,
    (t, prefabs): (&Terrains, &[Prefab]),
    count: usize,
    rng: &mut Rng,
) -> Vec<i64> {
    work.clone_from(m);
    let exclude = ["decor".to_string()];
    let req = PlaceRequest {
        depth: 9,
        include: &[],
        exclude: &exclude,
        count,
        tries: 20,
        unique: false,
        fit: Fit::Free,
        adjacency: Adjacency::Eight,
    };
    let vault = t.floor.priority(100);
    let wall = t.wall.priority(100);
    let brushes = PrefabBrushes {
        floor: &vault,
        wall: &wall,
        door: &vault,
        corridor: &t.floor,
    };
    let placed = prefab::place(work, Area::Map, prefabs, &req, brushes, rng, &mut Unmetered);
    vec![must(placed).len() as i64]
}

/// Vault placement: `count` of the shipped templates (decorations aside) fitted into the rock
/// of a `w × h` BSP dungeon and joined to it, the dungeon restored before each placement.
fn bench_vaults(c: &mut Criterion, t: &Terrains) {
    let prefabs = shipped_prefabs();
    let mut group = c.benchmark_group("toolbox vaults");
    for (w, h, count) in [(80, 50, 4), (256, 256, 16)] {
        let dungeon = bench_dungeon(t.map(w, h), t, &mut Rng::new(1));
        let mut map = dungeon.clone();
        let mut seed = 0;
        group.bench_function(format!("place {count} vaults, {w}x{h}"), |b| {
            b.iter(|| {
                seed += 1;
                let placed = vaults_of(
                    &dungeon,
                    &mut map,
                    (t, &prefabs),
                    count,
                    &mut Rng::new(seed),
                );
                black_box(placed)
            })
        });
    }
    group.finish();
}

/// The house sample's patterns (3 × 3, mirrored; the sample tiles) and a brush per palette
/// entry: what `benches/toolbox_lua/wfc.lua` builds in Lua.
fn house_patterns(t: &Terrains) -> (Patterns, Vec<Brush>) {
    let id = |name| must(t.table.id(name).ok_or(name));
    let palette = [
        id("street"),
        id("brick wall"),
        id("worn floor"),
        id("open door"),
    ];
    let rows: Vec<Vec<u16>> = [
        ",,,,,,,,", ",#####,,", ",#...#,,", ",#...+,,", ",#...#,,", ",##+##,,", ",,,,,,,,",
        ",,,,,,,,",
    ]
    .iter()
    .map(|row| {
        row.chars()
            .map(|ch| palette[",#.+".find(ch).unwrap_or(0)])
            .collect()
    })
    .collect();
    let sample = must(Sample::from_rows("bench houses", &rows, true));
    let symmetry = WfcSymmetry {
        rotate: false,
        reflect: true,
    };
    let patterns = must(wfc::patterns(&sample, 3, symmetry));
    let brushes: Vec<Brush> = sample.terrains.iter().map(|&t| Brush::new(t)).collect();
    (patterns, brushes)
}

/// Wave function collapse from the house sample over the whole map, 100 retries: what
/// `benches/toolbox_lua/wfc.lua` makes.
fn wfc_case<'a>(t: &'a Terrains, w: usize, h: usize) -> Generator<'a> {
    let (patterns, brushes) = house_patterns(t);
    let mut m = t.map(w as i64, h as i64);
    Box::new(move |seed| {
        must(m.reset(w as i64, h as i64, t.wall.terrain));
        collapse_houses(&mut m, (&patterns, &brushes), seed);
        open_of(&m)
    })
}

/// One collapse of the house patterns over the whole of `m`, 100 retries, from `seed`.
fn collapse_houses(m: &mut Map, (patterns, brushes): (&Patterns, &[Brush]), seed: u64) -> u32 {
    let mut rng = Rng::new(seed);
    let r = wfc::collapse(
        m,
        Area::Map,
        patterns,
        100,
        &mut rng,
        brushes,
        &mut Unmetered,
    );
    must(r).attempts
}

/// Wave function collapse: a 64×64 map from an 8×8 periodic sample of houses and streets (3×3
/// windows, mirrored as `scripts/wfc_town.lua` does by default; up to 100 retries).
fn bench_wfc(c: &mut Criterion, t: &Terrains) {
    let (patterns, brushes) = house_patterns(t);
    let blank = t.map(64, 64);
    let mut map = blank.clone();
    let mut seed = 0;
    let mut group = c.benchmark_group("toolbox absolute");
    group.bench_function("wfc 64×64 from an 8×8 sample (n 3, mirrored)", |b| {
        b.iter(|| {
            seed += 1;
            map.clone_from(&blank);
            black_box(collapse_houses(&mut map, (&patterns, &brushes), seed))
        })
    });
    group.finish();
}

fn main() {
    let t = Terrains::shipped();
    let mut c = Criterion::default().configure_from_args();
    bench_vaults(&mut c, &t);
    bench_wfc(&mut c, &t);

    // Absolute figures.
    let (cave, centre) = big_cave(&t);
    let rules = MoveRules::new(Adjacency::Eight);
    let mut distances = Field::like(&cave, 0.0);
    let mut group = c.benchmark_group("toolbox absolute");
    group.bench_function("dijkstra map, 1024² cave, 8-way", |b| {
        b.iter(|| {
            let r = distance_into(
                &mut distances,
                &cave,
                Area::Map,
                &[centre],
                &rules,
                &mut Unmetered,
            );
            black_box(r.is_ok())
        })
    });
    let mut seen = Mask::new(1024, 1024, false);
    group.bench_function("fov radius 20, 1024² cave", |b| {
        b.iter(|| {
            let r = fov_into(&mut seen, &cave, Area::Map, centre, 20, &mut Unmetered);
            black_box(r.is_ok())
        })
    });
    let open_map = t.map(80, 50);
    let mut open = open_map.clone();
    let _ = open.fill(&t.floor);
    let mut seen_small = Mask::new(80, 50, false);
    group.bench_function("fov radius 20, open 80×50", |b| {
        b.iter(|| {
            let r = fov_into(
                &mut seen_small,
                &open,
                Area::Map,
                Point::new(40, 25),
                20,
                &mut Unmetered,
            );
            black_box(r.is_ok())
        })
    });
    for (w, h) in [(80, 50), (256, 256)] {
        let blank = t.map(w, h);
        let dla_options = Dla {
            mode: DlaMode::WalkInwards,
            ..Dla::default()
        };
        let inner = Area::Rect(Rect::new(1, 1, w as i32 - 2, h as i32 - 2));
        let mut seed = 0;
        group.bench_function(format!("dla walk inwards 25%, {w}×{h}"), |b| {
            b.iter_batched_ref(
                || blank.clone(),
                |m| {
                    seed += 1;
                    let r = dla::grow(
                        m,
                        inner,
                        &dla_options,
                        &mut Rng::new(seed),
                        &t.floor,
                        &mut Unmetered,
                    );
                    black_box(must(r))
                },
                criterion::BatchSize::LargeInput,
            )
        });
        let attractor = Dla {
            mode: DlaMode::CentralAttractor,
            ..Dla::default()
        };
        group.bench_function(format!("dla central attractor 25%, {w}×{h}"), |b| {
            b.iter_batched_ref(
                || blank.clone(),
                |m| {
                    seed += 1;
                    let r = dla::grow(
                        m,
                        inner,
                        &attractor,
                        &mut Rng::new(seed),
                        &t.floor,
                        &mut Unmetered,
                    );
                    black_box(must(r))
                },
                criterion::BatchSize::LargeInput,
            )
        });
        let (hive, cave) = brogue_levels(&t, w, h);
        let door = Brush::new(must(t.table.id("door").ok_or("no door terrain")));
        let loop_options = Loops {
            min_distance: 20,
            max_count: 1000,
            adjacency: Adjacency::Four,
        };
        group.bench_function(
            format!("loops (min distance 20) on a hive, {w}×{h}"),
            |b| {
                b.iter_batched_ref(
                    || hive.clone(),
                    |m| {
                        seed += 1;
                        let r = loops::add_loops(
                            m,
                            Area::Map,
                            &loop_options,
                            &mut Rng::new(seed),
                            &door,
                            &mut Unmetered,
                        );
                        black_box(must(r))
                    },
                    criterion::BatchSize::LargeInput,
                )
            },
        );
        let water = Brush::new(must(t.table.id("water").ok_or("no water terrain")));
        let shallows = Brush::new(must(t.table.id("shallow water").ok_or("no shallows")));
        let lake_options = Lakes {
            count: 4,
            min_size: 10,
            max_size: 60,
            tries: 20,
            wreath: 1,
            adjacency: Adjacency::Eight,
        };
        group.bench_function(
            format!("lakes (4 of 10-60 cells) in a cave, {w}×{h}"),
            |b| {
                b.iter_batched_ref(
                    || cave.clone(),
                    |m| {
                        seed += 1;
                        let brushes = LakeBrushes {
                            lake: &water,
                            wreath: Some(&shallows),
                        };
                        let r = lakes::lakes(
                            m,
                            Area::Map,
                            &lake_options,
                            &mut Rng::new(seed),
                            brushes,
                            &mut Unmetered,
                        );
                        black_box(must(r))
                    },
                    criterion::BatchSize::LargeInput,
                )
            },
        );
    }
    group.finish();

    // The tables time every case again: `TOOLBOX_TABLES=0` skips them, and any other value
    // keeps the cases whose name contains it (`TOOLBOX_TABLES=noise`).
    let tables = std::env::var("TOOLBOX_TABLES").ok();
    let tabled = |name: &str| {
        tables
            .as_deref()
            .is_none_or(|t| t != "0" && name.contains(t))
    };
    let mut rows = Vec::new();
    for (w, h) in [(80, 50), (256, 256)] {
        let mut group = c.benchmark_group(format!("toolbox {w}x{h}"));
        for mut case in cases(&t, w, h) {
            let mut seed = 0;
            group.bench_function(format!("warren {}", case.name), |b| {
                b.iter(|| {
                    seed += 1;
                    (case.warren)(seed)
                })
            });
            if let Some(peer) = &mut case.peer {
                group.bench_function(format!("mapgen {}", case.name), |b| {
                    b.iter(|| {
                        seed += 1;
                        peer(seed)
                    })
                });
            }
            if !tabled(case.name) {
                continue;
            }
            let sw = mean_shape(&mut case.warren, case.w);
            let Some(peer) = &mut case.peer else {
                let tw = side_by_side(&mut case.warren, &mut |_| ()).0;
                rows.push(format!(
                    "  {:<28} {:>3}x{:<3} {:>9.1} µs {:>12} {:>6}   {:.2} / —      {:>6.1} / —",
                    case.name,
                    case.w,
                    case.h,
                    tw * 1e6,
                    "—",
                    "—",
                    sw.0,
                    sw.1
                ));
                continue;
            };
            let (tw, tp) = side_by_side(&mut case.warren, peer);
            let sp = mean_shape(peer, case.w);
            rows.push(format!(
                "  {:<28} {:>3}x{:<3} {:>9.1} µs {:>9.1} µs {:>6.3}   {:.2} / {:.2}   {:>6.1} / {:<6.1}",
                case.name,
                case.w,
                case.h,
                tw * 1e6,
                tp * 1e6,
                tw / tp,
                sw.0,
                sp.0,
                sw.1,
                sp.1
            ));
        }
        group.finish();
    }
    c.final_summary();
    if tables.as_deref() == Some("0") {
        return;
    }

    println!("\nwarren against mapgen, {ROUNDS} alternating rounds, medians per map (goal: ratio ≤ 0.75):");
    println!(
        "  {:<28} {:>7} {:>12} {:>12} {:>6}   open warren/mapgen   areas warren/mapgen",
        "generator", "size", "warren", "mapgen", "ratio"
    );
    for r in &rows {
        println!("{r}");
    }

    let prefabs = shipped_prefabs();
    println!("\nprimitive against pure Lua run in warren, medians per map (goal: ≥ 20× faster):");
    println!(
        "  {:<28} {:>7} {:>12} {:>12} {:>8}",
        "algorithm", "size", "primitive", "pure Lua", "speed-up"
    );
    for (w, h) in [(80, 50), (256, 256)] {
        let mut all: Vec<(&str, Generator<'_>)> = cases(&t, w, h)
            .into_iter()
            .map(|c| (c.name, c.warren))
            .collect();
        all.push(("noise (Perlin fBm, 4 octaves)", perlin_case(&t, w, h)));
        // At 256x256 the walk inwards stops at its step cap on both sides, about 17 s a map
        // in pure Lua, and WFC would take about 25 s: 80x50 only.
        if w == 80 {
            all.push(("DLA (walk inwards, 25%)", dla_case(&t, w, h)));
            all.push(("WFC (houses, n 3)", wfc_case(&t, w, h)));
        }
        for (file, name, more) in [
            ("cellular.lua", "cellular automata", &[][..]),
            ("bsp.lua", "BSP rooms + corridors", &[]),
            ("bsp_interior.lua", "BSP interior", &[]),
            (
                "bsp_interior.lua",
                "BSP interior (halves)",
                &[("split", "halves")],
            ),
            ("drunkard.lua", "drunkard's walk (open area)", &[]),
            ("maze.lua", "maze (backtracker)", &[]),
            ("voronoi.lua", "Voronoi hive (64 seeds)", &[]),
            ("noise.lua", "noise (Perlin fBm, 4 octaves)", &[]),
            ("dla.lua", "DLA (walk inwards, 25%)", &[]),
            ("wfc.lua", "WFC (houses, n 3)", &[]),
        ] {
            let Some((name, primitive)) = all.iter_mut().find(|(n, _)| *n == name) else {
                continue;
            };
            if !tabled(name) {
                continue;
            }
            let mut lua = LuaRecipe::with(file, w, h, more);
            let (tw, tl) = side_by_side(&mut *primitive, &mut |s| lua.map(s));
            let sw = mean_shape(&mut *primitive, w);
            let sl = mean_shape(&mut |s| lua.map(s), w);
            println!(
                "  {:<28} {:>3}x{:<3} {:>9.1} µs {:>9.1} µs {:>7.1}×   open {:.2} / {:.2}",
                name,
                w,
                h,
                tw * 1e6,
                tl * 1e6,
                tl / tw,
                sw.0,
                sl.0
            );
        }
        let mut field = Field::new(w as i32, h as i32, 0.0);
        let mut seen = Mask::new(w as i32, h as i32, false);
        let (wi, hi) = (w as i64, h as i64);
        let cave = |seed| bench_cave(t.map(wi, hi), &t, &mut Rng::new(seed));
        if tabled("Dijkstra map") {
            let keys: &[&str] = &["reached", "total"];
            let analyse = (true, |m: &Map| distances_of(m, &mut field));
            let name = "Dijkstra map (8-way)";
            let row = analysis_row(name, ("dijkstra.lua", keys), (w, h), &cave, analyse);
            println!("{row}");
        }
        if tabled("field of view") {
            let analyse = (true, |m: &Map| seen_of(m, &mut seen));
            let name = "field of view (r 20, many)";
            let row = analysis_row(name, ("fov.lua", &["seen"]), (w, h), &cave, analyse);
            println!("{row}");
        }
        if tabled("loops") {
            let hive = |seed| bench_hive(t.map(wi, hi), &t, &mut Rng::new(seed));
            let door = Brush::new(must(t.table.id("door").ok_or("no door terrain")));
            let mut work = t.map(wi, hi);
            let analyse = (false, |m: &Map| openings_of(m, &mut work, &door));
            let name = "Brogue's loops (on a hive)";
            let row = analysis_row(name, ("loops.lua", &["openings"]), (w, h), &hive, analyse);
            println!("{row}");
        }
        if tabled("lakes") {
            let water = Brush::new(must(t.table.id("water").ok_or("no water terrain")));
            let shallows = Brush::new(must(t.table.id("shallow water").ok_or("no shallows")));
            let brushes = LakeBrushes {
                lake: &water,
                wreath: Some(&shallows),
            };
            let mut work = t.map(wi, hi);
            let analyse = (false, |m: &Map| lakes_of(m, &mut work, brushes));
            let name = "Brogue's lakes (in a cave)";
            let row = analysis_row(name, ("lakes.lua", &["lakes"]), (w, h), &cave, analyse);
            println!("{row}");
        }
        if tabled("vault placement") {
            let dungeon = |seed| bench_dungeon(t.map(wi, hi), &t, &mut Rng::new(seed));
            let mut work = t.map(wi, hi);
            let count = (w * h / 4096).max(4);
            let analyse = (false, |m: &Map| {
                vaults_of(m, &mut work, (&t, &prefabs), count, &mut Rng::new(1))
            });
            let name = "vault placement (in a BSP)";
            let row = analysis_row(name, ("vaults.lua", &["vaults"]), (w, h), &dungeon, analyse);
            println!("{row}");
        }
    }
}
