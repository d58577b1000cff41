//! Distance (Dijkstra) maps: for every cell, the cheapest cost of walking there from the nearest
//! of several sources, under [`MoveRules`]: 4- or 8-way steps, and a cost per terrain to enter a
//! cell. Cells no walk reaches hold [`UNREACHABLE`].
//!
//! Costs are whole numbers, so the search is Dial's algorithm (a ring of buckets, one per cost
//! value) instead of a binary heap: linear in the cells, and a plain breadth-first search when
//! every cost is 1. The grid is padded with a ring of blocked cells so that the inner loop needs
//! no bounds checks.

use super::{Field, UNREACHABLE};
use crate::gen::area::{same_size, Area, Scope};
use crate::gen::meter::{Batched, Meter, Stopped};
use crate::gen::tool_error::ToolError;
use crate::map::{passable, Adjacency, Map, Point, TerrainId};

/// The most a single step may cost.
pub const MAX_COST: u32 = 1000;

/// What entering a cell of one terrain costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// The map's own rule: 1 for a cell a walker may stand on ([`passable`]: open terrain, or a
    /// door), blocked otherwise.
    Default,
    /// This many units (`1..=`[`MAX_COST`]), whether the terrain is solid or not: a river
    /// finder may cross rock at a price.
    Units(u32),
    /// Never entered.
    Blocked,
}

/// How a walker moves: which neighbours it may step to, and what each terrain costs to enter.
/// A diagonal step costs what an orthogonal one does (the cell entered decides), as in Brogue
/// and rot.js: distances on an open 8-way map are Chebyshev distances.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveRules {
    /// 4- or 8-way steps.
    pub adjacency: Adjacency,
    /// The cost of entering each terrain, by terrain id; terrains past the end cost
    /// [`Cost::Default`].
    pub costs: Vec<Cost>,
}

impl MoveRules {
    /// The map's own rules in `adjacency`: every passable cell costs 1.
    pub fn new(adjacency: Adjacency) -> MoveRules {
        MoveRules {
            adjacency,
            costs: Vec::new(),
        }
    }

    /// The same rules with `terrain` costing `cost`.
    pub fn with(mut self, terrain: TerrainId, cost: Cost) -> MoveRules {
        let i = terrain as usize;
        if self.costs.len() <= i {
            self.costs.resize(i + 1, Cost::Default);
        }
        self.costs[i] = cost;
        self
    }

    /// Checks every cost's range.
    pub fn check(&self) -> Result<(), ToolError> {
        for c in &self.costs {
            if let Cost::Units(cost) = *c {
                if !(1..=MAX_COST).contains(&cost) {
                    return Err(ToolError::Cost {
                        cost: cost as i64,
                        most: MAX_COST,
                    });
                }
            }
        }
        Ok(())
    }

    /// The cost of entering a cell of `terrain` with `flags` (0: blocked).
    #[inline]
    fn cost(&self, terrain: TerrainId, flags: u8) -> u32 {
        match self
            .costs
            .get(terrain as usize)
            .copied()
            .unwrap_or(Cost::Default)
        {
            Cost::Default => passable(flags) as u32,
            Cost::Units(c) => c,
            Cost::Blocked => 0,
        }
    }
}

/// A map's cells as a walker sees them: the cost to enter each, on a grid padded with one ring
/// of blocked cells (index `x + 1 + (y + 1) × (width + 2)`).
pub(crate) struct CostGrid {
    pub(crate) width: usize,
    /// Padded row length.
    pub(crate) stride: usize,
    /// Cost to enter each padded cell; 0: blocked.
    pub(crate) cost: Vec<u32>,
    /// The largest cost on the grid.
    pub(crate) max_cost: u32,
    /// The padded index offsets of the neighbours a walker steps to.
    pub(crate) steps: Vec<isize>,
}

