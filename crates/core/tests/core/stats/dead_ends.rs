use warren_core::stats::dead_ends::Ring;

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
