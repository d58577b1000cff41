//! Drunkard's walk: walkers stagger one orthogonal step at a time, carving as they go, until a
//! share of the area is open. The variants of `mapgen` and the Rust roguelike tutorial are its
//! options: where each walker starts ([`Spawn`]), how long it lives, how wide it carves, and
//! whether its carving is mirrored ([`Symmetry`]).

use super::area::Area;
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{passable, Brush, Map, Point, Rect};
use crate::rng::Rng;

/// Where each walker after the first starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spawn {
    /// At the start cell, like the first ("open area").
    Start,
    /// On a random open cell of the area ("open halls", "winding passages"): the tutorial starts
    /// them anywhere and culls later; starting on open ground keeps the cave in one piece.
    Random,
}

/// Mirrors of every carved cell, about the centre of the area's bounding rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// No mirror.
    None,
    /// Mirrored left to right.
    Horizontal,
    /// Mirrored top to bottom.
    Vertical,
    /// Mirrored both ways (four copies).
    Both,
}

impl Symmetry {
    /// Every symmetry's name, as recipes spell it.
    pub const NAMES: [&'static str; 4] = ["none", "horizontal", "vertical", "both"];

    /// The symmetry named `name` (one of [`Symmetry::NAMES`]).
    pub fn from_name(name: &str) -> Option<Symmetry> {
        Some(match name {
            "none" => Symmetry::None,
            "horizontal" => Symmetry::Horizontal,
            "vertical" => Symmetry::Vertical,
            "both" => Symmetry::Both,
            _ => return None,
        })
    }
}

/// How the walkers behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drunkard {
    /// Where walkers after the first start.
    pub spawn: Spawn,
    /// Steps each walker takes, `1..=100_000`.
    pub lifetime: u32,
    /// Walkers keep coming until this percentage of the area is open, `1..=100`.
    pub floor_percent: u32,
    /// Side of the square each step carves, `1..=9` (centred on the walker; an even side
    /// reaches one cell further right and down).
    pub brush: u32,
    /// Mirrors of the carving.
    pub symmetry: Symmetry,
    /// The first walker's cell; `None`: the centre of the area's bounding rectangle.
    pub start: Option<Point>,
}

impl Default for Drunkard {
    /// `mapgen`'s "open area": every walker from the centre, 400 steps, half the area open.
    fn default() -> Self {
        Drunkard {
            spawn: Spawn::Start,
            lifetime: 400,
            floor_percent: 50,
            brush: 1,
            symmetry: Symmetry::None,
            start: None,
        }
    }
}

/// What a walk did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walked {
    /// Walkers sent.
    pub walkers: u32,
    /// Open cells in the area at the end.
    pub open: usize,
    /// Open cells wanted.
    pub wanted: usize,
}

