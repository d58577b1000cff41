//! Rooms and corridors, after the Rust roguelike tutorial (seed `004`): random non-overlapping
//! rooms, then corridors by one of four strategies, each corridor recorded as the list of cells
//! it carved, and an optional spawner that places things inside corridors.

use super::meter::{Batched, Meter, Stopped};
use crate::map::{
    bresenham_cells, Adjacency, Brush, DogLeg, KindName, Map, MapError, Point, Rect, Spawn,
    TerrainId,
};
use crate::rng::Rng;
use smallvec::SmallVec;
use thiserror::Error;

/// Why a rooms phase failed.
#[derive(Debug, Error)]
pub enum RoomsError {
    /// A room or a cell was not on the map.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A room index was outside the list.
    #[error("room {index} does not exist (the list has {len} rooms: 1..={len})")]
    NoRoom {
        /// The 1-based index asked for.
        index: usize,
        /// How many rooms the list has.
        len: usize,
    },
    /// The list of rooms was empty.
    #[error("the room list is empty")]
    Empty,
    /// The meter refused more work.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// How rooms are scattered.
#[derive(Clone, Copy, Debug)]
pub struct ScatterOptions {
    /// Placement attempts (the tutorial's `MAX_ROOMS`).
    pub attempts: u32,
    /// Smallest room side (floor cells).
    pub min_size: i32,
    /// Largest room side (floor cells).
    pub max_size: i32,
}

/// Picks random non-overlapping room floors, the tutorial's `SimpleMapBuilder`: each attempt
/// draws a size and a position and keeps the room if it neither overlaps nor touches an earlier
/// one. Floors stay one cell off the map edge. Nothing is written to any map.
pub fn scatter_rooms(
    width: i32,
    height: i32,
    rng: &mut Rng,
    opts: &ScatterOptions,
    meter: &mut dyn Meter,
) -> Result<Vec<Rect>, Stopped> {
    let mut rooms = Vec::new();
    scatter_rooms_into(width, height, rng, opts, meter, &mut rooms)?;
    Ok(rooms)
}

/// [`scatter_rooms`] into `rooms`, emptied first: a list kept from an earlier map takes the new
/// rooms without allocating (the host hands its rectangle lists' storage on from run to run).
pub fn scatter_rooms_into(
    width: i32,
    height: i32,
    rng: &mut Rng,
    opts: &ScatterOptions,
    meter: &mut dyn Meter,
    rooms: &mut Vec<Rect>,
) -> Result<(), Stopped> {
    rooms.clear();
    rooms.reserve(opts.attempts.min(64) as usize);
    // Each kept room as `[x2, -x, y2, -y]`: a candidate spanning `x0..=x1` × `y0..=y1` overlaps
    // it when `[x0, -x1, y0, -y1]` is at most that in every lane. On the stack up to 64 rooms.
    let mut kept = KeptBounds::default();
    // Each attempt tests every room kept so far; about 16 tests cost as much as a cell.
    let mut tests = 0u64;
    for _ in 0..opts.attempts {
        // The tutorial's `rng.range(MIN_SIZE, MAX_SIZE)` excludes MAX_SIZE (its largest room
        // side is 9 for MAX_SIZE 10); `min_size..=max_size` here, as the parameters read.
        let w = rng.range(opts.min_size as i64, opts.max_size as i64) as i32;
        let h = rng.range(opts.min_size as i64, opts.max_size as i64) as i32;
        // The tutorial rolls x in 0..=width-w-2 for a room whose floor starts at x + 1.
        let (span_x, span_y) = (width - w - 1, height - h - 1);
        if span_x < 1 || span_y < 1 {
            continue;
        }
        let x = rng.range(1, span_x as i64) as i32;
        let y = rng.range(1, span_y as i64) as i32;
        let room = Rect::new(x, y, w, h);
        let v = [room.x - 1, -(room.x2() + 1), room.y - 1, -(room.y2() + 1)];
        let hit = touches_any(&kept, v);
        tests += 16 + rooms.len() as u64;
        if !hit {
            kept.push([room.x2(), -room.x, room.y2(), -room.y]);
            rooms.push(room);
        }
    }
    meter.work(tests / 16)?;
    Ok(())
}

/// Rooms' bounds `[x2, -x, y2, -y]` (see [`scatter_rooms`]), held four rooms to a group, lane
/// by lane, so one SIMD compare tests a candidate's lane against four rooms. The last group's
/// unused places hold `i32::MIN`, which no candidate lane is at most (a candidate's lanes are
/// above `i32::MIN`). Up to 64 rooms are held without allocating.
#[derive(Clone, Debug, Default)]
pub struct KeptBounds {
    /// `groups[g][lane][k]`: lane `lane` of room `4 g + k`.
    groups: SmallVec<[[[i32; 4]; 4]; 16]>,
    len: usize,
}

impl KeptBounds {
    /// Adds a room's bounds.
    pub fn push(&mut self, bounds: [i32; 4]) {
        let k = self.len % 4;
        if k == 0 {
            self.groups.push([[i32::MIN; 4]; 4]);
        }
        let group = &mut self.groups[self.len / 4];
        for (lane, value) in group.iter_mut().zip(bounds) {
            lane[k] = value;
        }
        self.len += 1;
    }

