//! Diffusion-limited aggregation: particles wander until they touch the open cells, and stick
//! there, so the open cells grow like frost or coral from a seed. The variants are those of
//! bracket-lib's tutorial (and the Rust roguelike tutorial's DLA chapter), as [`Dla::mode`]:
//!
//! - [`DlaMode::WalkInwards`]: a particle starts on a random cell of the area and staggers one
//!   orthogonal step at a time; when its next step would enter an open cell, the cell it stands
//!   on is carved.
//! - [`DlaMode::WalkOutwards`]: a particle starts at the seed and staggers over the open cells;
//!   the first closed cell it steps onto is carved.
//! - [`DlaMode::CentralAttractor`]: a particle starts on a random cell of the area and walks a
//!   straight line towards the seed (a diagonal step taken as two orthogonal ones); the cell
//!   before the first open one is carved.
//!
//! The seed is a plus of five cells around the start (the area's centre by default). Carving
//! uses the drunkard's brush square and mirrors ([`Symmetry`]), through priority writes. Every
//! carved cell touches an open cell orthogonally, so without mirrors the open cells stay one
//! 4-connected area (tested); mirrors keep it one area as long as every write succeeds and the
//! mirrored cells lie in the area (a rectangle, or the whole map).

use super::area::Area;
use super::drunkard::{Directions, Symmetry, Walker, STEPS};
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{bresenham_cells, passable, Brush, Map, Point, Rect};
use crate::rng::Rng;

/// How particles move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DlaMode {
    /// From a random cell, staggering until they touch the open cells.
    WalkInwards,
    /// From the seed, staggering over the open cells until they step off them.
    WalkOutwards,
    /// From a random cell, straight towards the seed.
    CentralAttractor,
}

impl DlaMode {
    /// Every mode's name, as recipes spell it.
    pub const NAMES: [&'static str; 3] = ["walk_inwards", "walk_outwards", "central_attractor"];

    /// The mode named `name` (one of [`DlaMode::NAMES`]).
    pub fn from_name(name: &str) -> Option<DlaMode> {
        Some(match name {
            "walk_inwards" => DlaMode::WalkInwards,
            "walk_outwards" => DlaMode::WalkOutwards,
            "central_attractor" => DlaMode::CentralAttractor,
            _ => return None,
        })
    }
}

/// How an aggregation grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dla {
    /// How particles move.
    pub mode: DlaMode,
    /// Particles keep coming until this percentage of the area is open, `1..=100`.
    pub floor_percent: u32,
    /// Side of the square each particle carves, `1..=9` (centred on the cell; an even side
    /// reaches one cell further right and down).
    pub brush: u32,
    /// Mirrors of the carving.
    pub symmetry: Symmetry,
    /// The seed's centre; `None`: the centre of the area's bounding rectangle.
    pub start: Option<Point>,
}

impl Default for Dla {
    /// The tutorial's "walk inwards": a quarter of the area open, a one-cell brush, no mirror.
    fn default() -> Self {
        Dla {
            mode: DlaMode::WalkInwards,
            floor_percent: 25,
            brush: 1,
            symmetry: Symmetry::None,
            start: None,
        }
    }
}

/// What an aggregation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grown {
    /// Particles that stuck.
    pub particles: u32,
    /// Open cells in the area at the end.
    pub open: usize,
    /// Open cells wanted.
    pub wanted: usize,
}

/// The most steps all particles together may take, per cell of the area: a random walk over a
/// large, mostly closed area can take long to touch the aggregate, and a share that writes lose
/// to higher priorities can never be reached.
pub const STEPS_PER_CELL: u64 = 2000;

