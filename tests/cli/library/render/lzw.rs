//! `lzw.rs`: GIF's LZW codes, checked against weezl's decoder (an independent reader) on
//! every code size, lengths around each code-width change and the table's clear, and a frame's
//! long runs and repeated rows.

use warren::render::lzw::Compressor;
use weezl::{decode::Decoder, BitOrder};

/// `indices` compressed by [`Compressor`], fed in `pieces` pieces, and decoded by weezl.
fn round_trip(indices: &[u8], min_bits: u8, pieces: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut lzw = Compressor::new(min_bits, &mut out);
    let piece = indices.len().div_ceil(pieces.max(1)).max(1);
    for chunk in indices.chunks(piece) {
        lzw.push(chunk, &mut out);
    }
    lzw.finish(&mut out);
    Decoder::new(BitOrder::Lsb, min_bits)
        .decode(&out)
        .expect("weezl decodes the codes")
}

/// A deterministic stream of `n` indices below `2^bits` in runs of up to `run` (xorshift).
fn stream(n: usize, bits: u8, run: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let value = (next() % (1 << bits)) as u8;
        let len = 1 + (next() as usize % run.max(1));
        out.extend(std::iter::repeat_n(value, len.min(n - out.len())));
    }
    out
}

#[test]
fn every_code_size_and_length_decodes_to_the_indices() {
    for bits in 2..=8u8 {
        for (n, run) in [
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 2),
            (100, 1),
            (5_000, 3),
            (70_000, 1),
        ] {
            for pieces in [1, 7] {
                let indices = stream(n, bits, run, u64::from(bits) * 1_000 + n as u64);
                assert_eq!(
                    round_trip(&indices, bits, pieces),
                    indices,
                    "{n} indices of {bits} bits in runs of up to {run}, {pieces} pieces"
                );
            }
        }
    }
}

#[test]
fn every_length_around_the_code_widths_decodes() {
    // Incompressible indices take a code each: around every width change and the clear
    // at 4,096 codes, at each length.
    for bits in [2u8, 5, 8] {
        let indices = stream(9_000, bits, 1, 7);
        for n in (0..9_000).step_by(97).chain(4_000..4_200) {
            assert_eq!(
                round_trip(&indices[..n], bits, 1),
                &indices[..n],
                "{n} of {bits}"
            );
        }
    }
}

#[test]
fn long_runs_and_repeated_rows_decode() {
    // A frame's rows: each repeated four times, long runs of one index.
    let row = stream(16_384, 4, 600, 3);
    let rows: Vec<u8> = (0..40).flat_map(|_| row.iter().copied()).collect();
    assert_eq!(round_trip(&rows, 4, 40), rows);
    let flat = vec![1u8; 1 << 20];
    assert_eq!(round_trip(&flat, 2, 3), flat);
}
