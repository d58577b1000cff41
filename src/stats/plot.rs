//! Histograms of chosen metrics drawn into a PNG: one panel per metric, two panels a row, each
//! with its name, the number of maps, the tallest bin's count and the value range.
//! Constant metrics, long names and outlying times each get a drawing that still reads right.

use super::aggregate::{Aggregate, Column};
use super::column::ColumnStats;
use super::font;
use super::summary::number;

/// Bins per plotted histogram (fewer for small integer ranges).
const BINS: usize = 40;
/// A panel's width in pixels.
pub const PANEL_W: usize = 420;
/// A panel's height in pixels.
pub const PANEL_H: usize = 230;
const COLUMNS: usize = 2;
/// Pixels per font pixel.
const TEXT_SCALE: usize = 2;
/// A panel's margin in pixels.
pub const MARGIN: usize = 16;

const BACKGROUND: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [40, 40, 40];
/// The colour of a histogram's bars.
pub const BAR: [u8; 3] = [70, 120, 190];
const AXIS: [u8; 3] = [160, 160, 160];
/// The bar of the values cut off above the 99th percentile.
pub const OUTLIER: [u8; 3] = [220, 120, 40];

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

/// The most characters of text that fit across a panel.
pub fn panel_chars() -> usize {
    (PANEL_W - 2 * MARGIN) / ((font::WIDTH + 1) * TEXT_SCALE)
}

/// `text` shortened in the middle with `..` to at most `max` characters.
pub fn elide(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(2);
    let head: String = text.chars().take(keep.div_ceil(2)).collect();
    let tail: String = text.chars().skip(n - keep / 2).collect();
    format!("{head}..{tail}")
}

/// Draws one column's histogram into the panel at `(x0, y0)`: its name on the first line, the
/// counts on the second, then the bars. A constant column is one labelled bar, not a full-width
/// box; a time column whose outliers would squeeze the rest into a few bars is drawn up to its
/// 99th percentile (95th under 100 maps), with the maps above it as a last bar of their own.
fn panel(canvas: &mut Canvas, x0: usize, y0: usize, name: &str, stats: &ColumnStats, time: bool) {
    let line = (font::HEIGHT + 3) * TEXT_SCALE;
    let chars = panel_chars();
    let left = x0 + MARGIN;
    canvas.text(left, y0 + MARGIN, &elide(name, chars), INK);
    let Some(s) = stats.summary() else {
        canvas.text(left, y0 + MARGIN + line, "no values", INK);
        return;
    };
    let plot_w = PANEL_W - 2 * MARGIN;
    let top = y0 + MARGIN + 2 * line;
    let bottom = y0 + PANEL_H - MARGIN - line;
    let plot_h = bottom - top;
    if s.min == s.max {
        let info = format!("n={}  every value {}", s.count, number(s.min));
        canvas.text(left, y0 + MARGIN + line, &elide(&info, chars), INK);
        let bar_w = plot_w / BINS;
        let x = left + (plot_w - bar_w) / 2;
        canvas.rect(x, top, bar_w, plot_h, BAR);
        canvas.rect(left, bottom, plot_w, 1, AXIS);
        let label = number(s.min);
        let lx = (x + bar_w / 2).saturating_sub(Canvas::text_width(&label) / 2);
        canvas.text(lx, bottom + 4, &label, INK);
        return;
    }
    // The 99th percentile leaves one map in a hundred out; small batches cut at the 95th.
    let q = if s.count >= 100 { s.p99 } else { s.p95 };
    let cut = time && s.max > q + (q - s.min) && q > s.min;
    let h = if cut {
        stats.histogram_to(BINS - 1, q)
    } else {
        stats.histogram_to(BINS, s.max)
    };
    let peak = h
        .counts
        .iter()
        .copied()
        .chain([h.above])
        .max()
        .unwrap_or(0)
        .max(1);
    let info = format!("n={}  peak {}", s.count, peak);
    canvas.text(left, y0 + MARGIN + line, &elide(&info, chars), INK);
    let slots = h.counts.len() + usize::from(cut);
    let bar_w = plot_w / slots;
    let bar = |canvas: &mut Canvas, i: usize, count: u64, color| {
        let bar_h = (count as usize * plot_h).div_ceil(peak as usize);
        canvas.rect(
            left + i * bar_w,
            bottom - bar_h,
            bar_w.saturating_sub(1).max(1),
            bar_h,
            color,
        );
    };
    for (i, &count) in h.counts.iter().enumerate() {
        bar(canvas, i, count, BAR);
    }
    let right = left + bar_w * slots;
    canvas.rect(left, bottom, right - left, 1, AXIS);
    canvas.text(left, bottom + 4, &number(h.lo), INK);
    let hi = if cut {
        bar(canvas, slots - 1, h.above, OUTLIER);
        format!("{}  {} above", number(q), h.above)
    } else {
        number(s.max)
    };
    canvas.text(
        right.saturating_sub(Canvas::text_width(&hi)),
        bottom + 4,
        &hi,
        INK,
    );
}

/// Histograms of the named columns (every metric when `names` is empty; times as
/// `time_us.NAME`) as a PNG. An unknown name is an error listing the known ones.
pub fn histograms(data: &Aggregate, names: &[String]) -> Result<Vec<u8>, String> {
    let columns: Vec<(Column, bool)> = if names.is_empty() {
        data.metrics().into_iter().map(|c| (c, false)).collect()
    } else {
        names
            .iter()
            .map(|n| {
                let column = data.column(n).ok_or_else(|| unknown_metric(n, data))?;
                Ok((column, n.starts_with("time_us.")))
            })
            .collect::<Result<_, String>>()?
    };
    let rows = columns.len().div_ceil(COLUMNS).max(1);
    let mut canvas = Canvas::new(PANEL_W * COLUMNS, PANEL_H * rows);
    for (i, (c, time)) in columns.iter().enumerate() {
        let name = if *time {
            format!("time_us.{}", c.name)
        } else {
            c.name.to_string()
        };
        panel(
            &mut canvas,
            (i % COLUMNS) * PANEL_W,
            (i / COLUMNS) * PANEL_H,
            &name,
            c.stats,
            *time,
        );
    }
    encode(&canvas)
}

/// The error for a metric name the data does not have.
pub fn unknown_metric(name: &str, data: &Aggregate) -> String {
    format!(
        "--metrics: no metric '{name}' to plot (known: {})",
        data.known_names().join(", ")
    )
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
