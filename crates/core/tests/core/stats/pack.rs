use warren_core::map::passable;
use warren_core::stats::pack::{Avx2, Packer, Portable, Sse2};

/// Flag bytes covering every combination of the four flags, in varied orders.
fn samples() -> Vec<[u8; 64]> {
    (0u64..64)
        .map(|seed| {
            std::array::from_fn(|i| {
                let mixed = (seed * 64 + i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                (mixed >> 59) as u8 & 0b1111
            })
        })
        .collect()
}

fn check(packer: impl Packer) {
    for cells in samples() {
        let open = packer.open64(&cells);
        for (i, &f) in cells.iter().enumerate() {
            assert_eq!(open >> i & 1 == 1, passable(f), "cell {i}: flags {f:#06b}");
        }
    }
}

#[test]
fn every_packer_agrees_with_passable() {
    check(Portable);
    #[cfg(target_arch = "x86_64")]
    {
        check(Sse2);
        if let Some(avx2) = Avx2::detect() {
            check(avx2);
        }
    }
}
