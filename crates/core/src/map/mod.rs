//! The map model: a grid of cells (terrain, priority, region, flags), priority writes, shapes,
//! and the annotations recipes attach.
//!
//! Cells are stored as parallel arrays (structure of arrays) so that whole-map passes such as
//! flood fill touch only the bytes they need. A cell index is `x + y * width`.

pub mod adjacency;
pub mod annotations;
mod ascii;
mod backup;
pub mod door;
mod entrances;
pub mod geom;
pub mod layer;
pub mod priority;
pub mod tags;
pub mod terrain;

pub use adjacency::Adjacency;
pub use annotations::{Annotations, Corridor, Door, KindName, Room, Spawn, Stairs, TagValue};
pub use ascii::{AsciiCell, AsciiLegend};
pub use backup::Backup;
pub use door::{DoorKind, DoorState, DoorWeights};
pub use geom::{
    bresenham, bresenham_cells, dogleg, dogleg_cells, sort_rects_by_cell, sort_rects_by_key,
    Bresenham, Dir, DogLeg, Point, Rect,
};
pub use layer::Layer;
pub use tags::Tags;
pub use terrain::{Rgb, Terrain, TerrainId, TerrainTable};

use std::mem::size_of;
use std::sync::Arc;
use thiserror::Error;

/// The largest map warren will allocate, in cells (4096 × 4096).
pub const MAX_CELLS: u64 = 4096 * 4096;
/// The largest width or height warren accepts.
pub const MAX_SIDE: i64 = 65_536;

/// Cell flag: the cell's terrain blocks movement.
pub const FLAG_SOLID: u8 = 1;
/// Cell flag: the cell belongs to the connected area (Incursion's `Connected`).
pub const FLAG_CONNECTED: u8 = 2;
/// Cell flag: the cell's terrain is a hazard (open, but not to be crossed).
pub const FLAG_HAZARD: u8 = 4;
/// Cell flag: a door stands on the cell. A walker can pass any door (opening, unlocking or
/// finding it), so connectivity counts door cells as passable whatever their terrain.
pub const FLAG_DOOR: u8 = 8;
/// The flags that mirror the cell's terrain.
pub const FLAG_TERRAIN: u8 = FLAG_SOLID | FLAG_HAZARD;

/// Errors from map access. They name the coordinates and the valid range.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum MapError {
    /// A coordinate outside the map.
    #[error("({x}, {y}) is outside the {width}×{height} map (x 0..={xmax}, y 0..={ymax})", xmax = .width - 1, ymax = .height - 1)]
    OutOfBounds {
        /// Column asked for.
        x: i64,
        /// Row asked for.
        y: i64,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// A map size that is zero, negative or too large.
    #[error("map size {width}×{height} is not allowed: each side must be 1..={MAX_SIDE} and the area at most {MAX_CELLS} cells")]
    BadSize {
        /// Requested width.
        width: i64,
        /// Requested height.
        height: i64,
    },
    /// The system could not give the memory a map of this size needs.
    #[error("a {width}×{height} map needs {} MiB, which could not be allocated", .bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// Requested width.
        width: i64,
        /// Requested height.
        height: i64,
        /// Bytes the map's cells need.
        bytes: usize,
    },
    /// A map drawn as text (`Map::from_ascii`) that cannot be read.
    #[error("ASCII map, row {row}, column {column}: {problem}")]
    Ascii {
        /// The row, from 1.
        row: usize,
        /// The column, from 1 (in characters).
        column: usize,
        /// What is wrong there.
        problem: String,
    },
    /// A rectangle with no cells.
    #[error("rectangle {w}×{h} at ({x}, {y}) is empty: width and height must be at least 1")]
    EmptyRect {
        /// Left.
        x: i32,
        /// Top.
        y: i32,
        /// Width.
        w: i32,
        /// Height.
        h: i32,
    },
}

/// How a write paints a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Brush {
    /// Terrain to write.
    pub terrain: TerrainId,
    /// Priority of the write. `None` writes unconditionally and leaves the cell's priority as it
    /// was (for recipes that do not use priorities).
    pub priority: Option<u8>,
    /// Region id to stamp on the cell, or `None` to keep the cell's region.
    pub region: Option<u16>,
    /// Write even on the map edge and regardless of priority.
    pub force: bool,
}

impl Brush {
    /// A plain unconditional write of `terrain`.
    pub fn new(terrain: TerrainId) -> Self {
        Brush {
            terrain,
            priority: None,
            region: None,
            force: false,
        }
    }

    /// The same brush with a priority.
    pub fn priority(mut self, p: u8) -> Self {
        self.priority = Some(p);
        self
    }

    /// The same brush with a region stamp.
    pub fn region(mut self, r: u16) -> Self {
        self.region = Some(r);
        self
    }

    /// The same brush, forced (edge and priority ignored).
    pub fn forced(mut self) -> Self {
        self.force = true;
        self
    }
}

/// A generated (or in-progress) map.
#[derive(Debug)]
pub struct Map {
    width: i32,
    height: i32,
    terrain: Vec<TerrainId>,
    priority: Vec<u8>,
    region: Vec<u16>,
    flags: Vec<u8>,
    terrains: Arc<TerrainTable>,
    region_names: Vec<String>,
    /// What is known about the planes without looking at them (see [`Planes`]).
    #[doc(hidden)] // reached by the crate's tests (tests/core/), not API
    pub known: Planes,
    /// Rooms, corridors, doors, stairs, spawns, tags and stats recorded by the recipe. Boxed: a
    /// map is moved several times per generation (into the Lua userdata and back, out to the
    /// caller and back for reuse), and a move copies only the map's own bytes.
    pub notes: Box<Annotations>,
}

/// A copy whose planes known to be all zeros are fresh zeroed memory rather than copied: their
/// pages stay untouched, so a snapshot of a map that never wrote its priorities or regions
/// holds only its terrain and flags (3 bytes a cell, not 6).
impl Clone for Map {
    fn clone(&self) -> Self {
        Map {
            width: self.width,
            height: self.height,
            terrain: self.terrain.clone(),
            priority: zeros_or_copy(self.known.priority_zero, &self.priority),
            region: zeros_or_copy(self.known.region_zero, &self.region),
            flags: self.flags.clone(),
            terrains: self.terrains.clone(),
            region_names: self.region_names.clone(),
            known: self.known,
            notes: self.notes.clone(),
        }
    }
}

/// A copy of `plane`: when `zero` (every cell is known to be 0), as many zeros in zeroed memory
/// (`vec!` of an integer zero allocates it so), not written.
fn zeros_or_copy<T: Zeroable + Clone>(zero: bool, plane: &[T]) -> Vec<T> {
    if zero {
        vec![T::ZERO; plane.len()]
    } else {
        plane.to_vec()
    }
}