impl CostGrid {
    /// The grid of `map` under `rules`, cells outside `area` blocked.
    pub(crate) fn new(
        map: &Map,
        area: Area<'_>,
        rules: &MoveRules,
        meter: &mut dyn Meter,
    ) -> Result<CostGrid, ToolError> {
        rules.check()?;
        let scope = area.on(map)?;
        let (width, height) = (map.width() as usize, map.height() as usize);
        meter.work((width * height) as u64)?;
        let stride = width + 2;
        let mut cost = vec![0u32; stride * (height + 2)];
        fill_padded(map, &scope, &cost_table(map, rules), &mut cost);
        let max_cost = cost.iter().copied().max().unwrap_or(0);
        Ok(CostGrid {
            width,
            stride,
            cost,
            max_cost,
            steps: padded_steps(rules.adjacency, stride)
                .into_iter()
                .map(|s| s.0)
                .collect(),
        })
    }

    /// The padded index of `p`.
    #[inline]
    pub(crate) fn padded(&self, p: Point) -> usize {
        (p.x as usize + 1) + (p.y as usize + 1) * self.stride
    }

    /// The map point of padded index `i`.
    #[inline]
    pub(crate) fn point(&self, i: usize) -> Point {
        Point::new((i % self.stride) as i32 - 1, (i / self.stride) as i32 - 1)
    }
}

/// The cost of entering each terrain under `rules`, by terrain id: `[solid, passable]` (a door
/// makes a solid terrain's cell passable), 0 for blocked.
fn cost_table(map: &Map, rules: &MoveRules) -> Vec<[u32; 2]> {
    (0..map.terrains().len().max(rules.costs.len()))
        .map(|t| {
            let t = t as TerrainId;
            [rules.cost(t, crate::map::FLAG_SOLID), rules.cost(t, 0)]
        })
        .collect()
}

/// Writes `table`'s entry for every cell of `scope` into `out`, a grid of `map`'s size padded
/// with one ring (index `x + 1 + (y + 1) × (width + 2)`); other cells are left as they are.
fn fill_padded<T: Copy>(map: &Map, scope: &Scope<'_>, table: &[[T; 2]], out: &mut [T]) {
    let (width, height) = (map.width() as usize, map.height() as usize);
    let stride = width + 2;
    let (terrain, flags) = (map.terrain_cells(), map.flag_cells());
    let b = scope.bounds;
    let (x0, x1) = (b.x.max(0) as usize, (b.x + b.w).max(0) as usize);
    let (y0, y1) = (
        b.y.max(0) as usize,
        ((b.y + b.h).max(0) as usize).min(height),
    );
    for y in y0..y1 {
        let row = &mut out[(y + 1) * stride + 1..(y + 1) * stride + 1 + width];
        let (terrain, flags) = (&terrain[y * width..], &flags[y * width..]);
        for x in x0..x1 {
            if scope.is_rectangular() || scope.contains(x as i32, y as i32) {
                row[x] = table[terrain[x] as usize][passable(flags[x]) as usize];
            }
        }
    }
}

/// The steps to the neighbours in `adjacency` on a grid padded to `stride` cells a row, each
/// as `(padded offset, offset on the unpadded map of width stride − 2)`.
fn padded_steps(adjacency: Adjacency, stride: usize) -> Vec<(isize, isize)> {
    let (s, w) = (stride as isize, stride as isize - 2);
    let dirs: &[(isize, isize)] = match adjacency {
        Adjacency::Four => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        Adjacency::Eight => &[
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ],
    };
    dirs.iter()
        .map(|&(dx, dy)| (dx + dy * s, dx + dy * w))
        .collect()
}

/// A distance not yet found.
const UNSEEN: u32 = u32::MAX;

/// The distance from the nearest of `sources` to every cell of `map` inside `area`, under
/// `rules`. A source holds 0 whatever its terrain (a wall can be a source: the walk starts
/// beside it); the walk enters only cells the rules let it enter inside the area. Cells it never
/// reaches, and cells outside the area, hold [`UNREACHABLE`].
pub fn distance_map(
    map: &Map,
    area: Area<'_>,
    sources: &[Point],
    rules: &MoveRules,
    meter: &mut dyn Meter,
) -> Result<Field, ToolError> {
    let mut field = Field::like(map, UNREACHABLE);
    distance_into(&mut field, map, area, sources, rules, meter)?;
    Ok(field)
}

