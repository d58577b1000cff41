//! The pure-Lua tools that `cargo bench --bench toolbox` times against the primitives
//! (`benches/toolbox_lua/`) are the primitives' algorithms, so the bench's speed-ups compare like
//! with like: the Dijkstra map and the field of view find, on the caves they make, exactly what
//! the primitives find there; the loops open about as many walls as the primitive does on the
//! same hives; chasm lakes never split the cave; the wave function collapse makes only the
//! sample's patterns; the vaults go into rock, keep the level whole and fit about as often as
//! the primitive's. Maps of 40×30 (WFC 16×12).

use crate::common::*;
use warren_core::gen::area::{Area, Mask};
use warren_core::gen::connectivity::components;
use warren_core::gen::field::distance::{distance_map, MoveRules};
use warren_core::gen::field::fov::fov_into;
use warren_core::gen::loops::{add_loops, Loops};
use warren_core::gen::meter::Unmetered;
use warren_core::gen::prefab::{self, Fit, PlaceRequest, PrefabBrushes};
use warren_core::gen::wfc::{self, Sample, Symmetry};
use warren_core::map::{passable, Adjacency, Brush, Map, Point, TagValue};
use warren_core::rng::Rng;
use warren_lua::{Host, Limits, ParamValue, ParamValues};

/// A host for the bench's workload `file`, with its parameters at 40×30.
fn workload(file: &str) -> (Host, ParamValues) {
    let path = root().join("benches/toolbox_lua").join(file);
    let host = Host::load(&path, registry(), Limits::default()).expect("the workload loads");
    let on = params(&host, &[("width", "40"), ("height", "30")]);
    (host, on)
}

/// `on` with `key` set to `value`.
fn with(on: &ParamValues, key: &str, value: ParamValue) -> ParamValues {
    let mut on = on.clone();
    on.insert(key.into(), value);
    on
}

/// The integer tag `key` of `m`, if the recipe set one.
fn tag(m: &Map, key: &str) -> Option<i64> {
    match m.notes.tags.get(key) {
        Some(TagValue::Int(n)) => Some(*n),
        None => None,
        other => panic!("tag {key}: {other:?}"),
    }
}

/// Asserts that the Lua code's count of `what` is within `within` (a fraction) of the
/// primitive's.
fn assert_close(what: &str, (by_lua, by_primitive): (i64, i64), within: f64) {
    let ratio = by_lua as f64 / by_primitive as f64;
    assert!(
        (1.0 - within..=1.0 + within).contains(&ratio),
        "{what}: {by_lua} in Lua, {by_primitive} by the primitive"
    );
}

/// The point of cell index `i` on a map `w` cells wide.
fn point(i: usize, w: usize) -> Point {
    Point::new((i % w) as i32, (i / w) as i32)
}

#[test]
fn the_lua_dijkstra_map_and_field_of_view_find_what_the_primitives_find() {
    let (dijkstra, on_dijkstra) = workload("dijkstra.lua");
    let (fov, on_fov) = workload("fov.lua");
    for seed in 0..300 {
        // The distance map from the first open cell at or after the centre, 8-way.
        let m = generate(&dijkstra, seed, &on_dijkstra);
        let (w, h) = (m.width() as usize, m.height() as usize);
        let flags = m.flag_cells();
        let centre = (w / 2 + h / 2 * w..w * h).find(|&i| passable(flags[i]));
        let found = centre.map(|i| {
            let rules = MoveRules::new(Adjacency::Eight);
            let d = distance_map(&m, Area::Map, &[point(i, w)], &rules, &mut Unmetered).unwrap();
            let reached = d.values().iter().filter(|v| v.is_finite());
            reached.fold((0, 0), |(n, t), &v| (n + 1, t + v as i64))
        });
        let tagged = tag(&m, "reached").map(|n| (n, tag(&m, "total").unwrap_or(-1)));
        assert_eq!(
            tagged, found,
            "seed {seed}: cells reached, sum of distances"
        );

        // What every 64th open cell sees, radius 20.
        let m = generate(&fov, seed, &on_fov);
        let mut seen = Mask::new(m.width(), m.height(), false);
        let open = m
            .flag_cells()
            .iter()
            .enumerate()
            .filter(|(_, &f)| passable(f));
        for (i, _) in open.step_by(64) {
            fov_into(&mut seen, &m, Area::Map, point(i, w), 20, &mut Unmetered).unwrap();
        }
        let count = seen.cells().iter().filter(|&&s| s).count() as i64;
        assert_eq!(tag(&m, "seen"), Some(count), "seed {seed}: cells seen");
    }
}

/// Each side draws its own order, so the openings are compared in total over 100 hives.
#[test]
fn the_lua_loops_open_about_as_many_walls_as_the_primitive() {
    let (loops, on) = workload("loops.lua");
    let door = Brush::new(registry().terrains().id("door").expect("a door terrain"));
    let rule = Loops {
        min_distance: 20,
        max_count: 100_000,
        adjacency: Adjacency::Four,
    };
    let (mut by_lua, mut by_primitive) = (0, 0);
    for seed in 0..100 {
        by_lua += tag(&generate(&loops, seed, &on), "openings").expect("tagged");
        let mut hive = generate(&loops, seed, &with(&on, "analyse", ParamValue::Bool(false)));
        let made = add_loops(
            &mut hive,
            Area::Map,
            &rule,
            &mut Rng::new(seed),
            &door,
            &mut Unmetered,
        );
        by_primitive += made.unwrap().len() as i64;
    }
    assert_close("openings", (by_lua, by_primitive), 0.1);
}

