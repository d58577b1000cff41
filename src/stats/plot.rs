//! Histograms of chosen metrics drawn into a PNG: one panel per metric, two panels a row, each
//! with its name, the number of maps, the tallest bin's count and the value range.

use super::dataset::{Column, Dataset};
use super::font;
use super::summary::{number, Histogram, Summary};

/// Bins per plotted histogram (fewer for small integer ranges).
const BINS: usize = 40;
const PANEL_W: usize = 420;
const PANEL_H: usize = 230;
const COLUMNS: usize = 2;
/// Pixels per font pixel.
const TEXT_SCALE: usize = 2;
const MARGIN: usize = 16;

const BACKGROUND: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [40, 40, 40];
const BAR: [u8; 3] = [70, 120, 190];
const AXIS: [u8; 3] = [160, 160, 160];

/// RGB pixels.
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: BACKGROUND.repeat(width * height),
        }
    }

    /// Fills `w × h` pixels at `(x, y)`, clipped to the canvas.
    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, color: [u8; 3]) {
        for py in y..(y + h).min(self.height) {
            for px in x..(x + w).min(self.width) {
                let i = (px + py * self.width) * 3;
                self.pixels[i..i + 3].copy_from_slice(&color);
            }
        }
    }

    /// Draws `text` with its top-left corner at `(x, y)`.
    fn text(&mut self, x: usize, y: usize, text: &str, color: [u8; 3]) {
        let s = TEXT_SCALE;
        for (i, c) in text.chars().enumerate() {
            let gx = x + i * (font::WIDTH + 1) * s;
            for (row, bits) in font::glyph(c).iter().enumerate() {
                for col in 0..font::WIDTH {
                    if bits >> (font::WIDTH - 1 - col) & 1 == 1 {
                        self.rect(gx + col * s, y + row * s, s, s, color);
                    }
                }
            }
        }
    }

    /// Width of `text` in pixels.
    fn text_width(text: &str) -> usize {
        text.chars().count() * (font::WIDTH + 1) * TEXT_SCALE
    }
}

/// Draws one metric's histogram into the panel at `(x0, y0)`.
fn panel(canvas: &mut Canvas, x0: usize, y0: usize, column: &Column) {
    let line = (font::HEIGHT + 3) * TEXT_SCALE;
    let (Some(s), Some(h)) = (
        Summary::of(&column.values),
        Histogram::of(&column.values, BINS),
    ) else {
        canvas.text(x0 + MARGIN, y0 + MARGIN, &column.name, INK);
        canvas.text(x0 + MARGIN, y0 + MARGIN + line, "no values", INK);
        return;
    };
    let peak = h.counts.iter().copied().max().unwrap_or(0).max(1);
    let title = format!("{}  n={}  peak {}", column.name, s.count, peak);
    canvas.text(x0 + MARGIN, y0 + MARGIN, &title, INK);
    let left = x0 + MARGIN;
    let plot_w = PANEL_W - 2 * MARGIN;
    let top = y0 + MARGIN + line;
    let bottom = y0 + PANEL_H - MARGIN - line;
    let plot_h = bottom - top;
    let bar_w = plot_w / h.counts.len();
    for (i, &count) in h.counts.iter().enumerate() {
        let bar_h = (count * plot_h).div_ceil(peak);
        let x = left + i * bar_w;
        canvas.rect(
            x,
            bottom - bar_h,
            bar_w.saturating_sub(1).max(1),
            bar_h,
            BAR,
        );
    }
    canvas.rect(left, bottom, bar_w * h.counts.len(), 1, AXIS);
    let lo = number(h.lo);
    let hi = number(s.max);
    canvas.text(left, bottom + 4, &lo, INK);
    let right = left + bar_w * h.counts.len();
    canvas.text(
        right.saturating_sub(Canvas::text_width(&hi)),
        bottom + 4,
        &hi,
        INK,
    );
}

/// Histograms of the named metrics (all metrics when `names` is empty) as a PNG. An unknown
/// name is an error listing the known ones.
pub fn histograms(data: &Dataset, names: &[String]) -> Result<Vec<u8>, String> {
    let columns: Vec<&Column> = if names.is_empty() {
        data.metrics.iter().collect()
    } else {
        names
            .iter()
            .map(|n| {
                data.metric(n)
                    .or_else(|| {
                        data.times
                            .iter()
                            .find(|c| format!("time_us.{}", c.name) == *n)
                    })
                    .ok_or_else(|| {
                        let known: Vec<&str> =
                            data.metrics.iter().map(|c| c.name.as_str()).collect();
                        format!(
                            "no metric '{n}' to plot (known: {}, or time_us.NAME)",
                            known.join(", ")
                        )
                    })
            })
            .collect::<Result<_, _>>()?
    };
    let rows = columns.len().div_ceil(COLUMNS).max(1);
    let mut canvas = Canvas::new(PANEL_W * COLUMNS, PANEL_H * rows);
    for (i, c) in columns.iter().enumerate() {
        panel(
            &mut canvas,
            (i % COLUMNS) * PANEL_W,
            (i / COLUMNS) * PANEL_H,
            c,
        );
    }
    encode(&canvas)
}

/// The canvas as an RGB PNG.
fn encode(canvas: &Canvas) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, canvas.width as u32, canvas.height as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&canvas.pixels)
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::dataset::{Collector, Header, Outcome, Record};

    fn data() -> Dataset {
        let mut c = Collector::new();
        for seed in 0..50u64 {
            c.push(Record {
                seed,
                outcome: Outcome::Measured {
                    metrics: vec![(0, (seed % 7) as f64 / 10.0), (1, 1.0)],
                    times: vec![(0, 3.0)],
                },
            });
        }
        let header = Header {
            recipe: "r".into(),
            params: Default::default(),
        };
        c.finish(header).expect("distinct seeds")
    }

    #[test]
    fn plots_decode_with_one_panel_per_metric() {
        let names = ["floor_fraction".to_string(), "time_us.total".to_string()];
        let png = histograms(&data(), &names).expect("known metrics");
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().expect("a PNG");
        let info = reader.info();
        assert_eq!((info.width, info.height), (840, 230));
        let all = histograms(&data(), &[]).expect("all metrics");
        assert!(all.len() > 100);
    }

    #[test]
    fn unknown_metrics_are_named() {
        let e = histograms(&data(), &["nope".to_string()]).expect_err("unknown");
        assert!(
            e.contains("no metric 'nope'") && e.contains("dead_ends"),
            "{e}"
        );
    }
}
