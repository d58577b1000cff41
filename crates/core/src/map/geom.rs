//! Integer geometry: points, rectangles, directions, lines.
//!
//! Coordinates are 0-based `(x, y)` with x to the right and y down. Everything here is integer
//! arithmetic so that maps are identical on every machine.

use serde::Serialize;

/// A cell position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Point {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top.
    pub y: i32,
}

impl Point {
    /// A point at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// Chebyshev (king-move) distance, the metric of 8-neighbour maps.
    pub fn chebyshev(self, other: Point) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// Squared Euclidean distance (exact, no floats).
    pub fn dist2(self, other: Point) -> i64 {
        let dx = (self.x - other.x) as i64;
        let dy = (self.y - other.y) as i64;
        dx * dx + dy * dy
    }

    /// The neighbouring point one step in `dir`.
    pub fn step(self, dir: Dir) -> Point {
        let (dx, dy) = dir.delta();
        Point::new(self.x + dx, self.y + dy)
    }
}

/// An axis-aligned rectangle given by its top-left corner and size. Both `w` and `h` are ≥ 1 for
/// any rectangle that covers a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Rect {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width in cells.
    pub w: i32,
    /// Height in cells.
    pub h: i32,
}

/// Lists up to this long are sorted by [`sort_rects_by_key`]'s ranks, longer ones by the
/// standard library's sort.
const RANKED: usize = 32;

/// Sorts `rects` by `key`, equal keys keeping their order: what `sort_by_key` does. A list of
/// up to 32 (a level's rooms, say) is sorted by rank: each rectangle's place is the number of
/// keys that go before its own (smaller, or equal and earlier), counted without a branch, and
/// each rectangle is moved once. On such short lists the standard sort is an insertion sort,
/// whose branches on random keys mispredict: `rooms:sort` was 3% of a `rooms.lua` map.
pub fn sort_rects_by_key<K: Ord + Copy>(rects: &mut [Rect], key: impl Fn(&Rect) -> K) {
    let n = rects.len();
    if !(2..=RANKED).contains(&n) {
        rects.sort_by_key(key);
        return;
    }
    let mut keys = [key(&rects[0]); RANKED];
    for (k, r) in keys.iter_mut().zip(rects.iter()) {
        *k = key(r);
    }
    let keys = &keys[..n];
    move_to_ranks(rects, |i| {
        keys.iter()
            .enumerate()
            .map(|(j, &other)| {
                usize::from(other < keys[i]) + usize::from((other == keys[i]) & (j < i))
            })
            .sum()
    });
}

/// Sorts `rects` by the pair `corner` gives each (first by its first coordinate, then by its
/// second), equal pairs keeping their order: [`sort_rects_by_key`] on that pair, sooner when
/// both coordinates of every pair lie in `0..4096` (a map's cells up to 4096 a side) and the
/// list is at most 32 long. Then each pair and its place in the list are packed into one
/// distinct 29-bit key, and each rectangle's rank is the count of smaller keys over a fixed 32
/// lanes of 32 bits, which the compiler can count several at a time in vector registers (half
/// the instructions of the pair's 64-bit ranks on a level's rooms).
pub fn sort_rects_by_cell(rects: &mut [Rect], corner: impl Fn(&Rect) -> (i32, i32)) {
    if !rank_by_cell(rects, &corner) {
        // The pair as one key that orders as the pair does (each coordinate's sign bit
        // flipped, so any `i32` orders as its `u32`), compared without a branch.
        let pair =
            |a: i32, b: i32| u64::from(a as u32 ^ 1 << 31) << 32 | u64::from(b as u32 ^ 1 << 31);
        sort_rects_by_key(rects, |r| {
            let (a, b) = corner(r);
            pair(a, b)
        });
    }
}