/// Grows an aggregate of `floor` (through the map's priority and edge rules) in `area` until
/// `floor_percent` of it is open, or until the particles have taken [`STEPS_PER_CELL`] steps
/// per cell of the area ([`Grown`] tells how far it got). Steps that would leave the area are
/// not taken. Open cells already in the area count as part of the aggregate.
pub fn grow(
    map: &mut Map,
    area: Area<'_>,
    options: &Dla,
    rng: &mut Rng,
    floor: &Brush,
    meter: &mut dyn Meter,
) -> Result<Grown, ToolError> {
    let o = options;
    let range = |key, value: u32, bounds| ToolError::check_range("dla", key, value as i64, bounds);
    range("floor_percent", o.floor_percent, (1, 100))?;
    range("brush", o.brush, (1, 9))?;
    let scope = area.on(map)?;
    let b = scope.bounds;
    let start = o.start.unwrap_or_else(|| b.center());
    if !scope.contains(start.x, start.y) {
        return Err(ToolError::NotInArea {
            what: "the aggregation's start",
            x: start.x,
            y: start.y,
        });
    }
    let w = map.width() as usize;
    let cells: Vec<u32> = scope.indices().map(|i| i as u32).collect();
    let flags = map.flag_cells();
    let mut open: Vec<u32> = cells
        .iter()
        .copied()
        .filter(|&i| passable(flags[i as usize]))
        .collect();
    let wanted = (cells.len() * o.floor_percent as usize).div_ceil(100);
    let mut walker = Walker {
        tried: vec![false; map.len()],
        map,
        scope,
        floor,
        bounds: b,
        brush: o.brush as i32,
        symmetry: o.symmetry,
        open: &mut open,
    };
    // The seed: a plus around the start (its arms only where they are in the area).
    walker.carve(start);
    for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let p = Point::new(start.x + dx, start.y + dy);
        if scope.contains(p.x, p.y) {
            walker.carve(p);
        }
    }
    let is_open = |walker: &Walker, p: Point| {
        walker.scope.contains(p.x, p.y)
            && passable(walker.map.flag_cells()[p.x as usize + p.y as usize * w])
    };
    let random_cell = |rng: &mut Rng| {
        let i = cells[rng.below(cells.len() as u64) as usize] as usize;
        Point::new((i % w) as i32, (i / w) as i32)
    };
    let mut directions = Directions::default();
    let step = |rng: &mut Rng, directions: &mut Directions, p: Point| {
        let (dx, dy) = STEPS[directions.next(rng)];
        Point::new(p.x + dx, p.y + dy)
    };
    let most_steps = STEPS_PER_CELL * cells.len() as u64;
    let (mut steps, mut particles) = (0u64, 0u32);
    let mut work = Batched::new(meter);
    let rectangular = walker.scope.is_rectangular();
    while walker.open.len() < wanted && steps < most_steps {
        let stuck_at = match o.mode {
            DlaMode::WalkInwards if rectangular => {
                let p = random_cell(rng);
                if is_open(&walker, p) {
                    steps += 1;
                    continue;
                }
                let walk = Stagger::on(&walker, most_steps);
                walk.run::<true>(p, &mut directions, rng, &mut steps, &mut work)?
            }
            DlaMode::WalkOutwards if rectangular => {
                let walk = Stagger::on(&walker, most_steps);
                walk.run::<false>(start, &mut directions, rng, &mut steps, &mut work)?
            }
            DlaMode::WalkInwards => {
                let mut p = random_cell(rng);
                if is_open(&walker, p) {
                    steps += 1;
                    continue;
                }
                loop {
                    if steps >= most_steps {
                        break None;
                    }
                    steps += 1;
                    work.work(1)?;
                    let q = step(rng, &mut directions, p);
                    if !walker.scope.contains(q.x, q.y) {
                        continue;
                    }
                    if is_open(&walker, q) {
                        break Some(p);
                    }
                    p = q;
                }
            }
            DlaMode::WalkOutwards => {
                let mut p = start;
                loop {
                    if steps >= most_steps {
                        break None;
                    }
                    steps += 1;
                    work.work(1)?;
                    let q = step(rng, &mut directions, p);
                    if !walker.scope.contains(q.x, q.y) {
                        continue;
                    }
                    if !is_open(&walker, q) {
                        break Some(q);
                    }
                    p = q;
                }
            }
            DlaMode::CentralAttractor => {
                let from = random_cell(rng);
                let mut last: Option<Point> = None;
                let mut prev: Option<Point> = None;
                let mut stuck = None;
                // The line, a diagonal step made two orthogonal ones (across first), so the
                // particle sticks orthogonally.
                let line = bresenham_cells(from, start).flat_map(|p| {
                    let corner = prev_cell(&mut last, p);
                    corner.into_iter().chain(std::iter::once(p))
                });
                for p in line {
                    steps += 1;
                    work.work(1)?;
                    if is_open(&walker, p) {
                        stuck = prev;
                        break;
                    }
                    // A line across a mask may leave it: the particle is lost.
                    if !walker.scope.contains(p.x, p.y) {
                        break;
                    }
                    prev = Some(p);
                }
                stuck
            }
        };
        if let Some(p) = stuck_at {
            walker.carve(p);
            work.work((o.brush * o.brush) as u64)?;
            particles += 1;
        }
    }
    work.finish()?;
    Ok(Grown {
        particles,
        open: open.len(),
        wanted,
    })
}

