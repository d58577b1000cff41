//! `warren::stats::plot` (src/stats/plot.rs): histograms of chosen metrics in a PNG.

use warren::stats::plot::{elide, histograms, panel_chars, BAR, MARGIN, OUTLIER, PANEL_H, PANEL_W};
use warren::stats::{Aggregate, Header, Outcome, Record, RecordNames};

fn data() -> Aggregate {
    let mut a = Aggregate::new(Header {
        recipe: "r".into(),
        params: Default::default(),
        plan: None,
    });
    let records: Vec<Record> = (0..50u64)
        .map(|seed| Record {
            seed,
            outcome: Outcome::Measured {
                metrics: vec![(0, (seed % 7) as f64 / 10.0), (1, 1.0)],
                times: vec![(0, if seed == 3 { 5000.0 } else { 3.0 + seed as f64 })],
            },
        })
        .collect();
    a.absorb(&records, &RecordNames::default());
    a
}

fn decode(png: Vec<u8>) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    (info.width as usize, info.height as usize, buf)
}

/// Pixels of `color` in the panel at `(x0, y0)`.
fn count(image: &(usize, usize, Vec<u8>), x0: usize, y0: usize, color: [u8; 3]) -> usize {
    let (w, _, px) = image;
    (y0..y0 + PANEL_H)
        .flat_map(|y| (x0..x0 + PANEL_W).map(move |x| (x, y)))
        .filter(|&(x, y)| px[(x + y * w) * 3..][..3] == color)
        .count()
}

#[test]
fn plots_decode_with_one_panel_per_metric() {
    let names = ["floor_fraction".to_string(), "time_us.total".to_string()];
    let image = decode(histograms(&data(), &names).expect("known metrics"));
    assert_eq!((image.0, image.1), (840, 230));
    // The outlying time is a bar of its own, so the rest spread over many bars.
    assert!(count(&image, PANEL_W, 0, OUTLIER) > 0);
    let all = histograms(&data(), &[]).expect("all metrics");
    assert!(all.len() > 100);
}

#[test]
fn constant_metrics_are_one_bar_not_a_box() {
    let image = decode(histograms(&data(), &["components".to_string()]).expect("known"));
    let plot_area = (PANEL_W - 2 * MARGIN) * (PANEL_H / 2);
    let bar = count(&image, 0, 0, BAR);
    assert!(bar > 0 && bar < plot_area / 20, "{bar} bar pixels");
}

#[test]
fn long_names_are_elided_to_fit() {
    let long = "a_recipe_metric_with_a_name_much_longer_than_a_panel";
    let short = elide(long, panel_chars());
    assert_eq!(short.chars().count(), panel_chars());
    assert!(short.starts_with("a_recipe") && short.ends_with("panel") && short.contains(".."));
    assert_eq!(elide("short", 10), "short");
}

#[test]
fn unknown_metrics_are_named() {
    let e = histograms(&data(), &["nope".to_string()]).expect_err("unknown");
    assert!(
        e.contains("no metric 'nope'") && e.contains("floor_fraction"),
        "{e}"
    );
}