    /// How many rooms are held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no room is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Each room's bounds, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = [i32; 4]> + '_ {
        (0..self.len).map(|i| {
            let group = &self.groups[i / 4];
            [0, 1, 2, 3].map(|lane| group[lane][i % 4])
        })
    }
}

impl FromIterator<[i32; 4]> for KeptBounds {
    fn from_iter<I: IntoIterator<Item = [i32; 4]>>(bounds: I) -> Self {
        let mut kept = KeptBounds::default();
        bounds.into_iter().for_each(|b| kept.push(b));
        kept
    }
}

/// Whether a candidate spanning `x0..=x1` × `y0..=y1`, as `v = [x0, -x1, y0, -y1]` (each lane
/// above `i32::MIN`), overlaps a kept room `q = [x2, -x, y2, -y]` (see [`scatter_rooms`]):
/// `v ≤ q` in every lane, for some `q`. Every kept room is tested without stopping at the first
/// hit: no branch to mispredict per room, and the few rooms there are make that the cheaper
/// way. Four SSE2 compares per four rooms (every x86_64 CPU has SSE2).
#[cfg(target_arch = "x86_64")]
pub fn touches_any(kept: &KeptBounds, v: [i32; 4]) -> bool {
    use std::arch::x86_64::{
        __m128i, _mm_cmpgt_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32,
    };
    // SAFETY: SSE2 is part of x86_64; each unaligned load reads the four `i32`s of one lane.
    unsafe {
        let v = v.map(|lane| _mm_set1_epi32(lane));
        let load = |lane: &[i32; 4]| _mm_loadu_si128(lane.as_ptr().cast::<__m128i>());
        kept.groups.iter().fold(false, |hit, g| {
            // A room's 32 bits set where some candidate lane is above the room's.
            let above = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpgt_epi32(v[0], load(&g[0])),
                    _mm_cmpgt_epi32(v[1], load(&g[1])),
                ),
                _mm_or_si128(
                    _mm_cmpgt_epi32(v[2], load(&g[2])),
                    _mm_cmpgt_epi32(v[3], load(&g[3])),
                ),
            );
            hit | (_mm_movemask_epi8(above) != 0xFFFF)
        })
    }
}

/// [`touches_any`] without SIMD: `v ≤ q` in every lane exactly when no lane of `q - v` (exact
/// in 64 bits) is negative, so when their bitwise or is not.
pub fn touches_any_scalar(kept: &KeptBounds, v: [i32; 4]) -> bool {
    let lane = |q: &[i32; 4], i: usize| i64::from(q[i]) - i64::from(v[i]);
    kept.iter().fold(false, |hit, q| {
        hit | (lane(&q, 0) | lane(&q, 1) | lane(&q, 2) | lane(&q, 3) >= 0)
    })
}

