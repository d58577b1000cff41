//! Flood fill, component labelling and closest pairs on 4096×4096 maps (the largest warren
//! allows): an open grid and a cellular-automaton cave. Throughput is in cells per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use warren_core::gen::connectivity::{Components, Connectivity};
use warren_core::map::{Adjacency, Brush, Map, Point, TerrainId, TerrainTable};
use warren_core::rng::Rng;

const SIDE: usize = 4096;
const ROCK: TerrainId = 0;
const FLOOR: TerrainId = 1;

fn terrains() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
    ]))
}

fn open_map() -> Map {
    Map::new(SIDE as i64, SIDE as i64, FLOOR, terrains()).expect("4096×4096 is allowed")
}

/// 45 % rock noise smoothed by 4 passes of the 4-5 rule (rock when at least 5 of the 3×3 cells
/// are rock, off-map counting as rock), from a fixed seed.
fn cave_map() -> Map {
    let mut rng = Rng::new(0x00ca_fe00);
    let mut rock: Vec<bool> = (0..SIDE * SIDE).map(|_| rng.percent(45)).collect();
    let mut next = rock.clone();
    for _ in 0..4 {
        for y in 0..SIDE {
            for x in 0..SIDE {
                let mut n = 0;
                for ny in y as i64 - 1..=y as i64 + 1 {
                    for nx in x as i64 - 1..=x as i64 + 1 {
                        let off = nx < 0 || ny < 0 || nx >= SIDE as i64 || ny >= SIDE as i64;
                        n += (off || rock[nx as usize + ny as usize * SIDE]) as u32;
                    }
                }
                next[x + y * SIDE] = n >= 5;
            }
        }
        std::mem::swap(&mut rock, &mut next);
    }
    let mut map = open_map();
    let wall = Brush::new(ROCK).forced();
    for (i, _) in rock.iter().enumerate().filter(|(_, &r)| r) {
        map.write_index(i, &wall);
    }
    map
}

/// The representative of the map's largest open area, and its index.
fn largest_area(map: &Map) -> (Point, usize) {
    let comps = warren_core::gen::connectivity::components(map, Adjacency::Eight);
    let (index, c) = comps
        .list()
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (c.size, std::cmp::Reverse(*i)))
        .expect("the map has open cells");
    eprintln!(
        "{} open areas; the largest has {} of {} cells ({:.1} %)",
        comps.len(),
        c.size,
        map.len(),
        100.0 * c.size as f64 / map.len() as f64
    );
    (c.representative, index)
}

fn benches(c: &mut Criterion) {
    let maps = [("open", open_map()), ("cave", cave_map())];
    let mut scratch = Connectivity::new();
    let mut comps = Components::new();

    let mut group = c.benchmark_group("flood");
    group.sample_size(20);
    group.throughput(Throughput::Elements((SIDE * SIDE) as u64));
    for (name, map) in &maps {
        let (start, _) = largest_area(map);
        let mut map = map.clone();
        group.bench_function(BenchmarkId::new("mark_connected", name), |b| {
            b.iter(|| scratch.mark_connected(&mut map, black_box(start), Adjacency::Eight))
        });
        group.bench_function(BenchmarkId::new("mark_connected_4", name), |b| {
            b.iter(|| scratch.mark_connected(&mut map, black_box(start), Adjacency::Four))
        });
    }
    for (name, map) in &maps {
        for (id, adjacency) in [
            ("components", Adjacency::Eight),
            ("components_4", Adjacency::Four),
        ] {
            group.bench_function(BenchmarkId::new(id, name), |b| {
                b.iter(|| scratch.components(black_box(map), &mut comps, adjacency))
            });
        }
    }
    let (_, cave) = &maps[1];
    let (_, largest) = largest_area(cave);
    scratch.components(cave, &mut comps, Adjacency::Eight);
    group.bench_function(BenchmarkId::new("closest_pairs_from", "cave"), |b| {
        b.iter(|| scratch.closest_pairs_from(&comps, black_box(largest)))
    });
    group.finish();
}

criterion_group!(flood, benches);
criterion_main!(flood);