/// Walks: carves `floor` (through the map's priority and edge rules) into `area` until
/// `floor_percent` of it is open, or until the walkers have taken a hundred steps per cell of the
/// area without getting there (writes that lose to higher priorities can make the share
/// unreachable; [`Walked`] tells). Steps that would leave the area are not taken.
pub fn walk(
    map: &mut Map,
    area: Area<'_>,
    options: &Drunkard,
    rng: &mut Rng,
    floor: &Brush,
    meter: &mut dyn Meter,
) -> Result<Walked, ToolError> {
    let o = options;
    let range =
        |key, value: u32, bounds| ToolError::check_range("drunkard", key, value as i64, bounds);
    range("lifetime", o.lifetime, (1, 100_000))?;
    range("floor_percent", o.floor_percent, (1, 100))?;
    range("brush", o.brush, (1, 9))?;
    let scope = area.on(map)?;
    let b = scope.bounds;
    let start = o.start.unwrap_or_else(|| b.center());
    if !scope.contains(start.x, start.y) {
        return Err(ToolError::NotInArea {
            what: "the drunkard's start",
            x: start.x,
            y: start.y,
        });
    }
    let w = map.width() as usize;
    let map_len = map.len();
    let cells = scope.cell_count();
    let flags = map.flag_cells();
    let mut open: Vec<u32> = scope
        .indices()
        .filter(|&i| passable(flags[i]))
        .map(|i| i as u32)
        .collect();
    let wanted = (cells * o.floor_percent as usize).div_ceil(100);
    let mut walker = Walker {
        map,
        scope,
        floor,
        bounds: b,
        brush: o.brush as i32,
        symmetry: o.symmetry,
        open: &mut open,
        tried: vec![false; map_len],
    };
    let most_steps = 100 * cells as u64;
    let (mut steps, mut walkers) = (0u64, 0u32);
    let mut directions = Directions::default();
    let mut meter = Batched::new(meter);
    while walker.open.len() < wanted && steps < most_steps {
        let mut p = match (o.spawn, walkers) {
            (Spawn::Random, 1..) if !walker.open.is_empty() => {
                let i = walker.open[rng.below(walker.open.len() as u64) as usize] as usize;
                Point::new((i % w) as i32, (i / w) as i32)
            }
            _ => start,
        };
        walkers += 1;
        // A walker always takes every step: its work is charged before it sets out (the same
        // total, so the same runs succeed).
        meter.work(o.lifetime as u64 * (o.brush * o.brush) as u64)?;
        let mut step = |walker: &mut Walker, p: &mut Point| {
            let (dx, dy) = STEPS[directions.next(rng)];
            let q = Point::new(p.x + dx, p.y + dy);
            if walker.scope.contains(q.x, q.y) {
                *p = q;
            }
        };
        if o.brush == 1 && o.symmetry == Symmetry::None && walker.scope.is_rectangular() {
            // The usual walk, one cell a step, in a loop of its own.
            p = walker.walk_in_rectangle(p, o.lifetime, &mut directions, rng);
        } else {
            for _ in 0..o.lifetime {
                walker.carve(p);
                step(&mut walker, &mut p);
            }
        }
        steps += o.lifetime as u64;
    }
    meter.finish()?;
    Ok(Walked {
        walkers,
        open: open.len(),
        wanted,
    })
}

/// A walker's steps, by the direction drawn: left, right, up, down.
pub(super) const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A walk's steps, drawn two bits at a time from one 64-bit draw of the stream: 32 steps a
/// draw, highest bits first (the first step of each draw is the one `below(4)` would give).
/// Drawing each step on its own made a walk's cost the generator's: one 128-bit multiply a
/// step, each waiting for the last. The drunkard's walkers and diffusion-limited
/// aggregation's particles step with it.
#[derive(Clone, Copy, Default)]
pub(super) struct Directions {
    /// The bits not used yet, highest first.
    bits: u64,
    /// How many steps they hold.
    left: u32,
}

impl Directions {
    /// The next direction, `0..4`.
    #[inline(always)]
    pub(super) fn next(&mut self, rng: &mut Rng) -> usize {
        if self.left == 0 {
            self.bits = rng.next_u64();
            self.left = 32;
        }
        let d = (self.bits >> 62) as usize;
        self.bits <<= 2;
        self.left -= 1;
        d
    }
}

/// A walk's carving state (the diffusion-limited aggregation of [`super::dla`] carves with it
/// too).
pub(super) struct Walker<'a, 's> {
    pub(super) map: &'a mut Map,
    pub(super) scope: crate::gen::area::Scope<'s>,
    pub(super) floor: &'a Brush,
    pub(super) bounds: Rect,
    pub(super) brush: i32,
    pub(super) symmetry: Symmetry,
    /// The open cells of the area, by index.
    pub(super) open: &'a mut Vec<u32>,
    /// The cells already written, by index: the map changes only through the walker, so
    /// writing one again with the same brush would change nothing, and is skipped.
    pub(super) tried: Vec<bool>,
}