#[cfg(not(target_arch = "x86_64"))]
pub use touches_any_scalar as touches_any;

/// Fills every room of `rooms` with `brush` and records each as a room of `kind`, the way the
/// tutorial's builders apply a room: all rooms are checked to be on the map before any is
/// written. Returns how many rooms were carved.
pub fn carve_rooms(
    map: &mut Map,
    rooms: &[Rect],
    brush: &Brush,
    kind: &KindName,
    meter: &mut dyn Meter,
) -> Result<usize, RoomsError> {
    let mut cells = 0u64;
    for r in rooms {
        map.check_rect(r)?;
        cells += r.w as u64 * r.h as u64;
    }
    meter.work(cells)?;
    map.notes.rooms.reserve(rooms.len());
    for r in rooms {
        map.fill_rect(r, brush)?;
        map.notes.push_doorless_room(*r, kind.clone());
    }
    Ok(rooms.len())
}

/// Where [`start_and_stairs`] put the player and the stairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartAndStairs {
    /// The player's starting cell (tagged `start_x`, `start_y`).
    pub start: Point,
    /// The stairs down.
    pub stairs: Point,
}

/// The tutorial's `RoomBasedStartingPosition` and `RoomBasedStairs`: the player starts at the
/// centre of room `start` (1-based; tags `start_x` and `start_y`), and the stairs down go at the
/// centre of room `down`, written with `stairs` (a plain write, like `map:set`) and recorded.
pub fn start_and_stairs(
    map: &mut Map,
    rooms: &[Rect],
    start: usize,
    down: usize,
    stairs: TerrainId,
    meter: &mut dyn Meter,
) -> Result<StartAndStairs, RoomsError> {
    if rooms.is_empty() {
        return Err(RoomsError::Empty);
    }
    let room = |index: usize| {
        index
            .checked_sub(1)
            .and_then(|i| rooms.get(i))
            .copied()
            .ok_or(RoomsError::NoRoom {
                index,
                len: rooms.len(),
            })
    };
    let (first, last) = (room(start)?, room(down)?);
    for r in [&first, &last] {
        map.check_rect(r)?;
    }
    meter.work(2)?;
    let (s, d) = (first.center(), last.center());
    map.write(d, &Brush::new(stairs))?;
    let tags = &mut map.notes.tags;
    tags.insert("start_x", crate::map::TagValue::Int(s.x.into()));
    tags.insert("start_y", crate::map::TagValue::Int(s.y.into()));
    map.notes.stairs.down.push(d);
    Ok(StartAndStairs {
        start: s,
        stairs: d,
    })
}

/// A corridor strategy from the tutorial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Each room to its nearest not-yet-connected room, walking x then y.
    Nearest,
    /// Nearest pairing, drawn as Bresenham lines.
    Lines,
    /// Consecutive rooms joined by a one-bend corridor, bend order chosen at random.
    Dogleg,
    /// Consecutive rooms joined between random cells of each (the BSP builder's corridors).
    Bsp,
}

impl Strategy {
    /// Every strategy's name, as a recipe parameter spells it.
    pub const NAMES: [&'static str; 4] = ["nearest", "lines", "dogleg", "bsp"];

    /// Parses a strategy name.
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "nearest" => Some(Strategy::Nearest),
            "lines" => Some(Strategy::Lines),
            "dogleg" => Some(Strategy::Dogleg),
            "bsp" => Some(Strategy::Bsp),
            _ => None,
        }
    }
}