/// [`distance_map`] into an existing field of the map's size (every cell is overwritten).
pub fn distance_into(
    field: &mut Field,
    map: &Map,
    area: Area<'_>,
    sources: &[Point],
    rules: &MoveRules,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    same_size((field.width, field.height), (map.width(), map.height()))?;
    if sources.is_empty() {
        return Err(ToolError::NoSources {
            what: "a distance map",
        });
    }
    for p in sources {
        map.index(*p)?;
    }
    rules.check()?;
    let table = cost_table(map, rules);
    if table.iter().flatten().all(|&c| c <= 1) {
        return breadth_first(field, map, area, sources, rules, &table, meter);
    }
    let grid = CostGrid::new(map, area, rules, meter)?;
    let dist = search(&grid, sources, meter)?;
    let w = grid.width;
    for (y, row) in field.values.chunks_mut(w).enumerate() {
        let from = (y + 1) * grid.stride + 1;
        for (v, &d) in row.iter_mut().zip(&dist[from..from + w]) {
            *v = if d == UNSEEN { UNREACHABLE } else { d as f32 };
        }
    }
    Ok(())
}

/// [`distance_into`] when every cost is 1 (`table` holds only 0 and 1): a breadth-first walk,
/// one layer of equal distance at a time, over bit sets of 64 cells a word.
///
/// Hand-written for speed (the goal is a 1024² cave in 5 ms): the walk queues words, not
/// cells. Each queued word holds cells of one layer; the next layer is their spread by one
/// step (shifts and ors, into the word itself, the words above and below, and across the
/// word's ends into its neighbours), masked by the cells still free: open and not reached.
/// A cell leaves the free set when it is queued, so it is queued once; a word may be queued
/// more than once in a layer, for different cells. The queue is written without a branch (an
/// entry is written whether or not it has cells, and the end moves only if it has): on a
/// cave's ragged frontier, under two cells a word on average, whether a step finds cells is
/// hard to predict. The distances are those of a plain breadth-first search.
fn breadth_first(
    field: &mut Field,
    map: &Map,
    area: Area<'_>,
    sources: &[Point],
    rules: &MoveRules,
    table: &[[u32; 2]],
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    let scope = area.on(map)?;
    let (width, height) = (map.width() as usize, map.height() as usize);
    meter.work((width * height) as u64)?;
    let mut free = FreeCells::new(map, &scope, rules, table);
    field.values.fill(UNREACHABLE);
    let mut layer = Layer::default();
    for &p in sources {
        let (x, y) = (p.x as usize, p.y as usize);
        let v = &mut field.values[x + y * width];
        if *v != 0.0 {
            *v = 0.0;
            let (j, bit) = (free.word(x, y), 1 << (x % 64));
            free.bits[j] &= !bit;
            layer.reserve(1);
            layer.push(j, bit, y * width + x / 64 * 64);
        }
    }
    layer.merge();
    let mut meter = Batched::new(meter);
    let per_cell = match rules.adjacency {
        Adjacency::Four => 4,
        Adjacency::Eight => 8,
    };
    let mut next = Layer::default();
    let mut d = 0u32;
    while layer.len > 0 {
        let cells: u32 = layer.words().iter().map(|w| w.bits.count_ones()).sum();
        meter.work(cells as u64 * per_cell)?;
        free.spread(&layer, &mut next, rules.adjacency, width);
        std::mem::swap(&mut layer, &mut next);
        d += 1;
        let v = d as f32;
        for w in layer.words() {
            let (base, mut bits) = (w.base as usize, w.bits);
            while bits != 0 {
                field.values[base + bits.trailing_zeros() as usize] = v;
                bits &= bits - 1;
            }
        }
    }
    Ok(meter.finish()?)
}

/// A word of cells in a [`Layer`].
#[derive(Clone, Copy, Default)]
struct Word {
    /// The word's index in [`FreeCells::bits`].
    j: u32,
    /// The map index of the word's bit 0.
    base: u32,
    /// The layer's cells in the word (bit `b`: column `base % width + b`).
    bits: u64,
}

/// The cells of one layer of [`breadth_first`], as words; `len` of `words` are in use (the
/// rest are room to write into).
#[derive(Default)]
struct Layer {
    words: Vec<Word>,
    len: usize,
}

impl Layer {
    /// The words in use.
    fn words(&self) -> &[Word] {
        &self.words[..self.len]
    }

    /// Makes room for `more` words past the end.
    fn reserve(&mut self, more: usize) {
        if self.words.len() < self.len + more {
            self.words.resize(self.len + more, Word::default());
        }
    }