/// What a map knows about its planes without looking at them: [`Map::reset`] sets it, and every
/// write that may change a plane forgets what it knew about that plane. It lets a reset skip
/// planes that are still as the last reset left them, and a whole-map fill with the reset's own
/// terrain skip writing what it would not change.
#[derive(Clone, Copy, Debug, Default)]
pub struct Planes {
    /// Every cell holds this terrain (and so its [`FLAG_TERRAIN`] bits, which only writes of
    /// terrain change): the reset's fill, before any write. `None` when that is not known.
    uniform: Option<TerrainId>,
    /// Every priority is 0.
    priority_zero: bool,
    /// Every region id is 0.
    region_zero: bool,
}

/// The [`FLAG_TERRAIN`] bits a cell of terrain `t` carries.
#[inline]
pub fn terrain_flags(t: &Terrain) -> u8 {
    (if t.solid { FLAG_SOLID } else { 0 }) | (if t.hazard { FLAG_HAZARD } else { 0 })
}

/// Whether a cell with these flags is passable: its terrain is neither solid nor a hazard, or a
/// door stands on it.
#[inline]
pub fn passable(flags: u8) -> bool {
    // `|`, not `||`: no branch, so a loop over cells can count or select without one.
    (flags & FLAG_TERRAIN == 0) | (flags & FLAG_DOOR != 0)
}

/// `n` zeros, allocated as zeroed memory, which the system hands out untouched: a plane that no
/// write ever reaches (the priorities of a recipe that never uses them, the regions of a map
/// with no stamps) then costs no resident memory. `None` when the memory cannot be had.
fn zeroed_vec<T: Zeroable>(n: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout is non-zero-sized; a null pointer (no memory) is checked below.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `n` `T`s, and
    // `T: Zeroable` says all-zero bytes are a valid `T`, so all `n` are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// A new buffer of `n` zeros when `cells` has no room for `n` (`Some(None)` when it has);
/// `None` when the memory cannot be had.
fn fresh_zeros<T: Zeroable>(cells: &Vec<T>, n: usize) -> Option<Option<Vec<T>>> {
    if cells.capacity() >= n {
        Some(None)
    } else {
        zeroed_vec(n).map(Some)
    }
}

/// Makes `cells` `n` zeros: in place when it has room, else from `fresh` (a [`zeroed_vec`]).
/// With `zero` (every cell of `cells` is known to be zero already), only cells added are written.
fn set_zeros<T: Zeroable>(cells: &mut Vec<T>, n: usize, fresh: Option<Vec<T>>, zero: bool) {
    match fresh {
        Some(v) => *cells = v,
        None if zero => {
            cells.truncate(n);
            cells.resize(n, T::ZERO);
        }
        None => refill(cells, n, T::ZERO),
    }
}

/// Makes `cells` `n` copies of `value`, writing the cells it keeps as one slice ([`fill`],
/// where `resize` writes an element at a time).
fn refill<T: Fill>(cells: &mut Vec<T>, n: usize, value: T) {
    cells.truncate(n);
    fill(cells, value);
    cells.resize(n, value);
}

/// `cells.fill(value)` for a plane's cells, done the fastest way for their size ([`Fill`]).
pub fn fill<T: Fill>(cells: &mut [T], value: T) {
    T::fill_all(cells, value);
}

/// Cell types a plane is made of, each filled the fastest way for its size: a map's reset fills
/// its terrain and flags planes whole before every map.
pub trait Fill: Copy {
    /// Makes every cell of `cells` `value`.
    fn fill_all(cells: &mut [Self], value: Self);
}

/// One byte a cell: the C library's `memset`.
impl Fill for u8 {
    fn fill_all(cells: &mut [u8], value: u8) {
        cells.fill(value);
    }
}

/// Two bytes a cell: eight bytes a store, as the processor's string store (`rep stosq`) makes
/// them on x86_64 (a fill of 2-byte cells compiles to a loop of 16-byte stores for any value but
/// 0, and a copy of the first cells doubled over the rest moves every byte twice); elsewhere (and
/// under Miri, which runs no inline assembly) [`fill_by_doubling`].
impl Fill for u16 {
    fn fill_all(cells: &mut [u16], value: u16) {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            // SAFETY: any eight bytes are a valid `u64`, and any two of them a valid `u16`.
            let (head, words, tail) = unsafe { cells.align_to_mut::<u64>() };
            head.fill(value);
            tail.fill(value);
            let pattern = u64::from(value) * 0x0001_0001_0001_0001;
            // SAFETY: stores `words.len()` eight-byte words from `words`' first, all inside it
            // (none when it is empty); the direction flag is clear on entry to an `asm!` block
            // (the Rust reference's promise), and `rep stos` changes no flag.
            unsafe {
                std::arch::asm!(
                    "rep stosq",
                    inout("rcx") words.len() => _,
                    inout("rdi") words.as_mut_ptr() => _,
                    in("rax") pattern,
                    options(nostack, preserves_flags)
                );
            }
        }
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        fill_by_doubling(cells, value);
    }
}

/// `cells.fill(value)` as the first cells filled, then copied over the rest in doubling runs:
/// how [`Fill`] fills 2-byte cells where it has no string store. Compiled on every target, so
/// that the crate's tests reach it on x86_64 too.
#[doc(hidden)] // reached by the crate's tests (tests/core/), not API
pub fn fill_by_doubling<T: Copy>(cells: &mut [T], value: T) {
    /// Cells filled directly: 128 bytes of 2-byte cells.
    const SEED: usize = 64;
    let first = cells.len().min(SEED);
    cells[..first].fill(value);
    let mut done = first;
    while done < cells.len() {
        let run = done.min(cells.len() - done);
        cells.copy_within(..run, done);
        done += run;
    }
}

/// Cell types whose all-zero bytes are their zero value.
trait Zeroable: Fill {
    /// The value of all-zero bytes.
    const ZERO: Self;
}

impl Zeroable for u8 {
    const ZERO: u8 = 0;
}

impl Zeroable for u16 {
    const ZERO: u16 = 0;
}

/// Bytes one cell takes: terrain id, priority, region id and flags.
pub const BYTES_PER_CELL: usize =
    size_of::<TerrainId>() + size_of::<u8>() + size_of::<u16>() + size_of::<u8>();

/// Checks a requested size before anything is allocated.
pub fn check_size(width: i64, height: i64) -> Result<(), MapError> {
    let ok = (1..=MAX_SIDE).contains(&width)
        && (1..=MAX_SIDE).contains(&height)
        && (width as u64) * (height as u64) <= MAX_CELLS;
    if ok {
        Ok(())
    } else {
        Err(MapError::BadSize { width, height })
    }
}

impl Map {
    /// A `width × height` map filled with `fill` at priority 0 (below [`priority::EMPTY`]), so any
    /// prioritised write succeeds on a fresh map.
    pub fn new(
        width: i64,
        height: i64,
        fill: TerrainId,
        terrains: Arc<TerrainTable>,
    ) -> Result<Map, MapError> {
        let mut map = Map {
            width: 0,
            height: 0,
            terrain: Vec::new(),
            priority: Vec::new(),
            region: Vec::new(),
            flags: Vec::new(),
            terrains,
            region_names: vec![String::new()],
            known: Planes {
                uniform: None,
                priority_zero: true,
                region_zero: true,
            },
            notes: Box::default(),
        };
        map.reset(width, height, fill)?;
        Ok(map)
    }

