//! Plain text and ANSI-coloured text.

use super::View;
use crate::map::Rgb;

/// One line per row, each ending in a newline.
pub fn ascii(view: &View) -> String {
    let mut out = String::with_capacity((view.width + 1) * view.height);
    for row in view.glyphs.chunks(view.width) {
        out.extend(row.iter());
        out.push('\n');
    }
    out
}

/// Like [`ascii`], with a 24-bit foreground colour escape wherever the colour changes and a
/// reset at the end of every row.
pub fn ansi(view: &View) -> String {
    let mut out = String::with_capacity((view.width * 4 + 8) * view.height);
    for (glyphs, colors) in view
        .glyphs
        .chunks(view.width)
        .zip(view.colors.chunks(view.width))
    {
        let mut current: Option<Rgb> = None;
        for (&g, &c) in glyphs.iter().zip(colors) {
            if current != Some(c) {
                out.push_str(&format!("\x1b[38;2;{};{};{}m", c.0, c.1, c.2));
                current = Some(c);
            }
            out.push(g);
        }
        out.push_str("\x1b[0m\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> View {
        View {
            width: 2,
            height: 2,
            glyphs: vec!['#', '.', '.', '#'],
            colors: vec![Rgb(1, 2, 3), Rgb(4, 5, 6), Rgb(4, 5, 6), Rgb(1, 2, 3)],
        }
    }

    #[test]
    fn ascii_is_rows_of_glyphs() {
        assert_eq!(ascii(&view()), "#.\n.#\n");
    }

    #[test]
    fn ansi_escapes_only_on_colour_change() {
        let a = ansi(&view());
        assert_eq!(
            a,
            "\x1b[38;2;1;2;3m#\x1b[38;2;4;5;6m.\x1b[0m\n\x1b[38;2;4;5;6m.\x1b[38;2;1;2;3m#\x1b[0m\n"
        );
    }
}
