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
/// The cells are counted 64 at a time by the one pass over the words ([`super::sweep`]).
pub(crate) struct Ring {
    pub(crate) n: u64,
    pub(crate) ne: u64,
    pub(crate) e: u64,
    pub(crate) se: u64,
    pub(crate) s: u64,
    pub(crate) sw: u64,
    pub(crate) w: u64,
    pub(crate) nw: u64,
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
    pub(crate) fn single_short_arc(&self) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference definition, one cell at a time.
    fn is_dead_end(ring: [bool; 8]) -> bool {
        let starts: Vec<usize> = (0..8).filter(|&i| ring[i] && !ring[(i + 7) % 8]).collect();
        let open = ring.iter().filter(|&&b| b).count();
        starts.len() == 1 && open <= 2
    }

    #[test]
    fn bit_parallel_arcs_match_the_definition_for_every_ring() {
        for pattern in 0u32..256 {
            // Ring order N, NE, E, SE, S, SW, W, NW.
            let bit = |i: u32| u64::from(pattern >> i & 1);
            let ring = Ring {
                n: bit(0),
                ne: bit(1),
                e: bit(2),
                se: bit(3),
                s: bit(4),
                sw: bit(5),
                w: bit(6),
                nw: bit(7),
            };
            let expected = is_dead_end(std::array::from_fn(|i| pattern >> i & 1 == 1));
            assert_eq!(ring.single_short_arc() == 1, expected, "ring {pattern:08b}");
        }
    }
}
