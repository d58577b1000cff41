//! Dead ends, counted 64 cells at a time.
//!
//! **Definition.** Walk around an open cell's eight neighbours in order (N, NE, E, SE, S, SW, W,
//! NW); cells off the map count as solid. The cell is a *dead end* when its open neighbours form
//! exactly one unbroken arc of one or two cells: a single open neighbour, or two that touch each
//! other (an orthogonal one and the diagonal beside it). From a dead end the only way on is back
//! where you came from. So the last cell of a one-wide corridor is a dead end whether the corridor
//! runs straight, diagonally or turns at its tip, while room corners (an arc of three), corridor
//! cells (two separate arcs) and isolated cells (no neighbour) are not.

use super::open_bits::OpenBits;

/// Number of dead-end cells (see the module documentation).
#[inline(always)]
pub fn count(open: &OpenBits) -> usize {
    let wpr = open.words_per_row();
    let mut total = 0;
    for y in 0..open.height() as isize {
        let (up, mid, down) = (open.row(y - 1), open.row(y), open.row(y + 1));
        for k in 0..wpr {
            if mid[k] == 0 {
                continue;
            }
            let ring = [
                up[k],
                east(up, k),
                east(mid, k),
                east(down, k),
                down[k],
                west(down, k),
                west(mid, k),
                west(up, k),
            ];
            let dead = mid[k] & single_short_arc(&ring);
            // Dead ends are rare: most words need no popcount.
            if dead != 0 {
                total += dead.count_ones() as usize;
            }
        }
    }
    total
}

/// Bit `x` set when cell `x + 1` of `row` is open (the east neighbour of each cell).
#[inline]
fn east(row: &[u64], k: usize) -> u64 {
    let next = row.get(k + 1).copied().unwrap_or(0);
    (row[k] >> 1) | (next << 63)
}

/// Bit `x` set when cell `x - 1` of `row` is open (the west neighbour of each cell).
#[inline]
fn west(row: &[u64], k: usize) -> u64 {
    let prev = if k > 0 { row[k - 1] } else { 0 };
    (row[k] << 1) | (prev >> 63)
}

/// For each bit: whether the eight ring bits hold exactly one run of set bits, of length 1 or 2
/// (cyclically). That is one set bit, or two that are neighbours in the ring: counters for "at
/// least one, two, three set" and a test for set neighbours decide it without finding the runs.
#[inline]
fn single_short_arc(ring: &[u64; 8]) -> u64 {
    let (mut once, mut twice, mut thrice, mut adjacent) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..8 {
        thrice |= twice & ring[i];
        twice |= once & ring[i];
        once |= ring[i];
        adjacent |= ring[i] & ring[(i + 1) % 8];
    }
    once & !thrice & (!twice | adjacent)
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
            let ring: [u64; 8] = std::array::from_fn(|i| (pattern >> i & 1) as u64);
            let expected = is_dead_end(std::array::from_fn(|i| pattern >> i & 1 == 1));
            assert_eq!(single_short_arc(&ring) == 1, expected, "ring {pattern:08b}");
        }
    }
}
