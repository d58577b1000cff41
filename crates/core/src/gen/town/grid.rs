//! Cell geometry of a town: cells sit at odd (row, column) positions of the display grid, walls
//! on the even rows and columns between them. Cells are numbered row by row, like TownMaze's
//! `statlist`.

use crate::map::Point;

/// The display character of a wall.
pub const WALL: u8 = b'#';
/// A door in a vertical wall (between east and west neighbours).
pub const VDOOR: u8 = b'|';
/// A door in a horizontal wall (between north and south neighbours).
pub const HDOOR: u8 = b'-';
/// An open passage or an empty cell centre.
pub const BLANK: u8 = b' ';

/// The four neighbour directions, in TownMaze's order (0 north … 3 west).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    /// Up.
    North,
    /// Right.
    East,
    /// Down.
    South,
    /// Left.
    West,
}

impl Heading {
    /// All four, in the order neighbours are visited.
    pub const ALL: [Heading; 4] = [Heading::North, Heading::East, Heading::South, Heading::West];

    /// The opposite direction.
    pub fn opposite(self) -> Heading {
        match self {
            Heading::North => Heading::South,
            Heading::East => Heading::West,
            Heading::South => Heading::North,
            Heading::West => Heading::East,
        }
    }

    /// The door character for the wall on this side of a cell.
    pub fn door(self) -> u8 {
        match self {
            Heading::North | Heading::South => HDOOR,
            Heading::East | Heading::West => VDOOR,
        }
    }

    /// The debug-view arrow: `^ > v <`.
    pub fn arrow(self) -> char {
        match self {
            Heading::North => '^',
            Heading::East => '>',
            Heading::South => 'v',
            Heading::West => '<',
        }
    }
}

/// Sizes of a town in cells and characters, and the arithmetic between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellGrid {
    /// Cell rows.
    pub rows: usize,
    /// Cell columns.
    pub cols: usize,
}

// an internal type, public only for the crate's tests (tests/core/): no is_empty needed
#[allow(clippy::len_without_is_empty)]
impl CellGrid {
    /// The cells of a `height`×`width` display grid (both odd).
    pub fn for_chars(height: usize, width: usize) -> Self {
        CellGrid {
            rows: (height - 1) / 2,
            cols: (width - 1) / 2,
        }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.rows * self.cols
    }

    /// Display grid width in characters.
    pub fn width(&self) -> usize {
        2 * self.cols + 1
    }

    /// Display grid height in characters.
    pub fn height(&self) -> usize {
        2 * self.rows + 1
    }

