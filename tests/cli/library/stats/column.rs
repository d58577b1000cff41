//! `warren::stats::column` (src/stats/column.rs): the streaming aggregate of one column.

use warren::stats::column::{ColumnStats, Distribution, ExactSum, RELATIVE_ACCURACY};

fn column(values: impl IntoIterator<Item = f64>) -> ColumnStats {
    let mut c = ColumnStats::default();
    for v in values {
        c.add(v);
    }
    c
}

#[test]
fn nearest_rank_percentiles_and_mean() {
    let s = column((1..=20).rev().map(f64::from))
        .summary()
        .expect("values");
    assert_eq!((s.min, s.median, s.p95, s.max), (1.0, 10.0, 19.0, 20.0));
    assert_eq!(s.mean, 10.5);
    assert!(s.exact);
    let one = column([7.0]).summary().expect("a value");
    assert_eq!((one.count, one.median, one.p95), (1, 7.0, 7.0));
    assert_eq!(ColumnStats::default().summary(), None);
}

#[test]
fn histograms_bin_small_integer_ranges_per_value() {
    let h = column([1.0, 2.0, 2.0, 4.0]).histogram(16).expect("values");
    assert_eq!(h.counts, [1, 2, 0, 1]);
    assert_eq!(h.sparkline(), "▄█ ▄");
    let f = column([0.0, 0.25, 0.5, 1.0]).histogram(4).expect("values");
    assert_eq!(f.counts, [1, 1, 1, 1]);
    let flat = column([0.5, 0.5]).histogram(4).expect("values");
    assert_eq!(flat.counts, [2]);
    let cut = column([1.0, 2.0, 3.0, 100.0]).histogram_to(3, 3.0);
    assert_eq!((cut.counts, cut.above), (vec![1, 1, 1], 1));
}

/// A deterministic spread of values over five orders of magnitude, some negative.
fn spread(n: u64) -> Vec<f64> {
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x % 100_000) as f64 / 7.0 + 0.01;
            if i % 10 == 0 {
                -v
            } else {
                v
            }
        })
        .collect()
}

#[test]
fn the_sketch_keeps_quantiles_within_its_bound() {
    let values = spread(50_000);
    let c = column(values.iter().copied());
    let s = c.summary().expect("values");
    assert!(!s.exact, "more distinct values than kept exactly");
    let mut sorted = values.clone();
    sorted.sort_by(f64::total_cmp);
    let rank = |p: usize| sorted[(sorted.len() * p).div_ceil(100) - 1];
    for (got, p) in [(s.median, 50), (s.p95, 95), (s.p99, 99)] {
        let want = rank(p);
        assert!(
            (got - want).abs() <= RELATIVE_ACCURACY * want.abs() + 1e-12,
            "p{p}: {got} vs {want}"
        );
    }
    assert_eq!((s.min, s.max), (sorted[0], sorted[sorted.len() - 1]));
    let exact_mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    assert!((s.mean - exact_mean).abs() < 1e-9 * exact_mean.abs());
    let h = c.histogram(40).expect("values");
    assert_eq!(h.counts.iter().sum::<u64>(), 50_000);
}

#[test]
fn order_and_splitting_do_not_change_the_aggregate() {
    let values = spread(20_000);
    let whole = column(values.iter().copied());
    let mut reversed = column(values.iter().rev().copied());
    assert_eq!(whole, reversed);
    // Merged parts equal the whole, however the parts were cut, exact or sketched.
    for cut in [1, 3_000, 10_000, 19_999] {
        let mut a = column(values[..cut].iter().copied());
        let b = column(values[cut..].iter().copied());
        a.merge(&b);
        assert_eq!(a, whole, "cut at {cut}");
    }
    reversed.merge(&ColumnStats::default());
    assert_eq!(reversed, whole);
}

#[test]
fn memory_is_bounded_by_the_value_range_not_the_count() {
    let mut c = ColumnStats::default();
    for i in 0..2_000_000u64 {
        c.add(10.0 + (i % 100_003) as f64 * 1e-3);
    }
    match &c.values {
        Distribution::Sketched(s) => {
            // From 10 to 110: ln(11)/ln(γ) ≈ 1199 buckets.
            assert!(s.positive.len() < 1_300, "{} buckets", s.positive.len());
        }
        Distribution::Exact(_) => panic!("100003 distinct values are sketched"),
    }
}

#[test]
fn exact_sums_do_not_depend_on_order() {
    let values = [1e16, 1.0, -1e16, 0.1, 3.5e-310, -0.1];
    let mut a = ExactSum::default();
    let mut b = ExactSum::default();
    for v in values {
        a.add(v, 1);
    }
    for v in values.iter().rev() {
        b.add(*v, 1);
    }
    assert_eq!(a, b);
    assert_eq!(a.value(), 1.0 + 3.5e-310);
}