/// [`sort_rects_by_cell`]'s ranks of packed keys; `false`, with `rects` left as they were,
/// when a coordinate or the length does not allow them.
fn rank_by_cell(rects: &mut [Rect], corner: &impl Fn(&Rect) -> (i32, i32)) -> bool {
    /// Coordinates packed: 12 bits each, then 5 for the place in the list.
    const SIDE: i32 = 1 << 12;
    if rects.len() > RANKED {
        return false;
    }
    // Lanes past the list hold the largest key, which no key of the list is counted under.
    let mut keys = [i32::MAX; RANKED];
    for (i, (k, r)) in keys.iter_mut().zip(rects.iter()).enumerate() {
        let (a, b) = corner(r);
        if !(0..SIDE).contains(&a) || !(0..SIDE).contains(&b) {
            return false;
        }
        *k = (a << 12 | b) << 5 | i as i32;
    }
    move_to_ranks(rects, |i| {
        keys.iter().map(|&other| usize::from(other < keys[i])).sum()
    });
    true
}

/// Moves the rectangle at each place `i` of `rects` (at most [`RANKED`]) to place `rank(i)`,
/// each once; the ranks are the places again, in another order.
#[inline(always)]
fn move_to_ranks(rects: &mut [Rect], rank: impl Fn(usize) -> usize) {
    let kept: [Rect; RANKED] = std::array::from_fn(|i| rects.get(i).copied().unwrap_or_default());
    for (i, rect) in kept.iter().enumerate().take(rects.len()) {
        rects[rank(i)] = *rect;
    }
}

impl Rect {
    /// A rectangle with top-left `(x, y)` and size `w × h`.
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Self {
        Rect { x, y, w, h }
    }

    /// Rightmost column (inclusive).
    pub fn x2(&self) -> i32 {
        self.x + self.w - 1
    }

    /// Bottom row (inclusive).
    pub fn y2(&self) -> i32 {
        self.y + self.h - 1
    }

    /// The centre cell (rounded towards the top-left).
    pub fn center(&self) -> Point {
        Point::new(self.x + (self.w - 1) / 2, self.y + (self.h - 1) / 2)
    }

    /// Whether the cell lies inside the rectangle.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.x <= self.x2() && p.y >= self.y && p.y <= self.y2()
    }

    /// Whether the two rectangles overlap once this one is grown by `margin` cells on every side.
    pub fn intersects(&self, other: &Rect, margin: i32) -> bool {
        self.x - margin <= other.x2()
            && self.x2() + margin >= other.x
            && self.y - margin <= other.y2()
            && self.y2() + margin >= other.y
    }

    /// The rectangle shrunk by `n` cells on every side (may become empty).
    pub fn inset(&self, n: i32) -> Rect {
        Rect::new(self.x + n, self.y + n, self.w - 2 * n, self.h - 2 * n)
    }

    /// Whether the rectangle covers no cell.
    pub fn is_empty(&self) -> bool {
        self.w <= 0 || self.h <= 0
    }

    /// Every cell of the rectangle, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Point> + '_ {
        (self.y..self.y + self.h.max(0))
            .flat_map(move |y| (self.x..self.x + self.w.max(0)).map(move |x| Point::new(x, y)))
    }

    /// The cells of the rectangle's border, clockwise from the top-left corner, each once.
    pub fn outline(&self) -> Vec<Point> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        if self.w == 1 || self.h == 1 {
            return self.cells().collect();
        }
        for x in self.x..=self.x2() {
            out.push(Point::new(x, self.y));
        }
        for y in self.y + 1..=self.y2() {
            out.push(Point::new(self.x2(), y));
        }
        for x in (self.x..self.x2()).rev() {
            out.push(Point::new(x, self.y2()));
        }
        for y in (self.y + 1..self.y2()).rev() {
            out.push(Point::new(self.x, y));
        }
        out
    }
}

/// One of the eight compass directions, in Incursion's order (N, S, E, W, then diagonals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up (y − 1).
    North,
    /// Down (y + 1).
    South,
    /// Right (x + 1).
    East,
    /// Left (x − 1).
    West,
    /// Up-right.
    NorthEast,
    /// Up-left.
    NorthWest,
    /// Down-right.
    SouthEast,
    /// Down-left.
    SouthWest,
}