    /// The cell at (`row`, `col`), if it exists.
    pub fn cell(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.rows && col < self.cols).then_some(row * self.cols + col)
    }

    /// (row, col) of a cell.
    #[inline]
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// The neighbour of `cell` towards `h`, if it exists (`nhbrexists` + `nhbris`).
    #[inline]
    pub fn neighbour(&self, cell: usize, h: Heading) -> Option<usize> {
        let (row, col) = self.row_col(cell);
        match h {
            Heading::North => (row > 0).then(|| cell - self.cols),
            Heading::East => (col + 1 < self.cols).then(|| cell + 1),
            Heading::South => (row + 1 < self.rows).then(|| cell + self.cols),
            Heading::West => (col > 0).then(|| cell - 1),
        }
    }

    /// The existing neighbours of `cell`, north, east, south, west.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = (Heading, usize)> {
        let (row, col) = self.row_col(cell);
        let found = [
            (row > 0).then(|| cell - self.cols),
            (col + 1 < self.cols).then(|| cell + 1),
            (row + 1 < self.rows).then(|| cell + self.cols),
            (col > 0).then(|| cell - 1),
        ];
        Heading::ALL
            .into_iter()
            .zip(found)
            .filter_map(|(h, n)| n.map(|n| (h, n)))
    }

    /// Whether all four neighbours exist (`interiorcell`).
    #[inline]
    pub fn is_interior(&self, cell: usize) -> bool {
        let (row, col) = self.row_col(cell);
        row > 0 && col > 0 && row + 1 < self.rows && col + 1 < self.cols
    }

    /// The four corner cells.
    pub fn corners(&self) -> [usize; 4] {
        let last = self.len() - 1;
        [0, self.cols - 1, last + 1 - self.cols, last]
    }

    /// The display position of a cell's centre.
    pub fn centre(&self, cell: usize) -> Point {
        let (row, col) = self.row_col(cell);
        Point::new(2 * col as i32 + 1, 2 * row as i32 + 1)
    }

    /// The display index of a cell's centre.
    #[inline]
    pub fn centre_index(&self, cell: usize) -> usize {
        let (row, col) = self.row_col(cell);
        (2 * row + 1) * self.width() + 2 * col + 1
    }

    /// The display index of the wall on side `h` of a cell.
    #[inline]
    pub fn wall_index(&self, cell: usize, h: Heading) -> usize {
        let centre = self.centre_index(cell);
        match h {
            Heading::North => centre - self.width(),
            Heading::East => centre + 1,
            Heading::South => centre + self.width(),
            Heading::West => centre - 1,
        }
    }

    /// The display indices of the four walls of a cell, in [`Heading::ALL`] order:
    /// [`CellGrid::wall_index`] of each, the cell's centre worked out once.
    #[inline]
    pub fn walls(&self, cell: usize) -> [usize; 4] {
        let centre = self.centre_index(cell);
        let width = self.width();
        [centre - width, centre + 1, centre + width, centre - 1]
    }

    /// The display position of a display index.
    pub fn point(&self, index: usize) -> Point {
        Point::new((index % self.width()) as i32, (index / self.width()) as i32)
    }
}

/// Which of its four neighbours each cell of a [`CellGrid`] has, a bit a [`Heading`]: the
/// border tests of [`CellGrid::neighbour`] looked up, not worked out from the cell's row and
/// column (a division each), for the street growth that asks them a dozen times a cell.
#[derive(Clone, Debug)]
pub struct CellEdges {
    cols: usize,
    bits: Vec<u8>,
}

impl CellEdges {
    /// Every neighbour present.
    const ALL: u8 = 0b1111;

    /// The edges of every cell of `grid`.
    pub fn new(grid: CellGrid) -> Self {
        let has = |h: Heading, present: bool| u8::from(present) << h as u8;
        let mut bits = Vec::with_capacity(grid.len());
        for row in 0..grid.rows {
            bits.extend((0..grid.cols).map(|col| {
                has(Heading::North, row > 0)
                    | has(Heading::East, col + 1 < grid.cols)
                    | has(Heading::South, row + 1 < grid.rows)
                    | has(Heading::West, col > 0)
            }));
        }
        CellEdges {
            cols: grid.cols,
            bits,
        }
    }

    /// The neighbour of `cell` towards `h`, if it exists: [`CellGrid::neighbour`].
    #[inline]
    pub fn neighbour(&self, cell: usize, h: Heading) -> Option<usize> {
        (self.bits[cell] & (1 << h as u8) != 0).then(|| self.step(cell, h))
    }

    /// The existing neighbours of `cell`, north, east, south, west: [`CellGrid::neighbours`].
    #[inline]
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = (Heading, usize)> + '_ {
        let bits = self.bits[cell];
        Heading::ALL
            .into_iter()
            .filter(move |&h| bits & (1 << h as u8) != 0)
            .map(move |h| (h, self.step(cell, h)))
    }

    /// Whether all four neighbours exist: [`CellGrid::is_interior`].
    #[inline]
    pub fn is_interior(&self, cell: usize) -> bool {
        self.bits[cell] == Self::ALL
    }

    /// The cell one step from `cell` towards `h`, which must exist.
    #[inline]
    fn step(&self, cell: usize, h: Heading) -> usize {
        match h {
            Heading::North => cell - self.cols,
            Heading::East => cell + 1,
            Heading::South => cell + self.cols,
            Heading::West => cell - 1,
        }
    }
}