/// Chasms block a walker, so a lake that split an area would show as one area more.
#[test]
fn the_lua_lakes_never_split_the_cave() {
    let (lakes, on) = workload("lakes.lua");
    for seed in 0..100 {
        let water = generate(&lakes, seed, &on);
        assert!(tag(&water, "lakes").is_some(), "seed {seed}: lakes");
        let cave = generate(&lakes, seed, &with(&on, "analyse", ParamValue::Bool(false)));
        let chasms = with(&on, "lake", ParamValue::Text("chasm".into()));
        let m = generate(&lakes, seed, &chasms);
        let areas = |m: &Map| components(m, Adjacency::Eight).len();
        assert!(
            areas(&m) <= areas(&cave),
            "seed {seed}: a lake split the cave"
        );
    }
}

#[test]
fn the_lua_wave_function_collapse_makes_only_the_samples_patterns() {
    let path = root().join("benches/toolbox_lua/wfc.lua");
    let wfc_lua = Host::load(&path, registry(), Limits::default()).expect("the workload loads");
    let terrains = registry().terrains().clone();
    let palette: Vec<u16> = ["street", "brick wall", "worn floor", "open door"]
        .iter()
        .map(|name| terrains.id(name).expect("a shipped terrain"))
        .collect();
    let houses = [
        ",,,,,,,,", ",#####,,", ",#...#,,", ",#...+,,", ",#...#,,", ",##+##,,", ",,,,,,,,",
        ",,,,,,,,",
    ];
    let rows: Vec<Vec<u16>> = houses
        .iter()
        .map(|row| {
            row.chars()
                .map(|c| palette[",#.+".find(c).unwrap()])
                .collect()
        })
        .collect();
    let sample = Sample::from_rows("houses", &rows, true).unwrap();
    let reflect = Symmetry {
        rotate: false,
        reflect: true,
    };
    let patterns = wfc::patterns(&sample, 3, reflect).unwrap();
    let small = params(&wfc_lua, &[("width", "16"), ("height", "12")]);
    for seed in 0..5 {
        let m = generate(&wfc_lua, seed, &small);
        let at = |x: usize, y: usize| {
            let t = m.terrain_cells()[x + y * 16];
            sample
                .terrains
                .iter()
                .position(|&u| u == t)
                .expect("a sample terrain") as u8
        };
        // Inside the map's edge, which keeps its wall.
        for (x, y) in (1..=8).flat_map(|y| (1..=12).map(move |x| (x, y))) {
            let window: Vec<u8> = (0..9).map(|k| at(x + k % 3, y + k / 3)).collect();
            assert!(patterns.contains(&window), "seed {seed}: window at {x},{y}");
        }
    }
}

/// The Lua vaults are written at priority 100, which a cell put back loses, so those cells are
/// the vaults kept. Each side draws its own templates and spots, so the placements are compared
/// in total over 100 dungeons (where about one in ten does not fit: 2 tries a template instead
/// of 20 place 7% fewer).
#[test]
fn the_lua_vaults_go_into_rock_keep_the_level_whole_and_fit_as_often_as_the_primitives() {
    let (vaults, on) = workload("vaults.lua");
    let shipped = registry();
    let id = |name| shipped.terrains().id(name).expect("a shipped terrain");
    let vault = Brush::new(id("floor")).priority(100);
    let wall = Brush::new(id("rock wall")).priority(100);
    let corridor = Brush::new(id("floor")).priority(70);
    let brushes = PrefabBrushes {
        floor: &vault,
        wall: &wall,
        door: &vault,
        corridor: &corridor,
    };
    let exclude = ["decor".to_string()];
    let req = PlaceRequest {
        depth: 9,
        include: &[],
        exclude: &exclude,
        count: 4,
        tries: 20,
        unique: false,
        fit: Fit::Free,
        adjacency: Adjacency::Eight,
    };
    let areas = |m: &Map| components(m, Adjacency::Eight).len();
    let (mut by_lua, mut by_primitive) = (0, 0);
    for seed in 0..100 {
        let m = generate(&vaults, seed, &on);
        let level_only = with(&on, "analyse", ParamValue::Bool(false));
        let mut dungeon = generate(&vaults, seed, &level_only);
        by_lua += tag(&m, "vaults").expect("tagged");
        assert!(
            areas(&m) <= areas(&dungeon).max(1),
            "seed {seed}: a vault split the level"
        );
        let vault_cells = m
            .priority_cells()
            .iter()
            .enumerate()
            .filter(|(_, &p)| p == 100);
        for (i, _) in vault_cells {
            let was = dungeon.flag_cells()[i];
            assert!(
                !passable(was),
                "seed {seed}: a vault over the open cell {i}"
            );
        }
        let placed = prefab::place(
            &mut dungeon,
            Area::Map,
            &shipped.resolved.prefabs,
            &req,
            brushes,
            &mut Rng::new(seed),
            &mut Unmetered,
        );
        by_primitive += placed.unwrap().len() as i64;
    }
    assert_close("vaults", (by_lua, by_primitive), 0.05);
}