    /// Bytes the cells of a `width × height` map take (terrain, priority, region and flags).
    pub fn bytes_for(width: i64, height: i64) -> usize {
        (width.max(0) as usize) * (height.max(0) as usize) * BYTES_PER_CELL
    }

    /// Bytes this map's cells and debug layers take (its other annotations are small beside
    /// them): what keeping it, or a copy of it, costs.
    pub fn bytes(&self) -> usize {
        let layer = Layer::bytes_for(self.width, self.height);
        Map::bytes_for(self.width as i64, self.height as i64)
            .saturating_add(layer.saturating_mul(self.notes.layers.len()))
    }

    /// Reuses this map's buffers for a fresh map of the given size (as [`Map::new`]). Memory the
    /// system cannot give is an error ([`MapError::OutOfMemory`]), never an abort.
    pub fn reset(&mut self, width: i64, height: i64, fill: TerrainId) -> Result<(), MapError> {
        check_size(width, height)?;
        let n = (width * height) as usize;
        let oom_plain = || MapError::OutOfMemory {
            width,
            height,
            bytes: Map::bytes_for(width, height),
        };
        let oom = |_| oom_plain();
        for grow in [
            self.terrain
                .try_reserve_exact(n.saturating_sub(self.terrain.len())),
            self.flags
                .try_reserve_exact(n.saturating_sub(self.flags.len())),
        ] {
            grow.map_err(oom)?;
        }
        // Planes that must grow are allocated anew as untouched zero pages (see `zeroed_vec`).
        let priority = fresh_zeros(&self.priority, n).ok_or_else(oom_plain)?;
        let region = fresh_zeros(&self.region, n).ok_or_else(oom_plain)?;
        self.width = width as i32;
        self.height = height as i32;
        refill(&mut self.terrain, n, fill);
        set_zeros(&mut self.priority, n, priority, self.known.priority_zero);
        set_zeros(&mut self.region, n, region, self.known.region_zero);
        let bits = self.terrain_bits(fill);
        refill(&mut self.flags, n, bits);
        self.known = Planes {
            uniform: Some(fill),
            priority_zero: true,
            region_zero: true,
        };
        self.region_names.truncate(1);
        self.notes.clear();
        Ok(())
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    /// Whether the map has no cells (never true for a constructed map).
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// The terrain table this map's ids refer to.
    pub fn terrains(&self) -> &Arc<TerrainTable> {
        &self.terrains
    }

    /// Whether `p` lies on the map.
    #[inline]
    pub fn in_bounds(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// Whether `p` lies on the map's outermost ring.
    #[inline]
    pub fn is_edge(&self, p: Point) -> bool {
        p.x == 0 || p.y == 0 || p.x == self.width - 1 || p.y == self.height - 1
    }

    /// The cell index of `p`, or an out-of-bounds error.
    #[inline]
    pub fn index(&self, p: Point) -> Result<usize, MapError> {
        if self.in_bounds(p) {
            Ok(p.x as usize + p.y as usize * self.width as usize)
        } else {
            Err(self.out_of_bounds(p.x.into(), p.y.into()))
        }
    }

    /// The cell at column `x`, row `y` given as any integers (a script's, say): its point when
    /// it lies on the map, else the out-of-bounds error naming `(x, y)` as given. Every other
    /// method takes its cells as [`Point`]s.
    #[inline]
    pub fn locate(&self, x: i64, y: i64) -> Result<Point, MapError> {
        match (i32::try_from(x), i32::try_from(y)) {
            (Ok(px), Ok(py)) if self.in_bounds(Point::new(px, py)) => Ok(Point::new(px, py)),
            _ => Err(self.out_of_bounds(x, y)),
        }
    }

    /// The error for a cell `(x, y)` off the map.
    #[cold]
    fn out_of_bounds(&self, x: i64, y: i64) -> MapError {
        MapError::OutOfBounds {
            x,
            y,
            width: self.width,
            height: self.height,
        }
    }

    /// The point of a cell index.
    #[inline]
    pub fn point(&self, index: usize) -> Point {
        Point::new(
            (index % self.width as usize) as i32,
            (index / self.width as usize) as i32,
        )
    }

    /// Terrain id at a cell.
    pub fn terrain_at(&self, p: Point) -> Result<TerrainId, MapError> {
        Ok(self.terrain[self.index(p)?])
    }

    /// Priority at a cell.
    pub fn priority_at(&self, p: Point) -> Result<u8, MapError> {
        Ok(self.priority[self.index(p)?])
    }

    /// Region id at a cell (0 = none).
    pub fn region_at(&self, p: Point) -> Result<u16, MapError> {
        Ok(self.region[self.index(p)?])
    }

    /// Whether the cell blocks movement.
    pub fn is_solid(&self, p: Point) -> Result<bool, MapError> {
        Ok(self.flags[self.index(p)?] & FLAG_SOLID != 0)
    }

    /// Whether the cell's terrain is a hazard (open, but not to be crossed).
    pub fn is_hazard(&self, p: Point) -> Result<bool, MapError> {
        Ok(self.flags[self.index(p)?] & FLAG_HAZARD != 0)
    }

    /// Whether a door stands on the cell.
    pub fn is_door(&self, p: Point) -> Result<bool, MapError> {
        Ok(self.flags[self.index(p)?] & FLAG_DOOR != 0)
    }

    /// Whether a walker may stand on the cell: see [`passable`].
    pub fn is_passable(&self, p: Point) -> Result<bool, MapError> {
        Ok(passable(self.flags[self.index(p)?]))
    }

    /// Records a door on its cell ([`FLAG_DOOR`] and `notes.doors`). Returns `false`, changing
    /// nothing, when a door already stands there; a cell off the map is an error. The cell's
    /// terrain and priority are left alone: drawing the door is the caller's business.
    pub fn add_door(&mut self, door: Door) -> Result<bool, MapError> {
        let i = self.index(door.at())?;
        if self.flags[i] & FLAG_DOOR != 0 {
            return Ok(false);
        }
        self.flags[i] |= FLAG_DOOR;
        self.notes.doors.push(door);
        Ok(true)
    }

    /// Takes away the door standing on `p` ([`FLAG_DOOR`] and its `notes.doors` entry). Returns
    /// `false` when no door stands there; a cell off the map is an error. The cell's terrain is
    /// left alone.
    pub fn remove_door(&mut self, p: Point) -> Result<bool, MapError> {
        let i = self.index(p)?;
        if self.flags[i] & FLAG_DOOR == 0 {
            return Ok(false);
        }
        self.flags[i] &= !FLAG_DOOR;
        self.notes.doors.retain(|d| d.at() != p);
        Ok(true)
    }

    /// Whether the cell is marked connected.
    pub fn is_connected(&self, p: Point) -> Result<bool, MapError> {
        Ok(self.flags[self.index(p)?] & FLAG_CONNECTED != 0)
    }

    /// Marks or clears the connected flag of a cell.
    pub fn set_connected(&mut self, p: Point, on: bool) -> Result<(), MapError> {
        let i = self.index(p)?;
        if on {
            self.flags[i] |= FLAG_CONNECTED;
        } else {
            self.flags[i] &= !FLAG_CONNECTED;
        }
        Ok(())
    }

    /// Clears the connected flag on every cell.
    pub fn clear_connected(&mut self) {
        for f in &mut self.flags {
            *f &= !FLAG_CONNECTED;
        }
    }

    /// All terrain ids, row-major.
    pub fn terrain_cells(&self) -> &[TerrainId] {
        &self.terrain
    }

    /// All priorities, row-major.
    pub fn priority_cells(&self) -> &[u8] {
        &self.priority
    }

    /// All region ids, row-major.
    pub fn region_cells(&self) -> &[u16] {
        &self.region
    }

    /// All cell flags ([`FLAG_SOLID`], [`FLAG_CONNECTED`], [`FLAG_HAZARD`], [`FLAG_DOOR`]),
    /// row-major.
    pub fn flag_cells(&self) -> &[u8] {
        &self.flags
    }

    /// Mutable cell flags, for primitives that maintain [`FLAG_CONNECTED`]. The
    /// [`FLAG_TERRAIN`] bits must be left as they are (they mirror the terrain), and
    /// [`FLAG_DOOR`] as well (it mirrors `notes.doors`).
    pub fn flag_cells_mut(&mut self) -> &mut [u8] {
        &mut self.flags
    }

    /// The id of a region name on this map, interning it on first use. Id 0 means "no region".
    pub fn region_id(&mut self, name: &str) -> u16 {
        if name.is_empty() {
            return 0;
        }
        if let Some(i) = self.region_names.iter().position(|n| n == name) {
            return i as u16;
        }
        self.region_names.push(name.to_string());
        (self.region_names.len() - 1) as u16
    }

    /// The name of a region id ("" for none).
    pub fn region_name(&self, id: u16) -> &str {
        self.region_names
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// Every region name in id order (index 0 is the empty "no region").
    pub fn region_names(&self) -> &[String] {
        &self.region_names
    }

    /// Writes one cell by index, applying the edge and priority rules. Returns whether it was
    /// written. The index must be valid.
    #[inline]
    pub fn write_index(&mut self, i: usize, brush: &Brush) -> bool {
        let w = self.width as usize;
        self.write_cell((i % w) as i32, (i / w) as i32, i, brush)
    }

    /// Writes one cell. Out of bounds is an error; losing to a higher priority or hitting the
    /// unforced map edge returns `Ok(false)`.
    #[inline]
    pub fn write(&mut self, p: Point, brush: &Brush) -> Result<bool, MapError> {
        let i = self.index(p)?;
        Ok(self.write_cell(p.x, p.y, i, brush))
    }

    /// [`Map::write`] for cell `i` at `(x, y)`, both valid: the single-cell form of
    /// [`Map::write_block`].
    #[inline]
    fn write_cell(&mut self, x: i32, y: i32, i: usize, brush: &Brush) -> bool {
        let terrain_bits = self.terrain_bits(brush.terrain);
        self.write_cell_as(x, y, i, brush, terrain_bits)
    }

    /// The [`FLAG_TERRAIN`] bits of `terrain`: [`FLAG_SOLID`] and [`FLAG_HAZARD`] as it is.
    #[inline]
    fn terrain_bits(&self, terrain: TerrainId) -> u8 {
        terrain_flags(self.terrains.get(terrain))
    }

    /// [`Map::write_cell`] with the brush terrain's flag bits already looked up.
    #[inline(always)]
    fn write_cell_as(&mut self, x: i32, y: i32, i: usize, brush: &Brush, terrain_bits: u8) -> bool {
        if !brush.force && self.is_edge(Point::new(x, y)) {
            return false;
        }
        self.forget(brush);
        if let Some(p) = brush.priority {
            if !brush.force && !priority::wins(p, self.priority[i]) {
                return false;
            }
            self.priority[i] = p;
        }
        self.terrain[i] = brush.terrain;
        if let Some(r) = brush.region {
            self.region[i] = r;
        }
        self.flags[i] = (self.flags[i] & !FLAG_TERRAIN) | terrain_bits;
        true
    }

    /// Forgets what [`Planes`] knew about the planes a write with `brush` may change.
    #[inline(always)]
    fn forget(&mut self, brush: &Brush) {
        self.known.uniform = None;
        self.known.priority_zero &= brush.priority.is_none();
        self.known.region_zero &= brush.region.is_none();
    }

    /// Checks that `rect` has cells and that every one of them is on the map
    /// ([`Map::rect_in_bounds`]).
    ///
    /// # Errors
    /// [`MapError::EmptyRect`] for a rectangle without cells; else [`MapError::OutOfBounds`]
    /// naming its top-left corner when that is off the map, or else its bottom-right one.
    #[inline]
    pub fn check_rect(&self, rect: &Rect) -> Result<(), MapError> {
        if self.rect_in_bounds(rect) {
            Ok(())
        } else {
            Err(self.rect_error(rect))
        }
    }

    /// Whether `rect` has cells and every one of them is on the map: what
    /// [`Map::check_rect`] checks, as six comparisons inlined where it is asked.
    #[inline]
    pub fn rect_in_bounds(&self, rect: &Rect) -> bool {
        // In 64 bits: a far corner past `i32::MAX` is off the map, not wrapped onto it.
        let (x, y) = (i64::from(rect.x), i64::from(rect.y));
        let (w, h) = (i64::from(rect.w), i64::from(rect.h));
        w >= 1
            && h >= 1
            && x >= 0
            && y >= 0
            && x + w <= i64::from(self.width)
            && y + h <= i64::from(self.height)
    }

    /// Why `rect` is not on the map (for a rectangle [`Map::rect_in_bounds`] refuses): it has
    /// no cells, or the first of its corners off the map, top-left then bottom-right.
    #[cold]
    fn rect_error(&self, rect: &Rect) -> MapError {
        debug_assert!(!self.rect_in_bounds(rect));
        if rect.is_empty() {
            return MapError::EmptyRect {
                x: rect.x,
                y: rect.y,
                w: rect.w,
                h: rect.h,
            };
        }
        match self.index(Point::new(rect.x, rect.y)) {
            Err(e) => e,
            Ok(_) => self.out_of_bounds(rect.x2().into(), rect.y2().into()),
        }
    }

    /// Fills a rectangle. The whole rectangle must be on the map. Returns the cells written.
    pub fn fill_rect(&mut self, rect: &Rect, brush: &Brush) -> Result<usize, MapError> {
        self.check_rect(rect)?;
        Ok(self.write_block(rect.x, rect.y, rect.x2(), rect.y2(), brush))
    }

    /// Writes `terrains` into row `y` from column `x` on, one terrain a cell, with force and no
    /// priority or region: the same map as a forced [`Map::fill_rect`] of every cell in turn
    /// with a plain brush of its terrain, in one pass (a town's rows change terrain every
    /// cell or two). The whole row must be on the map; an empty row writes nothing. Returns
    /// the cells written.
    pub fn write_terrain_row(
        &mut self,
        x: i32,
        y: i32,
        terrains: &[TerrainId],
    ) -> Result<usize, MapError> {
        if terrains.is_empty() {
            return Ok(0);
        }
        // As for a rectangle: a start off the map is named first. Then a row wider than the
        // map ends off it (and its width may not fit a `Rect`).
        self.index(Point::new(x, y))?;
        let Some(len) = i32::try_from(terrains.len())
            .ok()
            .filter(|&w| w <= self.width)
        else {
            return Err(self.out_of_bounds(i64::from(x) + terrains.len() as i64 - 1, y.into()));
        };
        self.check_rect(&Rect::new(x, y, len, 1))?;
        if self
            .known
            .uniform
            .is_some_and(|u| terrains.iter().all(|&t| t == u))
        {
            // Every cell already holds these terrains and their bits: writing changes nothing.
            return Ok(terrains.len());
        }
        self.known.uniform = None;
        let start = y as usize * self.width as usize + x as usize;
        let cells = start..start + terrains.len();
        let planes = self.terrain[cells.clone()]
            .iter_mut()
            .zip(&mut self.flags[cells]);
        // Each cell's bits looked up, with no branch on whether its terrain is the last one's:
        // in a town's rows the terrain changes every few cells, unpredictably.
        for ((terrain, flags), &to) in planes.zip(terrains) {
            *terrain = to;
            *flags = (*flags & !FLAG_TERRAIN) | terrain_flags(self.terrains.get(to));
        }
        Ok(terrains.len())
    }

    /// Draws a rectangle's border. The whole rectangle must be on the map. Returns the cells
    /// written.
    pub fn outline_rect(&mut self, rect: &Rect, brush: &Brush) -> Result<usize, MapError> {
        self.check_rect(rect)?;
        let cells = rect.outline();
        self.write_all(&cells, brush)
    }

    /// Fills the whole map.
    pub fn fill(&mut self, brush: &Brush) -> usize {
        self.write_block(0, 0, self.width - 1, self.height - 1, brush)
    }

    /// The part of the block `x0..=x1` × `y0..=y1` (all on the map) that `brush` may write: all
    /// of it when forced, else its cells off the map's edge; `None` when that is nothing.
    fn writable(
        &self,
        x0: i32,
        y0: i32,
        x1: i32,
        y1: i32,
        brush: &Brush,
    ) -> Option<(i32, i32, i32, i32)> {
        let (x0, y0, x1, y1) = if brush.force {
            (x0, y0, x1, y1)
        } else {
            (
                x0.max(1),
                y0.max(1),
                x1.min(self.width - 2),
                y1.min(self.height - 2),
            )
        };
        (x0 <= x1 && y0 <= y1).then_some((x0, y0, x1, y1))
    }

    /// Writes the cells `x0..=x1` × `y0..=y1` (all on the map), applying the edge and priority
    /// rules a row at a time. Returns the number written.
    fn write_block(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, brush: &Brush) -> usize {
        let Some((x0, y0, x1, y1)) = self.writable(x0, y0, x1, y1, brush) else {
            return 0;
        };
        let plain = brush.priority.is_none() && brush.region.is_none();
        let cells = (x1 - x0 + 1) as usize * (y1 - y0 + 1) as usize;
        if plain && self.known.uniform == Some(brush.terrain) {
            // Every cell already holds this terrain and its bits: writing changes nothing.
            return cells;
        }
        self.forget(brush);
        let terrain_bits = self.terrain_bits(brush.terrain);
        let width = self.width as usize;
        let (x0, x1) = (x0 as usize, x1 as usize);
        // The block's rows: slices `width` apart, of which the first `cols` cells are written.
        let cols = x1 - x0 + 1;
        let rows = RowsOf {
            first: y0 as usize * width + x0,
            width,
            rows: (y1 - y0 + 1) as usize,
            cols,
        };
        if plain {
            // Plain writes cannot lose: every cell of the block is written.
            paint_rows(
                &mut self.terrain,
                &mut self.flags,
                rows,
                brush.terrain,
                terrain_bits,
            );
            return cells;
        }
        let stroke = Stroke::new(brush, terrain_bits);
        if brush.region.is_some() {
            // Four planes: the chunked writer, every cell asked for.
            return self.write_rows_where((x0, y0 as usize, x1, y1 as usize), stroke, |_| true);
        }
        // A ranked brush: three planes a cell (the region plane is left alone), a row at a
        // time in one loop, which short rows (rooms of a few cells) favour over chunks.
        let mut written = 0;
        for cells in rows.ranges() {
            written += stroke.apply_row(
                &mut self.terrain[cells.clone()],
                &mut self.flags[cells.clone()],
                &mut self.priority[cells],
            );
        }
        written
    }

    /// Writes the cells of `rect` whose index `keep` accepts, row by row, through the edge and
    /// priority rules: the same as [`Map::write`] on each of them in turn, without a check per
    /// cell. The whole rectangle must be on the map. Returns the cells written.
    pub fn write_rect_where(
        &mut self,
        rect: &Rect,
        brush: &Brush,
        keep: impl FnMut(usize) -> bool,
    ) -> Result<usize, MapError> {
        self.check_rect(rect)?;
        let Some((x0, y0, x1, y1)) = self.writable(rect.x, rect.y, rect.x2(), rect.y2(), brush)
        else {
            return Ok(0);
        };
        self.forget(brush);
        let stroke = Stroke::new(brush, self.terrain_bits(brush.terrain));
        let corners = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
        Ok(self.write_rows_where(corners, stroke, keep))
    }

    /// Writes the cells `x0..=x1` × `y0..=y1` (inside the edge rule already) whose index
    /// `keep` accepts, through `stroke`'s priority rule, row by row in chunks: `keep` is asked
    /// cell by cell into a chunk of flags, then [`Stroke::apply_chunk`] writes the chunk plane
    /// by plane. Returns the number of cells written.
    fn write_rows_where(
        &mut self,
        (x0, y0, x1, y1): (usize, usize, usize, usize),
        stroke: Stroke,
        mut keep: impl FnMut(usize) -> bool,
    ) -> usize {
        // A row of up to 256 cells is one chunk: each chunk's loops end in a scalar tail and
        // pay their setup again (chunks of 64 took 11% more instructions of a BSP interior's
        // 80×50 map, 15% more of its time at 256×256).
        const CHUNK: usize = 256;
        let width = self.width as usize;
        let mut won = [0u8; CHUNK];
        let mut written = 0;
        for y in y0..=y1 {
            let (mut start, row_end) = (y * width + x0, y * width + x1 + 1);
            while start < row_end {
                let end = (start + CHUNK).min(row_end);
                let won = &mut won[..end - start];
                for (w, i) in won.iter_mut().zip(start..end) {
                    *w = keep(i) as u8;
                }
                let region = stroke.region.map(|_| &mut self.region[start..end]);
                written += stroke.apply_chunk(
                    won,
                    &mut self.terrain[start..end],
                    &mut self.flags[start..end],
                    &mut self.priority[start..end],
                    region,
                );
                start = end;
            }
        }
        written
    }

    /// Writes every cell in `cells`, all of which must be on the map (checked before anything is
    /// written). Returns the number written.
    pub fn write_all(&mut self, cells: &[Point], brush: &Brush) -> Result<usize, MapError> {
        for p in cells {
            self.index(*p)?;
        }
        Ok(cells
            .iter()
            .map(|p| {
                self.write_index(p.x as usize + p.y as usize * self.width as usize, brush) as usize
            })
            .sum())
    }

    /// Carves a path: writes each cell and returns those whose terrain actually changed, in
    /// order (the tutorial's corridor record). All cells must be on the map.
    pub fn carve_path(&mut self, cells: &[Point], brush: &Brush) -> Result<Vec<Point>, MapError> {
        for p in cells {
            self.index(*p)?;
        }
        let mut carved = self.notes.corridor_cells(cells.len());
        self.carve_into(cells.iter().copied(), brush, &mut carved)?;
        Ok(carved)
    }

    /// Carves `cells` in order, appending to `carved` each cell whose terrain changed. Stops
    /// with an error at the first cell off the map (the cells before it stay written).
    pub fn carve_into(
        &mut self,
        cells: impl IntoIterator<Item = Point>,
        brush: &Brush,
        carved: &mut Vec<Point>,
    ) -> Result<(), MapError> {
        let terrain_bits = self.terrain_bits(brush.terrain);
        cells.into_iter().try_for_each(|p| {
            let i = self.index(p)?;
            self.carve_cell(p, i, brush, terrain_bits, carved);
            Ok(())
        })
    }

    /// Writes cell `i` at `p` (valid) and appends `p` to `carved` if its terrain changed (a
    /// carved corridor's record keeps only those cells).
    #[inline(always)]
    fn carve_cell(
        &mut self,
        p: Point,
        i: usize,
        brush: &Brush,
        terrain_bits: u8,
        carved: &mut Vec<Point>,
    ) {
        let before = self.terrain[i];
        if self.write_cell_as(p.x, p.y, i, brush, terrain_bits) && before != brush.terrain {
            carved.push(p);
        }
    }

    /// Carves the dog-leg path from `a` to `b` (the cells of [`dogleg_cells`], in order),
    /// appending to `carved` each cell whose terrain changed. Both ends must be on the map (then
    /// so is the whole path, which stays inside their bounding box).
    pub fn carve_dogleg(
        &mut self,
        a: Point,
        b: Point,
        order: DogLeg,
        brush: &Brush,
        carved: &mut Vec<Point>,
    ) -> Result<(), MapError> {
        self.index(a)?;
        self.index(b)?;
        let corner = match order {
            DogLeg::HorizontalFirst => Point::new(b.x, a.y),
            DogLeg::VerticalFirst => Point::new(a.x, b.y),
        };
        let terrain_bits = self.terrain_bits(brush.terrain);
        self.carve_straight(a, corner, 0, brush, terrain_bits, carved);
        self.carve_straight(corner, b, 1, brush, terrain_bits, carved);
        Ok(())
    }

    /// Carves the cells `from..=n` of the straight run from `a` to `b` (which share a row or a
    /// column and are both on the map).
    fn carve_straight(
        &mut self,
        a: Point,
        b: Point,
        from: i32,
        brush: &Brush,
        terrain_bits: u8,
        carved: &mut Vec<Point>,
    ) {
        let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
        let n = (b.x - a.x).abs().max((b.y - a.y).abs());
        let w = self.width as isize;
        let step = sx as isize + sy as isize * w;
        let start = a.x as isize + a.y as isize * w;
        // Only the edge rule and priorities can skip a cell, and a straight run meets the edge
        // only at its ends (or runs along it), so the cells off the edge are one range of steps:
        // all of them when both ends are off the edge (as rooms' centres are).
        let (lo, hi) = if brush.force || !(self.is_edge(a) || self.is_edge(b)) {
            (from, n)
        } else {
            let (x0, x1) = steps_within(a.x, sx, 1, self.width - 2);
            let (y0, y1) = steps_within(a.y, sy, 1, self.height - 2);
            (from.max(x0).max(y0), n.min(x1).min(y1))
        };
        if brush.priority.is_none() && brush.region.is_none() {
            self.known.uniform = None;
        }
        if hi < lo {
            return;
        }
        self.forget(brush);
        let run = Run {
            origin: Point::new(a.x + sx * lo, a.y + sy * lo),
            step: Point::new(sx, sy),
            len: (hi - lo + 1) as usize,
            stroke: Stroke::new(brush, terrain_bits),
        };
        let first = (start + step * lo as isize) as usize;
        if brush.priority.is_none() && brush.region.is_none() {
            // A plain brush writes every cell of the range: the priority and region planes
            // are not touched.
            run.paint(first, step, &mut self.terrain, &mut self.flags, carved);
        } else {
            let planes = (&mut self.priority[..], &mut self.region[..]);
            run.paint_ranked(
                first,
                step,
                &mut self.terrain,
                &mut self.flags,
                planes,
                carved,
            );
        }
    }

    /// Number of passable cells (see [`passable`]).
    pub fn passable_count(&self) -> usize {
        self.flags.iter().filter(|&&f| passable(f)).count()
    }

    /// Number of cells that are not solid.
    pub fn open_count(&self) -> usize {
        self.flags.iter().filter(|&&f| f & FLAG_SOLID == 0).count()
    }
}

/// The rows of a block of cells in a map's planes: `rows` rows of `cols` cells, the first
/// starting at index `first`, each `width` after the one before. A block's rows are found by
/// their index: an iterator of row slices (`chunks_mut`, zipped plane with plane) took about as
/// many instructions as a room's writes.
#[derive(Clone, Copy)]
struct RowsOf {
    first: usize,
    width: usize,
    rows: usize,
    cols: usize,
}

impl RowsOf {
    /// Each row's cells, as a range of indices, top to bottom.
    #[inline(always)]
    fn ranges(self) -> impl Iterator<Item = std::ops::Range<usize>> {
        (0..self.rows).map(move |row| {
            let start = self.first + row * self.width;
            start..start + self.cols
        })
    }
}

/// Gives every cell of the block `at` in `terrain` and `flags` `to` as its terrain and `bits`
/// as its terrain flags (a plain write). Rows of up to 16 cells (a room's) are written as two
/// windows of a fixed width, one at each end, overlapping in the middle (a cell written twice
/// ends as written once): each flags window one word loaded and stored, each terrain window one
/// store, where a loop over the cells ran mostly its scalar tail; longer rows in a loop the
/// compiler vectorises. The width is chosen once for the block.
#[inline(always)]
fn paint_rows(terrain: &mut [TerrainId], flags: &mut [u8], at: RowsOf, to: TerrainId, bits: u8) {
    match at.cols {
        1 => each_row(terrain, flags, at, |t, f| paint_ends_1(t, f, to, bits)),
        2..4 => each_row(terrain, flags, at, |t, f| paint_ends_2(t, f, to, bits)),
        4..8 => each_row(terrain, flags, at, |t, f| paint_ends_4(t, f, to, bits)),
        8..=16 => each_row(terrain, flags, at, |t, f| paint_ends_8(t, f, to, bits)),
        _ => each_row(terrain, flags, at, |t, f| paint_all(t, f, to, bits)),
    }
}

/// Calls `paint` on each row of the block `at`, as its slices of `terrain` and `flags`.
#[inline(always)]
fn each_row(
    terrain: &mut [TerrainId],
    flags: &mut [u8],
    at: RowsOf,
    paint: impl Fn(&mut [TerrainId], &mut [u8]),
) {
    for cells in at.ranges() {
        paint(&mut terrain[cells.clone()], &mut flags[cells]);
    }
}

/// [`paint_rows`] on a row of any length, cell by cell (a loop the compiler vectorises).
#[inline(always)]
fn paint_all(terrain: &mut [TerrainId], flags: &mut [u8], to: TerrainId, bits: u8) {
    for (t, f) in terrain.iter_mut().zip(flags.iter_mut()) {
        *t = to;
        *f = (*f & !FLAG_TERRAIN) | bits;
    }
}

/// `paint_ends_N`: [`paint_rows`] on a row of `N` to `2 N` cells, as its first `N` cells and its
/// last `N`, each window of flags read as one word of `N` bytes (`$word`) and changed in all its
/// bytes at once. Both windows are read before either is written: a read of bytes a store has
/// just written, which covers them only in part, waits for that store to reach the cache.
macro_rules! paint_ends {
    ($name:ident, $word:ty) => {
        #[inline(always)]
        fn $name(terrain: &mut [TerrainId], flags: &mut [u8], to: TerrainId, bits: u8) {
            const N: usize = std::mem::size_of::<$word>();
            let n = flags.len();
            debug_assert!((N..=2 * N).contains(&n) && terrain.len() == n);
            let splat = |byte: u8| <$word>::from_ne_bytes([byte; N]);
            let (keep, set) = (!splat(FLAG_TERRAIN), splat(bits));
            let read =
                |at: usize| <$word>::from_ne_bytes(flags[at..at + N].try_into().expect("N flags"));
            let (head, tail) = ((read(0) & keep) | set, (read(n - N) & keep) | set);
            flags[..N].copy_from_slice(&head.to_ne_bytes());
            flags[n - N..].copy_from_slice(&tail.to_ne_bytes());
            terrain[..N].copy_from_slice(&[to; N]);
            terrain[n - N..].copy_from_slice(&[to; N]);
        }
    };
}
paint_ends!(paint_ends_1, u8);
paint_ends!(paint_ends_2, u16);
paint_ends!(paint_ends_4, u32);
paint_ends!(paint_ends_8, u64);

/// A straight run of cells off the map's edge (or forced), which a brush carves.
struct Run {
    /// The first cell.
    origin: Point,
    /// From each cell to the next.
    step: Point,
    /// Number of cells.
    len: usize,
    /// The brush's rule.
    stroke: Stroke,
}

impl Run {
    /// Writes the run's cells with a plain brush (no priority, no region: every cell is
    /// written), the first at index `first` and each `step` from the one before, and appends to
    /// `carved` those whose terrain changed. Each cell is stored in the next free slot
    /// unconditionally, and the slot kept only if the cell changed: no branch on the map's
    /// contents.
    #[inline(always)]
    fn paint(
        &self,
        first: usize,
        step: isize,
        terrain: &mut [TerrainId],
        flags: &mut [u8],
        carved: &mut Vec<Point>,
    ) {
        let (to, bits) = (self.stroke.terrain, self.stroke.terrain_bits);
        carved.reserve(self.len);
        let slots = carved.spare_capacity_mut()[..self.len].as_mut_ptr();
        // The run's cells lie between its ends, both of which are on both planes.
        let last = first.wrapping_add_signed(step * (self.len as isize - 1));
        assert!(first.max(last) < terrain.len().min(flags.len()));
        let (terrain, flags) = (terrain.as_mut_ptr(), flags.as_mut_ptr());
        // Each cell's point as one word ([`Packed`]), moved a step by one addition.
        let (mut n, mut i, mut p) = (0, first, Packed::of(self.origin));
        let by = Packed::step(self.step);
        for _ in 0..self.len {
            // SAFETY: `i` goes from `first` to `last` in equal steps, so it stays between two
            // indices checked above; `n` never passes the cells so far, fewer than the slots.
            unsafe {
                let (t, f) = (&mut *terrain.add(i), &mut *flags.add(i));
                let changed = *t != to;
                *t = to;
                *f = (*f & !FLAG_TERRAIN) | bits;
                (*slots.add(n)).write(p.point());
                n += changed as usize;
            }
            i = i.wrapping_add_signed(step);
            p = p.add(by);
        }
        // SAFETY: `n` slots past the length were reserved, and each of them written (slot
        // `n` is written before `n` moves past it).
        unsafe { carved.set_len(carved.len() + n) };
    }

    /// [`Run::paint`] for any brush: each cell goes through the priority rule
    /// ([`Stroke::apply`]), without a branch either, and the priority and region `planes` are
    /// written as the brush says.
    #[inline(always)]
    fn paint_ranked(
        &self,
        first: usize,
        step: isize,
        terrain: &mut [TerrainId],
        flags: &mut [u8],
        (priority, region): (&mut [u8], &mut [u16]),
        carved: &mut Vec<Point>,
    ) {
        carved.reserve(self.len);
        let slots = &mut carved.spare_capacity_mut()[..self.len];
        let (mut n, mut i, mut p) = (0, first, self.origin);
        let stamped = self.stroke.region.is_some();
        for _ in 0..self.len {
            let before = terrain[i];
            let (t, f) = (&mut terrain[i], &mut flags[i]);
            // The region plane is touched only by a stroke that stamps one: it is often
            // untouched zeroed memory, whose every first write costs a page.
            let mut unstamped = 0;
            let r = if stamped {
                &mut region[i]
            } else {
                &mut unstamped
            };
            let written = self.stroke.apply(true, t, f, &mut priority[i], r);
            slots[n].write(p);
            n += (written & (before != self.stroke.terrain)) as usize;
            i = i.wrapping_add_signed(step);
            p = Point::new(p.x + self.step.x, p.y + self.step.y);
        }
        // SAFETY: as in `paint`.
        unsafe { carved.set_len(carved.len() + n) };
    }
}

/// A point on the map as one word: `x` in the low half, `y` in the high half, both as unsigned
/// 32-bit numbers (a cell on the map has neither negative). [`Packed::add`] moves it by a step
/// of -1, 0 or 1 in each coordinate ([`Packed::step`]): while the result stays on the map
/// neither half passes 0, so no borrow or carry crosses between them.
#[derive(Clone, Copy)]
struct Packed(u64);

impl Packed {
    /// `p` (on the map) packed.
    #[inline(always)]
    fn of(p: Point) -> Packed {
        Packed(u64::from(p.x as u32) | u64::from(p.y as u32) << 32)
    }

    /// The step `(dx, dy)` (each -1, 0 or 1) as an addend: `dx + dy * 2^32`, modulo 2^64.
    #[inline(always)]
    fn step(d: Point) -> Packed {
        Packed((i64::from(d.x) + (i64::from(d.y) << 32)) as u64)
    }

    /// The point moved by the step `by`.
    #[inline(always)]
    fn add(self, by: Packed) -> Packed {
        Packed(self.0.wrapping_add(by.0))
    }

    /// The point.
    #[inline(always)]
    fn point(self) -> Point {
        Point::new(self.0 as u32 as i32, (self.0 >> 32) as u32 as i32)
    }
}

/// A brush's write rule with its options looked up once, for loops over many cells.
#[derive(Clone, Copy)]
struct Stroke {
    /// Terrain written.
    terrain: TerrainId,
    /// Its [`FLAG_TERRAIN`] bits.
    terrain_bits: u8,
    /// The brush's priority, if it has one.
    priority: Option<u8>,
    /// The region stamped, if any.
    region: Option<u16>,
    /// Whether the write ignores priorities.
    force: bool,
}

impl Stroke {
    /// The rule of `brush`, whose terrain has the flag bits `terrain_bits`.
    #[inline(always)]
    fn new(brush: &Brush, terrain_bits: u8) -> Stroke {
        Stroke {
            terrain: brush.terrain,
            terrain_bits,
            priority: brush.priority,
            region: brush.region,
            force: brush.force,
        }
    }

    /// Writes one cell (off the map's edge, or forced) if `keep` and the priority rule allow,
    /// as [`Map::write`] does; returns whether it did. Every plane is stored whichever way it
    /// goes (its old value when the write loses), so a loop over cells has no branch on their
    /// contents and can be vectorised.
    #[inline(always)]
    fn apply(
        &self,
        keep: bool,
        t: &mut TerrainId,
        f: &mut u8,
        prio: &mut u8,
        region: &mut u16,
    ) -> bool {
        let (p, ranked) = (self.priority.unwrap_or(0), self.priority.is_some());
        let win = keep & (self.force | !ranked | priority::wins(p, *prio));
        *prio = if win & ranked { p } else { *prio };
        *t = if win { self.terrain } else { *t };
        let (r, stamped) = (self.region.unwrap_or(0), self.region.is_some());
        *region = if win & stamped { r } else { *region };
        *f = if win {
            (*f & !FLAG_TERRAIN) | self.terrain_bits
        } else {
            *f
        };
        win
    }

    /// [`Stroke::apply`] on every cell of a row, for a ranked stroke that stamps no region:
    /// one loop of masks over the three planes, which vectorises (an index loop with a 32-bit
    /// count: zipped iterators or a `usize` count kept it scalar). Returns the number of cells
    /// written.
    #[inline(always)]
    fn apply_row(&self, terrain: &mut [TerrainId], flags: &mut [u8], priority: &mut [u8]) -> usize {
        debug_assert!(self.priority.is_some() && self.region.is_none());
        let p = self.priority.unwrap_or(0);
        let n = terrain.len();
        let (flags, priority) = (&mut flags[..n], &mut priority[..n]);
        let mut written = 0u32;
        for i in 0..n {
            let won = (self.force | priority::wins(p, priority[i])) as u8;
            let m = 0u8.wrapping_sub(won);
            priority[i] = (priority[i] & !m) | (p & m);
            let m16 = 0u16.wrapping_sub(won as u16);
            terrain[i] = (terrain[i] & !m16) | (self.terrain & m16);
            let mf = m & FLAG_TERRAIN;
            flags[i] = (flags[i] & !mf) | (self.terrain_bits & mf);
            written += won as u32;
        }
        written as usize
    }

    /// [`Stroke::apply`] on a chunk of cells at once: `won` holds 1 for each cell asked for
    /// and 0 for the others on entry, and 1 for each cell written on return; `region` is the
    /// region plane's chunk when the stroke stamps one. Each plane is written in its own loop
    /// with masks, not branches, so each loop vectorises (the cells asked for are often a coin
    /// toss, a noise threshold, and a mispredicted branch a cell cost more than the write).
    /// Returns the number of cells written.
    #[inline(always)]
    fn apply_chunk(
        &self,
        won: &mut [u8],
        terrain: &mut [TerrainId],
        flags: &mut [u8],
        priority: &mut [u8],
        region: Option<&mut [u16]>,
    ) -> usize {
        // A mask of every bit when `won` is 1, of none when it is 0.
        let mask = |won: u8| 0u16.wrapping_sub(won as u16);
        let n = won.len();
        if let Some(p) = self.priority {
            for (w, prio) in won.iter_mut().zip(&mut priority[..n]) {
                *w &= (self.force | priority::wins(p, *prio)) as u8;
                let m = mask(*w) as u8;
                *prio = (*prio & !m) | (p & m);
            }
        }
        for (t, &w) in terrain[..n].iter_mut().zip(won.iter()) {
            let m = mask(w);
            *t = (*t & !m) | (self.terrain & m);
        }
        // The terrain's bits replace the old ones: `terrain_bits` lies within FLAG_TERRAIN.
        for (f, &w) in flags[..n].iter_mut().zip(won.iter()) {
            let m = mask(w) as u8 & FLAG_TERRAIN;
            *f = (*f & !m) | (self.terrain_bits & m);
        }
        if let (Some(r), Some(region)) = (self.region, region) {
            for (cell, &w) in region[..n].iter_mut().zip(won.iter()) {
                let m = mask(w);
                *cell = (*cell & !m) | (r & m);
            }
        }
        won.iter().map(|&w| w as usize).sum()
    }
}

/// The steps `k` (as an inclusive range, empty when the first exceeds the second) for which
/// `p + s * k` lies in `lo..=hi`, for a step `s` of -1, 0 or 1.
fn steps_within(p: i32, s: i32, lo: i32, hi: i32) -> (i32, i32) {
    match s {
        0 if (lo..=hi).contains(&p) => (i32::MIN, i32::MAX),
        0 => (1, 0),
        1 => (lo - p, hi - p),
        _ => (p - hi, p - lo),
    }
}