impl Dir {
    /// The four orthogonal directions.
    pub const CARDINAL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];
    /// All eight directions.
    pub const ALL: [Dir; 8] = [
        Dir::North,
        Dir::South,
        Dir::East,
        Dir::West,
        Dir::NorthEast,
        Dir::NorthWest,
        Dir::SouthEast,
        Dir::SouthWest,
    ];

    /// The `(dx, dy)` step of this direction.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::South => (0, 1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
            Dir::NorthEast => (1, -1),
            Dir::NorthWest => (-1, -1),
            Dir::SouthEast => (1, 1),
            Dir::SouthWest => (-1, 1),
        }
    }

    /// The direction pointing the opposite way.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::South => Dir::North,
            Dir::East => Dir::West,
            Dir::West => Dir::East,
            Dir::NorthEast => Dir::SouthWest,
            Dir::NorthWest => Dir::SouthEast,
            Dir::SouthEast => Dir::NorthWest,
            Dir::SouthWest => Dir::NorthEast,
        }
    }

    /// Whether `other` points exactly the opposite way (Incursion's `DIAMETRIC`).
    pub fn is_diametric(self, other: Dir) -> bool {
        self.opposite() == other
    }

    /// Lower-case name as used in the Lua API (`"north"`, `"south_east"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::South => "south",
            Dir::East => "east",
            Dir::West => "west",
            Dir::NorthEast => "north_east",
            Dir::NorthWest => "north_west",
            Dir::SouthEast => "south_east",
            Dir::SouthWest => "south_west",
        }
    }

    /// Parses a name produced by [`Dir::name`].
    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// The cells of a Bresenham line from `a` to `b`, both ends included.
pub fn bresenham(a: Point, b: Point) -> Vec<Point> {
    bresenham_cells(a, b).collect()
}

/// The cells of [`bresenham`], one at a time (no allocation).
pub fn bresenham_cells(a: Point, b: Point) -> Bresenham {
    let dx = (b.x - a.x).abs();
    let dy = -(b.y - a.y).abs();
    Bresenham {
        at: Some(a),
        end: b,
        dx,
        dy,
        sx: if a.x < b.x { 1 } else { -1 },
        sy: if a.y < b.y { 1 } else { -1 },
        err: dx + dy,
    }
}

/// Iterator over the cells of a Bresenham line (see [`bresenham_cells`]).
#[derive(Clone, Debug)]
pub struct Bresenham {
    at: Option<Point>,
    end: Point,
    dx: i32,
    dy: i32,
    sx: i32,
    sy: i32,
    err: i32,
}

impl Iterator for Bresenham {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let p = self.at?;
        self.at = if p == self.end {
            None
        } else {
            let (mut x, mut y) = (p.x, p.y);
            let e2 = 2 * self.err;
            if e2 >= self.dy {
                self.err += self.dy;
                x += self.sx;
            }
            if e2 <= self.dx {
                self.err += self.dx;
                y += self.sy;
            }
            Some(Point::new(x, y))
        };
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self.at {
            Some(p) => (self.end.x - p.x).abs().max((self.end.y - p.y).abs()) as usize + 1,
            None => 0,
        };
        (n, Some(n))
    }
}

/// Which leg a dog-leg corridor draws first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DogLeg {
    /// Along x first, then along y.
    HorizontalFirst,
    /// Along y first, then along x.
    VerticalFirst,
}

/// The cells of a dog-leg (one-bend) path from `a` to `b`, both ends included, each cell once.
pub fn dogleg(a: Point, b: Point, order: DogLeg) -> Vec<Point> {
    dogleg_cells(a, b, order).collect()
}

/// The cells of [`dogleg`], one at a time (no allocation).
pub fn dogleg_cells(a: Point, b: Point, order: DogLeg) -> impl Iterator<Item = Point> + Clone {
    let corner = match order {
        DogLeg::HorizontalFirst => Point::new(b.x, a.y),
        DogLeg::VerticalFirst => Point::new(a.x, b.y),
    };
    straight(a, corner).chain(straight(corner, b).skip(1))
}

/// Cells of an axis-aligned segment (a and b share x or y), both ends included.
fn straight(a: Point, b: Point) -> impl Iterator<Item = Point> + Clone {
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let n = (b.x - a.x).abs().max((b.y - a.y).abs());
    (0..=n).map(move |i| Point::new(a.x + sx * i, a.y + sy * i))
}

/// The tutorial's `draw_corridor` walk: step x towards the target until aligned, then y. Both
/// ends included.
pub fn walk_x_then_y(a: Point, b: Point) -> Vec<Point> {
    dogleg(a, b, DogLeg::HorizontalFirst)
}