    /// Appends the word's `bits`, which need room; nothing is appended if `bits` is 0 (the
    /// word is written past the end all the same: no branch).
    #[inline(always)]
    fn push(&mut self, j: usize, bits: u64, base: usize) {
        self.words[self.len] = Word {
            j: j as u32,
            base: base as u32,
            bits,
        };
        self.len += (bits != 0) as usize;
    }

    /// Makes each word appear once, in order (a layer of many sources, every wall of a map,
    /// would otherwise queue a word a cell).
    fn merge(&mut self) {
        self.words[..self.len].sort_unstable_by_key(|w| w.j);
        let mut kept = 0;
        for k in 0..self.len {
            let w = self.words[k];
            if kept > 0 && self.words[kept - 1].j == w.j {
                self.words[kept - 1].bits |= w.bits;
            } else {
                self.words[kept] = w;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

/// The free cells of [`breadth_first`] (open, not reached yet) as bit sets: row-major words of
/// 64 cells (bit `b` of word `k` of a row is column `64k + b`), padded with a blank word before
/// and after each row and a blank row above and below, so that a step never leaves the sets.
struct FreeCells {
    /// Words a row, padding included.
    stride: usize,
    /// The free cells.
    bits: Vec<u64>,
}

impl FreeCells {
    /// The cells of `map` the walk may enter under `rules` (`table`: the cost of each terrain,
    /// 0 or 1), cells outside `scope` blocked.
    fn new(map: &Map, scope: &Scope<'_>, rules: &MoveRules, table: &[[u32; 2]]) -> FreeCells {
        let (width, height) = (map.width() as usize, map.height() as usize);
        let stride = width.div_ceil(64) + 2;
        let mut bits = vec![0u64; stride * (height + 2)];
        let (terrain, flags) = (map.terrain_cells(), map.flag_cells());
        let b = scope.bounds;
        let whole = scope.is_rectangular() && b.w as usize == width && b.h as usize == height;
        // The map's own rule: the flags alone decide, with no lookup per cell.
        let plain = rules.costs.iter().all(|&c| c == Cost::Default);
        let enter: Vec<[bool; 2]> = table.iter().map(|c| c.map(|c| c != 0)).collect();
        for y in 0..height {
            let row = &mut bits[(y + 1) * stride + 1..(y + 2) * stride - 1];
            let cells = y * width..(y + 1) * width;
            let (terrain, flags) = (&terrain[cells.clone()], &flags[cells]);
            for (k, word) in row.iter_mut().enumerate() {
                let xs = k * 64..(k * 64 + 64).min(width);
                let mut w = 0u64;
                if plain && whole {
                    for (b, &f) in flags[xs].iter().enumerate() {
                        w |= (passable(f) as u64) << b;
                    }
                } else {
                    for x in xs.clone() {
                        let open = (whole || scope.contains(x as i32, y as i32))
                            && enter[terrain[x] as usize][passable(flags[x]) as usize];
                        w |= (open as u64) << (x - xs.start);
                    }
                }
                *word = w;
            }
        }
        FreeCells { stride, bits }
    }

    /// The index of the word holding cell `(x, y)`.
    fn word(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride + 1 + x / 64
    }

    /// Fills `next` with the free cells one step from `layer`'s, which stop being free.
    fn spread(&mut self, layer: &Layer, next: &mut Layer, adjacency: Adjacency, width: usize) {
        next.len = 0;
        let (s, w) = (self.stride, width);
        let eight = adjacency == Adjacency::Eight;
        let free = &mut self.bits;
        // The cells of `bits` in word `j` still free: queued, and no longer free.
        #[inline(always)]
        fn offer(free: &mut [u64], next: &mut Layer, j: usize, bits: u64, base: usize) {
            let new = bits & free[j];
            free[j] &= !new;
            next.push(j, new, base);
        }
        for word in layer.words() {
            // A word spreads into at most nine: the room grows with what is found, not with
            // what could be.
            next.reserve(9);
            let (j, base, f) = (word.j as usize, word.base as usize, word.bits);
            // The cells beside each of `f` in its row: across the word's ends into its
            // neighbours (bit 0 to the word before's bit 63, bit 63 to the word after's bit 0).
            let (lo, hi) = (f << 63, f >> 63);
            let beside = f << 1 | f >> 1;
            let rows = if eight { f | beside } else { f };
            offer(free, next, j, beside, base);
            offer(free, next, j - s, rows, base.wrapping_sub(w));
            offer(free, next, j + s, rows, base.wrapping_add(w));
            // Rare (a cell at a word's end): a branch the predictor gets right.
            if lo != 0 {
                offer(free, next, j - 1, lo, base.wrapping_sub(64));
                if eight {
                    offer(free, next, j - 1 - s, lo, base.wrapping_sub(64 + w));
                    offer(
                        free,
                        next,
                        j - 1 + s,
                        lo,
                        base.wrapping_add(w).wrapping_sub(64),
                    );
                }
            }
            if hi != 0 {
                offer(free, next, j + 1, hi, base.wrapping_add(64));
                if eight {
                    offer(
                        free,
                        next,
                        j + 1 - s,
                        hi,
                        base.wrapping_add(64).wrapping_sub(w),
                    );
                    offer(free, next, j + 1 + s, hi, base.wrapping_add(64 + w));
                }
            }
        }
    }
}

/// The distances over the padded grid (`UNSEEN` where no walk reaches).
pub(crate) fn search(
    grid: &CostGrid,
    sources: &[Point],
    meter: &mut dyn Meter,
) -> Result<Vec<u32>, Stopped> {
    let mut dist = vec![UNSEEN; grid.cost.len()];
    let mut meter = Batched::new(meter);
    let per_cell = grid.steps.len() as u64;
    if grid.max_cost <= 1 {
        // Every cost is 1: breadth-first, the queue in visiting order.
        let mut queue: Vec<u32> = Vec::with_capacity(1024);
        for &p in sources {
            let i = grid.padded(p);
            if dist[i] != 0 {
                dist[i] = 0;
                queue.push(i as u32);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            meter.work(per_cell)?;
            let d = dist[i] + 1;
            for &s in &grid.steps {
                let n = i.wrapping_add_signed(s);
                if grid.cost[n] != 0 && dist[n] == UNSEEN {
                    dist[n] = d;
                    queue.push(n as u32);
                }
            }
        }
    } else {
        // Dial's algorithm: bucket `d % (max + 1)` holds cells whose distance may be `d`.
        let ring = grid.max_cost as usize + 1;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); ring];
        let mut pending = 0usize;
        for &p in sources {
            let i = grid.padded(p);
            if dist[i] != 0 {
                dist[i] = 0;
                buckets[0].push(i as u32);
                pending += 1;
            }
        }
        let mut d: u32 = 0;
        while pending > 0 {
            let b = d as usize % ring;
            while let Some(i) = buckets[b].pop() {
                pending -= 1;
                let i = i as usize;
                if dist[i] != d {
                    continue;
                }
                meter.work(per_cell)?;
                for &s in &grid.steps {
                    let n = i.wrapping_add_signed(s);
                    let c = grid.cost[n];
                    if c != 0 && d + c < dist[n] {
                        dist[n] = d + c;
                        buckets[(d + c) as usize % ring].push(n as u32);
                        pending += 1;
                    }
                }
            }
            d += 1;
        }
    }
    meter.finish()?;
    Ok(dist)
}

/// The cell with the largest finite value (the "distant exit" from a distance map's sources);
/// the first in row-major order among equals. `None` when no value is finite.
pub fn farthest(field: &Field) -> Option<Point> {
    let mut best: Option<(usize, f32)> = None;
    for (i, &v) in field.values.iter().enumerate() {
        if v.is_finite() && best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| {
        Point::new(
            (i % field.width as usize) as i32,
            (i / field.width as usize) as i32,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::area::Mask;
    use crate::gen::connectivity::ascii::{ascii_map, grid_map, CHASM, ROCK};
    use crate::gen::meter::{Tally, Unmetered};
    use crate::map::Rect;
    use crate::rng::Rng;
    use std::collections::{BinaryHeap, VecDeque};

    /// A mask whose bounding rectangle is the whole map still keeps its holes: a search never
    /// enters a cell the mask leaves out (the whole-map shortcut is for rectangles only).
    #[test]
    fn a_mask_spanning_the_map_keeps_its_holes() {
        let map = grid_map(5, 5, &[false; 25]);
        let mut mask = Mask::new(5, 5, true);
        mask.set(Point::new(2, 2), false).unwrap();
        let rules = MoveRules::new(Adjacency::Four);
        let f = distance_map(
            &map,
            Area::Mask(&mask),
            &[Point::new(0, 0)],
            &rules,
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(f.get(Point::new(2, 2)).unwrap(), UNREACHABLE);
        assert_eq!(f.get(Point::new(4, 4)).unwrap(), 8.0);
    }

    /// A random `w × h` map, `percent` of it rock.
    fn random_map(rng: &mut Rng, w: usize, h: usize, percent: i64) -> Map {
        let solid: Vec<bool> = (0..w * h).map(|_| rng.percent(percent)).collect();
        grid_map(w, h, &solid)
    }

    /// The neighbours of `p` on `map` in `adjacency`.
    fn neighbours(map: &Map, p: Point, adjacency: Adjacency) -> Vec<Point> {
        adjacency
            .dirs()
            .iter()
            .map(|&d| p.step(d))
            .filter(|q| map.in_bounds(*q))
            .collect()
    }

    /// Breadth-first distances from `sources` over passable cells: the plain algorithm.
    fn reference_bfs(map: &Map, sources: &[Point], adjacency: Adjacency) -> Vec<f32> {
        let mut dist = vec![UNREACHABLE; map.len()];
        let mut queue = VecDeque::new();
        for &s in sources {
            dist[map.index(s).unwrap()] = 0.0;
            queue.push_back(s);
        }
        while let Some(p) = queue.pop_front() {
            let d = dist[map.index(p).unwrap()];
            for q in neighbours(map, p, adjacency) {
                let j = map.index(q).unwrap();
                if map.is_passable(q).unwrap() && dist[j] == UNREACHABLE {
                    dist[j] = d + 1.0;
                    queue.push_back(q);
                }
            }
        }
        dist
    }

    /// Distances by a binary-heap Dijkstra with a per-cell cost function (`None`: blocked).
    fn reference_dijkstra(
        map: &Map,
        sources: &[Point],
        adjacency: Adjacency,
        cost: impl Fn(Point) -> Option<u32>,
    ) -> Vec<f32> {
        let mut dist = vec![u32::MAX; map.len()];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            dist[map.index(s).unwrap()] = 0;
            heap.push(std::cmp::Reverse((0u32, s.x, s.y)));
        }
        while let Some(std::cmp::Reverse((d, x, y))) = heap.pop() {
            let p = Point::new(x, y);
            if d > dist[map.index(p).unwrap()] {
                continue;
            }
            for q in neighbours(map, p, adjacency) {
                let j = map.index(q).unwrap();
                if let Some(c) = cost(q) {
                    if d + c < dist[j] {
                        dist[j] = d + c;
                        heap.push(std::cmp::Reverse((d + c, q.x, q.y)));
                    }
                }
            }
        }
        dist.iter()
            .map(|&d| if d == u32::MAX { UNREACHABLE } else { d as f32 })
            .collect()
    }

    /// Over 1,000 seeds, random maps with one to three sources: the distance map equals an
    /// independent breadth-first search, 4- and 8-way.
    #[test]
    fn distances_equal_an_independent_bfs() {
        let mut rng = Rng::new(7);
        for seed in 0..1000 {
            let (w, h) = (rng.range(1, 24) as usize, rng.range(1, 16) as usize);
            let percent = rng.range(0, 60);
            let map = random_map(&mut rng, w, h, percent);
            let sources: Vec<Point> = (0..rng.range(1, 3))
                .map(|_| Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32))
                .collect();
            for adjacency in [Adjacency::Four, Adjacency::Eight] {
                let rules = MoveRules::new(adjacency);
                let f = distance_map(&map, Area::Map, &sources, &rules, &mut Unmetered).unwrap();
                assert_eq!(
                    f.values(),
                    reference_bfs(&map, &sources, adjacency),
                    "seed {seed} {adjacency}"
                );
            }
        }
    }

    /// Over 1,000 seeds, with costs per terrain (rock enterable at a price, chasms blocked or
    /// dear): the distance map equals a binary-heap Dijkstra.
    #[test]
    fn weighted_distances_equal_a_reference_dijkstra() {
        let mut rng = Rng::new(11);
        for seed in 0..1000 {
            let (w, h) = (rng.range(1, 20) as usize, rng.range(1, 14) as usize);
            let mut map = random_map(&mut rng, w, h, 40);
            for i in 0..map.len() {
                if rng.percent(10) {
                    map.write_index(i, &crate::map::Brush::new(CHASM).forced());
                }
            }
            let rock = rng.range(1, 9) as u32;
            let chasm = if rng.percent(50) {
                Cost::Blocked
            } else {
                Cost::Units(3)
            };
            let adjacency = if seed % 2 == 0 {
                Adjacency::Four
            } else {
                Adjacency::Eight
            };
            let rules = MoveRules::new(adjacency)
                .with(ROCK, Cost::Units(rock))
                .with(CHASM, chasm);
            let src = [Point::new(
                rng.below(w as u64) as i32,
                rng.below(h as u64) as i32,
            )];
            let f = distance_map(&map, Area::Map, &src, &rules, &mut Unmetered).unwrap();
            let want = reference_dijkstra(&map, &src, adjacency, |q| {
                let t = map.terrain_at(q).unwrap();
                match (t, chasm) {
                    (ROCK, _) => Some(rock),
                    (CHASM, Cost::Blocked) => None,
                    (CHASM, _) => Some(3),
                    _ => Some(1),
                }
            });
            assert_eq!(f.values(), want, "seed {seed}");
        }
    }

    /// Over 2,000 seeds, every path through [`distance_map`] (the bit-set walk for unit costs,
    /// plain or through a cost table, and Dial's buckets) against a binary-heap Dijkstra: random
    /// maps of rock, floor, doors and chasms, random costs per terrain (the map's rule, units,
    /// blocked), the whole map, a rectangle or a mask, one to four sources anywhere (walls and
    /// cells outside the area too, repeats allowed), 4- and 8-way; widths around the 64-cell
    /// words. The meter is charged what it always was: a unit a cell of the map, then one per
    /// step from each cell reached.
    #[test]
    fn every_path_equals_a_reference_dijkstra_under_random_rules_and_areas() {
        let mut rng = Rng::new(23);
        let pick = |rng: &mut Rng| match rng.below(6) {
            0 | 1 => Cost::Default,
            2 => Cost::Units(1),
            3 => Cost::Blocked,
            _ => Cost::Units(rng.range(1, 12) as u32),
        };
        for seed in 0..2000 {
            let w = match seed % 4 {
                0 => rng.range(1, 8),
                1 => rng.range(60, 70),
                2 => rng.range(120, 135),
                _ => rng.range(1, 40),
            } as usize;
            let h = rng.range(1, 12) as usize;
            let percent = rng.range(0, 50);
            let mut map = random_map(&mut rng, w, h, percent);
            for i in 0..map.len() {
                match rng.below(20) {
                    0 => {
                        map.write_index(i, &crate::map::Brush::new(CHASM).forced());
                    }
                    1 => crate::gen::connectivity::ascii::put_door(&mut map, i),
                    _ => {}
                }
            }
            let mut rules = MoveRules::new(if rng.percent(50) {
                Adjacency::Four
            } else {
                Adjacency::Eight
            });
            if rng.percent(60) {
                for t in 0..rng.range(1, 4) as TerrainId {
                    rules = rules.with(t, pick(&mut rng));
                }
            }
            let mut mask = Mask::new(w as i32, h as i32, false);
            for i in 0..w * h {
                mask.set(map.point(i), rng.percent(80)).unwrap();
            }
            let (x, y) = (rng.below(w as u64) as i32, rng.below(h as u64) as i32);
            let rect = Rect::new(
                x,
                y,
                rng.range(1, w as i64 - x as i64) as i32,
                rng.range(1, h as i64 - y as i64) as i32,
            );
            let (area, inside): (Area<'_>, Box<dyn Fn(Point) -> bool>) = match rng.below(3) {
                0 => (Area::Map, Box::new(|_| true)),
                1 => (Area::Rect(rect), Box::new(move |p| rect.contains(p))),
                _ => (Area::Mask(&mask), Box::new(|p: Point| mask.get(p.x, p.y))),
            };
            let sources: Vec<Point> = (0..rng.range(1, 4))
                .map(|_| Point::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32))
                .collect();
            let mut tally = Tally::new();
            let f = distance_map(&map, area, &sources, &rules, &mut tally).unwrap();
            let want = reference_dijkstra(&map, &sources, rules.adjacency, |q| {
                if !inside(q) {
                    return None;
                }
                let t = map.terrain_at(q).unwrap();
                match rules
                    .costs
                    .get(t as usize)
                    .copied()
                    .unwrap_or(Cost::Default)
                {
                    Cost::Default => map.is_passable(q).unwrap().then_some(1),
                    Cost::Units(c) => Some(c),
                    Cost::Blocked => None,
                }
            });
            assert_eq!(f.values(), want, "seed {seed} {rules:?}");
            let reached = want.iter().filter(|d| d.is_finite()).count() as u64;
            let steps = rules.adjacency.dirs().len() as u64;
            assert_eq!(tally.cells, (w * h) as u64 + reached * steps, "seed {seed}");
        }
    }

    #[test]
    fn areas_confine_the_walk_and_sources_may_be_walls() {
        let map = ascii_map(&["#######", "#.....#", "#.....#", "#######"]);
        let rules = MoveRules::new(Adjacency::Four);
        let f = distance_map(
            &map,
            Area::Rect(Rect::new(1, 1, 3, 2)),
            &[Point::new(1, 1)],
            &rules,
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(f.get(Point::new(3, 2)).unwrap(), 3.0);
        assert_eq!(f.get(Point::new(4, 1)).unwrap(), UNREACHABLE);
        // The distance from the walls: every rock cell a source.
        let walls: Vec<Point> = (0..map.len())
            .map(|i| map.point(i))
            .filter(|&p| map.is_solid(p).unwrap())
            .collect();
        let f = distance_map(&map, Area::Map, &walls, &rules, &mut Unmetered).unwrap();
        assert_eq!(f.get(Point::new(3, 1)).unwrap(), 1.0);
        assert_eq!(f.get(Point::new(0, 0)).unwrap(), 0.0);
        let mut mask = Mask::new(7, 4, false);
        mask.set(Point::new(2, 1), true).unwrap();
        let f = distance_map(
            &map,
            Area::Mask(&mask),
            &[Point::new(1, 1)],
            &rules,
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(f.get(Point::new(2, 1)).unwrap(), 1.0);
        assert_eq!(f.get(Point::new(2, 2)).unwrap(), UNREACHABLE);
    }

    #[test]
    fn bad_rules_and_sources_are_errors_and_meters_stop_the_walk() {
        let map = ascii_map(&["....", "...."]);
        let rules = MoveRules::new(Adjacency::Eight);
        let e = distance_map(&map, Area::Map, &[], &rules, &mut Unmetered).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a distance map needs at least one source cell"
        );
        let e = distance_map(&map, Area::Map, &[Point::new(4, 0)], &rules, &mut Unmetered);
        assert!(matches!(e, Err(ToolError::Map(_))));
        let bad = rules.clone().with(0, Cost::Units(0));
        let e = distance_map(&map, Area::Map, &[Point::new(0, 0)], &bad, &mut Unmetered);
        assert_eq!(
            e.unwrap_err().to_string(),
            "a move cost of 0 is out of range: costs are whole numbers 1..=1000"
        );
        let mut t = Tally::with_limit(3);
        let e = distance_map(&map, Area::Map, &[Point::new(0, 0)], &rules, &mut t);
        assert!(matches!(e, Err(ToolError::Stopped(_))));
    }

    #[test]
    fn the_farthest_cell_is_the_first_of_the_largest() {
        let map = ascii_map(&["#....", "#.#..", "#...."]);
        let f = distance_map(
            &map,
            Area::Map,
            &[Point::new(1, 0)],
            &MoveRules::new(Adjacency::Four),
            &mut Unmetered,
        )
        .unwrap();
        assert_eq!(farthest(&f), Some(Point::new(4, 2)));
        assert_eq!(farthest(&Field::new(2, 2, UNREACHABLE)), None);
    }
}