impl Walker<'_, '_> {
    /// The usual walk in a rectangular area (brush 1, no mirrors): `lifetime` steps from `p`,
    /// which is in the area, carving each cell reached; returns where the walker stops. It
    /// draws and moves as [`walk`]'s general loop does, which areas of any shape take. Here the
    /// position, its index and the bounds are locals and a step moves without a branch: in the
    /// general loop a step moves a point through a reference and reads the bounds through the
    /// area, and that chain of loads and stores was most of a step's cost.
    fn walk_in_rectangle(
        &mut self,
        p: Point,
        lifetime: u32,
        directions: &mut Directions,
        rng: &mut Rng,
    ) -> Point {
        let b = self.bounds;
        let w = self.map.width() as usize;
        let mut tried = std::mem::take(&mut self.tried);
        let (mut x, mut y) = (p.x, p.y);
        let mut i = x as usize + y as usize * w;
        // The draws as locals, put back after: through the references their state went to
        // memory and back every step.
        let (mut draws, mut rng_here) = (*directions, rng.clone());
        // Each direction's move in index terms, and the bounds as unsigned spans (one
        // comparison an axis).
        let moves = [-1, 1, -(w as isize), w as isize];
        let (span_x, span_y) = (b.w.max(0) as u32, b.h.max(0) as u32);
        for _ in 0..lifetime {
            if let Some(seen) = tried.get_mut(i) {
                // Most steps land on a cell already tried: read, and only then written.
                if !*seen {
                    *seen = true;
                    self.carve_new(Point::new(x, y), i);
                }
            }
            let d = draws.next(&mut rng_here);
            let (dx, dy) = STEPS[d];
            let (qx, qy) = (x + dx, y + dy);
            let inside =
                ((qx.wrapping_sub(b.x) as u32) < span_x) & ((qy.wrapping_sub(b.y) as u32) < span_y);
            if inside {
                x = qx;
                y = qy;
                i = i.wrapping_add_signed(moves[d]);
            }
        }
        self.tried = tried;
        (*directions, *rng) = (draws, rng_here);
        Point::new(x, y)
    }

    /// Carves the brush square at `p` and its mirrors.
    #[inline]
    pub(super) fn carve(&mut self, p: Point) {
        if self.symmetry == Symmetry::None {
            self.square(p);
            return;
        }
        let b = self.bounds;
        let mirror_x = b.x + b.x2() - p.x;
        let mirror_y = b.y + b.y2() - p.y;
        let (xs, ys) = match self.symmetry {
            Symmetry::None => ([p.x, p.x], [p.y, p.y]),
            Symmetry::Horizontal => ([p.x, mirror_x], [p.y, p.y]),
            Symmetry::Vertical => ([p.x, p.x], [p.y, mirror_y]),
            Symmetry::Both => ([p.x, mirror_x], [p.y, mirror_y]),
        };
        for (k, &x) in xs.iter().enumerate() {
            for (j, &y) in ys.iter().enumerate() {
                let repeat = (k == 1 && xs[1] == xs[0]) || (j == 1 && ys[1] == ys[0]);
                if !repeat {
                    self.square(Point::new(x, y));
                }
            }
        }
    }

    /// Carves the brush square centred on `p`, inside the area.
    #[inline]
    fn square(&mut self, p: Point) {
        if self.brush == 1 {
            self.cell(p.x, p.y);
            return;
        }
        let lo = (self.brush - 1) / 2;
        for y in p.y - lo..p.y - lo + self.brush {
            for x in p.x - lo..p.x - lo + self.brush {
                self.cell(x, y);
            }
        }
    }

    /// Carves cell `(x, y)` if it is in the area and not carved yet. Most steps of a walk
    /// land on a cell already carved: this check is inlined into the walk, the carving not.
    #[inline(always)]
    fn cell(&mut self, x: i32, y: i32) {
        if !self.scope.contains(x, y) {
            return;
        }
        let i = x as usize + y as usize * self.map.width() as usize;
        if std::mem::replace(&mut self.tried[i], true) {
            return;
        }
        self.carve_new(Point::new(x, y), i);
    }

    /// Writes the floor on `p`, of index `i`, in the area, the first time the walk reaches it.
    #[inline(never)]
    fn carve_new(&mut self, p: Point, i: usize) {
        let was = passable(self.map.flag_cells()[i]);
        // The cell is in the area, so on the map.
        let _ = self.map.write(p, self.floor);
        if !was && passable(self.map.flag_cells()[i]) {
            self.open.push(i as u32);
        }
    }
}