/// A particle's walk in a rectangular area, the usual case: the position, its index and the
/// bounds are locals, and the flags are read straight from the map (no carving happens while a
/// particle walks). It steps as the general loop does, for areas of any shape.
struct Stagger<'m> {
    /// The map's flags.
    flags: &'m [u8],
    /// The map's width.
    width: usize,
    /// The area.
    bounds: Rect,
    /// The cap on all particles' steps together.
    most_steps: u64,
}

impl<'m> Stagger<'m> {
    /// The walk in `walker`'s area (a rectangle), with `most_steps` the cap.
    fn on(walker: &'m Walker<'_, '_>, most_steps: u64) -> Stagger<'m> {
        Stagger {
            flags: walker.map.flag_cells(),
            width: walker.map.width() as usize,
            bounds: walker.bounds,
            most_steps,
        }
    }

    /// Walks a particle from `p` (in the area) until a step would cross between closed and
    /// open cells: with `INWARDS`, from a closed cell onto an open one (the cell it stands on
    /// is returned), else from an open cell onto a closed one (that cell is returned). `None`
    /// when `steps` reaches the cap first. Steps that would leave the area are not taken.
    #[inline(always)]
    fn run<const INWARDS: bool>(
        &self,
        p: Point,
        directions: &mut Directions,
        rng: &mut Rng,
        steps: &mut u64,
        work: &mut Batched<'_>,
    ) -> Result<Option<Point>, ToolError> {
        let b = self.bounds;
        let w = self.width as isize;
        let (mut x, mut y) = (p.x, p.y);
        let mut i = x as usize + y as usize * self.width;
        loop {
            if *steps >= self.most_steps {
                return Ok(None);
            }
            *steps += 1;
            work.work(1)?;
            let (dx, dy) = STEPS[directions.next(rng)];
            let (qx, qy) = (x + dx, y + dy);
            if (qx < b.x) | (qx > b.x2()) | (qy < b.y) | (qy > b.y2()) {
                continue;
            }
            let qi = i.wrapping_add_signed(dx as isize + dy as isize * w);
            if passable(self.flags[qi]) == INWARDS {
                let stuck = if INWARDS { (x, y) } else { (qx, qy) };
                return Ok(Some(Point::new(stuck.0, stuck.1)));
            }
            (x, y, i) = (qx, qy, qi);
        }
    }
}

/// The corner cell between `*last` and `p` when they touch diagonally (the cell across from
/// `*last` in `p`'s column); remembers `p` as the last cell.
fn prev_cell(last: &mut Option<Point>, p: Point) -> Option<Point> {
    let corner = last
        .filter(|l| l.x != p.x && l.y != p.y)
        .map(|l| Point::new(p.x, l.y));
    *last = Some(p);
    corner
}
