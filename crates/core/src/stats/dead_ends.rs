//! Dead ends, counted 64 cells at a time.
//!
//! **Definition.** Walk around an open cell's eight neighbours in order (N, NE, E, SE, S, SW, W,
//! NW); cells off the map count as solid. The cell is a *dead end* when its open neighbours form
//! exactly one unbroken arc of one or two cells: a single open neighbour, or two that touch each
//! other (an orthogonal one and the diagonal beside it). From a dead end the only way on is back
//! where you came from. So the last cell of a one-wide corridor is a dead end whether the corridor
//! runs straight, diagonally or turns at its tip, while room corners (an arc of three), corridor
//! cells (two separate arcs) and isolated cells (no neighbour) are not.

/// The eight neighbours of 64 cells: bit `x` of each word is cell `x`'s neighbour that way.
/// The cells are counted 64 at a time by the one pass over the words (the `sweep` module).
pub struct Ring {
    /// The neighbours to the north.
    pub n: u64,
    /// The neighbours to the north-east.
    pub ne: u64,
    /// The neighbours to the east.
    pub e: u64,
    /// The neighbours to the south-east.
    pub se: u64,
    /// The neighbours to the south.
    pub s: u64,
    /// The neighbours to the south-west.
    pub sw: u64,
    /// The neighbours to the west.
    pub w: u64,
    /// The neighbours to the north-west.
    pub nw: u64,
}

impl Ring {
    /// For each bit: whether the open neighbours form exactly one arc of one or two cells.
    ///
    /// Every such arc lies in one of the four *corners* of the ring (N, NE, E; E, SE, S; S, SW,
    /// W; W, NW, N), and a set of open neighbours inside a corner is such an arc unless it holds
    /// both of the corner's orthogonal neighbours (N and E apart, or the whole corner). So a
    /// cell qualifies when it has an open neighbour, and for some corner none outside it (the
    /// row or column of three on each far side are all solid) and not both its orthogonals.
    #[inline(always)]
    pub fn single_short_arc(&self) -> u64 {
        let north_row = self.nw | self.n | self.ne;
        let south_row = self.sw | self.s | self.se;
        let west_column = self.nw | self.w | self.sw;
        let east_column = self.ne | self.e | self.se;
        let any = north_row | south_row | self.w | self.e;
        // Nonzero where neither northern corner holds the arc: the NE corner fails when the
        // south row or west column has an open cell or N and E are both open, the NW corner
        // likewise; the south row is common to both.
        let not_north =
            south_row | ((west_column | (self.n & self.e)) & (east_column | (self.n & self.w)));
        let not_south =
            north_row | ((west_column | (self.s & self.e)) & (east_column | (self.s & self.w)));
        any & !(not_north & not_south)
    }
}
