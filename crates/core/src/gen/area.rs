//! Where a toolbox primitive works: the whole map, a rectangle (a room is its rectangle), or a
//! [`Mask`] of cells. Every primitive of the toolbox (fields, paths, cellular automata, drunkard's
//! walks, BSP, mazes) takes an [`Area`] and leaves the cells outside it alone.

use crate::map::{Map, MapError, Point, Rect};
use thiserror::Error;

/// A set of cells the size of a map: one flag per cell, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    width: i32,
    height: i32,
    cells: Vec<bool>,
}

/// Two grids that should be the same size are not.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("a {got_w}×{got_h} grid was given where the {want_w}×{want_h} map's size is needed")]
pub struct SizeMismatch {
    /// Width of the grid given.
    pub got_w: i32,
    /// Height of the grid given.
    pub got_h: i32,
    /// Width needed.
    pub want_w: i32,
    /// Height needed.
    pub want_h: i32,
}

/// Checks that a `got` grid matches a `want` size.
pub(crate) fn same_size(got: (i32, i32), want: (i32, i32)) -> Result<(), SizeMismatch> {
    if got == want {
        Ok(())
    } else {
        Err(SizeMismatch {
            got_w: got.0,
            got_h: got.1,
            want_w: want.0,
            want_h: want.1,
        })
    }
}

impl Mask {
    /// Bytes a mask over a `width × height` map takes (to charge a memory budget before making
    /// one).
    pub fn bytes_for(width: i32, height: i32) -> usize {
        width.max(0) as usize * height.max(0) as usize
    }

    /// A mask of `width × height` cells, all set to `on`.
    pub fn new(width: i32, height: i32, on: bool) -> Mask {
        Mask {
            width,
            height,
            cells: vec![on; width.max(0) as usize * height.max(0) as usize],
        }
    }

    /// The cells of `map` a walker may stand on ([`crate::map::passable`]).
    pub fn passable(map: &Map) -> Mask {
        Mask {
            width: map.width(),
            height: map.height(),
            cells: map
                .flag_cells()
                .iter()
                .map(|&f| crate::map::passable(f))
                .collect(),
        }
    }

    /// The cells of `map` whose terrain is solid.
    pub fn solid(map: &Map) -> Mask {
        Mask {
            width: map.width(),
            height: map.height(),
            cells: map
                .flag_cells()
                .iter()
                .map(|&f| f & crate::map::FLAG_SOLID != 0)
                .collect(),
        }
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Whether `(x, y)` is set; cells off the grid are not.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && x < self.width
            && y < self.height
            && self.cells[x as usize + y as usize * self.width as usize]
    }

    /// Sets or clears `p`; a cell off the grid is an error.
    pub fn set(&mut self, p: Point, on: bool) -> Result<(), MapError> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return Err(MapError::OutOfBounds {
                x: p.x as i64,
                y: p.y as i64,
                width: self.width,
                height: self.height,
            });
        }
        self.cells[p.x as usize + p.y as usize * self.width as usize] = on;
        Ok(())
    }

    /// Every cell's flag, row-major.
    pub fn cells(&self) -> &[bool] {
        &self.cells
    }

    /// Every cell's flag, row-major, to change.
    pub fn cells_mut(&mut self) -> &mut [bool] {
        &mut self.cells
    }

    /// Number of cells set.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }

    /// The smallest rectangle holding every cell set, or `None` for an empty mask.
    pub fn bounds(&self) -> Option<Rect> {
        let w = self.width as usize;
        let first = self.cells.iter().position(|&c| c)?;
        let last = self.cells.iter().rposition(|&c| c)?;
        let (mut x0, mut x1) = (usize::MAX, 0);
        for row in self.cells[first - first % w..=last].chunks(w) {
            if let Some(a) = row.iter().position(|&c| c) {
                x0 = x0.min(a);
                x1 = x1.max(row.iter().rposition(|&c| c).unwrap_or(a));
            }
        }
        let (y0, y1) = (first / w, last / w);
        Some(Rect::new(
            x0 as i32,
            y0 as i32,
            (x1 - x0 + 1) as i32,
            (y1 - y0 + 1) as i32,
        ))
    }
}

