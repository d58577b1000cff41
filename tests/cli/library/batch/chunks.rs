//! `warren::batch::chunks` (src/batch/chunks.rs): the seeds of a batch claimed in chunks.

use proptest::prelude::*;
use std::ops::Range;
use warren::batch::chunks::Chunks;

fn all(chunks: &Chunks) -> Vec<Range<u64>> {
    std::iter::from_fn(|| chunks.claim()).collect()
}

#[test]
fn full_chunks_then_shrinking_ones() {
    let chunks = all(&Chunks::new(20_000, 2));
    let lengths: Vec<u64> = chunks.iter().map(|c| c.end - c.start).collect();
    assert!(lengths.iter().take(300).all(|&n| n == 64), "{lengths:?}");
    let tail = &lengths[lengths.len() - 8..];
    assert!(tail.windows(2).all(|w| w[0] >= w[1]), "{tail:?}");
    assert_eq!(lengths.last(), Some(&1));
    // 20,000 seeds end in about twenty shrinking chunks, not in one chunk of 64.
    assert!(
        lengths.iter().filter(|&&n| n < 64).count() < 40,
        "{lengths:?}"
    );
}

#[test]
fn small_batches_have_a_chunk_for_every_job() {
    assert_eq!(all(&Chunks::new(1, 4)), vec![0..1]);
    assert_eq!(all(&Chunks::new(0, 2)), Vec::<Range<u64>>::new());
    assert!(all(&Chunks::new(8, 2)).len() >= 4);
}

#[test]
fn workers_claiming_at_once_share_every_seed_once() {
    let chunks = Chunks::new(100_000, 2);
    let claimed: Vec<Vec<Range<u64>>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2).map(|_| s.spawn(|| all(&chunks))).collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("joins"))
            .collect()
    });
    let mut every: Vec<Range<u64>> = claimed.into_iter().flatten().collect();
    every.sort_by_key(|c| c.start);
    assert_eq!(every, all(&Chunks::new(100_000, 2)));
}

proptest! {
    #[test]
    fn chunks_tile_the_seeds_in_order(total in 0u64..50_000, jobs in 1usize..9) {
        let chunks = Chunks::new(total, jobs);
        let mut expected = 0;
        for chunk in all(&chunks) {
            prop_assert_eq!(chunk.start, expected);
            prop_assert!(chunk.end > chunk.start && chunk.end - chunk.start <= chunks.full());
            expected = chunk.end;
        }
        prop_assert_eq!(expected, total);
    }
}
