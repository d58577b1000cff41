//! A template's map: a rectangle of glyphs, read from the text a region file holds, and turned
//! or mirrored for a placement.

/// A rectangle of glyphs, row-major.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Glyphs {
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// The glyphs, row by row.
    pub cells: Vec<char>,
}

/// Why a text is no map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridProblem {
    /// No row holds a glyph.
    Empty,
    /// A row is not as long as the first one.
    Ragged {
        /// The row, 1-based.
        row: usize,
        /// Its length in glyphs.
        len: usize,
        /// The first row's length.
        width: usize,
        /// The character of the text where the row goes wrong (its first glyph too many, or
        /// the end of a row too short), 0-based.
        at: usize,
    },
}

impl std::fmt::Display for GridProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GridProblem::Empty => {
                write!(f, "is empty; write the map as rows of glyphs, one per line")
            }
            GridProblem::Ragged {
                row, len, width, ..
            } => write!(
                f,
                "row {row} is {len} glyphs long but row 1 is {width}; every row must be as long \
                 (pad with spaces, which leave the map as it is)"
            ),
        }
    }
}

impl Glyphs {
    /// Reads a map: one row per line; a newline at the very start and one at the very end
    /// are not rows (so `"""` on lines of their own frame the map). Also returns, for every
    /// cell, the index of its character in `text` (for messages that point at a cell).
    pub fn parse(text: &str) -> Result<(Glyphs, Vec<usize>), GridProblem> {
        let chars: Vec<char> = text.chars().collect();
        let mut start = usize::from(chars.first() == Some(&'\n'));
        let mut end = chars.len();
        if end > start && chars[end - 1] == '\n' {
            end -= 1;
            if end > start && chars[end - 1] == '\r' {
                end -= 1;
            }
        }
        let mut rows: Vec<(usize, usize)> = Vec::new();
        while start <= end {
            let stop = chars[start..end]
                .iter()
                .position(|&c| c == '\n')
                .map_or(end, |n| start + n);
            let len = if stop > start && chars[stop - 1] == '\r' && stop < end {
                stop - 1 - start
            } else {
                stop - start
            };
            rows.push((start, len));
            start = stop + 1;
        }
        let width = rows.first().map_or(0, |r| r.1);
        if width == 0 {
            return Err(GridProblem::Empty);
        }
        let mut cells = Vec::with_capacity(width * rows.len());
        let mut at = Vec::with_capacity(width * rows.len());
        for (i, &(s, len)) in rows.iter().enumerate() {
            if len != width {
                return Err(GridProblem::Ragged {
                    row: i + 1,
                    len,
                    width,
                    at: s + len.min(width),
                });
            }
            cells.extend_from_slice(&chars[s..s + len]);
            at.extend(s..s + len);
        }
        Ok((
            Glyphs {
                width: width as i32,
                height: rows.len() as i32,
                cells,
            },
            at,
        ))
    }

    /// The glyph at `(x, y)`.
    pub fn get(&self, x: i32, y: i32) -> char {
        self.cells[(x + y * self.width) as usize]
    }

    /// How many cells hold `glyph`.
    pub fn count(&self, glyph: char) -> usize {
        self.cells.iter().filter(|&&c| c == glyph).count()
    }

    /// Whether `(x, y)` lies on the outer ring.
    pub fn on_border(&self, x: i32, y: i32) -> bool {
        x == 0 || y == 0 || x == self.width - 1 || y == self.height - 1
    }

    /// The map mirrored left to right when `o.mirror`, then turned `o.turns` quarter turns
    /// clockwise.
    pub fn oriented(&self, o: Orientation) -> Glyphs {
        let mut g = self.clone();
        if o.mirror {
            for row in g.cells.chunks_mut(g.width as usize) {
                row.reverse();
            }
        }
        for _ in 0..o.turns % 4 {
            g = g.turned();
        }
        g
    }

    /// The map turned a quarter turn clockwise: the first row becomes the last column.
    fn turned(&self) -> Glyphs {
        let (w, h) = (self.height, self.width);
        let cells = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| self.get(y, self.height - 1 - x))
            .collect();
        Glyphs {
            width: w,
            height: h,
            cells,
        }
    }
}

/// How a template is laid down: mirrored left to right or not, then turned clockwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orientation {
    /// Quarter turns clockwise, 0..=3.
    pub turns: u8,
    /// Mirrored left to right before turning.
    pub mirror: bool,
}

impl Orientation {
    /// Every orientation a template allows: the identity; the three quarter turns with
    /// `rotate`; each of those mirrored with `mirror` (eight in all with both, the symmetries
    /// of a square).
    pub fn allowed(rotate: bool, mirror: bool) -> Vec<Orientation> {
        let turns = if rotate { 4 } else { 1 };
        let mirrors: &[bool] = if mirror { &[false, true] } else { &[false] };
        mirrors
            .iter()
            .flat_map(|&mirror| (0..turns).map(move |turns| Orientation { turns, mirror }))
            .collect()
    }
}
