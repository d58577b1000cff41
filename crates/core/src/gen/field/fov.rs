//! Field of view: which cells can be seen from a cell, within a radius, by Albert Ford's
//! symmetric shadowcasting ("Symmetric Shadowcasting", 2021).
//!
//! **The rule.** Cells are opaque when their terrain is solid, when they are outside the area,
//! or off the map. The origin is always seen. Around it, four quadrants are scanned row by row;
//! each row's lit sector is bounded by two slopes through the edges of the opaque cells nearer
//! the origin. A cell is seen when it lies within the radius (`dx² + dy² ≤ radius²`) and
//! - it is opaque and the scan reaches it (any part of it is lit: walls around a room all show),
//!   or
//! - it is transparent and its **centre** lies inside the lit sector, edges included.
//!
//! The centre rule makes the result symmetric: a transparent cell B is seen from a transparent
//! cell A exactly when A is seen from B. (Walls are not symmetric: a wall may be seen from a floor
//! cell that the wall, being opaque, "sees" nothing from.) Slopes are exact fractions of whole
//! numbers, so the result is the same on every machine.

use crate::gen::area::{Area, Mask};
use crate::gen::meter::Meter;
use crate::gen::tool_error::ToolError;
use crate::map::{Map, Point, FLAG_SOLID};

/// A slope `num / den` (den > 0): the column offset per row of depth.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i64,
    den: i64,
}

/// A row of a quadrant still to scan: its depth and the slopes bounding its lit sector.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

/// The slope through the left edge of the cell at `col` in a row at `depth` (Ford's `slope`).
fn edge(depth: i64, col: i64) -> Slope {
    Slope {
        num: 2 * col - 1,
        den: 2 * depth,
    }
}

/// `depth × slope` rounded to the nearest whole number, halves rounded up.
fn round_ties_up(depth: i64, s: Slope) -> i64 {
    (2 * depth * s.num + s.den).div_euclid(2 * s.den)
}

/// `depth × slope` rounded to the nearest whole number, halves rounded down.
fn round_ties_down(depth: i64, s: Slope) -> i64 {
    -(-2 * depth * s.num + s.den).div_euclid(2 * s.den)
}

/// The map cell at `depth` rows and `col` columns from `origin` in quadrant `q` (north, east,
/// south, west).
#[inline]
fn transform(q: u8, origin: Point, depth: i64, col: i64) -> (i64, i64) {
    let (ox, oy) = (origin.x as i64, origin.y as i64);
    match q {
        0 => (ox + col, oy - depth),
        1 => (ox + depth, oy + col),
        2 => (ox + col, oy + depth),
        _ => (ox - depth, oy + col),
    }
}

/// Scans every cell seen from `origin` within `radius` (see the module's rule), calling `reveal`
/// for each (some cells more than once: the quadrants share their edges). `opaque` answers for
/// any cell, on the map or off it. Returns the number of cells scanned.
pub fn shadowcast(
    origin: Point,
    radius: i32,
    mut opaque: impl FnMut(i64, i64) -> bool,
    mut reveal: impl FnMut(i64, i64),
) -> u64 {
    reveal(origin.x as i64, origin.y as i64);
    let r = radius.max(0) as i64;
    let mut scanned = 0u64;
    let mut stack: Vec<Row> = Vec::with_capacity(16);
    // A copy of the scan per quadrant: its transform is then a few additions, not a `match`
    // a cell.
    scanned += quadrant::<0>(origin, r, &mut opaque, &mut reveal, &mut stack);
    scanned += quadrant::<1>(origin, r, &mut opaque, &mut reveal, &mut stack);
    scanned += quadrant::<2>(origin, r, &mut opaque, &mut reveal, &mut stack);
    scanned += quadrant::<3>(origin, r, &mut opaque, &mut reveal, &mut stack);
    scanned
}

/// One quadrant `Q` of [`shadowcast`] (0 north, 1 east, 2 south, 3 west) out to `r`, with
/// `stack` an empty work list to use; returns the cells it looked at.
fn quadrant<const Q: u8>(
    origin: Point,
    r: i64,
    opaque: &mut impl FnMut(i64, i64) -> bool,
    reveal: &mut impl FnMut(i64, i64),
    stack: &mut Vec<Row>,
) -> u64 {
    let r2 = r * r;
    let mut scanned = 0u64;
    stack.push(Row {
        depth: 1,
        start: Slope { num: -1, den: 1 },
        end: Slope { num: 1, den: 1 },
    });
    while let Some(mut row) = stack.pop() {
        let depth = row.depth;
        if depth > r {
            continue;
        }
        let lo = round_ties_up(depth, row.start);
        let hi = round_ties_down(depth, row.end);
        let mut prev_wall: Option<bool> = None;
        for col in lo..=hi {
            scanned += 1;
            let (x, y) = transform(Q, origin, depth, col);
            let wall = opaque(x, y);
            let centred = col * row.start.den >= depth * row.start.num
                && col * row.end.den <= depth * row.end.num;
            if (wall || centred) && depth * depth + col * col <= r2 {
                reveal(x, y);
            }
            match prev_wall {
                Some(true) if !wall => row.start = edge(depth, col),
                Some(false) if wall => stack.push(Row {
                    depth: depth + 1,
                    start: row.start,
                    end: edge(depth, col),
                }),
                _ => {}
            }
            prev_wall = Some(wall);
        }
        if prev_wall == Some(false) {
            stack.push(Row {
                depth: depth + 1,
                ..row
            });
        }
    }
    scanned
}

/// The cells of `map` seen from `origin` within `radius` (see the module's rule); cells outside
/// `area` are opaque and never seen. The origin must be on the map (it is seen even when solid
/// or outside the area).
pub fn fov(
    map: &Map,
    area: Area<'_>,
    origin: Point,
    radius: i32,
    meter: &mut dyn Meter,
) -> Result<Mask, ToolError> {
    let mut seen = Mask::new(map.width(), map.height(), false);
    fov_into(&mut seen, map, area, origin, radius, meter)?;
    Ok(seen)
}

/// [`fov`] into a mask of the map's size: the cells seen are set, the others left as they were
/// (so a mask can gather what several viewers see).
pub fn fov_into(
    seen: &mut Mask,
    map: &Map,
    area: Area<'_>,
    origin: Point,
    radius: i32,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    crate::gen::area::same_size((seen.width(), seen.height()), (map.width(), map.height()))?;
    let scope = area.on(map)?;
    let i0 = map.index(origin)?;
    let w = map.width() as i64;
    let flags = map.flag_cells();
    let cells = seen.cells_mut();
    cells[i0] = true;
    // A rectangle (the whole map, say) is a bounds test: the same answers as the area's own
    // test, which a mask needs, without asking the area about every cell.
    let b = scope.bounds;
    let (x0, y0, x1, y1) = (
        b.x as i64,
        b.y as i64,
        (b.x + b.w) as i64,
        (b.y + b.h) as i64,
    );
    let inside = |x: i64, y: i64| {
        x >= x0
            && y >= y0
            && x < x1
            && y < y1
            && (scope.is_rectangular() || scope.contains(x as i32, y as i32))
    };
    let scanned = shadowcast(
        origin,
        radius,
        |x, y| !inside(x, y) || flags[(x + y * w) as usize] & FLAG_SOLID != 0,
        |x, y| {
            if inside(x, y) {
                cells[(x + y * w) as usize] = true;
            }
        },
    );
    meter.work(scanned)?;
    Ok(())
}
