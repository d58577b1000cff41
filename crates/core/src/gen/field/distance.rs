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
            steps: padded_steps(rules.adjacency, stride),
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

/// Writes `open` for every cell of `map` a walker may stand on ([`passable`]) and `closed` for
/// the others into `out`, a grid of `map`'s size padded with one ring (index
/// `x + 1 + (y + 1) × (width + 2)`); the ring is left as it is (the lakes' and the loops' floods).
pub(crate) fn fill_padded_passable<T: Copy>(map: &Map, [closed, open]: [T; 2], out: &mut [T]) {
    let w = map.width() as usize;
    let stride = w + 2;
    for (y, flags) in map.flag_cells().chunks_exact(w).enumerate() {
        let row = &mut out[(y + 1) * stride + 1..(y + 1) * stride + 1 + w];
        for (cell, &f) in row.iter_mut().zip(flags) {
            *cell = if passable(f) { open } else { closed };
        }
    }
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

/// The index offsets of the steps to the neighbours in `adjacency` on a grid padded to
/// `stride` cells a row (the lakes' and the loops' floods step by them too).
pub(crate) fn padded_steps(adjacency: Adjacency, stride: usize) -> Vec<isize> {
    let s = stride as isize;
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
    dirs.iter().map(|&(dx, dy)| dx + dy * s).collect()
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
/// one layer of equal distance at a time, over tiles of 8 × 8 cells a 64-bit word.
///
/// Hand-written for speed (the goal is a 1024² cave in 5 ms). A cave's frontier is a ragged
/// line about a cell thick: a square tile holds about three times as many of a layer's cells
/// as a row of 64 does, so three times fewer words are visited. The next layer is the spread
/// of each of the layer's tiles by one step (shifts and masks, into the tile itself and across
/// its sides and corners into its neighbours), masked by the cells still free: open and not
/// reached. A cell leaves the free set when it is found, so it is found once; the tiles of the
/// next layer gather in a dense array, and a tile joins the next layer's list the first time
/// it gains cells. Both are written without a branch (whether a step finds cells on a ragged
/// frontier is hard to predict). The distances are those of a plain breadth-first search.
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
    let mut tiles = Tiles::new(map, &scope, rules, table);
    let mut meter = Batched::new(meter);
    let eight = rules.adjacency == Adjacency::Eight;
    let mut walk = Walk::new(&tiles);
    for &p in sources {
        let (x, y) = (p.x as usize, p.y as usize);
        let (t, bit) = (tiles.tile(x, y), 1 << (x % 8 + y % 8 * 8));
        tiles.free[t] &= !bit;
        walk.reserve(1);
        walk.offer(t, bit);
    }
    let mut d = 0u32;
    while walk.next.len > 0 {
        walk.turn();
        let cells = walk.write(d as f32);
        meter.work(cells * if eight { 8 } else { 4 })?;
        if eight {
            walk.spread::<true>(&mut tiles.free, tiles.stride);
        } else {
            walk.spread::<false>(&mut tiles.free, tiles.stride);
        }
        d += 1;
    }
    meter.finish()?;
    // The distances, tile by tile, into the map's rows: eight cells a copy, of a known size
    // (no call to copy them).
    for (y, row) in field.values.chunks_mut(width).enumerate() {
        let from = |x: usize| tiles.tile(x, y) * 64 + y % 8 * 8;
        let mut cells = row.chunks_exact_mut(8);
        for (k, cells) in cells.by_ref().enumerate() {
            let from = from(k * 8);
            let tile: &[f32; 8] = (&walk.values[from..from + 8])
                .try_into()
                .unwrap_or(&[0.0; 8]);
            cells.copy_from_slice(tile);
        }
        let rest = cells.into_remainder();
        let from = from(width / 8 * 8);
        rest.copy_from_slice(&walk.values[from..from + rest.len()]);
    }
    Ok(())
}

/// The cells of `map` a walk may enter, as tiles of 8 × 8 cells: bit `x % 8 + 8 × (y % 8)` of
/// a tile is cell `(x, y)`. Tiles are row-major, padded with a blank tile before and after each
/// row and a blank row above and below, so that a step never leaves them.
struct Tiles {
    /// Tiles a row, padding included.
    stride: usize,
    /// The free cells (open, not reached).
    free: Vec<u64>,
}

/// Bit 0 of every byte: with a tile's rows a byte each, column 0.
const COLUMN_0: u64 = 0x0101_0101_0101_0101;
/// Column 7 of a tile.
const COLUMN_7: u64 = COLUMN_0 << 7;

impl Tiles {
    /// The cells of `map` the walk may enter under `rules` (`table`: the cost of each terrain,
    /// 0 or 1), cells outside `scope` blocked.
    fn new(map: &Map, scope: &Scope<'_>, rules: &MoveRules, table: &[[u32; 2]]) -> Tiles {
        let (width, height) = (map.width() as usize, map.height() as usize);
        let stride = width.div_ceil(8) + 2;
        let mut tiles = Tiles {
            stride,
            free: vec![0u64; stride * (height.div_ceil(8) + 2)],
        };
        let (terrain, flags) = (map.terrain_cells(), map.flag_cells());
        let b = scope.bounds;
        let whole = scope.is_rectangular() && b.w as usize == width && b.h as usize == height;
        // The map's own rule: the flags alone decide, eight cells at once.
        let plain = whole && rules.costs.iter().all(|&c| c == Cost::Default);
        let enter: Vec<[bool; 2]> = table.iter().map(|c| c.map(|c| c != 0)).collect();
        for y in 0..height {
            let row = &flags[y * width..(y + 1) * width];
            let mut x = 0;
            if plain {
                for chunk in row.chunks_exact(8) {
                    let f = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
                    // Per byte: passable (no terrain flag, or a door) in bit 0.
                    let blocked = (f | f >> 2) & COLUMN_0;
                    let open = (blocked ^ COLUMN_0) | (f >> 3 & COLUMN_0);
                    // Bit 0 of byte i to bit i (no two products overlap: no carries).
                    let bits = open.wrapping_mul(0x0102_0408_1020_4080) >> 56;
                    let t = tiles.tile(x, y);
                    tiles.free[t] |= bits << (y % 8 * 8);
                    x += 8;
                }
            }
            for x in x..width {
                let open = (whole || scope.contains(x as i32, y as i32))
                    && enter[terrain[y * width + x] as usize][passable(row[x]) as usize];
                let t = tiles.tile(x, y);
                tiles.free[t] |= (open as u64) << (x % 8 + y % 8 * 8);
            }
        }
        tiles
    }

    /// The index of the tile holding cell `(x, y)`.
    fn tile(&self, x: usize, y: usize) -> usize {
        (y / 8 + 1) * self.stride + 1 + x / 8
    }
}

/// The layers of [`breadth_first`]: the tiles of this layer and of the next as lists, their
/// cells in dense arrays the size of [`Tiles::free`].
struct Walk {
    this: List,
    next: List,
    /// This layer's cells, by tile.
    cells: Vec<u64>,
    /// The next layer's cells, by tile.
    found: Vec<u64>,
    /// The distances found, 64 a tile (cell `b` of tile `t` at `64t + b`), [`UNREACHABLE`]
    /// where none is: a tile's cells are written together, where rows of the map would be
    /// eight pages apart on a wide map.
    values: Vec<f32>,
}

/// The tiles of a layer, by index in [`Tiles::free`]; `len` of `entries` are in use (the rest
/// are room to write into).
#[derive(Default)]
struct List {
    entries: Vec<u32>,
    len: usize,
}

impl Walk {
    /// Empty layers over `tiles`.
    fn new(tiles: &Tiles) -> Walk {
        Walk {
            this: List::default(),
            next: List::default(),
            cells: vec![0; tiles.free.len()],
            found: vec![0; tiles.free.len()],
            values: vec![UNREACHABLE; tiles.free.len() * 64],
        }
    }

    /// Makes room in the next layer's list for `more` entries past its end.
    fn reserve(&mut self, more: usize) {
        let list = &mut self.next;
        if list.entries.len() < list.len + more {
            list.entries.resize(list.len + more, 0);
        }
    }

    /// Adds `bits` (found, no longer free) to tile `t` of the next layer; the tile joins the
    /// list if they are its first. The entry is written, and needs room, whether or not it
    /// joins (no branch).
    #[inline(always)]
    fn offer(&mut self, t: usize, bits: u64) {
        let had = self.found[t];
        self.found[t] = had | bits;
        self.next.entries[self.next.len] = t as u32;
        self.next.len += ((had == 0) & (bits != 0)) as usize;
    }

    /// Makes the next layer this one.
    fn turn(&mut self) {
        std::mem::swap(&mut self.this, &mut self.next);
        std::mem::swap(&mut self.cells, &mut self.found);
        self.next.len = 0;
    }

    /// Writes distance `v` for this layer's cells; returns how many there are.
    fn write(&mut self, v: f32) -> u64 {
        let mut n = 0;
        for &t in &self.this.entries[..self.this.len] {
            let (t, mut bits) = (t as usize, self.cells[t as usize]);
            let values = &mut self.values[t * 64..t * 64 + 64];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                values[b & 63] = v;
                bits &= bits - 1;
                n += 1;
            }
        }
        n
    }

    /// Fills the next layer with the free cells one step (8-way if `EIGHT`, else 4-way) from
    /// this layer's, which stop being free; this layer's cells are cleared for reuse.
    fn spread<const EIGHT: bool>(&mut self, free: &mut [u64], stride: usize) {
        let s = stride;
        for k in 0..self.this.len {
            // A tile spreads into at most nine: the room grows with what is found.
            self.reserve(9);
            let t = self.this.entries[k] as usize;
            let f = std::mem::take(&mut self.cells[t]);
            // The cells beside each of `f` in its row, inside the tile.
            let h = f | (f << 1 & !COLUMN_0) | (f >> 1 & !COLUMN_7);
            // The next cell up and down in `wide`'s columns, inside the tile.
            let column = |wide: u64| wide | wide << 8 | wide >> 8;
            let (inner, up, down, left, right) = if EIGHT {
                let (l, r) = (column(f & COLUMN_0), column(f & COLUMN_7));
                (column(h), h << 56, h >> 56, l << 7, r >> 7)
            } else {
                (
                    h | f << 8 | f >> 8,
                    f << 56,
                    f >> 56,
                    f << 7 & COLUMN_7,
                    f >> 7 & COLUMN_0,
                )
            };
            let mut offer = |walk: &mut Walk, t: usize, bits: u64| {
                let new = bits & free[t];
                free[t] &= !new;
                walk.offer(t, new);
            };
            offer(self, t, inner);
            offer(self, t - 1, left);
            offer(self, t + 1, right);
            offer(self, t - s, up);
            offer(self, t + s, down);
            if EIGHT {
                // The corners: cell 0 to the tile up-left's cell 63, and so on.
                offer(self, t - s - 1, f << 63);
                offer(self, t - s + 1, (f & 0x80) << 49);
                offer(self, t + s - 1, (f >> 49) & 0x80);
                offer(self, t + s + 1, f >> 63);
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