/// The tutorial's nearest-neighbour pairing: for each room in order, the closest room (by centre
/// distance) that has not itself been connected yet. Ties go to the lower index.
///
/// A room is connected at its own turn, and finds a room unless every other one is connected:
/// only the last room finds none. So at each room's turn the rooms not yet connected are
/// exactly those after it, and it looks only among them (half the distances of a scan of every
/// room, and no flags to check).
pub fn nearest_pairs(rooms: &[Rect]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::with_capacity(rooms.len());
    each_nearest_pair(rooms, |i, j| {
        pairs.push((i, j));
        Ok::<_, std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    pairs
}

/// Calls `pair(i, j)` for each pair of [`nearest_pairs`], in its order, without making the
/// list, and stops at the first error `pair` returns. The centres of up to 64 rooms are held on
/// the stack.
pub fn each_nearest_pair<E>(
    rooms: &[Rect],
    mut pair: impl FnMut(usize, usize) -> Result<(), E>,
) -> Result<(), E> {
    const ON_STACK: usize = 64;
    let mut stack = [Point::new(0, 0); ON_STACK];
    let heap: Vec<Point>;
    let centres: &[Point] = if rooms.len() <= ON_STACK {
        for (c, r) in stack.iter_mut().zip(rooms) {
            *c = r.center();
        }
        &stack[..rooms.len()]
    } else {
        heap = rooms.iter().map(Rect::center).collect();
        &heap
    };
    for (i, &c) in centres.iter().enumerate() {
        // Scanning upwards and replacing only on a strictly shorter distance keeps ties at the
        // lower index.
        let nearest = centres[i + 1..].iter().zip(i + 1..).fold(
            (i64::MAX, usize::MAX),
            |(shortest, best), (&other, j)| {
                let d = c.dist2(other);
                if d < shortest {
                    (d, j)
                } else {
                    (shortest, best)
                }
            },
        );
        if nearest.1 != usize::MAX {
            pair(i, nearest.1)?;
        }
    }
    Ok(())
}

/// A random cell of a room's floor.
fn random_cell(rng: &mut Rng, r: &Rect) -> Point {
    Point::new(
        rng.range(r.x as i64, r.x2() as i64) as i32,
        rng.range(r.y as i64, r.y2() as i64) as i32,
    )
}

/// Joins `rooms` with corridors by `strategy`, carving with `brush` and recording each corridor
/// (the cells it changed) in the map's annotations. Returns how many corridors were drawn. Every
/// room must be on the map (then so is every corridor: each stays inside the box of its ends).
/// Every corridor joins its rooms in `adjacency`: dog-legs always do, and with 4-neighbour
/// adjacency each diagonal step of a Bresenham line gets the cell beside it (the line's
/// horizontal move first), so the line has no corner-only joins.
pub fn connect_rooms(
    map: &mut Map,
    rng: &mut Rng,
    rooms: &[Rect],
    strategy: Strategy,
    (brush, adjacency): (&Brush, Adjacency),
    meter: &mut dyn Meter,
) -> Result<usize, RoomsError> {
    for r in rooms {
        map.check_rect(r)?;
    }
    if matches!(strategy, Strategy::Nearest | Strategy::Lines) {
        // Pairing compares every room with every other.
        meter.work(rooms.len() as u64 * rooms.len() as u64 / 2)?;
    }
    let before = map.notes.corridors.len();
    // Corridors report their cells in batches: a map's dozen short corridors make one meter
    // call, not one each.
    let mut work = Batched::new(meter);
    match strategy {
        Strategy::Nearest => each_nearest_pair(rooms, |i, j| {
            let (a, b) = (rooms[i].center(), rooms[j].center());
            carve_dogleg(map, brush, a, b, DogLeg::HorizontalFirst, &mut work)
        })?,
        Strategy::Lines => {
            for (i, j) in nearest_pairs(rooms) {
                let line = bresenham_cells(rooms[i].center(), rooms[j].center());
                match adjacency {
                    Adjacency::Eight => carve(map, brush, line, &mut work)?,
                    // Collected, so the meter is told every cell (a corner per diagonal step).
                    Adjacency::Four => {
                        let cells: Vec<Point> = orthogonal(line).collect();
                        carve(map, brush, cells.into_iter(), &mut work)?
                    }
                }
            }
        }
        // The tutorial's listing joins every room to the *last* room and its `range(0,1) == 1`
        // never picks horizontal-first; the evident intent is consecutive rooms and a coin flip.
        Strategy::Dogleg => {
            for w in rooms.windows(2) {
                let order = if rng.below(2) == 1 {
                    DogLeg::HorizontalFirst
                } else {
                    DogLeg::VerticalFirst
                };
                carve_dogleg(map, brush, w[0].center(), w[1].center(), order, &mut work)?;
            }
        }
        Strategy::Bsp => {
            for w in rooms.windows(2) {
                let a = random_cell(rng, &w[0]);
                let b = random_cell(rng, &w[1]);
                carve_dogleg(map, brush, a, b, DogLeg::HorizontalFirst, &mut work)?;
            }
        }
    }
    work.finish()?;
    Ok(map.notes.corridors.len() - before)
}

/// Carves a dog-leg corridor and records the cells whose terrain changed.
fn carve_dogleg(
    map: &mut Map,
    brush: &Brush,
    a: Point,
    b: Point,
    order: DogLeg,
    meter: &mut Batched,
) -> Result<(), RoomsError> {
    let len = (a.x - b.x).unsigned_abs() + (a.y - b.y).unsigned_abs() + 1;
    meter.work(len as u64)?;
    let mut carved = map.notes.corridor_cells(len as usize);
    map.carve_dogleg(a, b, order, brush, &mut carved)?;
    map.notes.push_plain_corridor(carved);
    Ok(())
}

/// `cells` (each touching the one before, diagonals included) with the cell `(next.x, prev.y)`
/// inserted before every diagonal step, so consecutive cells share a side.
pub fn orthogonal(cells: impl Iterator<Item = Point>) -> impl Iterator<Item = Point> {
    let mut prev: Option<Point> = None;
    cells.flat_map(move |p| {
        let corner = prev
            .filter(|q| q.x != p.x && q.y != p.y)
            .map(|q| Point::new(p.x, q.y));
        prev = Some(p);
        corner.into_iter().chain([p])
    })
}

/// Carves `cells` and records the ones whose terrain changed as a corridor.
fn carve(
    map: &mut Map,
    brush: &Brush,
    cells: impl Iterator<Item = Point>,
    meter: &mut Batched,
) -> Result<(), RoomsError> {
    meter.work(cells.size_hint().0 as u64)?;
    let mut carved = map.notes.corridor_cells(cells.size_hint().0);
    map.carve_into(cells, brush, &mut carved)?;
    map.notes.push_plain_corridor(carved);
    Ok(())
}

/// A weighted entry of a spawn table.
#[derive(Clone, Debug)]
pub struct SpawnEntry {
    /// What spawns.
    pub name: String,
    /// Relative chance (finite, ≥ 0).
    pub weight: f64,
}

/// The tutorial's corridor spawner: for every recorded corridor, `d(1, max_per_area + 3) +
/// (depth − 1) − 3` spawns (none when that is ≤ 0) on distinct random cells of the corridor,
/// each picking what spawns from `table` by weight. Returns the number of spawns added.
pub fn spawn_in_corridors(
    map: &mut Map,
    rng: &mut Rng,
    table: &[SpawnEntry],
    max_per_area: i64,
    depth: i64,
    meter: &mut dyn Meter,
) -> Result<usize, Stopped> {
    let weights: Vec<f64> = table.iter().map(|e| e.weight).collect();
    let mut added = Vec::new();
    for corridor in &map.notes.corridors {
        // The corridor is copied, then each spawn removes a cell from the copy.
        let wanted = (max_per_area + depth).max(0) as u64;
        let len = corridor.cells.len() as u64;
        meter.work(len + wanted.min(len) * len / 16)?;
        let mut area = corridor.cells.clone();
        let wanted = rng.range(1, max_per_area + 3) + (depth - 1) - 3;
        let n = wanted.clamp(0, area.len() as i64);
        for _ in 0..n {
            let k = rng.below(area.len() as u64) as usize;
            let p = area.remove(k);
            if let Some(w) = rng.weighted_index(&weights) {
                added.push(Spawn {
                    x: p.x,
                    y: p.y,
                    what: table[w].name.clone(),
                });
            }
        }
    }
    let n = added.len();
    map.notes.spawns.extend(added);
    Ok(n)
}