/// Where a primitive works.
#[derive(Clone, Copy, Debug)]
pub enum Area<'a> {
    /// Every cell of the map.
    Map,
    /// The cells of a rectangle (a room's rectangle, for a room). It must lie on the map.
    Rect(Rect),
    /// The cells a mask sets. The mask must be the map's size.
    Mask(&'a Mask),
}

/// An [`Area`] checked against a map: its bounding rectangle on the map, and the cells inside.
#[derive(Clone, Copy, Debug)]
pub struct Scope<'a> {
    /// The smallest rectangle holding the area (on the map; for an empty mask, 0×0 at the
    /// origin).
    pub bounds: Rect,
    mask: Option<&'a Mask>,
    width: i32,
}

/// Why an area cannot be used on a map.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum AreaError {
    /// The rectangle leaves the map.
    #[error(transparent)]
    Map(#[from] MapError),
    /// The mask is not the map's size.
    #[error(transparent)]
    Size(#[from] SizeMismatch),
}

impl<'a> Area<'a> {
    /// Checks the area against a `width × height` map.
    pub fn scope(&self, width: i32, height: i32) -> Result<Scope<'a>, AreaError> {
        let whole = Rect::new(0, 0, width, height);
        Ok(match *self {
            Area::Map => Scope {
                bounds: whole,
                mask: None,
                width,
            },
            Area::Rect(r) => {
                if r.is_empty() {
                    return Err(MapError::EmptyRect {
                        x: r.x,
                        y: r.y,
                        w: r.w,
                        h: r.h,
                    }
                    .into());
                }
                for (x, y) in [(r.x, r.y), (r.x2(), r.y2())] {
                    if !whole.contains(Point::new(x, y)) {
                        return Err(MapError::OutOfBounds {
                            x: x as i64,
                            y: y as i64,
                            width,
                            height,
                        }
                        .into());
                    }
                }
                Scope {
                    bounds: r,
                    mask: None,
                    width,
                }
            }
            Area::Mask(m) => {
                same_size((m.width, m.height), (width, height))?;
                Scope {
                    bounds: m.bounds().unwrap_or(Rect::new(0, 0, 0, 0)),
                    mask: Some(m),
                    width,
                }
            }
        })
    }

    /// [`Area::scope`] against `map`.
    pub fn on(&self, map: &Map) -> Result<Scope<'a>, AreaError> {
        self.scope(map.width(), map.height())
    }
}

impl Scope<'_> {
    /// Whether `(x, y)` is in the area.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        self.bounds.contains(Point::new(x, y))
            && self
                .mask
                .is_none_or(|m| m.cells[x as usize + y as usize * self.width as usize])
    }

    /// Whether the cell of index `i` (on the map this scope was made for) is in the area.
    #[inline]
    pub fn contains_index(&self, i: usize) -> bool {
        let w = self.width as usize;
        self.contains((i % w) as i32, (i / w) as i32)
    }

    /// Whether the area is every cell of its bounding rectangle (the whole map or a rectangle,
    /// not a mask).
    pub fn is_rectangular(&self) -> bool {
        self.mask.is_none()
    }

    /// Every cell of the area, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Point> + '_ {
        self.bounds.cells().filter(|p| self.contains(p.x, p.y))
    }

    /// The map index of every cell of the area, row by row (the cells of [`Scope::cells`]):
    /// each row of the bounds a range, without a point or a bounds check per cell.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        let (w, b) = (self.width as usize, self.bounds);
        let columns = b.x as usize..(b.x + b.w.max(0)) as usize;
        (b.y..b.y + b.h.max(0)).flat_map(move |y| {
            let row = y as usize * w;
            let cells = row + columns.start..row + columns.end;
            cells.filter(move |&i| self.mask.is_none_or(|m| m.cells[i]))
        })
    }

    /// How many cells the area holds.
    pub fn cell_count(&self) -> usize {
        match self.mask {
            None => (self.bounds.w.max(0) * self.bounds.h.max(0)) as usize,
            Some(_) => self.indices().count(),
        }
    }

    /// The area as a mask over a map of `height` rows.
    pub fn to_mask(&self, height: i32) -> Mask {
        let mut m = Mask::new(self.width, height, false);
        for p in self.cells() {
            m.cells[p.x as usize + p.y as usize * self.width as usize] = true;
        }
        m
    }
}
